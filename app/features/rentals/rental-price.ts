/**
 * The one price rule of self-drive rental, in whole rupees: the quote a renter sees on /rent,
 * the booking stores and the API answers, the refund when a booking is cancelled, and the
 * charges at return. Safe on both sides; the server and the pages call the same functions.
 */

import { rentText as t } from './rent-texts.ts';
import { currentLanguage } from '../../lib/i18n/current.ts';
import type { Language } from '../../lib/i18n/language.ts';

export const HOUR_MS = 60 * 60 * 1000;

/** The terms of one car that the price depends on (server/rentals/fleet.ts reads them). */
export type RentalRates = {
  hourlyRate: number;
  dailyRate: number;
  /** Each full 7 days cost this instead of 7 daily rates; null when the car has no weekly rate. */
  weeklyRate: number | null;
  /** Km included per day; null means unlimited. */
  kmPerDay: number | null;
  extraKmRate: number;
  deposit: number;
  /** A shorter booking is charged as this many hours. */
  minHours: number;
};

/** The admin's settings a quote depends on (server/rentals/store.ts `rentalPolicy` reads them). */
export type PricePolicy = {
  /** GST in percent on the rent, the protection plan and the delivery fee (not on the deposit). */
  gstPercent: number;
  /** Damage protection, per started day of the booking. */
  protectionPerDay: number;
  deliveryFee: number;
};

/** What the renter chose: delivery to their address, the damage-protection plan, paying online. */
export type QuoteChoices = { delivery?: boolean; protection?: boolean; payOnline?: boolean };

export type QuoteLineKind = 'rent' | 'protection' | 'delivery' | 'gst';
/** One charge of a quote as every page, mail and the API show it. */
export type QuoteLine = { kind: QuoteLineKind; label: string; amount: number };

export type RentalQuote = {
  /** Billed hours: the booked time rounded up to the hour, at least the car's minimum. */
  hours: number;
  rent: number;
  /** The damage-protection plan's fee; 0 when not chosen. */
  protection: number;
  deliveryFee: number;
  gstPercent: number;
  gst: number;
  /** The charges, in the order shown: rent, protection, delivery, GST. Never the deposit. */
  lines: QuoteLine[];
  /** What the booking costs: the sum of `lines`. The deposit is never part of it. */
  total: number;
  /** Refundable security deposit, shown on its own line, never added into `total`. */
  deposit: number;
  /**
   * When the deposit is collected: at pickup for every booking made since decision 066; 'online'
   * only on bookings made before it, whose online payment included the deposit.
   */
  depositAt: 'pickup' | 'online';
  /** Km included for the whole booking; null when unlimited. */
  kmIncluded: number | null;
  extraKmRate: number;
  /** What is paid when booking: `total` when paying online, nothing when paying at pickup. */
  payableNow: number;
  /** What is paid at the desk at pickup: the deposit, and `total` too when paying there. */
  dueAtPickup: number;
};

/** Booked hours as words: "5 hours", "51 hours (2 days 3 hours)". */
export function formatHours(hours: number, language?: Language): string {
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  if (days === 0) return t('hoursCount', { count: hours }, language);
  const parts = [t('daysCount', { count: days }, language), ...(rest ? [t('hoursCount', { count: rest }, language)] : [])];
  return t('hoursWithDays', { hours, parts: parts.join(' ') }, language);
}

/** Started days of a booking of `hours` (at least 1): what per-day fees and allowances count. */
export function startedDays(hours: number): number {
  return Math.max(1, Math.ceil(hours / 24));
}

/** Booked hours rounded up to the whole hour (`h = ceil(hours)`); 0 for an empty or reversed range. */
export function bookedHours(fromMs: number, toMs: number): number {
  return toMs > fromMs ? Math.ceil((toMs - fromMs) / HOUR_MS) : 0;
}

/**
 * Rent for `hours` billed hours: `d = floor(h / 24)` days at the daily rate plus the remaining
 * hours at the hourly rate, those capped at one day's rate; with a weekly rate each full 7 days
 * cost the weekly rate instead of 7 daily ones, and the days and hours past the last full week
 * are capped at one week's rate the same way. Each cap is what keeps the price from ever falling
 * as the booking grows (6 days and 23 hours would otherwise cost more than 7 days).
 */
export function rentFor(hours: number, rates: Pick<RentalRates, 'hourlyRate' | 'dailyRate' | 'weeklyRate'>): number {
  const h = Math.max(0, Math.ceil(hours));
  const days = Math.floor(h / 24);
  const rest = Math.min((h % 24) * rates.hourlyRate, rates.dailyRate);
  if (rates.weeklyRate === null) return days * rates.dailyRate + rest;
  // A weekly rate above seven daily rates would charge more for the seventh day than for the sixth.
  const week = Math.min(rates.weeklyRate, 7 * rates.dailyRate);
  const weeks = Math.floor(days / 7);
  return weeks * week + Math.min((days - weeks * 7) * rates.dailyRate + rest, week);
}

