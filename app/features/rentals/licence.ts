/**
 * The driving-licence rules the profile page, the API and the server share: what a licence
 * number and a date of birth must look like, and the texts a renter reads about the review.
 */

import { licenceText as t } from './licence-texts.ts';

export type LicenceStatus = 'pending' | 'approved' | 'refused';
export type LicenceSide = 'front' | 'back';
export const LICENCE_SIDES: readonly LicenceSide[] = ['front', 'back'];

/** Indian licences are 15–16 characters (state, RTO, year, number); older ones differ, so the check is loose. */
export const LICENCE_NUMBER_MIN = 6;
export const LICENCE_NUMBER_MAX = 20;
/** Nobody under 18 holds a licence for a car in India; the car's own minimum age is checked when booking. */
export const MIN_LICENCE_HOLDER_AGE = 18;
export const MAX_REFUSAL_REASON = 500;

export function licenceStatusText(): Record<LicenceStatus, string> {
  return { pending: t('statusPending'), approved: t('statusApproved'), refused: t('statusRefused') };
}

export function licenceSaved(): string {
  return t('saved');
}

export function licenceApprovedLocked(): string {
  return t('approvedLocked');
}

/** 'dl-14 2011 0012345' -> 'DL1420110012345', or null when it cannot be a licence number. */
export function parseLicenceNumber(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const compact = value.toUpperCase().replace(/[\s\-/.]/g, '');
  if (compact.length < LICENCE_NUMBER_MIN || compact.length > LICENCE_NUMBER_MAX) return null;
  if (!/^[A-Z]{2}[A-Z0-9]+$/.test(compact) || !/\d{4}/.test(compact)) return null;
  return compact;
}

/** A real calendar date 'YYYY-MM-DD', or null. */
export function parseIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return value.trim();
}

/** Whole years between a 'YYYY-MM-DD' birth date and `today` ('YYYY-MM-DD', app/features/rentals/rentals.ts `indiaDay`); null when the birth date is not a real date. */
export function ageOn(dateOfBirth: string, today: string): number | null {
  if (parseIsoDate(dateOfBirth) === null) return null;
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export type LicenceFieldErrors = Partial<Record<'number' | 'dateOfBirth' | 'front' | 'back', string>>;
