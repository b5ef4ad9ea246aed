import type { Kysely } from 'kysely';
import { stateOfGstin } from '../../app/features/sales/gst.ts';
import { invoiceNumber, seriesName } from '../../app/features/sales/sale-rules.ts';
import { rentalFacts } from '../../app/features/rentals/rental-facts.ts';
import type { BookingStatus } from '../../app/features/rentals/rentals.ts';
import { indiaDay } from '../../app/lib/india-time.ts';
import { getProfile, languageOfPerson, personName } from '../accounts/profiles.ts';
import type { Settings } from '../admin/settings.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { documentsOf, findIssued, keepDocument, type IssuedDocument } from '../documents/documents.ts';
import { nextInSeries } from '../documents/series.ts';
import { enqueue } from '../jobs/queue.ts';
import type { Storage } from '../media/storage.ts';
import { getBooking } from './bookings.ts';
import { getLicence } from './licences.ts';
import { renderRentalAgreement, renderRentalInvoice } from './rental-pdf.ts';
import { rentalInvoiceFigures, type InvoiceDealer, type RentalInvoice } from './rental-invoice.ts';
import { rentalPolicyOf, rentalSettings, type Booking, type RentalServices } from './store.ts';

/**
 * A rental's documents (decision 119): the agreement, made once the desk confirms the booking,
 * and the tax invoice, whose number and figures the settlement takes and freezes in the booking.
 * Both are made by a job queued in the change's transaction, or on first need (the desk's page,
 * a download), and kept privately like a sale's (server/documents); the renter downloads them
 * from the profile and the API, the desk from the booking's page, nobody else.
 */

export type RentalDocumentServices = RentalServices & { privateStorage: Storage; config: { contactAddress: string; siteName: string } };

/** The job that makes a booking's documents once its confirmation (or settlement) is committed. */
export const RENTAL_DOCUMENTS_JOB = 'rental-documents';

/** A booking the desk confirmed has its agreement, whatever happened to it after (a cancel keeps the one made). */
const AGREED: readonly BookingStatus[] = ['confirmed', 'active', 'returned', 'closed', 'no_show'];

/** The agreement's number: the booking's, as the renter and the desk call it. */
export const agreementNumber = (bookingId: number) => `RA-${bookingId}`;

/** Queues the making of a booking's documents in `db`, the transaction of the change that calls for them. */
export async function queueRentalDocuments(db: Kysely<DB>, bookingId: number, nowMs: number): Promise<void> {
  await enqueue(db, RENTAL_DOCUMENTS_JOB, { bookingId }, { nowMs });
}

/** The dealer an invoice names, or null when the settings lack the GSTIN, the legal name or the address. */
export function invoiceDealer(settings: Settings): InvoiceDealer | null {
  if (settings.dealerGstin === '' || settings.dealerLegalName === '' || settings.dealerAddress === '') return null;
  return { legalName: settings.dealerLegalName, address: settings.dealerAddress, gstin: settings.dealerGstin, stateCode: stateOfGstin(settings.dealerGstin) };
}

/** The renter as the documents name them: the profile's name and phone, the licence's number. */
export async function renterOf(database: Database, userId: string): Promise<{ name: string; phone: string; licenceNumber: string }> {
  if (!userId) return { name: '', phone: '', licenceNumber: '' };
  const [profile, licence] = await Promise.all([getProfile(database, userId), getLicence(database, userId)]);
  // The account's name only when the profile has none.
  const user = profile?.name ? null : await database.db.selectFrom('user').select(['name']).where('id', '=', userId).executeTakeFirst();
  return { name: personName(profile, user), phone: profile?.phone ?? '', licenceNumber: licence?.number ?? '' };
}

async function registrationOf(database: Database, vehicleId: number): Promise<string> {
  const row = await database.db.selectFrom('vehicles').select('registration').where('id', '=', vehicleId).executeTakeFirst();
  return row?.registration ?? '';
}

/** What the settlement needs to issue the invoice, read before its transaction. */
export type InvoiceContext = { dealer: InvoiceDealer | null; renter: { name: string; phone: string }; language: 'en' | 'hi'; registration: string };

export async function invoiceContext(services: RentalServices, booking: Booking): Promise<InvoiceContext> {
  const [settings, renter, language, registration] = await Promise.all([
    rentalSettings(services),
    renterOf(services.database, booking.userId),
    booking.userId ? languageOfPerson(services.database, booking.userId) : Promise.resolve('en' as const),
    registrationOf(services.database, booking.vehicleId),
  ]);
  return { dealer: invoiceDealer(settings), renter: { name: renter.name, phone: renter.phone }, language, registration };
}

