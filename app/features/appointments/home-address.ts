import { formsText as t } from '../../lib/i18n/forms.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/**
 * Where a home test drive or a home inspection goes (decision 097): the street address (house
 * or flat, street, area), an optional landmark and the PIN code. The limits are also CHECKs on
 * the columns (migration 033); the schema (home-address-schemas.ts) says them first, beside the field.
 */

export const STREET_MAX = 200;
export const LANDMARK_MAX = 100;

export const homeAddressMessages = liveTexts(t, {
  streetRequired: 'streetRequired',
  streetTooLong: ['streetTooLong', { max: STREET_MAX }],
  streetControl: 'streetControl',
  landmarkTooLong: ['landmarkTooLong', { max: LANDMARK_MAX }],
  landmarkControl: 'landmarkControl',
});

export type HomeAddress = { street: string; landmark: string; pinCode: string };

/** '12 Sea View, Juhu Tara Rd (near Juhu Circle), 400049': the full place, as the desk and the mails show it. */
export function homeAddressLine(address: HomeAddress, language?: Parameters<typeof t>[2]): string {
  const landmark = address.landmark ? ` (${t('nearLandmark', { landmark: address.landmark }, language)})` : '';
  return [address.street ? `${address.street}${landmark}` : landmark.trim(), address.pinCode].filter(Boolean).join(', ');
}
