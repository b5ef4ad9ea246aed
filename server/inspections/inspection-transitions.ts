import type { DeskStatus } from '../../app/features/appointments/inspection-desk.ts';
import type { TransitionTable } from '../transitions.ts';

/** What can happen to a seller's inspection once booked (server/inspections/inspections.ts, inspection-desk.ts). */
export const INSPECTION_EVENTS = ['confirm', 'mark_no_show', 'record', 'reschedule', 'cancel'] as const;
export type InspectionEvent = (typeof INSPECTION_EVENTS)[number];

/**
 * Every move an inspection may make; anything else is refused. The desk records what it found at
 * any time short of a cancel (a no-show who came after all, a record corrected); the seller moves
 * or cancels only an upcoming one, and a moved one is to be confirmed again. The time (upcoming:
 * the slot not yet begun) and an accepted offer are checked beside the table.
 */
export const INSPECTION_TRANSITIONS: TransitionTable<DeskStatus, InspectionEvent> = [
  { from: 'booked', event: 'confirm', to: 'confirmed', by: 'desk' },
  { from: 'booked', event: 'mark_no_show', to: 'no_show', by: 'desk' },
  { from: 'confirmed', event: 'mark_no_show', to: 'no_show', by: 'desk' },
  { from: 'booked', event: 'record', to: 'done', by: 'desk' },
  { from: 'confirmed', event: 'record', to: 'done', by: 'desk' },
  { from: 'done', event: 'record', to: 'done', by: 'desk' },
  { from: 'no_show', event: 'record', to: 'done', by: 'desk' },
  { from: 'booked', event: 'reschedule', to: 'booked', by: 'customer' },
  { from: 'confirmed', event: 'reschedule', to: 'booked', by: 'customer' },
  { from: 'booked', event: 'cancel', to: 'cancelled', by: 'customer' },
  { from: 'confirmed', event: 'cancel', to: 'cancelled', by: 'customer' },
];
