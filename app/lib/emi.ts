/**
 * Car-loan instalments (EMI), one rule for the cards, the vehicle page's calculator, the compare
 * page and the server alike. Money is whole rupees (design.md): the instalment is rounded to the
 * nearest rupee, and totals are worked out from the rounded instalment, as a lender's schedule is.
 */

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

/** The calculator's ranges (the issue: rate 9–20%, tenure 12–84 months in steps of 12). */
export const CALCULATOR_LIMITS = { rate: { min: 9, max: 20, step: 0.25 } } as const;
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

/** The note that goes with every "EMI from" figure. */
export function financeTermsNote(terms: FinanceTerms): string {
  return `Assumes ${formatPercent(terms.financedPercent)} of the price financed at ${formatPercent(terms.ratePercent)} a year for ${terms.tenureMonths} months. Indicative only; the lender decides the final terms.`;
}

function formatPercent(value: number): string {
  return `${Number(value.toFixed(2))}%`;
}

export type LoanSummary = { loan: number; emi: number; totalInterest: number; totalPaid: number };

/** The calculator's answer: the loan after the down payment, the instalment and the totals (down payment included in the total paid). */
export function loanSummary(price: number, downPayment: number, annualRatePercent: number, months: number): LoanSummary {
  const loan = Math.max(0, price - downPayment);
  const monthly = emi(loan, annualRatePercent, months);
  const repaid = monthly * months;
  return { loan, emi: monthly, totalInterest: Math.max(0, repaid - loan), totalPaid: downPayment + repaid };
}

export type CalculatorValues = { downPayment: number; ratePercent: number; tenureMonths: number };
export type CalculatorInput = { values: CalculatorValues; errors: string[] };

/** The calculator's starting values: the admin's down payment share, rate (brought into 9–20%) and tenure. */
export function calculatorDefaults(price: number, terms: FinanceTerms): CalculatorValues {
  const { min, max } = CALCULATOR_LIMITS.rate;
  const tenure = (TENURE_OPTIONS as readonly number[]).includes(terms.tenureMonths) ? terms.tenureMonths : 60;
  return { downPayment: price - financedAmount(price, terms), ratePercent: Math.min(max, Math.max(min, terms.ratePercent)), tenureMonths: tenure };
}

/**
 * The calculator's values from a query string (`?dp=…&rate=…&tenure=…`, the form sent without
 * JavaScript). Each value that is missing keeps its default; each one that is wrong keeps its
 * default too and says why, so the page always shows a result.
 */
export function parseCalculatorInput(params: URLSearchParams, price: number, defaults: CalculatorValues): CalculatorInput {
  const values = { ...defaults };
  const errors: string[] = [];
  const dp = params.get('dp');
  if (dp !== null && dp.trim() !== '') {
    const amount = /^\s*[\d,]{1,15}\s*$/.test(dp) ? Number(dp.replace(/[\s,]/g, '')) : NaN;
    if (Number.isSafeInteger(amount) && amount >= 0 && amount <= price) values.downPayment = amount;
    else errors.push(`Down payment must be a whole number of rupees from 0 to ${price.toLocaleString('en-IN')}.`);
  }
  const rate = params.get('rate');
  if (rate !== null && rate.trim() !== '') {
    const { min, max } = CALCULATOR_LIMITS.rate;
    const value = /^\s*\d{1,2}(\.\d{1,2})?\s*$/.test(rate) ? Number(rate) : NaN;
    if (value >= min && value <= max) values.ratePercent = value;
    else errors.push(`Interest rate must be between ${min}% and ${max}% a year.`);
  }
  const tenure = params.get('tenure');
  if (tenure !== null && tenure.trim() !== '') {
    const value = /^\s*\d{1,3}\s*$/.test(tenure) ? Number(tenure) : NaN;
    if ((TENURE_OPTIONS as readonly number[]).includes(value)) values.tenureMonths = value;
    else errors.push(`Tenure must be ${TENURE_OPTIONS.join(', ')} months.`);
  }
  return { values, errors };
}
