import type { Kysely, Selectable } from 'kysely';
import { formatPaise } from '../../app/lib/money.ts';
import { indiaDay, indiaIso } from '../../app/lib/india-time.ts';
import { pathInLanguage, type Language } from '../../app/lib/i18n/language.ts';
import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import { dayLabel } from '../../app/features/appointments/test-drives.ts';
import { purchasesText as t } from '../../app/features/purchases/purchases-texts.ts';
import type { PurchaseDocument, PurchaseForm } from '../../app/features/purchases/schemas.ts';
import { paths } from '../../app/lib/paths.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/connection.ts';
import type { DB, PurchaseTable } from '../db/schema.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import { createVehicleDraft } from '../inspections/inspection-desk.ts';
import type { Storage } from '../media/storage.ts';
import { changeAndQueue, queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import { canonicalPhone } from '../phone.ts';
import type { AppServices } from '../services.ts';

/**
 * Buying a seller's car (docs/decisions/118): an accepted offer becomes a purchase. The draft car
 * is made first if the desk has not made it yet (the inspection desk's own draft, one per
 * inspection); then one transaction writes the purchase (one per inspection, held by
 * `purchases_inspection_uq`), gives the draft its purchase price and date of possession, and
 * queues the seller's mail and SMS that the money was paid.
 */

export type PurchaseServices = Pick<AppServices, 'database' | 'jobs' | 'config' | 'clock' | 'mailer' | 'logger'> & { storage: Storage };

/** A purchase as the desk and the books see it; money in paise, the date of possession an India date. */
export type Purchase = {
  id: number;
  inspectionId: number | null;
  vehicleId: number | null;
  vehicleTitle: string;
  registration: string;
  pricePaise: number;
  paymentMethod: PurchaseTable['payment_method'];
  paymentReference: string;
  documents: PurchaseDocument[];
  documentsOther: string;
  possessionDate: string;
  seller: { name: string; phone: string; address: string };
  recordedBy: string;
  createdAt: string;
};

export function toPurchase(row: Selectable<PurchaseTable>): Purchase {
  return {
    id: Number(row.id),
    inspectionId: row.inspection_id === null ? null : Number(row.inspection_id),
    vehicleId: row.vehicle_id === null ? null : Number(row.vehicle_id),
    vehicleTitle: row.vehicle_title,
    registration: row.registration,
    pricePaise: Number(row.price_paise),
    paymentMethod: row.payment_method,
    paymentReference: row.payment_reference,
    documents: JSON.parse(row.documents) as PurchaseDocument[],
    documentsOther: row.documents_other,
    possessionDate: row.possession_date,
    seller: { name: row.seller_name, phone: row.seller_phone, address: row.seller_address },
    recordedBy: row.recorded_by,
    createdAt: indiaIso(Date.parse(row.created_at)),
  };
}

export async function purchaseOfInspection(database: Database, inspectionId: number): Promise<Purchase | null> {
  const row = await database.db.selectFrom('purchases').selectAll().where('inspection_id', '=', inspectionId).executeTakeFirst();
  return row ? toPurchase(row) : null;
}

/** A refusal of one field: its sentence leads and marks the field. */
const refuse = (field: string, message: string) => new InvalidInputError(message, { [field]: message });

/**
 * Records the purchase of an inspection's car. Errors: NotFoundError (no such inspection),
 * ConflictError (the offer not accepted: `offer-not-accepted`; already bought: `purchased`),
 * InvalidInputError (the date of possession in the future or before the acceptance, a phone
 * that is not one, no category for a draft not made yet: with the field).
 */
export async function recordPurchase(services: PurchaseServices, inspectionId: number, input: PurchaseForm & { actorEmail: string }): Promise<Purchase> {
  const row = await services.database.db.selectFrom('inspections').selectAll().where('id', '=', inspectionId).executeTakeFirst();
  if (!row) throw new NotFoundError(t('inspectionNotFound'));
  if (row.offer_status !== 'accepted') throw new ConflictError(t('offerNotAccepted')).because('offer-not-accepted');
  if (await purchaseOfInspection(services.database, inspectionId)) throw new ConflictError(t('alreadyPurchased')).because('purchased');
  const nowMs = services.clock.now();
  // CMVR rule 55B: the dealer reports the car taken into its possession; a day to come was not yet, and
  // the car was not the dealer's to take before the seller accepted.
  const today = indiaDay(nowMs);
  if (input.possessionDate > today) throw refuse('possessionDate', t('possessionFuture'));
  const acceptedOn = row.offer_answered_at ? indiaDay(Date.parse(row.offer_answered_at)) : null;
  if (acceptedOn !== null && input.possessionDate < acceptedOn) throw refuse('possessionDate', t('possessionBeforeAccepted', { day: dayLabel(acceptedOn) }));
  const phone = canonicalPhone(input.sellerPhone);
  if (!phone.ok) throw refuse('sellerPhone', t('sellerPhoneRequired'));
  let vehicleId = row.draft_vehicle_id === null ? null : Number(row.draft_vehicle_id);
  if (vehicleId === null) {
    if (input.categoryId === undefined) throw refuse('categoryId', t('categoryRequired'));
    vehicleId = (await createVehicleDraft(services, inspectionId, input.categoryId)).vehicleId;
  }
  const car = JSON.parse(row.car) as SellCar;
  const vehicle = await services.database.db.selectFrom('vehicles').select(['name', 'registration']).where('id', '=', vehicleId).executeTakeFirst();
  const title = vehicle?.name ?? `${car.make} ${car.model}`;
  const language = await languageOfPerson(services.database, row.user_id);
  const nowIso = new Date(nowMs).toISOString();
  let purchaseRow: Selectable<PurchaseTable>;
  try {
    purchaseRow = await changeAndQueue(services, async (trx) => {
      const inserted = await trx
        .insertInto('purchases')
        .values({
          inspection_id: inspectionId,
          vehicle_id: vehicleId,
          user_id: row.user_id || null,
          vehicle_title: `${car.year} ${title}`,
          registration: vehicle?.registration ?? '',
          price_paise: input.price,
          payment_method: input.method,
          payment_reference: input.reference,
          documents: JSON.stringify(input.documents),
          documents_other: input.documentsOther,
          possession_date: input.possessionDate,
          seller_name: input.sellerName,
          seller_phone: phone.phone,
          seller_address: input.sellerAddress,
          recorded_by: input.actorEmail,
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('vehicles')
        .set({ purchase_price_paise: input.price, purchased_at: input.possessionDate, updated_at: nowIso })
        .where('id', '=', vehicleId)
        .execute();
      await queuePaymentMade(trx, services, { ...inserted, car: `${car.year} ${car.make} ${car.model}`, email: row.email }, language);
      return inserted;
    });
  } catch (error) {
    if (brokenUniqueRule(error, 'purchases', { inspection: { constraint: 'purchases_inspection_uq', column: 'inspection_id' } }) !== null)
      throw new ConflictError(t('alreadyPurchased')).because('purchased');
    throw error;
  }
  const purchase = toPurchase(purchaseRow);
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'purchase',
    entity: 'inspection',
    entityId: inspectionId,
    summary: `Bought ${purchase.vehicleTitle} (vehicle #${vehicleId}) from inspection #${inspectionId} for ${formatPaise(purchase.pricePaise)} by ${purchase.paymentMethod}, reference ${purchase.paymentReference}; possession ${purchase.possessionDate}`,
    after: {
      purchaseId: purchase.id,
      vehicleId,
      pricePaise: purchase.pricePaise,
      paymentMethod: purchase.paymentMethod,
      documents: purchase.documents,
      possessionDate: purchase.possessionDate,
    },
  });
  return purchase;
}

/** The seller's mail and SMS that the money was paid, with its reference, in the seller's language (in the purchase's transaction). */
async function queuePaymentMade(
  db: Kysely<DB>,
  services: PurchaseServices,
  purchase: Selectable<PurchaseTable> & { car: string; email: string },
  language: Language,
): Promise<void> {
  const price = formatPaise(Number(purchase.price_paise));
  const method = t(`method_${purchase.payment_method}`, {}, language);
  const values = { car: purchase.car, price, method, reference: purchase.payment_reference };
  if (purchase.email) {
    const link = new URL(pathInLanguage(`${paths.profile}#inspections`, language), services.config.siteOrigin).href;
    const text = [
      purchase.seller_name ? t('mailGreetingName', { name: purchase.seller_name }, language) : t('mailGreeting', {}, language),
      '',
      t('mailBody', values, language),
      t('mailPossession', { day: dayLabel(purchase.possession_date) }, language),
      '',
      t('mailThanks', {}, language),
      link,
      '',
      t('mailTeam', { site: services.config.siteName }, language),
    ].join('\n');
    await queueMail(db, services, { to: purchase.email, subject: t('mailSubject', { car: purchase.car, price }, language), text });
  }
  const sms = t('sms', { ...values, car: purchase.car.slice(0, 40), site: services.config.siteName }, language);
  await queuePhoneMessage(db, services, {
    userId: purchase.user_id,
    phone: purchase.seller_phone || null,
    language,
    sms,
    whatsapp: whatsappTemplate('car_purchased', values),
    push: pushOfSms(services.config.siteName, sms, `${paths.profile}#inspections`, language),
  });
}
