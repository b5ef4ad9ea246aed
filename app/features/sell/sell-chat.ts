import { whatsappLink } from '../../lib/contact.ts';
import { detailPriceLabel } from '../../lib/format.ts';
import { imageUrl, type ImageRef } from '../../lib/vehicle.ts';
import type { sellFields } from '../../lib/lead-forms.ts';

/**
 * The WhatsApp message a sell submission ends with (SPEC 7, Other: Name, Phone, Vehicle, Year,
 * Expected Price, Description and an 'Images:' list of addresses). Pure functions with no
 * server-only imports: the sell page also builds the link in the browser when the save fails,
 * because the chat opens either way (SPEC 4, Sell form).
 */

/** The sell form's fields as typed, one string each. */
export type SellChatFields = Record<(typeof sellFields)[number], string>;

export const SELL_CHAT_GREETING = 'Hello, I want to sell my vehicle.';

/**
 * One field per line, in the spec's order; an empty description reads '-'. The 'Images:' list
 * (one absolute address per line) is left out when there are no photos, as when they could not
 * be uploaded.
 */
export function buildSellChatText(fields: SellChatFields, imageUrls: readonly string[] = []): string {
  const lines = [
    SELL_CHAT_GREETING,
    `Name: ${fields.name}`,
    `Phone: ${fields.phone}`,
    `Vehicle: ${fields.vehicle}`,
    `Year: ${fields.year}`,
    // An amount in rupees with Indian grouping (₹2,10,000) like everywhere else; other text as typed.
    `Expected Price: ${detailPriceLabel(fields.price)}`,
    `Description: ${fields.description.trim() || '-'}`,
  ];
  if (imageUrls.length > 0) lines.push('Images:', ...imageUrls);
  return lines.join('\n');
}

/** The wa.me chat with the dealer's number (WHATSAPP_NUMBER), prefilled with the message. */
export function sellChatLink(whatsappNumber: string, fields: SellChatFields, imageUrls: readonly string[] = []): string {
  return whatsappLink(whatsappNumber, buildSellChatText(fields, imageUrls));
}

/** The absolute address of a stored photo's largest variant, for the chat and the admin's full view. */
export function largestImageUrl(siteOrigin: string, image: Pick<ImageRef, 'key' | 'widths'>): string {
  return new URL(imageUrl(image, Math.max(...image.widths)), siteOrigin).href;
}
