import { RENTAL_BOOKING_RETENTION_YEARS } from '../../app/lib/retention.ts';
import type { PersonalData } from '../privacy/personal-data.ts';

/** The payments ledger (server/payments/ledger.ts, decision 106): money, owned by a booking or a reservation, never a person directly. */
export const paymentsPersonalData: PersonalData[] = [
  {
    table: 'payment_ledger',
    personal: {},
    notPersonal: {
      reason: "a fixed code ('cancelled', 'not accepted'…), never typed by a person",
      owner_kind: 'the kind of thing paid for',
      owner_id: 'the booking or reservation paid for',
    },
    foundBy: 'owner_kind and owner_id, through rental_bookings and car_reservations',
    export: { omitted: "the booking's amountRefunded and the reservation's amountRefunded say what went back" },
    erase: { action: 'keep', reason: "the dealer's accounts, tied to an anonymised booking or reservation" },
    retention: `with its owner: ${RENTAL_BOOKING_RETENTION_YEARS} years, purged when the booking or reservation is`,
  },
];
