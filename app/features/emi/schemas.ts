import { z } from 'zod';
import { TENURE_OPTIONS } from './emi.ts';
import { CALCULATOR_LIMITS, calculatorMessages, readDownPayment, readRate, readTenure } from './calculator.ts';

/**
 * The car page's EMI calculator asked through `GET /api/v1/vehicles/{id}/emi`. Each value is
 * read by the calculator's own reader (app/features/emi/calculator.ts), so the API takes exactly what
 * the page takes; where the page keeps its default and says why, the API refuses (400, per
 * field). A value not given keeps the calculator's starting value (the admin's terms). The down
 * payment's ceiling is the car's price, so the schema is made per car.
 */

/** One query value read by a calculator reader: absent or blank is "not given"; `message` says what is wrong with a text it refuses. */
function calculatorValue(reader: (text: string) => number | null, message: (text: string) => string, description: string) {
  return z
    .string({ error: () => message('') })
    .optional()
    .meta({ description })
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return undefined;
      const value = reader(text);
      if (value === null) {
        ctx.addIssue({ code: 'custom', message: message(text) });
        return z.NEVER;
      }
      return value;
    });
}

const { min, max, step } = CALCULATOR_LIMITS.rate;

/** The calculator's inputs for a car priced `price` whole rupees. */
export function emiQuerySchema(price: number) {
  return z.object({
    downPayment: calculatorValue((text) => readDownPayment(text, price), (text) => calculatorMessages.downPayment(price, text), 'Whole rupees from 0 to the price; the admin’s share of the price when not given.'),
    ratePercent: calculatorValue(readRate, () => calculatorMessages.rate, `Interest a year in percent, ${min} to ${max} in steps of ${step}; the admin’s rate when not given.`),
    tenureMonths: calculatorValue(readTenure, () => calculatorMessages.tenure, `One of ${TENURE_OPTIONS.join(', ')}; the admin’s tenure when not given.`),
  });
}

/** The same inputs as the document describes them (the ceiling is each car's price). */
export const emiQueryDocSchema = emiQuerySchema(Number.MAX_SAFE_INTEGER);
