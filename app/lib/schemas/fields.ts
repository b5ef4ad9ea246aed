import { z } from 'zod';
import { parseId } from '../input.ts';

/**
 * Field schemas the feature schemas share, written so that the input each accepts can be
 * described (a JSON API's OpenAPI document is generated from the same schemas) while the value
 * comes out in the product's own type.
 */

/** A database id, as a JSON number or as text (a form, a URL), checked by the one id rule (parseId); a message given as a function is read when it is said (in that moment's language). */
export function idField(message: string | (() => string)) {
  const error = typeof message === 'string' ? () => message : message;
  return z
    .union([z.int(), z.string()], { error })
    .transform((value) => parseId(String(value)))
    .refine((id) => id !== null, { error })
    .transform((id) => id as number);
}
