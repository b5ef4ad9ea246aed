import { describe, expect, it } from 'vitest';
import { DEFAULT_FINANCE_TERMS, emi, emiFrom, financeTermsNote } from '../../app/features/emi/emi.ts';
import { calculatorAnswer, calculatorDefaults, calculatorFields, loanSummary, parseCalculatorInput } from '../../app/features/emi/calculator.ts';
import { emiQuerySchema } from '../../app/features/emi/schemas.ts';
import { inLanguage } from '../../server/i18n.ts';

/** The one EMI rule: P·r·(1+r)^n / ((1+r)^n − 1), r monthly, rounded to the nearest rupee. */
describe('EMI', () => {
  it('₹6,00,000 at 12% a year over 72 months is ₹11,730', () => {
    expect(emi(600_000, 12, 72)).toBe(11_730);
  });

  it('matches lenders’ published examples', () => {
    // ₹1,00,000 at 10% over 12 months: ₹8,791.59 → ₹8,792.
    expect(emi(100_000, 10, 12)).toBe(8_792);
    // ₹5,00,000 at 9% over 60 months: ₹10,379.18 → ₹10,379.
    expect(emi(500_000, 9, 60)).toBe(10_379);
    // ₹10,00,000 at 8.5% over 84 months: ₹15,836.35 → ₹15,836.
    expect(emi(1_000_000, 8.5, 84)).toBe(15_836);
    // ₹4,25,000 (85% of ₹5,00,000) at 12% over 60 months: ₹9,453.97 → ₹9,454.
    expect(emi(425_000, 12, 60)).toBe(9_454);
  });

  it('rounds to the nearest rupee, half up', () => {
    // ₹1,200 at 0% over 12 months is exactly ₹100; ₹1,000 over 3 is ₹333.33 → ₹333; ₹2,000 over 3 is ₹666.67 → ₹667.
    expect(emi(1_200, 0, 12)).toBe(100);
    expect(emi(1_000, 0, 3)).toBe(333);
    expect(emi(2_000, 0, 3)).toBe(667);
  });

  it('spreads the principal evenly at a zero rate instead of dividing by zero', () => {
    expect(emi(600_000, 0, 60)).toBe(10_000);
    expect(Number.isFinite(emi(600_000, 0, 72))).toBe(true);
  });

  it('is zero for nothing borrowed or no months', () => {
    expect(emi(0, 12, 60)).toBe(0);
    expect(emi(-5, 12, 60)).toBe(0);
    expect(emi(100_000, 12, 0)).toBe(0);
    expect(emi(Number.NaN, 12, 60)).toBe(0);
  });

  it('"EMI from" finances the admin’s share of the price on their terms', () => {
    // 85% of ₹5,00,000 at 12% over 60 months.
    expect(emiFrom(500_000, DEFAULT_FINANCE_TERMS)).toBe(9_454);
    expect(emiFrom(600_000, { ratePercent: 12, tenureMonths: 72, financedPercent: 100 })).toBe(11_730);
    expect(emiFrom(null, DEFAULT_FINANCE_TERMS)).toBeNull();
    expect(emiFrom(0, DEFAULT_FINANCE_TERMS)).toBeNull();
  });

  it('says what the figure assumes', () => {
    expect(financeTermsNote(DEFAULT_FINANCE_TERMS)).toBe(
      'Assumes 85% of the price financed at 12% a year for 60 months. Indicative only; the lender decides the final terms.',
    );
    expect(financeTermsNote({ ratePercent: 10.5, tenureMonths: 36, financedPercent: 80 })).toMatch(
      /^Assumes 80% of the price financed at 10\.5% a year for 36 months\./,
    );
  });
});

