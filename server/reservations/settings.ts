import { z } from 'zod';
import { declareSettings, say } from '../settings/declarations.ts';

/** Reserving a car for sale with a refundable token (decision 080): ₹5,000 for 72 hours unless the admin says otherwise. */
export const reservationSettings = declareSettings('reservations', {
  /** The token in whole rupees, fully refunded on cancellation or expiry. */
  reservationAmount: {
    schema: z.coerce.number(say('reservationNumber')).int(say('reservationWhole')).min(500, say('reservationRange')).max(100_000, say('reservationRange')),
    default: 5000,
    label: 'reservationAmountLabel',
  },
  /** How long a paid reservation holds the car. */
  reservationHoldHours: {
    schema: z.coerce.number(say('holdNumber')).int(say('holdWhole')).min(1, say('holdRange')).max(336, say('holdRange')),
    default: 72,
    label: 'reservationHoldHoursLabel',
  },
});
