/**
 * What the rental pages show, shared by the pages and the desk: India-time dates for people,
 * the month calendar of a car, the range a page was asked for, the WhatsApp text. The rules
 * themselves (quote, refunds) are app/features/rentals/rental-price.ts.
 */
import { formatIndiaDateTime, indiaDateFormat } from '../../lib/format.ts';
import { rentText as t } from './rent-texts.ts';
import { HOUR_MS } from './rental-price.ts';
import { indiaDateTimeParam, indiaDayStart, indiaMidnight, INDIA_TIME_ZONE, parseIndiaDateTime } from '../../lib/india-time.ts';

const DAY_MS = 24 * HOUR_MS;

const dayFormat = indiaDateFormat({ weekday: 'short', day: 'numeric', month: 'short', timeZone: INDIA_TIME_ZONE });
const monthFormat = indiaDateFormat({ month: 'long', year: 'numeric', timeZone: INDIA_TIME_ZONE });

export function formatIndiaDay(ms: number): string {
  return dayFormat.format(ms);
}

/** 'Tue, 1 Dec, 10:00 am → Thu, 3 Dec, 1:00 pm' */
export function formatRange(from: number | string, to: number | string): string {
  return `${formatIndiaDateTime(from)} → ${formatIndiaDateTime(to)}`;
}

// The quote's lines say the hours too, so the rule lives beside the price.
export { formatHours } from './rental-price.ts';

/** The range a rental page was opened for, from its `from` and `to` parameters. */
export type AskedRange = { from: string; to: string; fromMs: number; toMs: number };

/** The pickup and return as typed in the URL, cut to the picker's length (16 characters): to pass on to another page. */
export function typedRange(params: URLSearchParams): { from: string; to: string } {
  return { from: (params.get('from') ?? '').slice(0, 16), to: (params.get('to') ?? '').slice(0, 16) };
}

/** What the pickers show: the dates typed when both can be read (even reversed or refused, so only the wrong part needs changing), else a suggestion. */
export function pickerRange(params: URLSearchParams, nowMs: number): { from: string; to: string } {
  const typed = typedRange(params);
  return parseIndiaDateTime(typed.from) !== null && parseIndiaDateTime(typed.to) !== null ? typed : suggestedRange(nowMs);
}

/** A suggested range for empty pickers: tomorrow 10:00 to the day after, 10:00 (India time). */
export function suggestedRange(nowMs: number): { from: string; to: string } {
  const todayStart = indiaDayStart(nowMs);
  const from = todayStart + DAY_MS + 10 * HOUR_MS;
  return { from: indiaDateTimeParam(from), to: indiaDateTimeParam(from + DAY_MS) };
}

/** '2026-12' -> '2027-01' (delta +1) or '2026-11' (delta -1). */
export function shiftMonth(month: string, delta: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, m - 1 + delta, 1));
  return date.toISOString().slice(0, 7);
}

export function monthTitle(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return monthFormat.format(Date.UTC(year, m - 1, 15));
}

export type CalendarDay = { day: number; date: string; state: 'free' | 'part' | 'taken' | 'past' } | null;

/**
 * The month's days in weeks (Monday first; null pads the first and last week), each free,
 * partly taken, taken the whole day, or past, from the car's taken ranges.
 */
export function monthCalendar(month: string, taken: Array<{ fromMs: number; toMs: number }>, nowMs: number): CalendarDay[][] {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const first = Date.UTC(year, m - 1, 1);
  const days = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const cells: CalendarDay[] = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= days; day++) {
    const start = indiaMidnight(year, m, day);
    const end = start + DAY_MS;
    let covered = 0;
    for (const range of taken) covered += Math.max(0, Math.min(end, range.toMs) - Math.max(start, range.fromMs));
    const state = end <= nowMs ? 'past' : covered >= DAY_MS ? 'taken' : covered > 0 ? 'part' : 'free';
    cells.push({ day, date: `${month}-${String(day).padStart(2, '0')}`, state });
  }
  while (cells.length % 7) cells.push(null);
  const weeks: CalendarDay[][] = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return weeks;
}

/** What a visitor says on WhatsApp from a rental car's page: which car and which dates. */
export function rentalEnquiryText(carName: string, range: { fromMs: number; toMs: number } | null, pageUrl: string): string {
  const when = range ? t('enquiryWhen', { from: formatIndiaDateTime(range.fromMs), to: formatIndiaDateTime(range.toMs) }) : '';
  return `${t('enquiryText', { car: carName, when })}\n${pageUrl}`;
}
