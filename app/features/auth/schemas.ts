import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../lib/phone.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';

/**
 * What the app sends to sign up, verify its email, sign in and sign in with Google
 * (`/api/v1/auth/*`). Only the shape is checked here; whether an address is plausible, a
 * password strong enough or the credentials right is server/auth/flows.ts's to say, in the
 * same words the sign-up and login pages use.
 */

/** Messages are read when a value is refused, in the language of that moment. */
const text = (message: () => string) => z.string({ error: message });

export const signUpSchema = z.object({
  name: text(() => t('authNameRequired'))
    .trim()
    .max(MAX_NAME_LENGTH, { error: () => t('authNameTooLong', { max: MAX_NAME_LENGTH }) })
    .default(''),
  email: text(() => t('authEmailInvalid')),
  password: text(() => t('authWeakPassword')),
});

export const signInSchema = z.object({
  email: text(() => t('authEmailInvalid')),
  password: text(() => t('authInvalidCredentials')),
  botCheck: z.string().default('').meta({ description: 'The solved bot check for action LOGIN (GET /api/bot-check/challenge?action=LOGIN).' }),
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
