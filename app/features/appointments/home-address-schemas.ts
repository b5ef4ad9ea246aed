import { z } from 'zod';
import { hasControlCharacters } from '../../lib/input.ts';
import { homeAddressMessages, LANDMARK_MAX, STREET_MAX } from './home-address.ts';

/** A home visit's street address and landmark as forms and the app's bodies send them (decision 097). */

/** Text with line breaks and runs of spaces made one space; a control character other than those is refused, not cleaned. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

function addressLine(name: string, max: number, messages: { tooLong: () => string; control: () => string }) {
  return z
    .string({ error: `${name} must be text.` })
    .refine((text) => !hasControlCharacters(text), { error: messages.control })
    .nullish()
    .transform((value) => oneLine(value ?? ''))
    .refine((text) => text.length <= max, { error: messages.tooLong });
}

/** The two fields as the forms and the app's bodies send them (`street`, `landmark`); required-ness is the mode's (below). */
export const homeAddressFields = {
  street: addressLine('street', STREET_MAX, { tooLong: () => homeAddressMessages.streetTooLong, control: () => homeAddressMessages.streetControl }),
  landmark: addressLine('landmark', LANDMARK_MAX, { tooLong: () => homeAddressMessages.landmarkTooLong, control: () => homeAddressMessages.landmarkControl }),
};

type Place = { mode: 'hub' | 'home'; street: string };

/** A home visit needs its street address (checked with the other fields, so every field is named at once). */
export function homeNeedsStreet(request: Place, ctx: z.RefinementCtx): void {
  if (request.mode === 'home' && !request.street) ctx.addIssue({ code: 'custom', path: ['street'], message: homeAddressMessages.streetRequired });
}
