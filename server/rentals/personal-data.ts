import { RENTAL_BOOKING_RETENTION_YEARS } from '../../app/lib/retention.ts';
import { accountText as t } from '../../app/lib/i18n/account.ts';
import { deletedRows, monthsBefore, type PurgeDeps, type PersonalData } from '../privacy/personal-data.ts';
import { listOwnBookings } from './bookings.ts';
import { checklistsOf, eraseChecklists } from './checklists.ts';
import { forgetOwners } from '../payments/ledger.ts';
import { FINISHED_BOOKING_STATUSES } from '../../app/features/rentals/rentals.ts';
import { getLicence } from './licences.ts';

/**
 * Finished bookings past their period, in a bounded batch per run (the rest go in the next runs):
 * one still holding a car or awaiting its deposit is never purged. Their handover and return
 * photos go first, files and rows, so none is left without its booking.
 */
async function purgeFinishedBookings(deps: PurgeDeps, now: Date): Promise<number> {
  const { db } = deps.database;
  const purged = await db
    .selectFrom('rental_bookings')
    .select('id')
    .where('kind', '=', 'booking')
    .where('status', 'in', FINISHED_BOOKING_STATUSES)
    .where('ends_ms', '<', monthsBefore(now, RENTAL_BOOKING_RETENTION_YEARS * 12).getTime())
    .limit(1000)
    .execute();
  if (purged.length === 0) return 0;
  const ids = purged.map((row) => row.id);
  await eraseChecklists(deps, ids);
  // Their ledger rows (charges, payments, refunds) go with them: the ledger names its owners by kind and id, without a foreign key.
  await forgetOwners(db, 'rental-booking', ids.map(Number));
  return deletedRows(await db.deleteFrom('rental_bookings').where('id', 'in', ids).executeTakeFirst());
}

const bookingRetention = `${RENTAL_BOOKING_RETENTION_YEARS} years after a finished booking ends (decision 029)`;

/** The renter's driving licence and bookings (server/rentals). */
export const rentalsPersonalData: PersonalData[] = [
  {
    table: 'driving_licences',
    personal: {
      user_id: 'whose licence',
      number: 'the licence number',
      date_of_birth: 'their date of birth',
      front_key: "the licence's photo",
      back_key: "the licence's photo",
      refusal_reason: "the desk's reason, about the person's licence",
      reviewed_by: 'the admin who reviewed it',
    },
    foundBy: 'user_id',
    // The photos themselves stay private (the person sees them on /profile): the download says they are on file.
    export: {
      section: 'drivingLicence',
      gather: async ({ database, userId }) => {
        const licence = await getLicence(database, userId);
        if (!licence) return null;
        const { userId: _userId, ...record } = licence;
        return { ...record, photos: { front: t('photoOnFile'), back: t('photoOnFile'), note: t('licencePhotosNote') } };
      },
    },
    erase: {
      action: 'delete',
      rows: (trx, person) => trx.deleteFrom('driving_licences').where('user_id', '=', person.userId).execute(),
      files: async (database, person) => {
        const licence = await database.db
          .selectFrom('driving_licences')
          .select(['front_key', 'back_key'])
          .where('user_id', '=', person.userId)
          .executeTakeFirst();
        return async ({ privateStorage }) => {
          if (licence && privateStorage) await Promise.allSettled([licence.front_key, licence.back_key].map((key) => privateStorage.delete(key)));
        };
      },
    },
  },
  {
    table: 'rental_bookings',
    personal: {
      user_id: 'who booked',
      pin_code: 'the delivery PIN code',
      delivery_address: 'where a delivered car goes',
      note: "the desk's note, which may name the person",
      created_by: 'the admin who made a block',
      invoice: "the tax invoice issued at the settlement, naming the renter (name, phone): kept as issued, as the dealer's GST record (decision 119)",
    },
    foundBy: 'user_id',
    export: {
      section: 'rentalBookings',
      gather: async ({ database, userId }) =>
        Promise.all(
          (await listOwnBookings(database, userId, { all: true })).map(async (booking) => ({
            id: booking.id,
            vehicleId: booking.vehicleId,
            car: booking.carName,
            status: booking.status,
            from: booking.from,
            to: booking.to,
            pickup: booking.pickup,
            pinCode: booking.pinCode || null,
            quote: booking.quote,
            paymentMethod: booking.paymentMethod,
            amountPaid: booking.amountPaid,
            amountRefunded: booking.amountRefunded,
            odometerOut: booking.odometerOut,
            odometerIn: booking.odometerIn,
            returnedAt: booking.returnedAt,
            charges: booking.charges,
            depositRefund: booking.depositRefund,
            invoiceNumber: booking.invoice?.number ?? null,
            createdAt: booking.createdAt,
            // The handover and return readings and what each photo shows; the photos stay private, as the licence's.
            checklists: Object.values(await checklistsOf(database, booking.id))
              .filter((record) => record !== null)
              .map((record) => ({
                stage: record.stage,
                odometer: record.odometer,
                fuelEighths: record.fuel,
                recordedAt: record.recordedAt,
                photos: record.photos.map(({ item, note, isNew, charge }) => ({ item, note, newDamage: isNew, charge, photo: 'on file' })),
              })),
          })),
        ),
    },
    // Kept for the dealer's accounts (decision 029), without the person: no account, no delivery PIN code or address, no desk note.
    erase: {
      action: 'anonymise',
      rows: (trx, person) =>
        trx.updateTable('rental_bookings').set({ user_id: null, pin_code: '', delivery_address: '', note: '' }).where('user_id', '=', person.userId).execute(),
      reason: "the dealer's accounts (decision 029); an account with a booking in progress cannot be deleted",
    },
    retention: bookingRetention,
    purge: { report: 'rentalBookings', run: purgeFinishedBookings },
  },
  {
    table: 'rental_checklists',
    personal: { photos: "the car's photos at handover and return, with the desk's notes", recorded_by: 'the admin who recorded it' },
    foundBy: 'booking_id, through rental_bookings',
    export: { within: 'rentalBookings' },
    erase: { action: 'keep', reason: 'the state of the car, kept and purged with its anonymised booking' },
    retention: bookingRetention,
  },
];
