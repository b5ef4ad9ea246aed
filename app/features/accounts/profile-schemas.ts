import { z } from 'zod';
import { LANGUAGES } from '../../lib/i18n/language.ts';
import { accountText } from '../../lib/i18n/account.ts';
import { whatsappText } from '../notifications/whatsapp-texts.ts';
import { formsText } from '../../lib/i18n/forms.ts';
import { localRedirect, paths } from '../../lib/paths.ts';
import { idField } from '../../lib/schemas/fields.ts';
import { formError, parseWith, type FormErrors } from '../../lib/form-errors.ts';
import { DEFAULT_COUNTRY_CODE, hasLetter, isIndianCallingCode, looksLikePhone, MAX_NAME_LENGTH, phoneMessages } from '../../lib/phone.ts';

/**
 * A person's profile (a name and a verified phone, SPEC 5) as the profile page's form and
 * `/api/v1/me/phone/*` send it: asking for a code by SMS, and completing the profile with the
 * code. The messages, and their order, are the spec's: the phone first, then the code, then
 * the name. Whether a code was asked for, is right or has expired is the service's to say.
 *
 * These are the browser's schemas: the phone as typed, given the light look of app/lib/phone.ts.
 * The server reads the same forms with the phone made canonical E.164 or refused
 * (server/accounts/profile-phone.ts, by server/phone.ts), with the same messages.
 */

/** Written as typed ('98765 43210'); the browser's look at it (server/phone.ts decides). */
const phone = z
  .string({ error: () => phoneMessages.phoneRequired })
  .trim()
  .min(1, { error: () => phoneMessages.phoneRequired })
  .refine(looksLikePhone, { error: () => phoneMessages.phoneInvalid })
  .meta({ description: 'An Indian mobile as typed (98765 43210, 098765 43210, +91 98765 43210); texted to and answered in E.164.' });

/** India's code, '+91' or '91', and nothing else: the site texts Indian mobiles only. */
const countryCode = z
  .string({ error: () => phoneMessages.phoneInvalid })
  .trim()
  .refine(isIndianCallingCode, { error: () => phoneMessages.phoneInvalid })
  .default(DEFAULT_COUNTRY_CODE)
  .meta({ description: "India's, +91 or 91 (the default); the site texts Indian mobiles only." });

/** The name shown on bookings and to the dealer: some letters, of any script (decision 061). */
const name = z
  .string({ error: () => phoneMessages.nameRequired })
  .trim()
  .min(1, { error: () => phoneMessages.nameRequired })
  .max(MAX_NAME_LENGTH, { error: () => phoneMessages.nameTooLong })
  .refine(hasLetter, { error: () => phoneMessages.nameNeedsLetters });

const otp = z
  .string({ error: () => phoneMessages.otpRequired })
  .trim()
  .min(1, { error: () => phoneMessages.otpRequired });

/** How the code goes (decision 126): by SMS (the default), or on WhatsApp where the site can send there. */
export const OTP_CHANNELS = ['sms', 'whatsapp'] as const;
const channel = z
  .enum(OTP_CHANNELS, { error: () => whatsappText('codeByChoose') })
  .default('sms')
  .meta({
    description: '`sms` (the default) or `whatsapp`: the code as an authentication template, with a copy-code button. Not an opt-in to WhatsApp updates.',
  });

/** A checkbox as a form sends it ('on', absent when unticked) or JSON's boolean. */
const ticked = z
  .union([z.boolean(), z.enum(['on', 'true', 'false'])])
  .optional()
  .transform((value) => value === true || value === 'on' || value === 'true');

/** Send code: the number to text it to, and how. */
export const phoneCodeRequestSchema = z.object({ phone, countryCode, channel });

/**
 * Verify code, which completes the profile: its name and phone, with the code sent to that
 * phone; and the unticked-by-default wish for updates on WhatsApp, recorded once the number is
 * verified (decision 126).
 */
