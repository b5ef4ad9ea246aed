import type { ReservationStatus } from '../../app/features/reservations/reservations.ts';
import type { TransitionTable } from '../transitions.ts';

/** What can happen to a car reservation once started (server/reservations/reservations.ts). */
export const RESERVATION_EVENTS = ['pay', 'taken', 'lapse', 'cancel', 'extend', 'expire', 'convert'] as const;
export type ReservationEvent = (typeof RESERVATION_EVENTS)[number];

/**
 * Every move a car reservation may make; anything else is refused. The token's payment makes it
 * active even after its pay window lapsed, while the car is still free; a payment that finds the
 * car taken is refunded and leaves a pending reservation lapsed. A pending one the buyer cancels
 * (or whose order could not be made) lapses: nothing was paid. Extending keeps it active.
 */
export const RESERVATION_TRANSITIONS: TransitionTable<ReservationStatus, ReservationEvent> = [
  { from: 'pending', event: 'pay', to: 'active', by: 'gateway' },
  { from: 'lapsed', event: 'pay', to: 'active', by: 'gateway' },
  { from: 'pending', event: 'taken', to: 'lapsed', by: 'gateway' },
  { from: 'pending', event: 'lapse', to: 'lapsed', by: 'system' },
  { from: 'pending', event: 'cancel', to: 'lapsed', by: 'customer' },
  { from: 'active', event: 'cancel', to: 'cancelled', by: 'customer' },
  { from: 'active', event: 'cancel', to: 'cancelled', by: 'desk' },
  { from: 'active', event: 'extend', to: 'active', by: 'desk' },
  { from: 'active', event: 'expire', to: 'expired', by: 'system' },
  { from: 'active', event: 'convert', to: 'converted', by: 'desk' },
];
