import { RENTAL_BOOKING_RETENTION_YEARS } from '../../app/lib/retention.ts';
import { forgetOwners } from '../payments/ledger.ts';
import { deletedRows, monthsBefore, type PersonalData } from '../privacy/personal-data.ts';
import { reservationQuery, toDeskReservation } from './store.ts';

/** Reservations of cars for sale (server/reservations, decision 080); their refunds are the payments ledger's. */
export const reservationsPersonalData: PersonalData[] = [
  {
    table: 'car_reservations',
    personal: { user_id: 'who reserved the car', name: 'their name', phone: 'their number', email: 'their email' },
    notPersonal: { vehicle_title: "the car's title" },
    foundBy: 'user_id',
    // Every reservation, paid or not, with the contact details given for it.
    export: {
      section: 'reservations',
      gather: async ({ database, userId }) =>
        (await reservationQuery(database.db).where('car_reservations.user_id', '=', userId).orderBy('car_reservations.id').execute()).map((row) => {
          const { userId: _userId, paymentOrderId: _order, ...reservation } = toDeskReservation(row);
          return reservation;
        }),
    },
    erase: {
      action: 'anonymise',
      rows: (trx, person) =>
        trx.updateTable('car_reservations').set({ user_id: '', name: '', phone: '', email: '' }).where('user_id', '=', person.userId).execute(),
      reason: "the token paid and refunded is the dealer's accounts, kept as the rental bookings are, without who made it",
    },
    retention: `${RENTAL_BOOKING_RETENTION_YEARS} years from the day it ended`,
    // The token was money paid and refunded or counted towards a sale: the dealer's accounts,
    // kept as the rental bookings are, from the day it ended. A live one has no end.
    purge: {
      report: 'reservations',
      run: async ({ database }, now) => {
        const ended = await database.db
          .selectFrom('car_reservations')
          .select('id')
          .where('ended_at', 'is not', null)
          .where('ended_at', '<', monthsBefore(now, RENTAL_BOOKING_RETENTION_YEARS * 12).toISOString())
          .limit(1000)
          .execute();
        if (ended.length === 0) return 0;
        const ids = ended.map((row) => Number(row.id));
        // Their ledger rows go with them: the ledger names its owners by kind and id, without a foreign key.
        await forgetOwners(database.db, 'reservation', ids);
        return deletedRows(await database.db.deleteFrom('car_reservations').where('id', 'in', ids).executeTakeFirst());
      },
    },
  },
];
