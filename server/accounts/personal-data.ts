import { cardTitle } from '../../app/lib/vehicle.ts';
import { deletedRows, type PersonalData } from '../privacy/personal-data.ts';
import { listWishlist } from './wishlist.ts';

/** The profile, the wishlist and the phone codes (server/accounts). */
export const accountsPersonalData: PersonalData[] = [
  {
    table: 'profiles',
    personal: {
      user_id: 'whose profile',
      email: 'their email',
      name: 'their name',
      photo_url: 'their picture',
      phone: 'their phone number',
      phone_verified: 'whether they proved it is theirs',
    },
    foundBy: 'user_id',
    export: { section: 'profile', gather: async ({ profile }) => profile },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('profiles').where('user_id', '=', person.userId).execute() },
  },
  {
    table: 'wishlist_entries',
    personal: { user_id: 'whose wishlist' },
    notPersonal: { title: "the car's title when it was saved" },
    foundBy: 'user_id',
    export: {
      section: 'wishlist',
      gather: async ({ database, userId }) =>
        (await listWishlist(database, userId)).map((item) =>
          item.available
            ? {
                vehicleId: item.vehicle.id,
                title: cardTitle(item.vehicle),
                name: item.vehicle.name,
                year: item.vehicle.year,
                price: item.vehicle.price,
                available: true,
                addedAt: item.addedAt,
              }
            : { vehicleId: item.vehicleId, title: item.title, available: false, addedAt: item.addedAt },
        ),
    },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('wishlist_entries').where('user_id', '=', person.userId).execute() },
  },
  {
    table: 'phone_otps',
    personal: { user_id: 'who asked for the code', phone: 'the number it was sent to', code_hash: 'the code, hashed' },
    foundBy: 'user_id',
    export: { omitted: 'codes live ten minutes; the verified number is in the profile' },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('phone_otps').where('user_id', '=', person.userId).execute() },
    retention: 'until the code expires (OTP_TTL_MS, ten minutes)',
    // Once expired a code can never be used again.
    purge: {
      report: 'phoneOtps',
      run: async ({ database }, now) => deletedRows(await database.db.deleteFrom('phone_otps').where('expires_at', '<', now.toISOString()).executeTakeFirst()),
    },
  },
];
