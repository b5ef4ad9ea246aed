import type { BookingStatus } from '../../app/features/rentals/rentals.ts';
import type { TransitionTable } from '../transitions.ts';

/** What can happen to a rental booking after it is requested (server/rentals/lifecycle.ts, payments.ts, store.ts). */
export const BOOKING_EVENTS = ['pay', 'confirm', 'refuse', 'cancel', 'lapse', 'hand_over', 'mark_no_show', 'take_back', 'settle'] as const;
export type BookingEvent = (typeof BOOKING_EVENTS)[number];

/**
 * Every move a rental booking may make; anything else is refused. A payment keeps a requested
 * booking requested (it stops its hold lapsing); one that arrives after the hold lapsed expires
 * it, as the expiry job would. Only the renter cancels, and only before the handover.
 */
export const BOOKING_TRANSITIONS: TransitionTable<BookingStatus, BookingEvent> = [
  { from: 'requested', event: 'pay', to: 'requested', by: 'gateway' },
  { from: 'requested', event: 'confirm', to: 'confirmed', by: 'desk' },
  { from: 'requested', event: 'refuse', to: 'refused', by: 'desk' },
  { from: 'requested', event: 'cancel', to: 'cancelled', by: 'customer' },
  { from: 'requested', event: 'lapse', to: 'expired', by: 'system' },
  { from: 'requested', event: 'lapse', to: 'expired', by: 'gateway' },
  { from: 'confirmed', event: 'cancel', to: 'cancelled', by: 'customer' },
  { from: 'confirmed', event: 'hand_over', to: 'active', by: 'desk' },
  { from: 'confirmed', event: 'mark_no_show', to: 'no_show', by: 'desk' },
  { from: 'active', event: 'take_back', to: 'returned', by: 'desk' },
  { from: 'returned', event: 'settle', to: 'closed', by: 'desk' },
];
