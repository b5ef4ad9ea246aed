import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { z } from 'zod';
import { DEFAULT_COUNTRY_CODE, isIndianCallingCode, looksLikePhone, phoneMessages } from '../app/lib/phone.ts';
import { InvalidInputError } from './errors.ts';

/**
 * What a phone number is, in one place (decision 096): a valid Indian mobile, kept, counted and
 * texted in one canonical E.164 form, '+919876543210', however it was typed ('098765 43210',
 * '+91 98765-43210', '919876543210'). Every form that takes a phone (the profile's code, the
 * Request a Vehicle and Sell Your Vehicle leads; pages and /api/v1 alike) reads it through
 * here before a rate limit, the database or an SMS sees it, so one number has one limit.
 *
 * libphonenumber-js with its `mobile` metadata knows which Indian numbers are mobiles. It is
 * server-only: the browser gives numbers the light look of app/lib/phone.ts (`looksLikePhone`).
 */

/** The number in E.164, or which field to refuse: the country code, or the number itself. */
export type CanonicalPhone = { ok: true; phone: string } | { ok: false; field: 'countryCode' | 'phone' };

/**
 * A number as typed, alone or after the form's country code, as canonical E.164. The number may
 * carry India's code itself ('+91 …', '0091 …', '91…') or the trunk 0; anything but a valid
 * Indian mobile (a landline, a number of another country, an extension) is refused.
 */
export function canonicalPhone(typed: string, countryCode: string = DEFAULT_COUNTRY_CODE): CanonicalPhone {
  if (!isIndianCallingCode(countryCode)) return { ok: false, field: 'countryCode' };
  const number = typed.trim();
  if (!looksLikePhone(number)) return { ok: false, field: 'phone' };
  // The separators the light look allows say nothing: '(+91) 98765-43210' is '+919876543210'.
  const parsed = parsePhoneNumberFromString(number.replace(/[\s().-]/g, ''), { defaultCountry: 'IN', extract: false });
  if (!parsed || parsed.country !== 'IN' || parsed.ext || !parsed.isValid()) return { ok: false, field: 'phone' };
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return { ok: false, field: 'phone' };
  return { ok: true, phone: parsed.number };
}

/**
 * A form's phone field as the server reads it: the shared field's own checks (required, the
 * light look, with their messages), then the number made canonical, or refused with `invalid`.
 * The form's country code, when it has one, is its own field (`isIndianCallingCode`).
 */
export function canonicalPhoneField<Field extends z.ZodType<string, unknown>>(field: Field, invalid: () => string) {
  return field.transform((typed, context) => {
    const canonical = canonicalPhone(typed);
    if (canonical.ok) return canonical.phone;
    context.issues.push({ code: 'custom', message: invalid(), input: typed });
    return z.NEVER;
  });
}

/**
 * For a service handed a number: the canonical form, or the phone field's refusal (400). The
 * forms' schemas have made it canonical already; this keeps a caller that has not from opening
 * a rate limit, a stored row or an SMS of its own for another spelling of a number.
 */
export function requireCanonicalPhone(typed: string): string {
  const canonical = canonicalPhone(typed);
  if (!canonical.ok) throw new InvalidInputError(phoneMessages.phoneInvalid, { phone: phoneMessages.phoneInvalid });
  return canonical.phone;
}
