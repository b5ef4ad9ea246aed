/**
 * Test-drive rules shared by the server, the pages and the API: slot times, the booking
 * window, where a test drive may go and the texts. Times a person sees or types (URLs, the API's `start`) are
 * India Standard Time, written 'YYYY-MM-DDTHH:MM'; the database keeps the UTC instant.
 */

import { servedAreaProblem, type ServiceArea } from '../../lib/service-areas.ts';
import { dateLocale, formatClock } from '../../lib/format.ts';
import { addDays, indiaDay, parseIndiaDate, parseIndiaDateTime } from '../../lib/india-time.ts';
import { testDriveText as t } from './test-drive-texts.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/** Every slot lasts one hour and starts on the hour (decision 025: why it is not a setting). */
export const TEST_DRIVE_SLOT_MINUTES = 60;

export const TEST_DRIVE_MODES = ['hub', 'home'] as const;
export type TestDriveMode = (typeof TEST_DRIVE_MODES)[number];

export const TEST_DRIVE_STATUSES = ['booked', 'confirmed', 'done', 'no_show', 'cancelled'] as const;
export type TestDriveStatus = (typeof TEST_DRIVE_STATUSES)[number];

/** A test drive as its owner, the desk and the messages read it (server/test-drives/test-drives.ts makes it from a row). */
export type TestDrive = {
  id: number;
  vehicleId: number | null;
  vehicleTitle: string;
  mode: TestDriveMode;
  pinCode: string;
  /** A home test drive's house or flat, street and area, and its optional landmark (decision 097); '' at the hub. */
  street: string;
  landmark: string;
  /** India time, 'YYYY-MM-DDTHH:MM'. */
  slot: string;
  status: TestDriveStatus;
  createdAt: string;
};
/** Bookings the customer may still change or cancel, and the reminder goes to. */
export const UPCOMING_STATUSES = ['booked', 'confirmed'] as const satisfies readonly TestDriveStatus[];

/** Each label is read when it is shown, in the language of that moment (decision 087). */
export const STATUS_LABELS: Readonly<Record<TestDriveStatus, string>> = liveTexts(t, {
  booked: 'statusBooked',
  confirmed: 'statusConfirmed',
  done: 'statusDone',
  no_show: 'statusNoShow',
  cancelled: 'statusCancelled',
});

export const MODE_LABELS: Readonly<Record<TestDriveMode, string>> = liveTexts(t, { hub: 'modeHub', home: 'modeHome' });

/**
 * The slot grid of a kind of appointment (test drives, inspections: server/appointments/kinds.ts
 * says which settings give each), as the server, the pages and the API read it.
 */
export type SlotRules = {
  /** Whole hours, India time: the first slot starts at `openingHour`, the last ends at `closingHour`. */
  openingHour: number;
  closingHour: number;
  /** How long a slot lasts; slots follow each other from the opening hour. Whole hours today (parseSlot's grid). */
  slotMinutes: number;
  /** Bookings the team can run in one slot. */
  capacity: number;
  /** No slot starts sooner than this after now. */
  leadHours: number;
  /** Today and this many days after it. */
  daysAhead: number;
};

export const DEFAULT_TEST_DRIVE_RULES: SlotRules = {
  openingHour: 10,
  closingHour: 19,
  slotMinutes: TEST_DRIVE_SLOT_MINUTES,
  capacity: 2,
  leadHours: 2,
  daysAhead: 6,
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

const two = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DDTHH:MM' (India time) when `text` is exactly such a real moment on the hour grid, else null. */
export function parseSlot(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match || !parseIndiaDate(match[1])) return null;
  const hour = Number(match[2]);
  const minute = Number(match[3]);
  if (hour > 23 || minute !== 0) return null;
  return text;
}

/** The UTC instant a slot written in India time begins. */
export function slotInstant(slot: string): Date {
  return new Date(parseIndiaDateTime(slot) ?? Number.NaN);
}

/** The days one can book: today (India time) and `daysAhead` more. */
export function bookableDays(nowMs: number, rules: SlotRules): string[] {
  const today = indiaDay(nowMs);
  return Array.from({ length: rules.daysAhead + 1 }, (_, index) => addDays(today, index));
}

