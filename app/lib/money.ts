/**
 * Money as the product keeps it: whole paise in one integer (₹2,200 is 2_20_000 paise), written
 * for people by `formatPaise`. Rupees the desk types are read into paise here and nowhere else,
 * by their digits (never through a float), so ₹0.10 + ₹0.20 is 30 paise exactly.
 */
import { formatRupees } from './format.ts';

/** How money moved between the renter and the dealer: in person at the desk, or through the online payment. */
export const IN_PERSON_METHODS = ['cash', 'upi', 'card'] as const;
export type InPersonMethod = (typeof IN_PERSON_METHODS)[number];
export type MoneyMethod = InPersonMethod | 'online';

/** The longest UPI or card reference the desk may type (a UTR is 12 digits; approval codes are shorter). */
export const MAX_REFERENCE_LENGTH = 40;

export function isInPersonMethod(value: unknown): value is InPersonMethod {
  return (IN_PERSON_METHODS as readonly unknown[]).includes(value);
}

/** Whole rupees (the quotes' and charges' unit) in paise. */
export function rupeesToPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/**
 * Paise in rupees for what still keeps whole rupees (rental bookings' amounts, the reservation's
 * shown amount), rounded to the nearest rupee: the one way back, so no caller rounds its own way.
 */
export function paiseToWholeRupees(amountPaise: number): number {
  return Math.round(amountPaise / 100);
}

/** Paise in rupees with the paise as a fraction (₹2,200.50 is 2200.5), for answers that give rupees beside paise. */
export function paiseToRupees(amountPaise: number): number {
  return amountPaise / 100;
}

/**
 * Rupees as typed ('2200', '2,200', '₹ 2,200.50') in paise, or null when it is not an amount
 * (letters, a minus, more than two digits of paise, more than `maxRupees`).
 */
export function parseRupeesAsPaise(text: string, maxRupees = 10_000_000): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.replace(/[₹,\s]/g, ''));
  if (!match) return null;
  const rupees = Number(match[1]);
  if (!Number.isSafeInteger(rupees) || rupees > maxRupees) return null;
  return rupees * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** An amount in a currency's subunits, as people read it: ₹1,234.50 for INR (₹1,234 when whole), else "USD 12.00". */
export function formatPaise(amountPaise: number, currency = 'INR'): string {
  const whole = Math.trunc(amountPaise / 100);
  const rest = Math.abs(amountPaise % 100);
  if (currency === 'INR') return rest === 0 ? formatRupees(whole) : `${formatRupees(whole)}.${String(rest).padStart(2, '0')}`;
  return `${currency} ${(amountPaise / 100).toFixed(2)}`;
}

/** Paise as the desk's amount field shows them again: '2200', '2200.50'. */
export function paiseAsRupeesText(amountPaise: number): string {
  const rest = amountPaise % 100;
  return rest === 0 ? String(amountPaise / 100) : `${Math.trunc(amountPaise / 100)}.${String(rest).padStart(2, '0')}`;
}