/** Km included: per-day allowance × `max(1, ceil(h / 24))`; null when unlimited. */
export function kmIncludedFor(hours: number, kmPerDay: number | null): number | null {
  return kmPerDay === null ? null : kmPerDay * startedDays(hours);
}

/** GST on `amount` rupees at `percent`, to the nearest rupee (so it never falls as the amount grows). */
export function gstOn(amount: number, percent: number): number {
  return Math.round((amount * percent) / 100);
}

/**
 * The charges of a booking as lines, in the order every page, mail and the API show them: rent;
 * the damage-protection plan when chosen (per started day); delivery when chosen; GST at the
 * settings' rate on those three. The total is their sum; the refundable deposit is not a line.
 */
export function quoteLines(input: { hours: number; rent: number; choices: QuoteChoices; policy: PricePolicy }): QuoteLine[] {
  const { hours, rent, choices, policy } = input;
  const days = startedDays(hours);
  const label = (kind: QuoteLineKind) => quoteLineLabel(kind, { hours, gstPercent: policy.gstPercent });
  const lines: QuoteLine[] = [{ kind: 'rent', label: label('rent'), amount: rent }];
  if (choices.protection) lines.push({ kind: 'protection', label: label('protection'), amount: days * policy.protectionPerDay });
  if (choices.delivery) lines.push({ kind: 'delivery', label: label('delivery'), amount: policy.deliveryFee });
  const taxable = lines.reduce((sum, line) => sum + line.amount, 0);
  lines.push({ kind: 'gst', label: label('gst'), amount: gstOn(taxable, policy.gstPercent) });
  return lines;
}

/** Labels already written, by language and what they say: a quote is worked out often (as the renter ticks a choice, for every car of the fleet), i18next's lookup each time is not free. */
const lineLabels = new Map<string, string>();

/** A quote line's label from its kind and the quote's hours and GST rate, in the current language (or `language`). */
export function quoteLineLabel(kind: QuoteLineKind, quote: { hours: number; gstPercent: number }, language: Language = currentLanguage()): string {
  const key = `${language} ${kind} ${kind === 'rent' ? quote.hours : kind === 'protection' ? startedDays(quote.hours) : kind === 'gst' ? quote.gstPercent : ''}`;
  let label = lineLabels.get(key);
  if (label === undefined) {
    label = writeLineLabel(kind, quote, language);
    if (lineLabels.size >= 5000) lineLabels.clear();
    lineLabels.set(key, label);
  }
  return label;
}

function writeLineLabel(kind: QuoteLineKind, quote: { hours: number; gstPercent: number }, language: Language): string {
  switch (kind) {
    case 'rent':
      return t('lineRent', { hours: formatHours(quote.hours, language) }, language);
    case 'protection':
      return t('lineProtection', { count: startedDays(quote.hours) }, language);
    case 'delivery':
      return t('lineDelivery', {}, language);
    case 'gst':
      return t('lineGst', { percent: quote.gstPercent }, language);
  }
}

/**
 * A stored quote (its labels written in the language it was booked in) with its line labels in
 * the current language (or `language`): what pages, the API and mails show.
 */
export function quoteInLanguage<Quote extends Pick<RentalQuote, 'lines' | 'hours' | 'gstPercent'>>(quote: Quote, language?: Language): Quote {
  // A booking stored before quotes kept their lines (migration 018) has none to say again.
  if (!Array.isArray(quote.lines)) return quote;
  return { ...quote, lines: quote.lines.map((line) => ({ ...line, label: quoteLineLabel(line.kind, quote, language) })) };
}

/** The quote for booking a car from `fromMs` to `toMs` (epoch milliseconds) with the renter's choices. */
export function quoteRental(rates: RentalRates, range: { fromMs: number; toMs: number }, policy: PricePolicy, choices: QuoteChoices = {}): RentalQuote {
  const hours = Math.max(bookedHours(range.fromMs, range.toMs), rates.minHours);
  const rent = rentFor(hours, rates);
  const lines = quoteLines({ hours, rent, choices, policy });
  const amountOf = (kind: QuoteLineKind) => lines.find((line) => line.kind === kind)?.amount ?? 0;
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  return {
    hours,
    rent,
    protection: amountOf('protection'),
    deliveryFee: amountOf('delivery'),
    gstPercent: policy.gstPercent,
    gst: amountOf('gst'),
    lines,
    total,
    deposit: rates.deposit,
    depositAt: 'pickup',
    kmIncluded: kmIncludedFor(hours, rates.kmPerDay),
    extraKmRate: rates.extraKmRate,
    payableNow: choices.payOnline ? total : 0,
    dueAtPickup: rates.deposit + (choices.payOnline ? 0 : total),
  };
}

/** The rows under a quote's lines, as every page, mail and the API name them. */
export type QuoteTotalRow = { key: 'total' | 'deposit' | 'now' | 'pickup'; label: string; amount: number };

/**
 * The total of the lines, then the refundable deposit on its own row (never added in), then what
 * is paid now and what at pickup.
 */
