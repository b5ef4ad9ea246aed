import { z } from 'zod';
import { ageOn, MIN_LICENCE_HOLDER_AGE, parseIsoDate, parseLicenceNumber } from '../licence.ts';
import { formsText as t } from '../i18n/forms.ts';
import { liveTexts } from '../i18n/texts.ts';

/**
 * The typed fields of the driving-licence form, as `/profile/licence` and
 * `POST /api/v1/me/licence` send them (the photos travel beside them in the same upload).
 * `today` is India's date: who is old enough to hold a licence changes with it.
 */
export function licenceFieldsSchema(today: string) {
  return z.object({
    number: z
      .string({ error: () => licenceMessages.number })
      .refine((value) => parseLicenceNumber(value) !== null, { error: () => licenceMessages.number })
      .transform((value) => parseLicenceNumber(value) as string),
    dateOfBirth: z
      .string({ error: () => licenceMessages.dateOfBirth })
      .refine((value) => parseIsoDate(value) !== null, { error: () => licenceMessages.dateOfBirth })
      .transform((value) => parseIsoDate(value) as string)
      .superRefine((dateOfBirth, ctx) => {
        // The date was checked just above: `ageOn` has a real date to count from.
        const age = ageOn(dateOfBirth, today) ?? 0;
        if (age < MIN_LICENCE_HOLDER_AGE) ctx.addIssue({ code: 'custom', message: licenceMessages.tooYoung });
        else if (age > 110) ctx.addIssue({ code: 'custom', message: licenceMessages.checkDateOfBirth });
      }),
  });
}

/** Read when a value is refused, in the language of that moment. */
export const licenceMessages = liveTexts(t, { number: 'licenceNumber', dateOfBirth: 'licenceDateOfBirth', tooYoung: ['licenceTooYoung', { age: MIN_LICENCE_HOLDER_AGE }], checkDateOfBirth: 'licenceCheckDateOfBirth' });
