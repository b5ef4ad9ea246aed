import { z } from 'zod';
import { TENURE_OPTIONS } from './emi.ts';
import { CALCULATOR_LIMITS, calculatorMessages, readDownPayment, readRate, readTenure } from './calculator.ts';

/**
 * The car page's EMI calculator asked through `GET /api/v1/vehicles/{id}/emi`. Each value is
 * read by the calculator's own reader (app/features/emi/calculator.ts), so the API takes exactly what
 * the page takes; where the page keeps its default and says why, the API refuses (400, per
 * field). A value not given keeps the calculator's starting value (the admin's terms). One schema
 * parses every car's query and is the one the API document describes (decision 109); the down
 * payment's ceiling is the car's price, a fact of the car, so the route checks it after parsing
 * (downPaymentOverPrice), as the services check what depends on stored data (decision 048).
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

/** The calculator's inputs, for any car: the down payment in whole rupees (at most the car's price, checked by the route). */
export const emiQuerySchema = z.object({
  downPayment: calculatorValue(
    (text) => readDownPayment(text, Number.MAX_SAFE_INTEGER),
    () => calculatorMessages.downPaymentWhole,
    'Whole rupees from 0 to the price; the admin’s share of the price when not given.',
  ),
  ratePercent: calculatorValue(
    readRate,
    () => calculatorMessages.rate,
    `Interest a year in percent, ${min} to ${max} in steps of ${step}; the admin’s rate when not given.`,
  ),
  tenureMonths: calculatorValue(readTenure, () => calculatorMessages.tenure, `One of ${TENURE_OPTIONS.join(', ')}; the admin’s tenure when not given.`),
});
