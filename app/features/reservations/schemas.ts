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
