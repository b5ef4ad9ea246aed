import { formatPaise, paiseToWholeRupees } from '../../app/lib/money.ts';
import { indiaDay } from '../../app/lib/india-time.ts';
import { saleTax, stateOfGstin, type SaleTax } from '../../app/features/sales/gst.ts';
import { invoiceNumber, seriesName } from '../../app/features/sales/sale-rules.ts';
import type { SaleForm } from '../../app/features/sales/schemas.ts';
import { salesText as t } from '../../app/features/sales/sales-texts.ts';
import { recordAudit } from '../audit/audit.ts';
import { settingsFor } from '../admin/settings.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import { acceptedPaise } from '../payments/ledger.ts';
import { enqueue } from '../jobs/queue.ts';
import { requireCanonicalPhone } from '../phone.ts';
import { convertForSale, canConvert } from '../reservations/reservations.ts';
import { findReservation } from '../reservations/store.ts';
import type { AppServices } from '../services.ts';
import { transition } from '../transitions.ts';
import { SALE_TRANSITIONS } from './sale-transitions.ts';
import { findSale, type Dealer, type Sale } from './store.ts';
import { findIssued, keepDocument, type IssuedDocument } from '../documents/documents.ts';
import { nextInSeries } from '../documents/series.ts';
import { renderSaleDocument, type SaleDocumentKind } from './invoice-pdf.ts';
import { deliveryNoteNumber, findDelivery, readStored } from './delivery-store.ts';
import { renderDeliveryNote } from './delivery-pdf.ts';
import { closeRcTransfer, openRcTransfer } from './rc-transfers.ts';

/**
 * The sale of a car (docs/decisions/114): from a buyer's reservation or a walk-in at the desk.
 * One transaction marks the car sold, converts the reservation, takes the next number of the
 * financial year's invoice series and inserts the sale with its tax frozen in it; the database
 * refuses a second live sale of a car (`sales_live_uq`) and a gap in the series (the counter
 * row moves inside the transaction, so a sale that fails gives its number back). A sale is
 * cancelled only by a credit note, with its own series; nothing is deleted.
 */

export type SaleServices = Pick<
  AppServices,
  'database' | 'clock' | 'config' | 'settingsCache' | 'logger' | 'pageCache' | 'listingTotals' | 'changeNotices' | 'privateStorage' | 'jobs'
>;

/** Whether an insert broke "one live sale per car". */
function isLiveSaleClash(error: unknown): boolean {
  return brokenUniqueRule(error, 'sales', { live: { constraint: 'sales_live_uq', column: 'vehicle_id' } }) !== null;
}

/** The car's status changed: public pages and listing counts, here and on the other instances, show it at once. */
async function carChanged(services: SaleServices): Promise<void> {
  services.pageCache.clear();
  services.listingTotals.clear();
  await services.changeNotices.announce().catch((error: unknown) => services.logger.warn({ err: error }, 'change notices: could not tell the other instances'));
}

/** The dealer as the settings give it, or the refusal: no tax invoice without a GSTIN, a legal name and an address. */
async function dealerOf(services: SaleServices) {
  const settings = await settingsFor(services);
  if (settings.dealerGstin === '' || settings.dealerLegalName === '' || settings.dealerAddress === '')
    throw new InvalidInputError(t('noGstin')).because('dealer-gstin-missing');
  const dealer: Dealer = {
    legalName: settings.dealerLegalName,
    address: settings.dealerAddress,
    gstin: settings.dealerGstin,
    stateCode: stateOfGstin(settings.dealerGstin),
  };
  return { settings, dealer };
}

/** A refusal of one field: its sentence leads and marks the field. */
const refuse = (field: string, message: string) => new InvalidInputError(message, { [field]: message });

/**
 * Records a sale. Errors: InvalidInputError (no GSTIN in the settings: `dealer-gstin-missing`;
 * a PAN missing above the limit, amounts that do not add up, a purchase price missing under the
 * margin scheme: with the field), NotFoundError (no such car or reservation), ConflictError
 * (the car sold: `sold`; reserved by a buyer: `reserved`; the reservation not active:
 * `reservation-not-active`).
 */
