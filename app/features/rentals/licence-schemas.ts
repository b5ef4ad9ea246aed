import { z } from 'zod';
import { ageOn, MIN_LICENCE_HOLDER_AGE, parseIsoDate, parseLicenceNumber } from './licence.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/**
 * The typed fields of the driving-licence form, as `/profile/licence` and
 * `POST /api/v1/me/licence` send them (the photos travel beside them in the same upload). One
 * schema reads and documents them (decision 109); who is old enough to hold a licence changes
 * with the date, so that is licenceAgeProblem's, asked with India's date of the moment.
 */
export const licenceFieldsSchema = z.object({
  number: z
    .string({ error: () => licenceMessages.number })
    .refine((value) => parseLicenceNumber(value) !== null, { error: () => licenceMessages.number })
    .transform((value) => parseLicenceNumber(value) as string),
  dateOfBirth: z
    .string({ error: () => licenceMessages.dateOfBirth })
    .meta({ description: 'YYYY-MM-DD' })
    .refine((value) => parseIsoDate(value) !== null, { error: () => licenceMessages.dateOfBirth })
    .transform((value) => parseIsoDate(value) as string),
});

/** What is wrong with a licence holder born on `dateOfBirth` (a real date) on India's `today`, or null. */
export function licenceAgeProblem(dateOfBirth: string, today: string): string | null {
  const age = ageOn(dateOfBirth, today) ?? 0;
  if (age < MIN_LICENCE_HOLDER_AGE) return licenceMessages.tooYoung;
  if (age > 110) return licenceMessages.checkDateOfBirth;
  return null;
}

/** Read when a value is refused, in the language of that moment. */
export const licenceMessages = liveTexts(t, {
  number: 'licenceNumber',
  dateOfBirth: 'licenceDateOfBirth',
  tooYoung: ['licenceTooYoung', { age: MIN_LICENCE_HOLDER_AGE }],
  checkDateOfBirth: 'licenceCheckDateOfBirth',
});