/**
 * Issues the settlement's tax invoice in `trx`, the settlement's transaction: the next number of
 * the year's rental series (a settlement that fails gives it back) and the figures, frozen in
 * the booking; its PDF is queued. Without the dealer's GSTIN, name and address no invoice is
 * issued and the booking says why (`invoice_withheld`), so the desk can see it; the settlement stands.
 */
export async function issueRentalInvoiceIn(
  trx: Kysely<DB>,
  input: { booking: Booking; context: InvoiceContext; depositReturned: number; nowMs: number },
): Promise<RentalInvoice | null> {
  const { booking, context, nowMs } = input;
  if (context.dealer === null) {
    await trx.updateTable('rental_bookings').set({ invoice_withheld: 'dealer-gstin-missing' }).where('id', '=', booking.id).execute();
    return null;
  }
  const series = seriesName('rental-invoice', '', nowMs);
  const invoice: RentalInvoice = {
    number: invoiceNumber(series, await nextInSeries(trx, series)),
    date: indiaDay(nowMs),
    language: context.language,
    dealer: context.dealer,
    renter: context.renter,
    car: { name: booking.carName, registration: context.registration },
    // The car is handed over or delivered in the dealer's state, and a renter is not registered for GST: the supply is the dealer's state's.
    supplyState: context.dealer.stateCode,
    ...rentalInvoiceFigures({
      quote: booking.quote,
      charges: booking.charges,
      depositReturned: input.depositReturned,
      dealerState: context.dealer.stateCode,
      supplyState: context.dealer.stateCode,
    }),
  };
  await trx
    .updateTable('rental_bookings')
    .set({ invoice_number: invoice.number, invoice: JSON.stringify(invoice), invoice_withheld: null })
    .where('id', '=', booking.id)
    .execute();
  await queueRentalDocuments(trx, booking.id, nowMs);
  return invoice;
}

async function agreementOf(services: RentalDocumentServices, booking: Booking): Promise<IssuedDocument> {
  const number = agreementNumber(booking.id);
  const issued = await findIssued(services.database, 'rental-agreement', number);
  if (issued) return issued;
  const [settings, renter, language, registration] = await Promise.all([
    rentalSettings(services),
    renterOf(services.database, booking.userId),
    booking.userId ? languageOfPerson(services.database, booking.userId) : Promise.resolve('en' as const),
    registrationOf(services.database, booking.vehicleId),
  ]);
  const pdf = await renderRentalAgreement(booking, {
    number,
    date: indiaDay(services.clock.now()),
    language,
    // An agreement needs no GSTIN: without the settings' particulars it names the site and its address.
    dealer: {
      legalName: settings.dealerLegalName || services.config.siteName,
      address: settings.dealerAddress || services.config.contactAddress,
      gstin: settings.dealerGstin,
    },
    renter,
    registration,
    hubAddress: services.config.contactAddress,
    // The terms from where /rent/terms reads them: the car's as booked, the settings' as they are.
    terms: rentalFacts(booking.terms, rentalPolicyOf(settings), language),
  });
  return keepDocument(services, {
    kind: 'rental-agreement',
    number,
    ownerKind: 'rental-booking',
    ownerId: booking.id,
    userId: booking.userId || null,
    language,
    pdf,
  });
}

async function invoiceOf(services: RentalDocumentServices, booking: Booking, invoice: RentalInvoice): Promise<IssuedDocument> {
  const issued = await findIssued(services.database, 'rental-invoice', invoice.number);
  if (issued) return issued;
  return keepDocument(services, {
    kind: 'rental-invoice',
    number: invoice.number,
    ownerKind: 'rental-booking',
    ownerId: booking.id,
    userId: booking.userId || null,
    language: invoice.language,
    pdf: await renderRentalInvoice(booking, invoice),
  });
}

/** Every document the booking has by now, each made on first need: the agreement once confirmed, the invoice once issued. */
export async function issueRentalDocuments(services: RentalDocumentServices, booking: Booking): Promise<IssuedDocument[]> {
  if (AGREED.includes(booking.status)) await agreementOf(services, booking);
  if (booking.invoice) await invoiceOf(services, booking, booking.invoice);
  return documentsOf(services.database, 'rental-booking', booking.id);
}

/** The job's work (server/jobs/registry.ts): a booking that no longer exists has nothing to make. */
export async function runRentalDocumentsJob(services: RentalDocumentServices, payload: unknown): Promise<void> {
  const bookingId = Number((payload as { bookingId?: unknown } | null)?.bookingId);
  if (!Number.isSafeInteger(bookingId)) return;
  const booking = await getBooking(services.database, bookingId);
  if (booking) await issueRentalDocuments(services, booking);
}
