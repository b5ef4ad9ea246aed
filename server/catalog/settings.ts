import { z } from 'zod';
import { DEFAULT_FINANCE_TERMS, FINANCE_SETTING_LIMITS, TENURE_OPTIONS, type FinanceTerms } from '../../app/features/emi/emi.ts';
import {
  DEFAULT_PRICE_INCLUDES,
  DEFAULT_STOREFRONT_PROMISE,
  DEFAULT_TRUST_POINTS,
  MAX_PRICE_INCLUDES_LENGTH,
  MAX_PROMISE_LENGTH,
  MAX_TRUST_POINT_LENGTH,
  MAX_TRUST_POINTS,
} from '../../app/lib/storefront.ts';
import { declareSettings, say } from '../settings/declarations.ts';

/**
 * The catalogue's settings: the EMI assumptions every "EMI from" figure on cards, vehicle pages
 * and compare uses (app/lib/emi.ts; rate in percent a year, tenure in months, the financed share
 * in percent: 12%, 60 months, 85% by default), and the storefront's words: the home page's promise
 * and trust points (kept as text, one a line, as the admin types them) and what the one price
 * label says beside it (decision 062; empty says nothing).
 */
export const catalogSettings = declareSettings('catalog', {
  emiRatePercent: {
    schema: z.coerce
      .number(say('rateNumber'))
      .min(FINANCE_SETTING_LIMITS.ratePercent.min, say('rateRange', FINANCE_SETTING_LIMITS.ratePercent))
      .max(FINANCE_SETTING_LIMITS.ratePercent.max, say('rateRange', FINANCE_SETTING_LIMITS.ratePercent))
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, say('rateDecimals')),
    default: DEFAULT_FINANCE_TERMS.ratePercent,
    label: 'emiRatePercentLabel',
  },
  emiTenureMonths: {
    schema: z.coerce
      .number()
      .refine((value) => (TENURE_OPTIONS as readonly number[]).includes(value), say('tenureChoice', { options: TENURE_OPTIONS.join(', ') })),
    default: DEFAULT_FINANCE_TERMS.tenureMonths,
    label: 'emiTenureMonthsLabel',
  },
  emiFinancedPercent: {
    schema: z.coerce
      .number(say('financedNumber'))
      .int(say('financedWhole'))
      .min(FINANCE_SETTING_LIMITS.financedPercent.min, say('financedRange', FINANCE_SETTING_LIMITS.financedPercent))
      .max(FINANCE_SETTING_LIMITS.financedPercent.max, say('financedRange', FINANCE_SETTING_LIMITS.financedPercent)),
    default: DEFAULT_FINANCE_TERMS.financedPercent,
    label: 'emiFinancedPercentLabel',
  },
  storefrontPromise: {
    schema: z
      .string()
      .trim()
      .min(1, say('promiseRequired'))
      .max(MAX_PROMISE_LENGTH, say('promiseTooLong', { max: MAX_PROMISE_LENGTH })),
    default: DEFAULT_STOREFRONT_PROMISE,
    label: 'storefrontPromiseLabel',
  },
  trustPoints: {
    schema: z
      .string()
      .trim()
      .refine((text) => text.split(/\r?\n/).filter((line) => line.trim()).length <= MAX_TRUST_POINTS, say('trustPointsMax', { max: MAX_TRUST_POINTS }))
      .refine(
        (text) => text.split(/\r?\n/).every((line) => line.trim().length <= MAX_TRUST_POINT_LENGTH),
        say('trustPointTooLong', { max: MAX_TRUST_POINT_LENGTH }),
      ),
    default: DEFAULT_TRUST_POINTS.join('\n'),
    label: 'trustPointsLabel',
  },
  priceIncludes: {
    schema: z
      .string()
      .trim()
      .max(MAX_PRICE_INCLUDES_LENGTH, say('priceIncludesTooLong', { max: MAX_PRICE_INCLUDES_LENGTH })),
    default: DEFAULT_PRICE_INCLUDES,
    label: 'priceIncludesLabel',
  },
});

/** The EMI assumptions in force, as the pages use them. */
export function financeTerms(settings: { emiRatePercent: number; emiTenureMonths: number; emiFinancedPercent: number }): FinanceTerms {
  return { ratePercent: settings.emiRatePercent, tenureMonths: settings.emiTenureMonths, financedPercent: settings.emiFinancedPercent };
}
