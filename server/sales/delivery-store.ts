import { indiaDateTimeParam } from '../../app/lib/india-time.ts';
import { isDeliveryDocument, type DeliverySummary, type DeliveryView } from '../../app/features/sales/delivery.ts';
import { deliveryText as t } from '../../app/features/sales/delivery-texts.ts';
import { checklistItemLabels, fuelText } from '../../app/features/rentals/rental-checklist.ts';
import type { Database } from '../db/connection.ts';
import type { StoredPhoto } from '../rentals/checklists.ts';

/** A sold car's delivery as stored (decision 116): what the pages see plus where its files are. */
export type DeliveryRecord = DeliveryView & { saleId: number; signatureKey: string | null; photos: StoredPhoto[] };

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The delivery of a sale, or null when the car has not been handed over. */
export async function findDelivery(database: Pick<Database, 'db'>, saleId: number): Promise<DeliveryRecord | null> {
  const row = await database.db.selectFrom('sale_deliveries').selectAll().where('sale_id', '=', saleId).executeTakeFirst();
  if (!row) return null;
  const photos = parseJson<StoredPhoto[]>(row.photos, []);
  return {
    saleId: Number(row.sale_id),
    odometer: Number(row.odometer),
    fuel: Number(row.fuel),
    keys: Number(row.keys_count),
    documents: parseJson<string[]>(row.documents_handed, []).filter(isDeliveryDocument),
    otherDocuments: row.other_documents,
    photoCount: photos.length,
    photos,
    signature: row.signature_key === null ? 'typed' : 'drawn',
    signatureKey: row.signature_key,
    typedSignature: row.typed_signature,
    signerName: row.signer_name,
    signedAtMs: Number(row.signed_at_ms),
    deliveredBy: row.delivered_by,
  };
}

/** The delivery note's number: the invoice's with `DN-` before it, so the two papers of one sale are found together. */
export const deliveryNoteNumber = (invoiceNumber: string) => `DN-${invoiceNumber}`;

/** 29-11-2026 14:05 IST: the moment of a signature as India reads it. */
export function indiaMomentText(ms: number): string {
  const moment = indiaDateTimeParam(ms);
  return `${moment.slice(8, 10)}-${moment.slice(5, 7)}-${moment.slice(0, 4)} ${moment.slice(11, 16)} IST`;
}

/** A stored file's bytes, or null when it is not there. */
export async function readStored(storage: { get(key: string): Promise<{ body: ReadableStream } | null> }, key: string): Promise<Buffer | null> {
  const file = await storage.get(key);
  if (!file) return null;
  return Buffer.from(await new Response(file.body).arrayBuffer());
}

/** A sale's delivery as its desk page shows it (app/features/sales/sale-delivery-section.tsx), or null before the handover. */
export async function deliverySummary(database: Pick<Database, 'db'>, saleId: number): Promise<DeliverySummary | null> {
  const delivery = await findDelivery(database, saleId);
  if (!delivery) return null;
  const documents = delivery.documents.map((document) => t(`doc_${document}`));
  if (delivery.otherDocuments) documents.push(delivery.otherDocuments);
  return {
    handedOverAt: indiaMomentText(delivery.signedAtMs),
    deliveredBy: delivery.deliveredBy,
    km: delivery.odometer.toLocaleString('en-IN'),
    fuel: fuelText(delivery.fuel),
    keys: delivery.keys,
    documents,
    signerName: delivery.signerName,
    signature: delivery.signature,
    photos: delivery.photos.map((photo) => ({ id: photo.id, label: photo.item === 'damage' ? photo.note : checklistItemLabels()[photo.item] })),
  };
}

/**
 * One of a delivery's photos (its full size, or its thumbnail), for the desk: the caller checked
 * the viewer is an admin. Null for a sale without a delivery or a photo it does not have.
 */
export async function openDeliveryPhoto(
  deps: { database: Pick<Database, 'db'>; privateStorage: { get(key: string): Promise<{ body: ReadableStream; size: number } | null> } },
  input: { saleId: number; photoId: string; thumb: boolean },
): Promise<{ body: ReadableStream; size: number } | null> {
  if (input.photoId.length > 100) return null;
  const delivery = await findDelivery(deps.database, input.saleId);
  const photo = delivery?.photos.find((candidate) => candidate.id === input.photoId);
  if (!photo) return null;
  return deps.privateStorage.get(input.thumb ? photo.thumbKey : photo.key);
}
