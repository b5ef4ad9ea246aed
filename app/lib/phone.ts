import { formsText as t } from './i18n/forms.ts';
import { liveTexts } from './i18n/texts.ts';

/** Phone rules shared by the browser and the server (SPEC 5, Profile phone verification). */

export const DEFAULT_COUNTRY_CODE = '+91';
export const MIN_PHONE_DIGITS = 10;
/** The most digits e164 accepts in a number (E.164's longest). */
export const MAX_PHONE_DIGITS = 15;
/** Names are shown on cards, in mails and in the admin lists: longer ones are refused, not cut. */
export const MAX_NAME_LENGTH = 100;

/** The phone, code and name messages, read in the language of the page or request of the moment. */
export const phoneMessages = liveTexts(t, { signInFirst: 'signInFirstPhone', phoneRequired: 'phoneRequired', phoneInvalid: 'phoneInvalid', requestOtpFirst: 'requestOtpFirst', otpRequired: 'otpRequired', nameRequired: 'nameRequired', nameTooLong: ['nameTooLong', { max: MAX_NAME_LENGTH }], nameNeedsLetters: 'nameNeedsLetters', wrongOtp: 'wrongOtp', otpExpired: 'otpExpired', otpTooManyAttempts: 'otpTooManyAttempts', invalidCredential: 'invalidCredential', quotaExceeded: 'quotaExceeded', sendFailed: 'sendFailed' });

/** '+91' + '98765 43210' -> '+919876543210' when it has the pattern '+', 1-3 digit code, 5-15 digits. */
export function e164(countryCode: string, phone: string): string | null {
  const code = countryCode.replace(/\D/g, '');
  const digits = phone.replace(/\D/g, '');
  if (!/^\d{1,3}$/.test(code) || !/^\d{5,15}$/.test(digits)) return null;
  return `+${code}${digits}`;
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
