import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../lib/phone.ts';
import { adminAuthText as admin } from '../admin/admin-auth-texts.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';
import { cleanLine, isPlausibleEmail, MAX_EMAIL_LENGTH, PASSWORD_LENGTH } from '../../lib/input.ts';

/**
 * What the sign-up, login and admin account pages and the app (`/api/v1/auth/*`) send, read by
 * these schemas (decisions 048, 109): the page and the API of one input share its fields. An
 * address must look like one (isPlausibleEmail, at most MAX_EMAIL_LENGTH), a new password be of
 * PASSWORD_LENGTH; whether the credentials are right, the address free or allowed is
 * server/auth/flows.ts's and server/admin/admin-auth.ts's to say.
 */

/** Messages are read when a value is refused, in the language of that moment. */
const text = (message: () => string) => z.string({ error: message });

/** An email address as typed: one line, trimmed and lower-cased, refused unless it looks like one. */
function emailField(message: () => string, blank: () => string = message) {
  return text(blank)
    .transform((typed) => cleanLine(typed, MAX_EMAIL_LENGTH + 1).toLowerCase())
    .refine((email) => email !== '', { error: blank, abort: true })
    .refine(isPlausibleEmail, { error: message });
}

/** A password to set: PASSWORD_LENGTH (its maximum is better-auth's). */
function newPassword(tooShort: () => string, tooLong: () => string = tooShort, blank: () => string = tooShort) {
  return text(blank).min(1, { error: blank, abort: true }).min(PASSWORD_LENGTH.min, { error: tooShort }).max(PASSWORD_LENGTH.max, { error: tooLong });
}

/** A password to check: typed, and no longer than one can be (a bound on what a sign-in hashes). */
function typedPassword(blank: () => string, tooLong: () => string = blank) {
  return text(blank).min(1, { error: blank }).max(PASSWORD_LENGTH.max, { error: tooLong });
}

const botCheck = z.string().default('').meta({ description: 'The solved bot check for action LOGIN (GET /api/bot-check/challenge?action=LOGIN).' });

const signUpFields = {
  email: emailField(() => t('authEmailInvalid')),
  password: newPassword(() => t('authWeakPassword')),
};

const signInFields = {
  email: emailField(() => t('authEmailInvalid')),
  password: typedPassword(() => t('authInvalidCredentials')),
  botCheck,
};

export const signUpSchema = z.object({
  name: text(() => t('authNameRequired'))
    .trim()
    .max(MAX_NAME_LENGTH, { error: () => t('authNameTooLong', { max: MAX_NAME_LENGTH }) })
    .default(''),
  ...signUpFields,
});

export const signInSchema = z.object(signInFields);

/** The sign-up and login pages: the email form (the default), or the Google button (its own bot check). */
const googleButton = z.object({ intent: z.literal('google'), botCheck: z.string().default('') });
const unknownButton = { error: () => t('checkInput') };

export const signUpFormSchema = z.discriminatedUnion(
  'intent',
  [googleButton, z.object({ intent: z.literal('email').default('email'), ...signUpFields })],
  unknownButton,
);

export const signInFormSchema = z.discriminatedUnion(
  'intent',
  [googleButton, z.object({ intent: z.literal('email').default('email'), ...signInFields })],
  unknownButton,
);

/** The admin pages' address: both fields are asked for (bothRequired) before the address's shape. */
const adminEmail = emailField(
  () => admin('invalidEmail'),
  () => admin('bothRequired'),
);

/** The admin login (/admin-login): an empty or malformed form is no password try and is not counted (decision 009). */
export const adminSignInSchema = z.object({
  email: adminEmail,
  password: typedPassword(
    () => admin('bothRequired'),
    () => admin('passwordTooLong'),
  ),
  botCheck,
});

/** The first admin (/setup-admin) and a further one (/admin/register-admin): the allow-list is the service's to check. */
export const adminAccountSchema = z.object({
  email: adminEmail,
  password: newPassword(
    () => admin('passwordTooShort'),
    () => admin('passwordTooLong'),
    () => admin('bothRequired'),
  ),
});

export const verifyEmailSchema = z.object({
  token: text(() => t('verifyLinkIncomplete'))
    .min(1, { error: () => t('verifyLinkIncomplete') })
    .max(4096, { error: () => t('verifyLinkInvalid') }),
});

export const googleIdTokenSchema = z.object({
  idToken: text(() => t('googleNoToken'))
    .min(1, { error: () => t('googleNoToken') })
    .max(8192, { error: () => t('googleTokenTooLong') }),
  nonce: z.string().max(512).optional().meta({ description: 'The nonce the app asked Google to put in the ID token, if any.' }),
});

/** What an account form shows again: what was typed (never a password), and never more of an address than one can hold. */
export function typedAgain(values: Record<string, string>): Record<string, string> {
  return values.email === undefined ? values : { ...values, email: values.email.slice(0, MAX_EMAIL_LENGTH) };
}
