import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import {
  isDeliveryDocument,
  MAX_SIGNATURE_BYTES,
  MAX_SIGNATURE_PIXELS_ACROSS,
  SIGNATURE_DATA_URL_PREFIX,
  type DeliveryDocument,
  type DeliveryForm,
} from '../../app/features/sales/delivery.ts';
import { deliveryText as t } from '../../app/features/sales/delivery-texts.ts';
import { pathInLanguage } from '../../app/lib/i18n/language.ts';
import { paths } from '../../app/lib/paths.ts';
import { recordAudit } from '../audit/audit.ts';
import type { DB } from '../db/schema.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import { enqueue } from '../jobs/queue.ts';
import { queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import { checkChecklist, checkReading, deleteStoredPhotos, storeChecklistPhotos, type ChecklistInput, type StoredPhoto } from '../rentals/checklists.ts';
import { deliveryNoteNumber, findDelivery, indiaMomentText, type DeliveryRecord } from './delivery-store.ts';
import { SALE_DOCUMENTS_JOB, type SaleServices } from './sales.ts';
import { findSale, type Sale } from './store.ts';
import type { AppServices } from '../services.ts';

/**
 * The delivery of a sold car (decision 116). The rental handover's engine checks the reading and
 * the photos and stores the photos privately (under `sale-deliveries/`); the buyer's signature is
 * a PNG drawn on the desk's screen, checked to be one and re-encoded, or the name they typed. One
 * transaction checks the sale is still recorded (its row locked on PostgreSQL), inserts the
 * delivery (the unique `sale_id` refuses a second one), queues the delivery note's making and the
 * buyer's mail and SMS. Whatever fails after the files were stored deletes them again.
 */

const PHOTO_PREFIX = 'sale-deliveries';

export type DeliveryServices = SaleServices & Pick<AppServices, 'mailer'>;

export type DeliveryInput = DeliveryForm & { saleId: number; documents: string[]; checklist: ChecklistInput; actorEmail: string };

const refuse = (field: string, message: string) => new InvalidInputError(message, { [field]: message });

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The pad's data URL as PNG bytes, refused unless it is a PNG of a signature's size: the prefix
 * and base64 first, then the bytes (the PNG signature, then sharp decoding the whole image), then
 * re-encoded so nothing but pixels is kept.
 */
export async function signaturePng(dataUrl: string): Promise<Buffer> {
  const notPng = () => refuse('signature', t('signatureNotPng'));
  // Base64 is 4 characters for 3 bytes: a longer text is refused before it is decoded.
  if (dataUrl.length > SIGNATURE_DATA_URL_PREFIX.length + Math.ceil(MAX_SIGNATURE_BYTES / 3) * 4)
    throw refuse('signature', t('signatureTooLarge', { kb: Math.round(MAX_SIGNATURE_BYTES / 1000) }));
  if (!dataUrl.startsWith(SIGNATURE_DATA_URL_PREFIX)) throw notPng();
  const base64 = dataUrl.slice(SIGNATURE_DATA_URL_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw notPng();
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_SIGNATURE_BYTES) throw refuse('signature', t('signatureTooLarge', { kb: Math.round(MAX_SIGNATURE_BYTES / 1000) }));
  if (bytes.length < PNG_SIGNATURE.length || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) throw notPng();
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_SIGNATURE_PIXELS_ACROSS * MAX_SIGNATURE_PIXELS_ACROSS });
    const metadata = await image.metadata();
    if (metadata.format !== 'png') throw notPng();
    if ((metadata.width ?? 0) > MAX_SIGNATURE_PIXELS_ACROSS || (metadata.height ?? 0) > MAX_SIGNATURE_PIXELS_ACROSS)
      throw refuse('signature', t('signatureTooBig', { max: MAX_SIGNATURE_PIXELS_ACROSS }));
    return await image.png({ compressionLevel: 9 }).toBuffer();
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw notPng();
  }
}

/** Refused before anything is stored: a sale that cannot be delivered, a reading, the documents, a signature missing. */
async function checkDelivery(services: SaleServices, input: DeliveryInput): Promise<{ sale: Sale; documents: DeliveryDocument[] }> {
  const sale = await findSale(services.database, input.saleId);
  if (!sale) throw new NotFoundError(t('saleNotFound'));
  if (sale.status !== 'recorded') throw new ConflictError(t('saleCancelledNoDelivery', { number: sale.creditNoteNumber ?? '' })).because('sale-cancelled');
  if (await findDelivery(services.database, sale.id)) throw new ConflictError(t('alreadyDelivered')).because('delivered');
  checkReading({ odometer: input.odometer, fuel: input.fuel }, { odometer: 'odometer', fuel: 'fuel' });
  if (!input.documents.every(isDeliveryDocument)) throw refuse('documents', t('unknownDocument'));
  if (input.signature === '' && input.typedSignature === '') throw refuse('signature', t('signatureRequired'));
  checkChecklist('handover', input.checklist);
  return { sale, documents: [...new Set(input.documents)] as DeliveryDocument[] };
}

