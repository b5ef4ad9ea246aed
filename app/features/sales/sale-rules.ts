import { indiaDay } from '../../lib/india-time.ts';

/**
 * The rules of a car's sale that the desk's page, the API and the service share (decision 114):
 * the shapes of a PAN, a chassis number (VIN) and an engine number, the financial year and the
 * invoice numbers. Pure: the browser may use it too.
 */

/** A PAN: five letters, four digits, a letter (AAAAA9999A); the fourth letter says the holder's kind (P a person, C a company…). */
export const PAN_SHAPE = /^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/;

/** A PAN as typed, in capitals without spaces. */
export function normalisePan(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

export function isPan(text: string): boolean {
  return PAN_SHAPE.test(text);
}

/**
 * A chassis number: the 17-character VIN (ISO 3779) every car made or sold in India since 2000
 * carries, letters and digits without I, O and Q (they read as 1 and 0).
 */
export const VIN_SHAPE = /^[A-HJ-NPR-Z0-9]{17}$/;

export function normaliseChassis(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

export function isChassisNumber(text: string): boolean {
  return VIN_SHAPE.test(text);
}

/** An engine number: makers use their own shapes, 6 to 20 letters and digits. */
export const ENGINE_SHAPE = /^[A-Z0-9]{6,20}$/;

export function normaliseEngine(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

export function isEngineNumber(text: string): boolean {
  return ENGINE_SHAPE.test(text);
}

/**
 * The financial year (April to March, India time) of a moment, as invoices write it: `2026-27`
 * from 1 April 2026 to 31 March 2027.
 */
export function financialYear(ms: number): string {
  const day = indiaDay(ms);
  const year = Number(day.slice(0, 4));
  const start = Number(day.slice(5, 7)) >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/**
 * The series a financial year has: the sales' tax invoices (`GB/2026-27`), the credit notes of
 * sales and rentals alike (`CN/2026-27`), the rentals' tax invoices (`RI/2026-27`, decision 119) and the reservation tokens' receipt vouchers (`RV/2026-27`, decision 122).
 */
export type InvoiceSeriesKind = 'invoice' | 'credit-note' | 'rental-invoice' | 'receipt';

/** The prefix of the credit notes' series; the invoices' is the dealer's (a setting), never this. */
export const CREDIT_NOTE_PREFIX = 'CN';

/** The prefix of the rentals' tax invoices: a series of their own, so the sales' numbers run without the rentals' between them. */
export const RENTAL_INVOICE_PREFIX = 'RI';

/** The prefix of the receipt vouchers of reservation tokens (GST rule 50, decision 122). */
export const RECEIPT_PREFIX = 'RV';

/**
 * GST rule 46(b) (and rule 53 for credit notes): a consecutive serial number of at most sixteen
 * characters, letters, digits, hyphens and slashes. `GB/2026-27/` takes eleven, so the serial is
 * five digits: 99,999 invoices a year.
 */
export const INVOICE_NUMBER_LENGTH = 16;

export function seriesName(kind: InvoiceSeriesKind, prefix: string, ms: number): string {
  const start = { invoice: prefix, 'credit-note': CREDIT_NOTE_PREFIX, 'rental-invoice': RENTAL_INVOICE_PREFIX, receipt: RECEIPT_PREFIX }[kind];
  return `${start}/${financialYear(ms)}`;
}

/** The `sequence`th number of a series: `GB/2026-27/00123`. */
export function invoiceNumber(series: string, sequence: number): string {
  const digits = INVOICE_NUMBER_LENGTH - series.length - 1;
  const serial = String(sequence);
  if (serial.length > digits) throw new Error(`The series ${series} has no number ${sequence}: at most ${digits} digits fit in sixteen characters.`);
  return `${series}/${serial.padStart(digits, '0')}`;
}

/** The invoices' prefix: two capital letters (GST's sixteen characters leave room for two), never the credit notes' or the rentals'. */
export const INVOICE_PREFIX_SHAPE = /^(?!CN$|RI$|RV$)[A-Z]{2}$/;

/** What a document the dealer issues is (server/documents): a sale's tax invoice, a credit note, a rental's agreement or tax invoice (decision 119). */
export const DOCUMENT_KINDS = ['tax-invoice', 'credit-note', 'delivery-note', 'rental-agreement', 'rental-invoice', 'token-receipt'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
