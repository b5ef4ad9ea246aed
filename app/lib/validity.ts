/**
 * How far a car's paper (insurance, fitness, PUC) is from running out, said beside its date: a
 * buyer must see at once that a date in the past means the paper has lapsed. Dates are India's
 * calendar days; `today` comes from the server's clock through the loader, so the server's HTML
 * and the hydrated page say the same.
 */

import { paperValidityText as t } from './i18n/paperValidity.ts';

/** Within this many days a paper is about to run out, and the page says so. */
export const EXPIRES_SOON_DAYS = 30;

export type Validity = { state: 'expired' | 'soon'; label: string } | null;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The last valid day ('YYYY-MM-DD') of a paper as the dealer typed it: an ISO date, or a month
 * and year ("Valid till Jul 2036" is valid to the month's end); null when it is not a date.
 */
export function lastValidDay(value: string | null | undefined): string | null {
  if (!value) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const monthYear = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{4})\b/i.exec(value);
  if (!monthYear) return null;
  const month = MONTHS.indexOf(monthYear[1]!.toLowerCase());
  const year = Number(monthYear[2]);
  const end = new Date(Date.UTC(year, month + 1, 0));
  return end.toISOString().slice(0, 10);
}

/** "Expired", "Expires today", "Expires in N days" (within 30 days), or null while it runs longer. */
export function validityOf(value: string | null | undefined, today: string): Validity {
  const last = lastValidDay(value);
  if (!last) return null;
  const days = Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (Number.isNaN(days)) return null;
  if (days < 0) return { state: 'expired', label: t('validityExpired') };
  if (days === 0) return { state: 'soon', label: t('validityToday') };
  if (days <= EXPIRES_SOON_DAYS) return { state: 'soon', label: t('validityInDays', { count: days }) };
  return null;
}