/** The buyer is told, in the sale's language, that the car is theirs and where the delivery note is. */
async function queueBuyerMessages(db: Kysely<DB>, services: DeliveryServices, sale: Sale, signedAtMs: number): Promise<void> {
  const language = sale.language;
  const say = (key: Parameters<typeof t>[0], values?: Record<string, string | number>) => t(key, values, language);
  const car = `${sale.vehicle.make} ${sale.vehicle.model}`.trim() || sale.vehicle.title;
  const number = deliveryNoteNumber(sale.invoiceNumber);
  const link = new URL(pathInLanguage(`${paths.profile}#my-documents`, language), services.config.siteOrigin).href;
  const text = [
    say('mailGreeting', { name: sale.buyer.name }),
    '',
    say('mailLine1', { car, time: indiaMomentText(signedAtMs) }),
    say('mailLine2', { number, link }),
    '',
    say('mailRegards'),
    say('mailTeam', { site: services.config.siteName }),
  ].join('\n');
  if (sale.buyer.email) await queueMail(db, services, { to: sale.buyer.email, subject: say('mailSubject', { car, number }), text });
  const sms = `${services.config.siteName}: ${say('sms', { car: car.slice(0, 40), number, link })}`;
  await queuePhoneMessage(db, services, {
    userId: sale.userId,
    phone: sale.buyer.phone || null,
    language,
    sms,
    whatsapp: whatsappTemplate('car_delivered', { car, number, link }),
    push: pushOfSms(services.config.siteName, sms, `${paths.profile}#my-documents`, language),
  });
}

/**
 * Records the handover of a sold car. Errors: NotFoundError (no such sale), ConflictError (the
 * sale cancelled: `sale-cancelled`; already handed over: `delivered`), InvalidInputError (a
 * reading, a photo, a document, the signature: with its field).
 */
export async function recordDelivery(services: DeliveryServices, input: DeliveryInput): Promise<DeliveryRecord> {
  const { sale, documents } = await checkDelivery(services, input);
  const signature = input.signature === '' ? null : await signaturePng(input.signature);
  const photos: StoredPhoto[] = await storeChecklistPhotos(services.privateStorage, 'handover', input.checklist, PHOTO_PREFIX);
  const signatureKey = signature === null ? null : `${PHOTO_PREFIX}/${randomUUID()}-signature.png`;
  const nowMs = services.clock.now();
  try {
    if (signatureKey !== null) await services.privateStorage.put(signatureKey, new Uint8Array(signature!), 'image/png');
    await services.database.db.transaction().execute(async (trx) => {
      // Still recorded, and held so (PostgreSQL's row lock) until the delivery is in: a cancel waits for it.
      const held = await trx
        .updateTable('sales')
        .set({ updated_at: new Date(nowMs).toISOString() })
        .where('id', '=', sale.id)
        .where('status', '=', 'recorded')
        .returning('id')
        .executeTakeFirst();
      if (!held) throw new ConflictError(t('saleCancelledNoDelivery', { number: '' })).because('sale-cancelled');
      await trx
        .insertInto('sale_deliveries')
        .values({
          sale_id: sale.id,
          odometer: input.odometer,
          fuel: input.fuel,
          keys_count: input.keys,
          documents_handed: JSON.stringify(documents),
          other_documents: input.otherDocuments,
          photos: JSON.stringify(photos),
          signature_key: signatureKey,
          typed_signature: signatureKey === null ? input.typedSignature : null,
          signer_name: input.signerName,
          signed_at_ms: nowMs,
          delivered_by: input.actorEmail,
          created_at: new Date(nowMs).toISOString(),
        })
        .execute();
      await enqueue(trx, SALE_DOCUMENTS_JOB, { saleId: sale.id }, { nowMs });
      await queueBuyerMessages(trx, services, sale, nowMs);
    });
  } catch (error) {
    await deleteStoredPhotos(services.privateStorage, photos);
    if (signatureKey !== null) await services.privateStorage.delete(signatureKey).catch(() => undefined);
    if (brokenUniqueRule(error, 'sale_deliveries', { sale: { constraint: 'sale_deliveries_sale_id_key', column: 'sale_id' } }))
      throw new ConflictError(t('alreadyDelivered')).because('delivered');
    throw error;
  }
  services.jobs.wake();
  const delivery = (await findDelivery(services.database, sale.id))!;
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'deliver',
    entity: 'sale',
    entityId: sale.id,
    summary: `Handed over ${sale.vehicle.title} (invoice ${sale.invoiceNumber}) to ${input.signerName} at ${input.odometer} km, fuel ${input.fuel}/8, ${input.keys} keys, ${documents.length} documents, ${photos.length} photos; signed ${signatureKey === null ? 'by typed name' : 'on the screen'}`,
    after: { deliveryNote: deliveryNoteNumber(sale.invoiceNumber), odometer: input.odometer, fuel: input.fuel, keys: input.keys, documents },
  });
  return delivery;
}
