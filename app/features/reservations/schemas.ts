import { z } from 'zod';
import { formsText as t } from '../../lib/i18n/forms.ts';

/** `GET /api/v1/me/reservations`: which page of the buyer's reservations. */
export const reservationListQuerySchema = z.object({
  page: z.coerce
    .number({ error: () => t('pageNumber') })
    .int({ error: () => t('pageWhole') })
    .min(1, { error: () => t('pageRange') })
    .max(1000, { error: () => t('pageRange') })
    .default(1),
});

/** The desk's extend form: hours more. */
export const reservationExtendSchema = z.object({
  hours: z.coerce
    .number({ error: () => t('enterHours') })
    .int({ error: () => t('wholeHours') })
    .min(1, { error: () => t('extendRange') })
    .max(336, { error: () => t('extendRange') }),
});

/** The desk's convert form: what the car sold for, whole rupees (commas allowed). */
export const reservationConvertSchema = z.object({
  salePrice: z.preprocess(
    (value) => (typeof value === 'string' ? value.replace(/[₹,\s]/g, '') : value),
    z.coerce
      .number({ error: () => t('salePrice') })
      .int({ error: () => t('wholeRupees') })
      .min(1, { error: () => t('salePrice') })
      .max(1_000_000_000, { error: () => t('salePriceTooLarge') }),
  ),
});
