import type { Settings } from '../admin/settings.ts';
import type { UniqueRule } from '../db/unique-rules.ts';
import {
  hourLabel,
  TEST_DRIVE_MODES,
  TEST_DRIVE_SLOT_MINUTES,
  testDriveMessages,
  type SlotRules,
  type TestDriveMode,
} from '../../app/features/appointments/test-drives.ts';
import { sellText } from '../../app/features/sell/sell-texts.ts';
import { inspectionMessages } from '../../app/features/appointments/inspection-schemas.ts';

/**
 * The kinds of appointment the dealer keeps (decision 107), each with its rules: where it may be
 * (the hub, the person's home), which settings give its opening hours, slot length, notice, days
 * ahead and how many run in one slot, the database's unique rules that hold its seats with what
 * each refusal says, how many one person may hold, and when its reminder goes out. The engine
 * (appointments.ts) reads nothing else about a kind, so a new one (a rental car's delivery or
 * return) is a table with the shared columns and one more entry here.
 */

/** The tables that hold appointments: the columns of VisitBookingColumns in schema.ts. */
export type AppointmentTable = 'test_drives' | 'inspections';

export type AppointmentKind<Table extends AppointmentTable = AppointmentTable, Rule extends string = string> = {
  table: Table;
  /** Where a visit of this kind may take place, and what a request for elsewhere is told. */
  modes: readonly TestDriveMode[];
  chooseMode: () => string;
  /** The slot grid and the capacity in force, from the admin's settings. */
  rules: (settings: Settings) => SlotRules;
  /** The unique indexes of the table: `seat` is the slot's seat (capacity); the others are refused with their own words. */
  seats: Record<Rule | 'seat', UniqueRule>;
  /** What to say when a rule other than the seat's is broken, read when said: in the asker's language. */
  refusals: Record<Rule, () => string>;
  slotFull: () => string;
  /** What to say when a booking stopped being upcoming (begun, done, cancelled) before a change. */
  notChangeable: () => string;
  /** The kind's words for a time outside its hours; the test drives' by default. */
  outsideHours?: (rules: SlotRules) => string;
  /** Upcoming bookings one person may hold at once (null: no limit but one per slot), with its refusal. */
  maxUpcoming: { count: number; refusal: () => string } | null;
  /** The reminder goes out when the slot starts within this long. */
  reminderBeforeMs: number;
};

const HOUR_MS = 60 * 60 * 1000;

/** Test drives (decision 025, migration 007): one booking per car and per person at a time. */
export const TEST_DRIVE: AppointmentKind<'test_drives', 'vehicle' | 'user'> = {
  table: 'test_drives',
  modes: TEST_DRIVE_MODES,
  chooseMode: () => testDriveMessages.chooseMode,
  rules: (settings) => ({
    openingHour: settings.testDriveOpeningHour,
    // A closing hour not after the opening hour offers no slot.
    closingHour: Math.max(settings.testDriveOpeningHour, settings.testDriveClosingHour),
    slotMinutes: TEST_DRIVE_SLOT_MINUTES,
    capacity: settings.testDriveCapacity,
    leadHours: settings.testDriveLeadHours,
    daysAhead: settings.testDriveDaysAhead,
  }),
  seats: {
    seat: { constraint: 'test_drives_seat_uq', column: 'seat' },
    vehicle: { constraint: 'test_drives_vehicle_slot_uq', column: 'vehicle_id' },
    user: { constraint: 'test_drives_user_slot_uq', column: 'user_id' },
  },
  refusals: { vehicle: () => testDriveMessages.carTaken, user: () => testDriveMessages.youAreBusy },
  slotFull: () => testDriveMessages.slotFull,
  notChangeable: () => testDriveMessages.notChangeable,
  maxUpcoming: null,
  // Time to set out for the hub, or to be home for the car.
  reminderBeforeMs: HOUR_MS,
};

/**
 * Upcoming inspections one person may hold at once. A seller brings one car, two at most (a
 * family's second car); three leaves room for that and a spare, and stops one account from
 * taking a week's slots (an outside probe booked 35 of 40 from one account through the page).
 */
export const MAX_UPCOMING_INSPECTIONS = 3;

/**
 * Inspections of a seller's car (decision 081, migration 025): their own hours and capacity, the
 * test drives' notice and days ahead and one-hour slots; one per person at a time.
 */
export const INSPECTION: AppointmentKind<'inspections', 'user'> = {
  table: 'inspections',
  modes: TEST_DRIVE_MODES,
  chooseMode: () => inspectionMessages.chooseMode,
  rules: (settings) => ({
    openingHour: settings.inspectionOpeningHour,
    closingHour: Math.max(settings.inspectionOpeningHour, settings.inspectionClosingHour),
    slotMinutes: TEST_DRIVE_SLOT_MINUTES,
    capacity: settings.inspectionCapacity,
    leadHours: settings.testDriveLeadHours,
    daysAhead: settings.testDriveDaysAhead,
  }),
  seats: { seat: { constraint: 'inspections_seat_uq', column: 'seat' }, user: { constraint: 'inspections_user_slot_uq', column: 'user_id' } },
  refusals: { user: () => sellText('youAreBusy') },
  slotFull: () => sellText('slotFull'),
  notChangeable: () => sellText('notChangeable'),
  outsideHours: (rules) => sellText('inspectionsRun', { from: hourLabel(rules.openingHour), to: hourLabel(rules.closingHour) }),
  maxUpcoming: { count: MAX_UPCOMING_INSPECTIONS, refusal: () => sellText('tooManyUpcomingInspections', { limit: MAX_UPCOMING_INSPECTIONS }) },
  // Time to find the RC and the insurance papers.
  reminderBeforeMs: 2 * HOUR_MS,
};
