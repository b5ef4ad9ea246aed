import { formsText as t } from './i18n/forms.ts';
import { liveTexts } from './i18n/texts.ts';

/**
 * The one PIN-code rule (Indian postal codes), for test drives at home, rental delivery and the
 * settings' list of served codes: the pages, the API and the services all read it here.
 */

/** Six digits, the first 1–9; also the `pattern` attribute of a PIN input. */
export const PIN_CODE_PATTERN = '[1-9][0-9]{5}';
const PIN_CODE = new RegExp(`^${PIN_CODE_PATTERN}$`);

/** The PIN-code messages, read in the language of the page or request of the moment. */
export const pinCodeMessages = liveTexts(t, { required: 'pinRequired', invalid: 'pinInvalid' });

export function isPinCode(text: string): boolean {
  return PIN_CODE.test(text);
}

/** A PIN code as typed ('400 069'): spaces dropped, bounded; '' for anything but text. */
export function typedPinCode(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, '').slice(0, 12) : '';
}

/** Why a typed PIN code is not one (none given, or not six digits); null when it is. */
export function pinCodeProblem(pinCode: string): string | null {
  if (!pinCode) return pinCodeMessages.required;
  return isPinCode(pinCode) ? null : pinCodeMessages.invalid;
}

/** pinCodeProblem, or `notServed` (the feature's own sentence) for a PIN code we do not go to. */
export function servedPinCodeProblem(pinCode: string, servicePinCodes: readonly string[], notServed: string): string | null {
  return pinCodeProblem(pinCode) ?? (servicePinCodes.includes(pinCode) ? null : notServed);
}

/** PIN codes typed as a list (commas, spaces or lines between them): the valid ones, sorted and unique, and the rest. */
export function parsePinCodeList(text: string): { codes: string[]; invalid: string[] } {
  const parts = text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const codes = [...new Set(parts.filter(isPinCode))].sort();
  const invalid = parts.filter((part) => !isPinCode(part));
  return { codes, invalid };
}
