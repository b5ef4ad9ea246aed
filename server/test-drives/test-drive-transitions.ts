import type { TestDriveStatus } from '../../app/features/appointments/test-drives.ts';
import type { TransitionTable } from '../transitions.ts';

/** What can happen to a test drive once booked (server/test-drives/test-drives.ts). */
export const TEST_DRIVE_EVENTS = ['confirm', 'mark_done', 'mark_no_show', 'reschedule', 'cancel'] as const;
export type TestDriveEvent = (typeof TEST_DRIVE_EVENTS)[number];

/**
 * Every move a test drive may make (decision 105); anything else is refused. The desk corrects
 * what happened either way (a no-show who came late is done after all, a drive marked done by
 * mistake a no-show); it cancels only an upcoming one, as the buyer does. A buyer's move asks the
 * desk to confirm again; the desk's own move is confirmed. Whether the slot has begun (upcoming)
 * is checked beside the table, by the appointments module.
 */
export const TEST_DRIVE_TRANSITIONS: TransitionTable<TestDriveStatus, TestDriveEvent> = [
  { from: 'booked', event: 'confirm', to: 'confirmed', by: 'desk' },
  { from: 'booked', event: 'mark_done', to: 'done', by: 'desk' },
  { from: 'confirmed', event: 'mark_done', to: 'done', by: 'desk' },
  { from: 'no_show', event: 'mark_done', to: 'done', by: 'desk' },
  { from: 'booked', event: 'mark_no_show', to: 'no_show', by: 'desk' },
  { from: 'confirmed', event: 'mark_no_show', to: 'no_show', by: 'desk' },
  { from: 'done', event: 'mark_no_show', to: 'no_show', by: 'desk' },
  { from: 'booked', event: 'cancel', to: 'cancelled', by: 'desk' },
  { from: 'confirmed', event: 'cancel', to: 'cancelled', by: 'desk' },
  { from: 'booked', event: 'cancel', to: 'cancelled', by: 'customer' },
  { from: 'confirmed', event: 'cancel', to: 'cancelled', by: 'customer' },
  { from: 'booked', event: 'reschedule', to: 'booked', by: 'customer' },
  { from: 'confirmed', event: 'reschedule', to: 'booked', by: 'customer' },
  { from: 'booked', event: 'reschedule', to: 'confirmed', by: 'desk' },
  { from: 'confirmed', event: 'reschedule', to: 'confirmed', by: 'desk' },
];
