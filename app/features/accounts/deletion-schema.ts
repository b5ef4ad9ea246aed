import { z } from 'zod';
import { DELETE_CONFIRMATION_WORD } from './privacy.ts';

/** What a confirmation field may hold; more is cut, and the service decides whether it confirms. */
const MAX_CONFIRMATION = 200;
const confirmation = (description: string) =>
  z
    .string()
    .optional()
    .meta({ description })
    .transform((value) => (value ?? '').slice(0, MAX_CONFIRMATION));

/**
 * The confirmation sent with a delete (the page's form or `POST /api/v1/me/delete`): the password
 * or the word. Nothing is refused here: a missing or wrong one is the service's to say, with its
 * `reason` (password-required, wrong-password, word-required). The API documents this schema.
 */
export const deleteConfirmationSchema = z
  .object({
    password: confirmation('Required when the account has a password.'),
    confirm: confirmation(`The word ${DELETE_CONFIRMATION_WORD}; required when the account has no password (Google sign-in).`),
  })
  .transform(({ password, confirm }) => ({ password, confirmationWord: confirm }));

/** The confirmation in a form or JSON body (a file in its place counts as nothing typed). */
export function parseDeleteConfirmation(form: FormData): { password: string; confirmationWord: string } {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  return deleteConfirmationSchema.parse({ password: text('password'), confirm: text('confirm') });
}