describe('the calculator', () => {
  it('adds up the loan, the interest and the total paid', () => {
    const summary = loanSummary(700_000, 100_000, 12, 72);
    expect(summary).toEqual({ loan: 600_000, emi: 11_730, totalInterest: 11_730 * 72 - 600_000, totalPaid: 100_000 + 11_730 * 72 });
    expect(loanSummary(500_000, 500_000, 12, 60)).toEqual({ loan: 0, emi: 0, totalInterest: 0, totalPaid: 500_000 });
  });

  it('starts from the admin’s terms, the rate brought into 9–20%', () => {
    expect(calculatorDefaults(500_000, DEFAULT_FINANCE_TERMS)).toEqual({ downPayment: 75_000, ratePercent: 12, tenureMonths: 60 });
    expect(calculatorDefaults(500_000, { ratePercent: 7, tenureMonths: 60, financedPercent: 100 }).ratePercent).toBe(9);
    expect(calculatorDefaults(500_000, { ratePercent: 25, tenureMonths: 60, financedPercent: 100 }).ratePercent).toBe(20);
  });

  it('reads the form sent without JavaScript', () => {
    const defaults = calculatorDefaults(500_000, DEFAULT_FINANCE_TERMS);
    const read = (query: string) => parseCalculatorInput(new URLSearchParams(query), 500_000, defaults);
    expect(read('dp=100000&rate=10.5&tenure=36')).toEqual({ values: { downPayment: 100_000, ratePercent: 10.5, tenureMonths: 36 }, errors: [] });
    expect(read('dp=1,00,000').values.downPayment).toBe(100_000);
    expect(read('')).toEqual({ values: defaults, errors: [] });
  });

  it('keeps the default and says why for each wrong value', () => {
    const defaults = calculatorDefaults(500_000, DEFAULT_FINANCE_TERMS);
    const read = (query: string) => parseCalculatorInput(new URLSearchParams(query), 500_000, defaults);
    for (const query of ['dp=-1', 'dp=abc', 'dp=1e5', 'dp=99999999999999999999', 'dp=1%002']) {
      const result = read(query);
      expect(result.values, query).toEqual(defaults);
      expect(result.errors, query).toEqual(['Down payment must be a whole number of rupees from 0 to 5,00,000.']);
    }
    for (const query of ['rate=8.99', 'rate=21', 'rate=x', 'rate=NaN', 'rate=1e1']) {
      expect(read(query).errors, query).toEqual(['Interest rate must be between 9% and 20% a year.']);
    }
    for (const query of ['tenure=13', 'tenure=0', 'tenure=96', 'tenure=60.5']) {
      expect(read(query).errors, query).toEqual(['Tenure must be 12, 24, 36, 48, 60, 72, 84 months.']);
    }
  });

  it('says a down payment above the price is more than the car’s price, in English and Hindi, and shows no figures for it', () => {
    const defaults = calculatorDefaults(500_000, DEFAULT_FINANCE_TERMS);
    for (const typed of ['600000', '6,00,000', '500001']) {
      const input = parseCalculatorInput(new URLSearchParams({ dp: typed }), 500_000, defaults);
      expect(input.errors, typed).toEqual(['The down payment cannot be more than the car’s price of ₹5,00,000.']);
      // Not the default's instalment beside a field that says 6,00,000: no figures at all.
      expect(calculatorAnswer(500_000, input), typed).toBeNull();
    }
    const hindi = inLanguage('hi', () => parseCalculatorInput(new URLSearchParams('dp=600000'), 500_000, defaults).errors);
    expect(hindi).toEqual(['डाउन पेमेंट कार की कीमत ₹5,00,000 से ज़्यादा नहीं हो सकता।']);
    // The whole price is a down payment the calculator takes: nothing borrowed.
    expect(calculatorAnswer(500_000, parseCalculatorInput(new URLSearchParams('dp=500000'), 500_000, defaults))).toEqual({
      loan: 0,
      emi: 0,
      totalInterest: 0,
      totalPaid: 500_000,
    });
  });

  it('shows figures only for the values in the fields', () => {
    const defaults = calculatorDefaults(500_000, DEFAULT_FINANCE_TERMS);
    const answer = (query: string) => calculatorAnswer(500_000, parseCalculatorInput(new URLSearchParams(query), 500_000, defaults));
    expect(answer('dp=100000&rate=10.5&tenure=36')).toEqual(loanSummary(500_000, 100_000, 10.5, 36));
    expect(answer('')).toEqual(loanSummary(500_000, defaults.downPayment, defaults.ratePercent, defaults.tenureMonths));
    for (const query of ['dp=-1', 'rate=25', 'tenure=13', 'dp=100000&rate=8']) expect(answer(query), query).toBeNull();
  });

  it('keeps a refused value in its field, as typed, and a taken one as it was read', () => {
    const defaults = calculatorDefaults(500_000, DEFAULT_FINANCE_TERMS);
    const fields = (query: string) => calculatorFields(new URLSearchParams(query), 500_000, defaults);
    expect(fields('')).toEqual({ dp: '75000', rate: '12', tenure: '60' });
    expect(fields('dp=1,00,000&rate=10.50')).toEqual({ dp: '100000', rate: '10.5', tenure: '60' });
    expect(fields('dp=900000&rate=25')).toEqual({ dp: '900000', rate: '25', tenure: '60' });
  });

  it('reads the API’s calculator query with one schema for every car, the one its document describes', () => {
    expect(emiQuerySchema.parse({ downPayment: '1,50,000', ratePercent: '', tenureMonths: '72' })).toEqual({
      downPayment: 150_000,
      ratePercent: undefined,
      tenureMonths: 72,
    });
    // Over a car's price is that car's rule (the route says it with the price: tests/integration/api-extras.test.ts).
    expect(emiQuerySchema.parse({ downPayment: '900000000' }).downPayment).toBe(900_000_000);
    expect(emiQuerySchema.safeParse({ downPayment: 'abc' }).error?.issues[0]?.message).toBe('Down payment must be a whole number of rupees, 0 or more.');
    expect(emiQuerySchema.safeParse({ downPayment: '-1' }).error?.issues[0]?.message).toBe('Down payment must be a whole number of rupees, 0 or more.');
  });
});