/** The slots of `date` one may still book at `nowMs`: within opening hours, in the window, at least `leadHours` ahead. */
export function daySlots(date: string, nowMs: number, rules: SlotRules): string[] {
  if (!bookableDays(nowMs, rules).includes(date)) return [];
  const earliest = nowMs + rules.leadHours * HOUR_MS;
  const slots: string[] = [];
  for (let minute = rules.openingHour * 60; minute + rules.slotMinutes <= rules.closingHour * 60; minute += rules.slotMinutes) {
    const slot = `${date}T${two(Math.floor(minute / 60))}:${two(minute % 60)}`;
    if (slotInstant(slot).getTime() >= earliest) slots.push(slot);
  }
  return slots;
}

/** Whether `slot` starts before the opening hour or ends after the closing hour. */
export function outsideHours(slot: string, rules: Pick<SlotRules, 'openingHour' | 'closingHour' | 'slotMinutes'>): boolean {
  const start = Number(slot.slice(11, 13)) * 60 + Number(slot.slice(14, 16));
  return start < rules.openingHour * 60 || start + rules.slotMinutes > rules.closingHour * 60;
}

/** Why `slot` cannot be booked at `nowMs` under `rules`, or null when it can. */
export function slotProblem(slot: string, nowMs: number, rules: SlotRules): string | null {
  const date = slot.slice(0, 10);
  if (!bookableDays(nowMs, rules).includes(date)) return testDriveMessages.outsideWindow(rules.daysAhead);
  if (outsideHours(slot, rules)) return testDriveMessages.outsideHours(rules);
  if (slotInstant(slot).getTime() < nowMs + rules.leadHours * HOUR_MS) return testDriveMessages.tooSoon(rules.leadHours);
  return null;
}

/** 10 -> '10:00 am', 13 -> '1:00 pm' ('सुबह 10:00', 'दोपहर 1:00' in Hindi): a slot's hour, through the site's one clock. */
export function hourLabel(hour: number): string {
  return formatClock(hour);
}

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(dateLocale(), { weekday: 'short', timeZone: 'UTC' });
const dayMonth = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString(dateLocale(), { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** '2026-12-01' -> 'Tue, 1 Dec' */
export function dayLabel(date: string): string {
  return `${weekday(date)}, ${dayMonth(date)}`;
}

/** '2026-12-01T10:00' -> 'Tue, 1 Dec, 10:00 am' */
export function slotLabel(slot: string): string {
  return `${dayLabel(slot.slice(0, 10))}, ${hourLabel(Number(slot.slice(11, 13)))}`;
}

/** '2026-12-01T10:00' -> '10:00 am – 11:00 am' */
export function slotTimeRange(slot: string): string {
  const hour = Number(slot.slice(11, 13));
  return `${hourLabel(hour)} – ${hourLabel(hour + 1)}`;
}

export function remainingLabel(remaining: number): string {
  return remaining <= 0 ? t('full') : t('left', { count: remaining });
}

/**
 * Every sentence the booking says to a person, in one place for the pages, the API and the tests;
 * each is read when it is said, in the language of that moment (decision 087).
 */
export const testDriveMessages = Object.assign(
  liveTexts(t, [
    'signInFirst',
    'verifyPhoneFirst',
    'vehicleNotFound',
    'notForSale',
    'chooseMode',
    'slotInvalid',
    'carTaken',
    'slotFull',
    'youAreBusy',
    'notYours',
    'notChangeable',
    'booked',
    'rescheduled',
    'cancelled',
    'tooMany',
    'failed',
  ]),
  {
    outsideWindow: (daysAhead: number) => t('outsideWindow', { daysAhead }),
    outsideHours: (rules: Pick<SlotRules, 'openingHour' | 'closingHour'>) =>
      t('outsideHours', { from: hourLabel(rules.openingHour), to: hourLabel(rules.closingHour) }),
    tooSoon: (leadHours: number) => t('tooSoon', { count: leadHours }),
  },
);

/** Why a home visit cannot go to this PIN code (naming the nearest area we visit and the hub); null for the hub. */
export function homeVisitProblem(request: { mode: TestDriveMode; pinCode: string }, areas: readonly ServiceArea[], hubAddress: string): string | null {
  return request.mode === 'home' ? servedAreaProblem(request.pinCode, areas, hubAddress) : null;
}
