/**
 * The vehicle page's EMI calculator: its ranges, its starting values and its query string, and the
 * totals it shows. Apart from emi.ts so the listing's cards, which only show "EMI from", do not
 * load it.
 */
import { downPaymentFrom, emi, TENURE_OPTIONS, type FinanceTerms } from './emi.ts';
import { groupIndianDigits } from './format.ts';

/** The calculator's rate range (the issue: 9–20%). */
export const CALCULATOR_LIMITS = { rate: { min: 9, max: 20, step: 0.25 } } as const;

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
  return { downPayment: downPaymentFrom(price, terms), ratePercent: Math.min(max, Math.max(min, terms.ratePercent)), tenureMonths: tenure };
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
    else errors.push(`Down payment must be a whole number of rupees from 0 to ${groupIndianDigits(price)}.`);
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
