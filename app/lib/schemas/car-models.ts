import { z } from 'zod';
import { BODY_TYPES } from '../listing-filters/options.ts';
import { carModelsText as t } from '../i18n/carModels.ts';

/** A make, model or variant the admin adds to the catalogue (decision 098): the admin page's form and its service. */

export const CAR_NAME_LIMITS = { make: 40, model: 60, variant: 60 } as const;

const name = (max: number, required: (() => string) | null) =>
  z
    .string()
    .transform((text) =>
      text
        .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .refine((text) => (required ? /[\p{L}\p{N}]/u.test(text) : true), { error: () => required?.() ?? '' })
    .refine((text) => text.length <= max, { error: () => t('nameTooLong', { max }) });

/** Empty, or Devanagari (with spaces, digits and the punctuation of names). */
const hindiName = (max: number) =>
  name(max, null).refine((text) => text === '' || (/^[\u0900-\u097f0-9A-Za-z\s.\-()]+$/u.test(text) && /[\u0900-\u097f]/u.test(text)), {
    error: () => t('hindiOnly'),
  });

export const carModelAdditionSchema = z.object({
  make: name(CAR_NAME_LIMITS.make, () => t('makeRequired')),
  makeHi: hindiName(CAR_NAME_LIMITS.make),
  model: name(CAR_NAME_LIMITS.model, () => t('modelRequired')),
  modelHi: hindiName(CAR_NAME_LIMITS.model),
  variant: name(CAR_NAME_LIMITS.variant, null),
  body: z.union([z.enum(Object.keys(BODY_TYPES) as [keyof typeof BODY_TYPES, ...Array<keyof typeof BODY_TYPES>]), z.literal('')], {
    error: () => t('bodyWrong'),
  }),
});

export type CarModelAddition = z.output<typeof carModelAdditionSchema>;
export const carModelAdditionFields = ['make', 'makeHi', 'model', 'modelHi', 'variant', 'body'] as const;