export async function recordSale(services: SaleServices, input: SaleForm & { actorEmail: string }): Promise<Sale> {
  const { settings, dealer } = await dealerOf(services);
  const phone = requireCanonicalPhone(input.buyerPhone);
  // The car and the token: the reservation's, or the walk-in's car.
  let vehicleId = input.vehicleId;
  let tokenPaise = 0;
  let userId: string | null = null;
  if (input.reservationId !== undefined) {
    const reservation = await findReservation(services.database, input.reservationId);
    if (!reservation) throw new NotFoundError(t('reservationNotFound'));
    if (!canConvert(reservation.status)) throw new ConflictError(t('reservationNotActive')).because('reservation-not-active');
    if (reservation.vehicleId === null || (vehicleId !== undefined && vehicleId !== reservation.vehicleId)) throw new NotFoundError(t('notForSale'));
    vehicleId = reservation.vehicleId;
    userId = reservation.userId || null;
  } else if (input.buyerEmail !== '') {
    // A walk-in with an account: the invoice is on their profile too.
    const account = await services.database.db.selectFrom('user').select('id').where('email', '=', input.buyerEmail.toLowerCase()).executeTakeFirst();
    userId = account?.id ?? null;
  }
  const vehicle = await services.database.db
    .selectFrom('vehicles')
    .select(['id', 'name', 'make', 'model', 'variant', 'year', 'registration', 'status', 'purpose', 'purchase_price_paise'])
    .where('id', '=', vehicleId!)
    .executeTakeFirst();
  if (!vehicle || vehicle.purpose !== 'sale') throw new NotFoundError(t('notForSale'));
  if (vehicle.status === 'sold') throw new ConflictError(t('carSold')).because('sold');
  if (input.reservationId === undefined && vehicle.status === 'reserved') throw new ConflictError(t('carReserved')).because('reserved');
  if (input.reservationId !== undefined) {
    // The token as the ledger has it (read again in the transaction).
    tokenPaise = await acceptedPaise(services.database.db, { kind: 'reservation', id: input.reservationId });
  }
  const checkMoney = (token: number) => {
    if (token + input.paid + input.loan !== input.price)
      throw refuse(
        'paid',
        t('paidMismatch', { token: formatPaise(token), paid: formatPaise(input.paid), loan: formatPaise(input.loan), price: formatPaise(input.price) }),
      );
  };
  checkMoney(tokenPaise);
  // A car bought from a seller knows what the dealer paid (decision 118): the desk need not type it again.
  const purchasePrice = input.purchasePrice ?? (vehicle.purchase_price_paise === null ? null : Number(vehicle.purchase_price_paise));
  if (input.buyerPan === '' && input.price > settings.salePanThresholdRupees * 100)
    throw refuse('buyerPan', t('panRequired', { threshold: formatPaise(settings.salePanThresholdRupees * 100) }));
  if (settings.gstScheme === 'margin' && purchasePrice === null) throw refuse('purchasePrice', t('purchaseRequired'));
  const tax: SaleTax = saleTax({
    scheme: settings.gstScheme,
    pricePaise: input.price,
    purchasePaise: purchasePrice,
    carClass: input.carClass,
    rates: {
      marginRatePercent: settings.gstMarginRatePercent,
      smallCarRatePercent: settings.gstSmallCarRatePercent,
      largeCarRatePercent: settings.gstLargeCarRatePercent,
      largeCarCessPercent: settings.gstLargeCarCessPercent,
    },
    dealerState: dealer.stateCode,
    supplyState: input.supplyState,
  });
  const nowMs = services.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  let saleId: number;
  try {
    saleId = await services.database.db.transaction().execute(async (trx) => {
      if (input.reservationId !== undefined) {
        const converted = await convertForSale(trx, { reservationId: input.reservationId, salePrice: paiseToWholeRupees(input.price), nowIso });
        if (!converted) throw new ConflictError(t('reservationNotActive')).because('reservation-not-active');
        checkMoney(converted.tokenPaise);
        tokenPaise = converted.tokenPaise;
      }
      const sold = await trx
        .updateTable('vehicles')
        .set({ status: 'sold', sold_price: paiseToWholeRupees(input.price), sold_at: indiaDay(nowMs), updated_at: nowIso })
        .where('id', '=', vehicle.id)
        .where('status', 'in', input.reservationId !== undefined ? ['reserved', 'available'] : ['available', 'draft'])
        .returning('id')
        .executeTakeFirst();
      if (!sold) throw new ConflictError(t('carSold')).because('sold');
      const series = seriesName('invoice', settings.invoicePrefix, nowMs);
      const number = invoiceNumber(series, await nextInSeries(trx, series));
      const inserted = await trx
        .insertInto('sales')
        .values({
          vehicle_id: vehicle.id,
          source: input.reservationId !== undefined ? 'reservation' : 'desk',
          reservation_id: input.reservationId ?? null,
          user_id: userId,
          vehicle_title: vehicle.name,
          make: vehicle.make,
          model: vehicle.model,
          variant: vehicle.variant,
          year: vehicle.year,
          registration: vehicle.registration,
          chassis_number: input.chassisNumber,
          engine_number: input.engineNumber,
          buyer_name: input.buyerName,
          buyer_address: input.buyerAddress,
          buyer_phone: phone,
          buyer_email: input.buyerEmail,
          buyer_pan: input.buyerPan,
          buyer_state_code: input.supplyState,
          language: input.language,
          price_paise: input.price,
          token_paise: tokenPaise,
          paid_paise: input.paid,
          paid_method: input.paidMethod,
          loan_paise: input.loan,
          lender: input.lender,
          purchase_price_paise: purchasePrice,
          invoice_number: number,
          invoice_date: indiaDay(nowMs),
          scheme: tax.scheme,
          taxable_paise: tax.taxablePaise,
          tax_paise: tax.taxPaise,
          tax_lines: JSON.stringify(tax.lines),
          dealer: JSON.stringify(dealer),
          status: 'recorded',
          credit_note_number: null,
          credit_note_date: null,
          cancel_reason: null,
          cancelled_by: null,
          cancelled_at: null,
          recorded_by: input.actorEmail,
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The registration transfer starts with the sale (decision 117).
      await openRcTransfer(trx, { saleId: Number(inserted.id), soldMs: nowMs });
      // The invoice is made by a job queued with the sale: a crash after the commit loses nothing.
      await enqueue(trx, SALE_DOCUMENTS_JOB, { saleId: Number(inserted.id) }, { nowMs });
      return Number(inserted.id);
    });
  } catch (error) {
    if (isLiveSaleClash(error)) throw new ConflictError(t('carSold')).because('sold');
    throw error;
  }
  services.jobs.wake();
  await carChanged(services);
  const sale = (await findSale(services.database, saleId))!;
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'sell',
    entity: 'sale',
    entityId: sale.id,
    summary: `Sold ${sale.vehicle.title} to ${sale.buyer.name} for ${formatPaise(sale.pricePaise)}: invoice ${sale.invoiceNumber}${
      sale.reservationId === null ? '' : `, the ${formatPaise(sale.tokenPaise)} token of reservation #${sale.reservationId} counted`
    }`,
    after: { invoiceNumber: sale.invoiceNumber, pricePaise: sale.pricePaise, taxPaise: sale.taxPaise, reservationId: sale.reservationId },
  });
  return sale;
}

/**
 * Cancels a recorded sale with a credit note (the next number of the year's credit-note series)
 * for its whole value; the car is back in stock. Errors: NotFoundError, ConflictError (already
 * cancelled: `cancelled`), InvalidInputError (no reason).
 */
export async function cancelSale(services: SaleServices, input: { saleId: number; reason: string; actorEmail: string }): Promise<Sale> {
  const reason = input.reason.trim();
  if (reason === '') throw refuse('reason', t('cancelReasonRequired'));
  const before = await findSale(services.database, input.saleId);
  if (!before) throw new NotFoundError(t('saleNotFound'));
  const to = transition(SALE_TRANSITIONS, before.status, 'cancel', 'desk');
  if (to === null) throw new ConflictError(t('alreadyCancelled', { number: before.creditNoteNumber ?? '' })).because('cancelled');
  const nowMs = services.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const done = await services.database.db.transaction().execute(async (trx) => {
    const series = seriesName('credit-note', '', nowMs);
    const number = invoiceNumber(series, await nextInSeries(trx, series));
    const row = await trx
      .updateTable('sales')
      .set({
        status: to,
        credit_note_number: number,
        credit_note_date: indiaDay(nowMs),
        cancel_reason: reason.slice(0, 300),
        cancelled_by: input.actorEmail,
        cancelled_at: nowIso,
        updated_at: nowIso,
      })
      .where('id', '=', before.id)
      .where('status', '=', before.status)
      .returning('vehicle_id')
      .executeTakeFirst();
    // Lost to another cancel: its number goes back with the rollback.
    if (!row) throw new ConflictError(t('alreadyCancelled', { number: '' })).because('cancelled');
    if (row.vehicle_id !== null)
      await trx
        .updateTable('vehicles')
        .set({ status: 'available', sold_price: null, sold_at: null, updated_at: nowIso })
        .where('id', '=', Number(row.vehicle_id))
        .where('status', '=', 'sold')
        .execute();
    await closeRcTransfer(trx, { saleId: before.id, nowMs });
    await enqueue(trx, SALE_DOCUMENTS_JOB, { saleId: before.id }, { nowMs });
    return true;
  });
  services.jobs.wake();
  if (done) await carChanged(services);
  const after = (await findSale(services.database, before.id))!;
  await recordAudit(services, {
    actorEmail: input.actorEmail,
    action: 'cancel',
    entity: 'sale',
    entityId: before.id,
    summary: `Cancelled the sale of ${before.vehicle.title} (invoice ${before.invoiceNumber}) by credit note ${after.creditNoteNumber}: ${reason}`,
    before: { status: before.status },
    after: { status: after.status, creditNoteNumber: after.creditNoteNumber },
  });
  return after;
}

/** The document of `kind` for a sale, made and kept on first need. */
export async function saleDocument(services: SaleServices, sale: Sale, kind: SaleDocumentKind): Promise<IssuedDocument> {
  const number = kind === 'tax-invoice' ? sale.invoiceNumber : sale.creditNoteNumber;
  if (number === null) throw new NotFoundError(t('documentNotFound'));
  const issued = await findIssued(services.database, kind, number);
  if (issued) return issued;
  return keepDocument(services, {
    kind,
    number,
    ownerKind: 'sale',
    ownerId: sale.id,
    userId: sale.userId,
    language: sale.language,
    pdf: await renderSaleDocument(sale, kind),
  });
}

/** The delivery note of a sale whose car was handed over (decision 116), made and kept on first need; null before the handover. */
export async function deliveryNoteDocument(services: SaleServices, sale: Sale): Promise<IssuedDocument | null> {
  const delivery = await findDelivery(services.database, sale.id);
  if (!delivery) return null;
  const number = deliveryNoteNumber(sale.invoiceNumber);
  const issued = await findIssued(services.database, 'delivery-note', number);
  if (issued) return issued;
  const signature = delivery.signatureKey === null ? null : await readStored(services.privateStorage, delivery.signatureKey);
  return keepDocument(services, {
    kind: 'delivery-note',
    number,
    ownerKind: 'sale',
    ownerId: sale.id,
    userId: sale.userId,
    language: sale.language,
    pdf: await renderDeliveryNote(sale, delivery, number, signature),
  });
}

/** The job that makes a sale's documents once the sale (or its cancel, or its delivery) is committed. */
export const SALE_DOCUMENTS_JOB = 'sale-documents';

/**
 * Every document the sale has by now: its tax invoice, the delivery note of a car handed over,
 * and the credit note of a cancelled sale, each made on first need.
 */
export async function issueSaleDocuments(services: SaleServices, sale: Sale): Promise<IssuedDocument[]> {
  const documents = [await saleDocument(services, sale, 'tax-invoice')];
  const deliveryNote = await deliveryNoteDocument(services, sale);
  if (deliveryNote) documents.push(deliveryNote);
  if (sale.status === 'cancelled') documents.push(await saleDocument(services, sale, 'credit-note'));
  return documents;
}

/** The job's work (server/jobs/registry.ts): a sale that no longer exists has nothing to make. */
export async function runSaleDocumentsJob(services: SaleServices, payload: unknown): Promise<void> {
  const saleId = Number((payload as { saleId?: unknown } | null)?.saleId);
  if (!Number.isSafeInteger(saleId)) return;
  const sale = await findSale(services.database, saleId);
  if (sale) await issueSaleDocuments(services, sale);
}

/** A sale with its documents, for the desk: those the job has not made yet are made now. */
export async function saleWithDocuments(services: SaleServices, id: number): Promise<{ sale: Sale; documents: IssuedDocument[] }> {
  const sale = await findSale(services.database, id);
  if (!sale) throw new NotFoundError(t('saleNotFound'));
  return { sale, documents: await issueSaleDocuments(services, sale) };
}
