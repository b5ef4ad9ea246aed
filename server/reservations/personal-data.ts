import { RENTAL_BOOKING_RETENTION_YEARS } from '../../app/lib/retention.ts';
import type { PersonalData } from '../privacy/personal-data.ts';
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
      rows: (trx, person) => trx.updateTable('car_reservations').set({ user_id: '', name: '', phone: '', email: '' }).where('user_id', '=', person.userId).execute(),
      reason: "the token paid and refunded is the dealer's accounts, kept as the rental bookings are, without who made it",
    },
    retention: `${RENTAL_BOOKING_RETENTION_YEARS} years from the day it ended`,
  },
];
