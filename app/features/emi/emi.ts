/**
 * Car-loan instalments (EMI), one rule for the cards, the vehicle page's calculator, the compare
 * page and the server alike. Money is whole rupees (design.md): the instalment is rounded to the
 * nearest rupee, and totals are worked out from the rounded instalment, as a lender's schedule is.
 */
import { emiText as t } from './emi-texts.ts';

/**
 * The monthly instalment of a loan of `principal` rupees at `annualRatePercent` a year over
 * `months` months: P·r·(1+r)^n / ((1+r)^n − 1), r the monthly rate, rounded to the nearest rupee.
 * At 0% it is the principal spread evenly. ₹6,00,000 at 12% over 72 months is ₹11,730.
 */
export function emi(principal: number, annualRatePercent: number, months: number): number {
  if (!(principal > 0) || !(months > 0)) return 0;
  const r = annualRatePercent / 12 / 100;
  if (r <= 0) return Math.round(principal / months);
  const growth = (1 + r) ** months;
  return Math.round((principal * r * growth) / (growth - 1));
}

/** The admin's assumptions behind every "EMI from" figure (server/admin/settings.ts saves them). */
export type FinanceTerms = {
  /** Interest a year, in percent (12 means 12%). */
  ratePercent: number;
  tenureMonths: number;
  /** The share of the price a lender finances, in percent; the rest is the down payment. */
  financedPercent: number;
};

export const DEFAULT_FINANCE_TERMS: FinanceTerms = { ratePercent: 12, tenureMonths: 60, financedPercent: 85 };

/** What the admin may set (settings validation and the settings form share these). */
export const FINANCE_SETTING_LIMITS = {
  ratePercent: { min: 1, max: 30 },
  financedPercent: { min: 10, max: 100 },
} as const;

/** The tenures a loan may have (the issue: 12–84 months in steps of 12); settings and the calculator offer these. */
export const TENURE_OPTIONS = [12, 24, 36, 48, 60, 72, 84] as const;

/** The loan part of a price under the admin's terms, in whole rupees. */
export function financedAmount(price: number, terms: FinanceTerms): number {
  return Math.round((price * terms.financedPercent) / 100);
}

/**
 * "EMI from" for a car: null when it has no price in rupees (price on request, text prices and
 * rental cars, which have no sale price), otherwise the instalment on the admin's terms.
 */
export function emiFrom(priceRupees: number | null, terms: FinanceTerms): number | null {
  if (priceRupees === null || !(priceRupees > 0)) return null;
  return emi(financedAmount(priceRupees, terms), terms.ratePercent, terms.tenureMonths);
}

/**
 * Rows of a car's typed "Finance Options" that the product works out itself (the EMI and the
 * down payment): a typed figure would stand beside the worked-out one and disagree with it (a
 * car page once showed ₹10,305 at the top and ₹9,499 below), so the page shows only the latter.
 */
export function isWorkedOutFinanceRow(label: string): boolean {
  return /\bemi\b|instal+ment|down\s*-?\s*payment/i.test(label);
}

/** The down payment behind "EMI from": the part of the price a lender does not finance. */
export function downPaymentFrom(priceRupees: number, terms: FinanceTerms): number {
  return priceRupees - financedAmount(priceRupees, terms);
}

/** The note that goes with every "EMI from" figure. */
export function financeTermsNote(terms: FinanceTerms): string {
  return t('termsNote', { financed: formatPercent(terms.financedPercent), rate: formatPercent(terms.ratePercent), months: terms.tenureMonths });
}

function formatPercent(value: number): string {
  return `${Number(value.toFixed(2))}%`;
}
