/**
 * India time, the one home of it (safe on the server and in the browser). The business runs on
 * India Standard Time, UTC+05:30 all year (India has no daylight saving), so a moment is
 * converted by adding the offset and reading the UTC fields: no time-zone database needed.
 *
 * How times are written:
 * - a moment in answers: ISO 8601 with the offset, `2026-12-01T10:00:00+05:30` (indiaIso);
 * - a moment in URLs and forms: India time without offset, `2026-12-01T10:00`
 *   (indiaDateTimeParam, parseIndiaDateTime);
 * - a day: `2026-12-01` (indiaDay, parseIndiaDate, addDays); a month: `2026-12`.
 * Formatting for people (month names, am/pm, Hindi) is in format.ts, with INDIA_TIME_ZONE.
 */

/** For Intl formatters: the zone every date and time a person reads is shown in. */
export const INDIA_TIME_ZONE = 'Asia/Kolkata';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** India Standard Time's offset from UTC. */
const IST_OFFSET_MS = 330 * MINUTE_MS;

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * `2026-12-01T10:00` read as India time, to epoch milliseconds; null for anything else
 * (seconds, an offset, an impossible date such as 2026-02-30, a year outside 2000–2999).
 */
export function parseIndiaDateTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (year < 2000 || year > 2999 || month < 1 || month > 12 || hour > 23 || minute > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(utc);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  return utc - IST_OFFSET_MS;
}

/** 'YYYY-MM-DD' when `text` is exactly a real calendar date, else null. */
export function parseIndiaDate(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? text : null;
}

/** A moment (epoch milliseconds, or anything Date reads) as URLs and forms write India time: `2026-12-01T10:00`. */
export function indiaDateTimeParam(moment: number | string | Date): string {
  return new Date(new Date(moment).getTime() + IST_OFFSET_MS).toISOString().slice(0, 16);
}

/** Epoch milliseconds as answers give them: `2026-12-01T10:00:00+05:30`. */
export function indiaIso(ms: number): string {
  const utc = new Date(ms + IST_OFFSET_MS).toISOString();
  // Milliseconds only when there are some: booking times stay `…T10:00:00+05:30`, while a record's
  // time keeps its precision (two edits within a second still come in order).
  const millis = utc.slice(19, 23) === '.000' ? '' : utc.slice(19, 23);
  return `${utc.slice(0, 19)}${millis}+05:30`;
}

/** The first moment (epoch milliseconds) of the India calendar day a moment falls on. */
export function indiaDayStart(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

/** The first moment (epoch milliseconds) of an India calendar date (`2026-12-01`, or year, month 1–12, day). */
export function indiaMidnight(date: string): number;
export function indiaMidnight(year: number, month: number, day: number): number;
export function indiaMidnight(dateOrYear: string | number, month = 1, day = 1): number {
  if (typeof dateOrYear === 'string') return Date.parse(`${dateOrYear}T00:00:00Z`) - IST_OFFSET_MS;
  return Date.UTC(dateOrYear, month - 1, day) - IST_OFFSET_MS;
}

/** The India calendar day (`2026-12-01`) a moment falls on. */
export function indiaDay(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The India calendar month (`2026-12`) a moment falls on. */
export function indiaMonth(ms: number): string {
  return indiaDay(ms).slice(0, 7);
}

/** The India calendar year a moment falls in. */
export function indiaYear(ms: number): number {
  return Number(indiaDay(ms).slice(0, 4));
}

/** The day of the week in India at a moment: 0 Sunday … 6 Saturday. */
export function indiaWeekday(ms: number): number {
  return new Date(ms + IST_OFFSET_MS).getUTCDay();
}

/** `date` (`2026-12-01`) moved by whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole India calendar days from the day of `fromMs` to the day of `toMs`: 0 the same day, 1 the next. */
export function indiaDaysBetween(fromMs: number, toMs: number): number {
  return Math.round((indiaDayStart(toMs) - indiaDayStart(fromMs)) / DAY_MS);
}

/**
 * `2026-12` to the month's first moment and the next month's first moment in India time
 * (epoch milliseconds); null for anything else.
 */
export function parseIndiaMonth(value: unknown): { fromMs: number; toMs: number } | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < 2000 || year > 2999 || month < 1 || month > 12) return null;
  return { fromMs: indiaMidnight(year, month, 1), toMs: indiaMidnight(year, month + 1, 1) };
}
