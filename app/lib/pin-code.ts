import { formsText as t } from './i18n/forms.ts';
import { liveTexts } from './i18n/texts.ts';

/**
 * The one PIN-code rule (Indian postal codes), for home visits, rental delivery and the
 * settings' served areas (service-areas.ts says which codes we visit): the pages, the API and
 * the services all read it here.
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
