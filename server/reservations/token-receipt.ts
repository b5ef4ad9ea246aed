import type { Kysely } from 'kysely';
import { amountInWords } from '../../app/features/sales/amount-in-words.ts';
import { invoiceNumber, seriesName } from '../../app/features/sales/sale-rules.ts';
import { reservationText } from '../../app/features/reservations/reservation-texts.ts';
import { indiaDay } from '../../app/lib/india-time.ts';
import { formatPaise } from '../../app/lib/money.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import { settingsFor } from '../admin/settings.ts';
import type { DB } from '../db/schema.ts';
import { findIssued, keepDocument, type IssuedDocument } from '../documents/documents.ts';
import { createPdf, dayText } from '../documents/pdf.ts';
import { nextInSeries } from '../documents/series.ts';
import { enqueue } from '../jobs/queue.ts';
import type { AppServices } from '../services.ts';

/**
 * A reservation token's receipt voucher (decision 122). The token is an advance against the sale
 * of the car, and GST rule 50 asks for a receipt voucher when an advance is received: the
 * dealer, a consecutive number of the financial year (`RV/2026-27/00001`), the date, the buyer,
 * what it is for and the amount. The number is taken in the transaction that accepts the
 * payment (a payment that fails gives it back); the PDF is made by a job queued with it, or on
 * first need, and kept privately like the dealer's other documents. The buyer downloads it from
 * the profile and the API; the sale's tax invoice then counts the token towards the price.
 */

export type TokenReceiptServices = Pick<AppServices, 'database' | 'clock' | 'config' | 'settingsCache' | 'privateStorage'>;

export const TOKEN_RECEIPT_JOB = 'reservation-receipt';

/** Takes the next receipt number in `trx`, the payment's transaction, and queues the voucher's making with it. */
export async function issueTokenReceipt(trx: Kysely<DB>, input: { reservationId: number; nowMs: number }): Promise<string> {
  const series = seriesName('receipt', '', input.nowMs);
  const number = invoiceNumber(series, await nextInSeries(trx, series));
  await trx.updateTable('car_reservations').set({ receipt_number: number }).where('id', '=', input.reservationId).execute();
  await enqueue(trx, TOKEN_RECEIPT_JOB, { reservationId: input.reservationId }, { nowMs: input.nowMs });
  return number;
}

/** The receipt voucher of a paid reservation, made and kept on first need; null when it has no receipt number. */
export async function tokenReceipt(services: TokenReceiptServices, reservationId: number): Promise<IssuedDocument | null> {
  const row = await services.database.db
    .selectFrom('car_reservations')
    .select(['id', 'user_id', 'name', 'phone', 'vehicle_title', 'amount_paise', 'payment_id', 'paid_at', 'receipt_number'])
    .where('id', '=', reservationId)
    .executeTakeFirst();
  if (!row?.receipt_number) return null;
  const issued = await findIssued(services.database, 'token-receipt', row.receipt_number);
  if (issued) return issued;
  const language = row.user_id ? await languageOfPerson(services.database, row.user_id) : 'en';
  const settings = await settingsFor(services);
  const dealer = {
    name: settings.dealerLegalName || services.config.siteName,
    address: settings.dealerAddress || services.config.contactAddress,
    gstin: settings.dealerGstin,
  };
  const pdf = await renderReceipt({
    language,
    number: row.receipt_number,
    day: indiaDay(row.paid_at ? Date.parse(row.paid_at) : services.clock.now()),
    dealer,
    buyer: { name: row.name, phone: row.phone },
    against: { id: Number(row.id), car: row.vehicle_title },
    amountPaise: Number(row.amount_paise),
    paymentId: row.payment_id ?? '',
  });
  return keepDocument(services, {
    kind: 'token-receipt',
    number: row.receipt_number,
    ownerKind: 'reservation',
    ownerId: Number(row.id),
    userId: row.user_id || null,
    language,
    pdf,
  });
}

/** The job's work (server/jobs/registry.ts). */
export async function runTokenReceiptJob(services: TokenReceiptServices, payload: unknown): Promise<void> {
  const reservationId = Number((payload as { reservationId?: unknown } | null)?.reservationId);
  if (Number.isSafeInteger(reservationId)) await tokenReceipt(services, reservationId);
}

type ReceiptParticulars = {
  language: 'en' | 'hi';
  number: string;
  day: string;
  dealer: { name: string; address: string; gstin: string };
  buyer: { name: string; phone: string };
  against: { id: number; car: string };
  amountPaise: number;
  paymentId: string;
};

export async function renderReceipt(receipt: ReceiptParticulars): Promise<Buffer> {
  const t = (key: Parameters<typeof reservationText>[0], values?: Record<string, string | number>) => reservationText(key, values, receipt.language);
  const pdf = createPdf({ title: `${t('receiptVoucher')} ${receipt.number}`, author: receipt.dealer.name, language: receipt.language });
  const left = 40;
  const width = 515;
  pdf.text(t('receiptVoucher'), left, 40, { bold: true, size: 18 });
  pdf.text(t('receiptOriginal'), left, 44, { width, align: 'right', color: '#475569' });
  let y = 80;
  const row = (label: string, value: string, options: { bold?: boolean } = {}) => {
    pdf.text(label, left, y, { color: '#475569', width: 150 });
    const height = pdf.heightOf(value, width - 160, { bold: options.bold });
    pdf.text(value, left + 160, y, { width: width - 160, bold: options.bold });
    y += Math.max(16, height + 6);
  };
  row(t('receiptNumber'), receipt.number, { bold: true });
  row(t('receiptDate'), dayText(receipt.day));
  row(
    t('receiptDealer'),
    [receipt.dealer.name, receipt.dealer.address, receipt.dealer.gstin ? `GSTIN ${receipt.dealer.gstin}` : ''].filter(Boolean).join('\n'),
  );
  row(t('receiptFrom'), `${receipt.buyer.name}\n${receipt.buyer.phone}`);
  row(t('receiptAgainst'), t('receiptAgainstText', { id: receipt.against.id, car: receipt.against.car }));
  row(t('receiptAmount'), formatPaise(receipt.amountPaise), { bold: true });
  row(t('receiptInWords'), amountInWords(receipt.amountPaise, receipt.language));
  if (receipt.paymentId) row(t('receiptPayment'), receipt.paymentId);
  y += 10;
  pdf.text(t('receiptNote'), left, y, { width, color: '#334155' });
  y += pdf.heightOf(t('receiptNote'), width) + 40;
  pdf.text(t('receiptSigned', { dealer: receipt.dealer.name }), left, y, { width, align: 'right' });
  return pdf.done();
}
