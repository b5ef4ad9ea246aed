import { z } from 'zod';
import { cleanLine } from '../../lib/input.ts';
import { MAX_ODOMETER_KM } from '../../lib/vehicle.ts';
import { FUEL_EIGHTHS_MAX } from '../rentals/rentals.ts';
import { deliveryText as t } from './delivery-texts.ts';

/**
 * A sold car's delivery (decision 116): the rental checklist's reading and photos, the keys and
 * the documents handed over, and the buyer's signature, drawn on the desk's screen or typed.
 * Read once here for the desk's page; what depends on the sale is the service's to say.
 */

/** The documents a dealer hands over with a car, in the order the form and the note list them. */
export const DELIVERY_DOCUMENTS = ['rc', 'insurance', 'puc', 'service-book', 'form-29', 'form-30', 'noc'] as const;
export type DeliveryDocument = (typeof DELIVERY_DOCUMENTS)[number];

export const MAX_KEYS = 10;
export const MAX_OTHER_DOCUMENTS_LENGTH = 200;
/** A signature drawn on a canvas is 5–40 KB as a PNG; more is not a signature pad's (and its base64 stays under an upload field's 256 KB). */
export const MAX_SIGNATURE_BYTES = 150_000;
/** The pad's widest canvas (a desktop's at twice the pixels) with room to spare. */
export const MAX_SIGNATURE_PIXELS_ACROSS = 3000;
/** The data URL the pad writes into the form's `signature` field. */
export const SIGNATURE_DATA_URL_PREFIX = 'data:image/png;base64,';

export function isDeliveryDocument(value: string): value is DeliveryDocument {
  return (DELIVERY_DOCUMENTS as readonly string[]).includes(value);
}

const whole = (max: number, message: () => string) =>
  z
    .string({ error: message })
    .transform((typed) => cleanLine(typed, 12).replace(/[,\s]/g, ''))
    .refine((text) => /^\d{1,7}$/.test(text) && Number(text) <= max, { error: message })
    .transform(Number);

const line = (max: number) => z.preprocess((value) => cleanLine(value, max + 1), z.string());

/** The desk's delivery form's text fields; the documents' boxes (`documents`, many) and the photos are read beside it. */
export const deliveryFormSchema = z.object({
  odometer: whole(MAX_ODOMETER_KM, () => t('odometerRange', { max: MAX_ODOMETER_KM })),
  fuel: whole(FUEL_EIGHTHS_MAX, () => t('fuelRange')),
  keys: whole(MAX_KEYS, () => t('keysRange', { max: MAX_KEYS })),
  otherDocuments: line(MAX_OTHER_DOCUMENTS_LENGTH).refine((text) => text.length <= MAX_OTHER_DOCUMENTS_LENGTH, {
    error: () => t('otherTooLong', { max: MAX_OTHER_DOCUMENTS_LENGTH }),
  }),
  signerName: line(100).pipe(z.string().min(1, { error: () => t('signerRequired') })),
  typedSignature: line(100),
  /** The pad's PNG as a data URL; the service checks it is one. Empty when nothing was drawn. */
  signature: z.preprocess((value) => (typeof value === 'string' ? value.trim() : ''), z.string()),
});

export type DeliveryForm = z.output<typeof deliveryFormSchema>;

/** A delivery as the desk's page shows it (the storage keys never leave the server). */
export type DeliveryView = {
  odometer: number;
  fuel: number;
  keys: number;
  documents: DeliveryDocument[];
  otherDocuments: string;
  photoCount: number;
  signature: 'drawn' | 'typed';
  typedSignature: string | null;
  signerName: string;
  signedAtMs: number;
  deliveredBy: string;
};

/** A sale's delivery as its desk page shows it: times already in India time, texts in the page's language. */
export type DeliverySummary = {
  handedOverAt: string;
  deliveredBy: string;
  km: string;
  fuel: string;
  keys: number;
  documents: string[];
  signerName: string;
  signature: 'drawn' | 'typed';
  /** The handover's photos, each with what it shows, for the desk to look at again. */
  photos: Array<{ id: string; label: string }>;
};
