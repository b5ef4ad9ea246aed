/** Phone rules shared by the browser and the server (SPEC 5, Profile phone verification). */

export const DEFAULT_COUNTRY_CODE = '+91';
export const MIN_PHONE_DIGITS = 10;
/** The most digits e164 accepts in a number (E.164's longest). */
export const MAX_PHONE_DIGITS = 15;
/** Names are shown on cards, in mails and in the admin lists: longer ones are refused, not cut. */
export const MAX_NAME_LENGTH = 100;

export const phoneMessages = {
  signInFirst: 'Please sign in first before verifying phone.',
  phoneRequired: 'Please enter a phone number',
  phoneInvalid: 'Please enter a valid phone number',
  requestOtpFirst: 'Please request OTP first',
  otpRequired: 'Please enter the OTP sent to your phone',
  nameRequired: 'Please enter your name',
  nameTooLong: `Please keep your name to ${MAX_NAME_LENGTH} characters.`,
  nameNeedsLetters: 'Please enter your name in letters (in any script).',
  wrongOtp: 'Invalid OTP. Please try again.',
  otpExpired: 'This OTP has expired. Please request a new one.',
  otpTooManyAttempts: 'Too many wrong attempts. Please request a new OTP.',
  invalidCredential: "Authentication configuration error. Check the backend provider's API key, authorized domains and phone auth provider.",
  quotaExceeded: 'SMS quota exceeded for this project. Try again later.',
  sendFailed: 'Failed to send OTP',
} as const;

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
