import { formsText as t } from './i18n/forms.ts';
import { liveTexts } from './i18n/texts.ts';

/**
 * Phone rules shared by the browser and the server (SPEC 5, Profile phone verification): the
 * light look the browser gives a number before sending it. What a number really is (a valid
 * Indian mobile, in one canonical E.164 form) is decided on the server only, by
 * server/phone.ts: its metadata is too large for the browser's first load.
 */

export const DEFAULT_COUNTRY_CODE = '+91';
const MIN_PHONE_DIGITS = 10;
/** The most digits a number may be typed with (E.164's longest). */
const MAX_PHONE_DIGITS = 15;
/** Names are shown on cards, in mails and in the admin lists: longer ones are refused, not cut. */
export const MAX_NAME_LENGTH = 100;

/** The phone, code and name messages, read in the language of the page or request of the moment. */
export const phoneMessages = liveTexts(t, {
  signInFirst: 'signInFirstPhone',
  phoneRequired: 'phoneRequired',
  phoneInvalid: 'phoneInvalid',
  requestOtpFirst: 'requestOtpFirst',
  otpRequired: 'otpRequired',
  nameRequired: 'nameRequired',
  nameTooLong: ['nameTooLong', { max: MAX_NAME_LENGTH }],
  nameNeedsLetters: 'nameNeedsLetters',
  wrongOtp: 'wrongOtp',
  otpExpired: 'otpExpired',
  otpTooManyAttempts: 'otpTooManyAttempts',
  invalidCredential: 'invalidCredential',
  quotaExceeded: 'quotaExceeded',
  sendFailed: 'sendFailed',
});

/**
 * Whether a number as typed could be one: digits, spaces, +, -, dots or brackets (one + at
 * most), with 10 to 15 digits. The browser's check; the server decides by server/phone.ts.
 */
export function looksLikePhone(typed: string): boolean {
  const digits = typed.replace(/\D/g, '').length;
  return /^[+\d\s().-]+$/.test(typed) && (typed.match(/\+/g)?.length ?? 0) <= 1 && digits >= MIN_PHONE_DIGITS && digits <= MAX_PHONE_DIGITS;
}

/**
 * The profile form's country code: India's, written '+91' or '91'. The site's buyers, sellers and
 * renters have Indian mobiles: '091', '0' and any other code are refused.
 */
export function isIndianCallingCode(typed: string): boolean {
  return /^\+?91$/.test(typed.replace(/\s/g, ''));
}

/** A name holds at least one letter of some script (Latin, Devanagari, Tamil…): not only emoji, digits or punctuation. */
export function hasLetter(name: string): boolean {
  return /\p{L}/u.test(name);
}

/** Splits a stored '+919876543210' back into '+91' and '9876543210' for the form. */
export function splitPhone(stored: string): { countryCode: string; phone: string } {
  if (stored.startsWith('+91') && stored.length === 13) return { countryCode: '+91', phone: stored.slice(3) };
  const match = /^\+(\d{1,3})(\d{10})$/.exec(stored);
  if (match) return { countryCode: `+${match[1]}`, phone: match[2]! };
  return { countryCode: DEFAULT_COUNTRY_CODE, phone: stored.replace(/^\+/, '') };
}

/** 125 -> '02:05' */
export function mmss(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
