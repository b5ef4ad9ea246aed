import { z } from 'zod';
import { parseWith } from '../form-errors.ts';
import { LANGUAGES } from '../i18n/language.ts';
import { accountText } from '../i18n/account.ts';
import { DEFAULT_COUNTRY_CODE, e164, hasLetter, MAX_NAME_LENGTH, MAX_PHONE_DIGITS, MIN_PHONE_DIGITS, phoneMessages } from '../phone.ts';

/**
 * A person's profile (a name and a verified phone, SPEC 5) as the profile page's form and
 * `/api/v1/me/phone/*` send it: asking for a code by SMS, and completing the profile with the
 * code. The messages, and their order, are the spec's: the phone first, then the code, then
 * the name. Whether a code was asked for, is right or has expired is the service's to say.
 */

/** Written as typed ('98765 43210', '+91'); checked field by field so the phone's message comes first. */
const phoneFields = {
  phone: z
    .string({ error: () => phoneMessages.phoneRequired })
    .trim()
    .min(1, { error: () => phoneMessages.phoneRequired })
    .refine((phone) => {
      const digits = phone.replace(/\D/g, '').length;
      return digits >= MIN_PHONE_DIGITS && digits <= MAX_PHONE_DIGITS;
    }, { error: () => phoneMessages.phoneInvalid }),
  countryCode: z
    .string({ error: () => phoneMessages.phoneInvalid })
    .trim()
    .refine((code) => /^\d{1,3}$/.test(code.replace(/\D/g, '')), { error: () => phoneMessages.phoneInvalid })
    .default(DEFAULT_COUNTRY_CODE),
};

/** The number in E.164 ('+919876543210'): the fields' rules are e164's, so it always makes one. */
const toE164 = <Input extends { phone: string; countryCode: string }>({ phone, countryCode, ...rest }: Input) => ({ ...rest, phone: e164(countryCode, phone)! });

/** The name shown on bookings and to the dealer: some letters, of any script (decision 061). */
const name = z
  .string({ error: () => phoneMessages.nameRequired })
  .trim()
  .min(1, { error: () => phoneMessages.nameRequired })
  .max(MAX_NAME_LENGTH, { error: () => phoneMessages.nameTooLong })
  .refine(hasLetter, { error: () => phoneMessages.nameNeedsLetters });

const otp = z.string({ error: () => phoneMessages.otpRequired }).trim().min(1, { error: () => phoneMessages.otpRequired });

/** Send code: the number to text it to. */
export const phoneCodeRequestSchema = z.object(phoneFields).transform(toE164);

/** Verify code, which completes the profile: its name and phone, with the code sent to that phone. */
export const phoneVerifySchema = z.object({ ...phoneFields, otp, name }).transform(toE164);

/**
 * Changing the name alone (`POST /api/v1/me/profile`): the same rule as the name the profile
 * form sends with its code. The phone is not here: it changes only by a texted code.
 */
export const profileUpdateSchema = z.object({ name });

/**
 * The profile form's one message, in the spec's order, or null: the phone, then for Verify
 * "Please request OTP first" when no code was asked for, then the code and the name. The page
 * checks it before sending (a bot check is solved only for a number that can be texted) and
 * its action again.
 */
export function profileFormError(intent: 'send' | 'verify', input: Record<string, unknown>, otpRequested: boolean): string | null {
  if (intent === 'send') {
    const parsed = parseWith(phoneCodeRequestSchema, input);
    return parsed.ok ? null : parsed.error;
  }
  const parsed = parseWith(phoneVerifySchema, input);
  if (!parsed.ok && (parsed.fields.phone || parsed.fields.countryCode)) return parsed.error;
  if (!otpRequested) return phoneMessages.requestOtpFirst;
  return parsed.ok ? null : parsed.error;
}

/** The language switch's choice, from the site's form (`/language`) or the app (`POST /api/v1/me/language`). */
export const languageChoiceSchema = z.object({
  language: z.enum(LANGUAGES, { error: () => accountText('chooseLanguage') }).meta({ description: '`en` (English) or `hi` (Hindi).' }),
});
