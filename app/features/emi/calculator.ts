/**
 * The vehicle page's EMI calculator: its ranges, its starting values and its query string, and the
 * totals it shows. Apart from emi.ts so the listing's cards, which only show "EMI from", do not
 * load it.
 */
import { downPaymentFrom, emi, TENURE_OPTIONS, type FinanceTerms } from './emi.ts';
import { formatRupees, groupIndianDigits } from '../../lib/format.ts';
import { emiText as t } from './emi-texts.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/** The calculator's rate range (the issue: 9–20%). */
export const CALCULATOR_LIMITS = { rate: { min: 9, max: 20, step: 0.25 } } as const;

/** The sentence under the calculator's figures, in the language of the moment it is read. */
export function calculatorNote(): string {
  return t('calculatorNote');
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
  return { downPayment: downPaymentFrom(price, terms), ratePercent: Math.min(max, Math.max(min, terms.ratePercent)), tenureMonths: tenure };
}

/** What the calculator says of a value it cannot take (the page shows it; the API refuses with it), read when it is said. */
export const calculatorMessages = Object.assign(
  liveTexts(t, {
    rate: ['rateInvalid', { min: CALCULATOR_LIMITS.rate.min, max: CALCULATOR_LIMITS.rate.max }],
    tenure: ['tenureInvalid', { options: TENURE_OPTIONS.join(', ') }],
    downPaymentWhole: 'downPaymentWhole',
  }),
  {
    /**
     * What is wrong with a typed down payment: more than the car's price says so with the price
     * (a buyer who typed one zero too many must see which figure they went past); anything else
     * that is not whole rupees says what the field takes.
     */
    downPayment: (price: number, text = '') => {
      const amount = wholeRupees(text);
      return amount !== null && amount > price
        ? t('downPaymentOverPrice', { price: formatRupees(price) })
        : t('downPaymentInvalid', { max: groupIndianDigits(price) });
    },
  },
);

/** Whole rupees as typed (`1,50,000` or `150000`), whatever their size; null when the text is not a whole number. */
function wholeRupees(text: string): number | null {
  const amount = /^\s*[\d,]{1,15}\s*$/.test(text) ? Number(text.replace(/[\s,]/g, '')) : NaN;
  return Number.isSafeInteger(amount) ? amount : null;
}

/** A typed down payment (`1,50,000` or `150000`) in whole rupees from 0 to the price; null when it is not one. */
export function readDownPayment(text: string, price: number): number | null {
  const amount = wholeRupees(text);
  return amount !== null && amount >= 0 && amount <= price ? amount : null;
}

/** A typed yearly rate within the calculator's range (at most two decimals); null when it is not one. */
export function readRate(text: string): number | null {
  const { min, max } = CALCULATOR_LIMITS.rate;
  const value = /^\s*\d{1,2}(\.\d{1,2})?\s*$/.test(text) ? Number(text) : NaN;
  return value >= min && value <= max ? value : null;
}

/** A typed tenure that is one of TENURE_OPTIONS; null when it is not one. */
export function readTenure(text: string): number | null {
  const value = /^\s*\d{1,3}\s*$/.test(text) ? Number(text) : NaN;
  return (TENURE_OPTIONS as readonly number[]).includes(value) ? value : null;
}

/**
 * The calculator's values from a query string (calculatorParameters: `?dp=…&rate=…&tenure=…`, the form sent without
 * JavaScript, or the fields as they are typed). Each value that is missing keeps its default; each
 * one that is wrong says why, and the calculator then shows no figures (calculatorAnswer): an
 * instalment worked out from other values than the ones in the fields would be a stale answer.
 * The API's schema (app/features/emi/schemas.ts) reads each value with the same readers and refuses instead.
 */
export const calculatorParameters = ['dp', 'rate', 'tenure'] as const;

export function parseCalculatorInput(params: URLSearchParams, price: number, defaults: CalculatorValues): CalculatorInput {
  const values = { ...defaults };
  const errors: string[] = [];
  const read = (name: string, reader: (text: string) => number | null, message: (text: string) => string, set: (value: number) => void) => {
    const text = params.get(name);
    if (text === null || text.trim() === '') return;
    const value = reader(text);
    if (value === null) errors.push(message(text));
    else set(value);
  };
  read(
    'dp',
    (text) => readDownPayment(text, price),
    (text) => calculatorMessages.downPayment(price, text),
    (value) => (values.downPayment = value),
  );
  read(
    'rate',
    readRate,
    () => calculatorMessages.rate,
    (value) => (values.ratePercent = value),
  );
  read(
    'tenure',
    readTenure,
    () => calculatorMessages.tenure,
    (value) => (values.tenureMonths = value),
  );
  return { values, errors };
}

export type CalculatorFields = Record<(typeof calculatorParameters)[number], string>;

/**
 * What the calculator's fields hold for a query string: a value it took as it reads it, one it
 * refused as it was typed (so the field shows what its message is about), else the default.
 */
export function calculatorFields(params: URLSearchParams, price: number, defaults: CalculatorValues): CalculatorFields {
  const { values } = parseCalculatorInput(params, price, defaults);
  const field = (name: keyof CalculatorFields, value: number, reader: (text: string) => number | null) => {
    const text = params.get(name);
    if (text === null || text.trim() === '') return String(value);
    return reader(text) === null ? text : String(value);
  };
  return {
    dp: field('dp', values.downPayment, (text) => readDownPayment(text, price)),
    rate: field('rate', values.ratePercent, readRate),
    tenure: field('tenure', values.tenureMonths, readTenure),
  };
}

/** The figures the calculator shows for what was typed, or null while any value is wrong (its message says why). */
export function calculatorAnswer(price: number, input: CalculatorInput): LoanSummary | null {
  if (input.errors.length > 0) return null;
  return loanSummary(price, input.values.downPayment, input.values.ratePercent, input.values.tenureMonths);
}