export const phoneVerifySchema = z.object({
  phone,
  countryCode,
  otp,
  name,
  whatsappOptIn: ticked.meta({
    description:
      'true: the person ticked "Send me updates … on WhatsApp" (the sentence in GET /me/whatsapp `optInWording`); recorded as their consent once the number is verified.',
  }),
});

/** The WhatsApp updates switch: on or off, for the profile's verified number (`PUT /api/v1/me/whatsapp`, the profile page's form). */
const optedIn = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off'])], { error: () => whatsappText('optInChoose') })
  .transform((value) => value === true || value === 'true' || value === 'on')
  .meta({ description: 'true: updates on WhatsApp at the profile’s verified number, the opt-in sentence recorded with the time; false: off (by SMS).' });
export const whatsappChoiceSchema = z.object({ optedIn });

/** The two steps' schemas: the browser's (above), or the server's with the phone made canonical. */
export type ProfileSchemas = { send: z.ZodType<{ phone: string }>; verify: z.ZodType<{ phone: string; otp: string; name: string }> };

/**
 * Changing the name alone (`POST /api/v1/me/profile`): the same rule as the name the profile
 * form sends with its code. The phone is not here: it changes only by a texted code.
 */
export const profileUpdateSchema = z.object({ name });

/**
 * The profile form's one refusal, in the spec's order, or null: the phone (and its code), then for
 * Verify "Please request OTP first" when no code was asked for, then the code and the name. The
 * page checks it before sending (a bot check is solved only for a number that can be texted)
 * with the browser's schemas, and its action again with the server's.
 */
export function profileFormError(
  intent: 'send' | 'verify',
  input: Record<string, unknown>,
  otpRequested: boolean,
  schemas: ProfileSchemas = { send: phoneCodeRequestSchema, verify: phoneVerifySchema },
): FormErrors | null {
  const number = parseWith(schemas.send, input);
  if (!number.ok) return leading(number);
  if (intent === 'send') return null;
  if (!otpRequested) return formError(phoneMessages.requestOtpFirst);
  const parsed = parseWith(schemas.verify, input);
  return parsed.ok ? null : leading(parsed);
}

/** The spec shows one message at a time: the first, marked on the field it is about. */
function leading(refusal: FormErrors): FormErrors {
  const field = Object.keys(refusal.fields).find((name) => refusal.fields[name] === refusal.error);
  return formError(refusal.error, field ? { [field]: refusal.error } : {});
}

/** The language switch's choice, from the site's form (`/language`) or the app (`POST /api/v1/me/language`). */
export const languageChoiceSchema = z.object({
  language: z.enum(LANGUAGES, { error: () => accountText('chooseLanguage') }).meta({ description: '`en` (English) or `hi` (Hindi).' }),
});

/** The site's switch adds the page to open again in the chosen language (a local path; home otherwise). */
export const languageSwitchSchema = languageChoiceSchema.extend({
  back: z
    .string()
    .optional()
    .transform((typed) => localRedirect(typed ?? '') ?? paths.home),
});

/**
 * The profile page's buttons, told apart by their `intent` (decision 109): sign a device out
 * (its id as the device list gives it; the app's API has it in its path), or cancel one of my
 * rental bookings. Whose device or booking it is, is the service's to say.
 */
export const profileActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('revoke-device'),
      deviceId: z
        .string({ error: () => accountText('deviceNotFound') })
        .min(1, { error: () => accountText('deviceNotFound') })
        .max(200, { error: () => accountText('deviceNotFound') }),
    }),
    z.object({ intent: z.literal('cancel-booking'), bookingId: idField(() => accountText('bookingNotFound')) }),
    z.object({ intent: z.literal('whatsapp'), optedIn }),
  ],
  { error: () => accountText('bookingNotFound') },
);

/** Which step of the profile form was pressed: Send OTP (the default) or Verify. */
export const profileStepSchema = z.object({
  intent: z.enum(['send', 'verify'], { error: () => formsText('checkInput') }).default('send'),
});
