import { indiaDay, indiaDaysBetween, indiaMidnight } from '../../app/lib/india-time.ts';
import type { TaxLine } from '../../app/features/sales/gst.ts';
import type { Database } from '../db/connection.ts';
import { toPurchase, type Purchase } from '../purchases/purchases.ts';
import { saleQuery, toSale } from '../sales/store.ts';

/**
 * The dealer's books (docs/decisions/118): a month's sales register (each tax invoice of the
 * month, each credit note of the month as a negative row), its purchase register (each car taken
 * into possession that month) and the stock with its cost and age. The figures are the sales'
 * own, frozen at the sale (taxable value and tax lines): nothing is computed again here, so the
 * register says what the invoices said. Money in paise.
 */

export type SalesRegisterRow = {
  kind: 'invoice' | 'creditNote';
  saleId: number;
  number: string;
  date: string;
  buyer: string;
  buyerPan: string;
  supplyState: string;
  car: string;
  registration: string;
  pricePaise: number;
  purchasePricePaise: number | null;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  cessPaise: number;
  totalPaise: number;
};

export type RegisterTotals = Pick<SalesRegisterRow, 'pricePaise' | 'taxablePaise' | 'cgstPaise' | 'sgstPaise' | 'igstPaise' | 'cessPaise' | 'totalPaise'>;

export type StockRow = {
  vehicleId: number;
  name: string;
  registration: string;
  status: 'available' | 'reserved' | 'draft';
  purchasePricePaise: number | null;
  since: string;
  days: number;
};

/** `2026-11` → its first day and the next month's first day, as India dates. */
export function monthDays(month: string): { from: string; to: string } {
  const from = `${month}-01`;
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return { from, to: indiaDay(indiaMidnight(year, monthNumber + 1, 1)) };
}

const taxOf = (lines: TaxLine[], kind: TaxLine['kind']) => lines.filter((line) => line.kind === kind).reduce((sum, line) => sum + line.amountPaise, 0);

/** The month's tax invoices and credit notes, by date then number; a credit note's amounts are the invoice's, negative. */
export async function salesRegister(database: Database, month: string): Promise<{ rows: SalesRegisterRow[]; totals: RegisterTotals }> {
  const { from, to } = monthDays(month);
  const found = await saleQuery(database.db)
    .where((eb) =>
      eb.or([
        eb.and([eb('invoice_date', '>=', from), eb('invoice_date', '<', to)]),
        eb.and([eb('credit_note_date', '>=', from), eb('credit_note_date', '<', to)]),
      ]),
    )
    .orderBy('id')
    .limit(5000)
    .execute();
  const rows: SalesRegisterRow[] = [];
  for (const sale of found.map(toSale)) {
    const base = {
      saleId: sale.id,
      buyer: sale.buyer.name,
      buyerPan: sale.buyer.pan,
      supplyState: sale.supplyState,
      car: [sale.vehicle.year, sale.vehicle.title].filter(Boolean).join(' '),
      registration: sale.vehicle.registration,
      purchasePricePaise: sale.purchasePricePaise,
    };
    const amounts = (sign: 1 | -1) => ({
      pricePaise: sign * sale.pricePaise,
      taxablePaise: sign * sale.taxablePaise,
      cgstPaise: sign * taxOf(sale.taxLines, 'cgst'),
      sgstPaise: sign * taxOf(sale.taxLines, 'sgst'),
      igstPaise: sign * taxOf(sale.taxLines, 'igst'),
      cessPaise: sign * taxOf(sale.taxLines, 'cess'),
      // What the GST return reports: the taxable value and its tax (under the margin scheme, the margin's).
      totalPaise: sign * (sale.taxablePaise + sale.taxPaise),
    });
    if (sale.invoiceDate >= from && sale.invoiceDate < to)
      rows.push({ kind: 'invoice', number: sale.invoiceNumber, date: sale.invoiceDate, ...base, ...amounts(1) });
    if (sale.creditNoteNumber && sale.creditNoteDate && sale.creditNoteDate >= from && sale.creditNoteDate < to)
      rows.push({ kind: 'creditNote', number: sale.creditNoteNumber, date: sale.creditNoteDate, ...base, ...amounts(-1) });
  }
  rows.sort((a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number));
  const totals: RegisterTotals = { pricePaise: 0, taxablePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, cessPaise: 0, totalPaise: 0 };
  for (const row of rows) for (const key of Object.keys(totals) as Array<keyof RegisterTotals>) totals[key] += row[key];
  return { rows, totals };
}

/** The month's purchases, by date of possession. */
export async function purchaseRegister(database: Database, month: string): Promise<{ rows: Purchase[]; totalPaise: number }> {
  const { from, to } = monthDays(month);
  const found = await database.db
    .selectFrom('purchases')
    .selectAll()
    .where('possession_date', '>=', from)
    .where('possession_date', '<', to)
    .orderBy('possession_date')
    .orderBy('id')
    .limit(5000)
    .execute();
  const rows = found.map(toPurchase);
  return { rows, totalPaise: rows.reduce((sum, row) => sum + row.pricePaise, 0) };
}

/** Every car for sale not sold yet, oldest first: since its date of possession, or since it was added. */
export async function stockWithAge(database: Database, nowMs: number): Promise<{ rows: StockRow[]; totalPaise: number }> {
  const found = await database.db
    .selectFrom('vehicles')
    .select(['id', 'name', 'year', 'registration', 'status', 'purchase_price_paise', 'purchased_at', 'created_at'])
    .where('purpose', '=', 'sale')
    .where('status', 'in', ['available', 'reserved', 'draft'])
    .limit(5000)
    .execute();
  const today = indiaDay(nowMs);
  const rows: StockRow[] = found.map((row) => {
    const since = row.purchased_at ?? indiaDay(Date.parse(row.created_at));
    return {
      vehicleId: Number(row.id),
      name: [row.year, row.name].filter(Boolean).join(' '),
      registration: row.registration,
      status: row.status as StockRow['status'],
      purchasePricePaise: row.purchase_price_paise === null ? null : Number(row.purchase_price_paise),
      since,
      days: Math.max(0, indiaDaysBetween(indiaMidnight(since), indiaMidnight(today))),
    };
  });
  rows.sort((a, b) => b.days - a.days || a.vehicleId - b.vehicleId);
  return { rows, totalPaise: rows.reduce((sum, row) => sum + (row.purchasePricePaise ?? 0), 0) };
}

/** The month a page or a file is of: this one (India time) when none is asked for. */
export function thisMonth(nowMs: number): string {
  return indiaDay(nowMs).slice(0, 7);
}
