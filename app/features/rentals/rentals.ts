/**
 * Self-drive rental's shared vocabulary: booking statuses, fuel policies, hold periods, and
 * India Standard Time as URLs and requests write it (`2026-12-01T10:00`) and answers give it
 * (ISO 8601 with `+05:30`). Safe on both sides.
 */

import { indiaDateFormat } from '../../lib/format.ts';
import { INDIA_TIME_ZONE } from '../../lib/india-time.ts';
import { rentText as t } from './rent-texts.ts';
import type { Language } from '../../lib/i18n/language.ts';
import { HOUR_MS, type RentalRates } from './rental-price.ts';

/**
 * How long before the booked pickup the desk may hand a car over (docs/decisions/099): a renter
 * who comes the evening before a morning pickup takes the car then. Earlier than that is a typo.
 */
export const EARLY_HANDOVER_HOURS = 12;

export const BOOKING_STATUSES = ['requested', 'confirmed', 'active', 'returned', 'closed', 'cancelled', 'expired', 'no_show', 'refused'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Statuses in which a booking holds its car: no other booking or block may overlap it. */
export const HOLDING_STATUSES = ['requested', 'confirmed', 'active'] as const satisfies readonly BookingStatus[];
/** Bookings still in progress for the renter: holding the car, or returned with the deposit not yet settled. */
export const OPEN_BOOKING_STATUSES = [...HOLDING_STATUSES, 'returned'] as const satisfies readonly BookingStatus[];
/** Bookings that are over: nothing more happens to them. */
export const FINISHED_BOOKING_STATUSES = ['closed', 'cancelled', 'expired', 'no_show', 'refused'] as const satisfies readonly BookingStatus[];

/** Each status as people read it, in the current language (or `language`). */
export function bookingStatusLabels(language?: Language): Record<BookingStatus, string> {
  return {
    requested: t('statusRequested', {}, language),
    confirmed: t('statusConfirmed', {}, language),
    active: t('statusActive', {}, language),
    returned: t('statusReturned', {}, language),
    closed: t('statusClosed', {}, language),
    cancelled: t('statusCancelled', {}, language),
    expired: t('statusExpired', {}, language),
    no_show: t('statusNoShow', {}, language),
    refused: t('statusRefused', {}, language),
  };
}

export const FUEL_POLICIES = ['full-to-full', 'like-for-like'] as const;
export type FuelPolicy = (typeof FUEL_POLICIES)[number];
export function fuelPolicyLabels(language?: Language): Record<FuelPolicy, string> {
  return {
    'full-to-full': t('fuelFullToFull', {}, language),
    'like-for-like': t('fuelLikeForLike', {}, language),
  };
}

export const PICKUP_KINDS = ['hub', 'delivery'] as const;
export type PickupKind = (typeof PICKUP_KINDS)[number];

export const PAYMENT_METHODS = ['pay-at-pickup', 'razorpay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** An unpaid online booking holds the car this long, waiting for the payment. */
export const ONLINE_HOLD_MS = 30 * 60 * 1000;
/** A pay-at-pickup booking the desk has not confirmed holds the car this long. */
export const PICKUP_HOLD_MS = 24 * HOUR_MS;

/** Fuel level at handover and return, in eighths of a tank (0 empty … 8 full). */
export const FUEL_EIGHTHS_MAX = 8;

/** Rupee amounts and counts the rental terms accept (whole numbers, no more than this). */
const MAX_RUPEES = 10_000_000;

/**
 * What the admin enters as a fleet car's terms, as plain values (numbers, or numeric text from
 * a form). The server validates with it again; the admin form shows its messages per field.
 */
export type RentalTermsInput = RentalRates & {
  fuelPolicy: FuelPolicy;
  minAge: number;
  seats: number;
  commercialRegistration: boolean;
  deliveryAvailable: boolean;
};

type TermsFieldRule = { min: number; max: number; optional?: boolean };

/** Each numeric field's limits; its messages name it by `termsField_<name>` (app/features/rentals/texts/en/rent.json). */
export const RENTAL_TERMS_FIELDS = {
  hourlyRate: { min: 1, max: MAX_RUPEES },
  dailyRate: { min: 1, max: MAX_RUPEES },
  weeklyRate: { min: 1, max: MAX_RUPEES, optional: true },
  kmPerDay: { min: 1, max: 10_000, optional: true },
  extraKmRate: { min: 0, max: 10_000 },
  deposit: { min: 0, max: MAX_RUPEES },
  minAge: { min: 18, max: 80 },
  minHours: { min: 1, max: 720 },
  seats: { min: 1, max: 20 },
} as const satisfies Record<string, TermsFieldRule>;

export const DEFAULT_MIN_AGE = 21;
export const DEFAULT_MIN_HOURS = 4;

/**
 * Reads terms from plain values (a JSON body or a form's strings: '' for an optional field
 * means none; a checkbox is true when 'on', 'true' or true). Returns the terms or the message
 * of each field that is wrong.
 */
export function parseRentalTerms(values: Record<string, unknown>): { ok: true; terms: RentalTermsInput } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const numbers: Record<string, number | null> = {};
  for (const [name, rule] of Object.entries(RENTAL_TERMS_FIELDS) as Array<[keyof typeof RENTAL_TERMS_FIELDS, TermsFieldRule]>) {
    let raw = values[name];
    if (raw === undefined && name === 'minAge') raw = DEFAULT_MIN_AGE;
    if (raw === undefined && name === 'minHours') raw = DEFAULT_MIN_HOURS;
    const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim().replace(/[₹,\s]/g, '') : raw === null ? '' : undefined;
    if ((text === '' || raw === undefined) && rule.optional) {
      numbers[name] = null;
      continue;
    }
    const field = t(`termsField_${name}`);
    if (text === undefined || !/^\d{1,9}$/.test(text)) {
      fields[name] = text === '' || text === undefined ? t('termsRequired', { field }) : t('termsWholeNumber', { field });
      continue;
    }
    const value = Number(text);
    if (value < rule.min || value > rule.max) {
      fields[name] = t('termsBetween', { field, min: rule.min, max: rule.max });
      continue;
    }
    numbers[name] = value;
  }
  const fuelPolicy = values.fuelPolicy;
  if (typeof fuelPolicy !== 'string' || !(FUEL_POLICIES as readonly string[]).includes(fuelPolicy)) fields.fuelPolicy = t('termsFuelPolicy');
  const flag = (value: unknown) => value === true || value === 'on' || value === 'true' || value === '1';
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    terms: {
      hourlyRate: numbers.hourlyRate!,
      dailyRate: numbers.dailyRate!,
      weeklyRate: numbers.weeklyRate ?? null,
      kmPerDay: numbers.kmPerDay ?? null,
      extraKmRate: numbers.extraKmRate!,
      deposit: numbers.deposit!,
      fuelPolicy: fuelPolicy as FuelPolicy,
      minAge: numbers.minAge!,
      minHours: numbers.minHours!,
      seats: numbers.seats!,
      commercialRegistration: flag(values.commercialRegistration),
      deliveryAvailable: flag(values.deliveryAvailable),
    },
  };
}

const indiaDateTimeFormat = indiaDateFormat({
  timeZone: INDIA_TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A moment as people read it, in India time: `Tue, 1 Dec 2026, 10:00 am`. */
export function formatIndiaDateTime(ms: number): string {
  return indiaDateTimeFormat.format(new Date(ms));
}

const indiaTimeFormat = indiaDateFormat({ timeZone: INDIA_TIME_ZONE, hour: 'numeric', minute: '2-digit' });

/** The time of day of a moment, in India time: `6:00 pm`. */
export function formatIndiaTime(ms: number): string {
  return indiaTimeFormat.format(new Date(ms));
}