export function quoteTotals(
  quote: RentalQuote,
  language?: Language,
): [total: QuoteTotalRow, deposit: QuoteTotalRow, now: QuoteTotalRow, pickup: QuoteTotalRow] {
  const pickupLabel =
    quote.depositAt === 'online'
      ? t('totalDueAtPickup', {}, language)
      : quote.payableNow > 0
        ? t('totalDepositAtPickup', {}, language)
        : t('totalAtPickup', {}, language);
  return [
    { key: 'total', label: t('totalPrice', {}, language), amount: quote.total },
    { key: 'deposit', label: t('totalDeposit', {}, language), amount: quote.deposit },
    { key: 'now', label: t('totalPayableNow', {}, language), amount: quote.payableNow },
    { key: 'pickup', label: pickupLabel, amount: quote.dueAtPickup },
  ];
}

/** The cancellation values from the admin settings. */
export type CancellationPolicy = {
  /** Free cancellation until this many hours before pickup (24). */
  freeCancelHours: number;
  /** Days of rent kept when cancelled later than that, before pickup (1). */
  lateCancelKeepDays: number;
};

export type CancellationWindow = 'free' | 'late' | 'after-pickup';

export type CancellationRefund = {
  window: CancellationWindow;
  /** Rent kept under the policy (whether or not it was paid). */
  rentKept: number;
  /** What goes back to the renter of what was paid: the amount refunded. */
  refund: number;
};

/**
 * What cancelling gives back: free until `freeCancelHours` before pickup (everything paid comes
 * back); later, `lateCancelKeepDays` days of rent and their GST are kept; for a no-show the rent
 * and its GST are kept; once the car was picked up, every charge is kept (`total`). Protection
 * and delivery not delivered, and the deposit, always come back.
 */
export function cancellationRefund(
  booking: { rent: number; total: number; gstPercent: number; dailyRate: number; pickupMs: number; paid: number; pickedUp: boolean },
  nowMs: number,
  policy: CancellationPolicy,
): CancellationRefund {
  const window: CancellationWindow =
    booking.pickedUp || nowMs >= booking.pickupMs ? 'after-pickup' : nowMs <= booking.pickupMs - policy.freeCancelHours * HOUR_MS ? 'free' : 'late';
  const rentKept = window === 'free' ? 0 : window === 'late' ? Math.min(booking.rent, booking.dailyRate * policy.lateCancelKeepDays) : booking.rent;
  const kept = booking.pickedUp ? booking.total : rentKept + gstOn(rentKept, booking.gstPercent);
  const refund = Math.max(0, booking.paid - kept);
  return { window, rentKept, refund };
}

/** The late-return values from the admin settings. */
export type LateReturnRule = { graceHours: number; lateFeePerHour: number };

export type ReturnCharges = {
  kmDriven: number;
  extraKm: number;
  extraKmCharge: number;
  /** Whole hours past the return time and the grace, each started hour counted. */
  lateHours: number;
  lateFee: number;
  fuelCharge: number;
  /**
   * New damage found at return, each with what the desk charged and its checklist photo
   * (app/features/rentals/rental-checklist.ts). Absent on returns recorded before the checklist.
   */
  damage?: DamageCharge[];
  damageCharge?: number;
  total: number;
  /** The deposit less the charges, never below 0. */
  depositRefund: number;
  /** Charges the deposit does not cover, still owed. */
  amountDue: number;
};

export type DamageCharge = { note: string; charge: number; photoId: string };

/**
 * The charges at return: extra km × rate, late hours past the grace × late fee, the fuel
 * shortfall as the desk entered it, each new damage as the desk priced it; the deposit refund
 * is the deposit less these.
 */
export function returnCharges(input: {
  odometerOut: number;
  odometerIn: number;
  kmIncluded: number | null;
  extraKmRate: number;
  dueMs: number;
  returnedMs: number;
  fuelCharge: number;
  damage?: DamageCharge[];
  deposit: number;
  rule: LateReturnRule;
}): ReturnCharges {
  const kmDriven = Math.max(0, input.odometerIn - input.odometerOut);
  const extraKm = input.kmIncluded === null ? 0 : Math.max(0, kmDriven - input.kmIncluded);
  const extraKmCharge = extraKm * input.extraKmRate;
  const lateMs = input.returnedMs - input.dueMs - input.rule.graceHours * HOUR_MS;
  const lateHours = lateMs > 0 ? Math.ceil(lateMs / HOUR_MS) : 0;
  const lateFee = lateHours * input.rule.lateFeePerHour;
  const fuelCharge = Math.max(0, Math.round(input.fuelCharge));
  const damage = (input.damage ?? []).map((item) => ({ ...item, charge: Math.max(0, Math.round(item.charge)) }));
  const damageCharge = damage.reduce((sum, item) => sum + item.charge, 0);
  const total = extraKmCharge + lateFee + fuelCharge + damageCharge;
  return {
    kmDriven,
    extraKm,
    extraKmCharge,
    lateHours,
    lateFee,
    fuelCharge,
    damage,
    damageCharge,
    total,
    depositRefund: Math.max(0, input.deposit - total),
    amountDue: Math.max(0, total - input.deposit),
  };
}
