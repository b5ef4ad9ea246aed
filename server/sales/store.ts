import type { Kysely, Selectable } from 'kysely';
import { indiaIso } from '../../app/lib/india-time.ts';
import type { TaxLine } from '../../app/features/sales/gst.ts';
import type { Database } from '../db/connection.ts';
import type { DB, SaleTable } from '../db/schema.ts';

/** The dealer as an invoice names it, frozen in the sale. */
export type Dealer = { legalName: string; address: string; gstin: string; stateCode: string };

/** A sale as the desk sees it; money in paise. */
export type Sale = {
  id: number;
  status: SaleTable['status'];
  source: SaleTable['source'];
  vehicleId: number | null;
  reservationId: number | null;
  userId: string | null;
  vehicle: { title: string; make: string; model: string; variant: string; year: string; registration: string; chassisNumber: string; engineNumber: string };
  buyer: { name: string; address: string; phone: string; email: string; pan: string };
  supplyState: string;
  language: 'en' | 'hi';
  pricePaise: number;
  tokenPaise: number;
  paidPaise: number;
  paidMethod: string;
  loanPaise: number;
  lender: string;
  purchasePricePaise: number | null;
  invoiceNumber: string;
  invoiceDate: string;
  scheme: SaleTable['scheme'];
  taxablePaise: number;
  taxPaise: number;
  taxLines: TaxLine[];
  dealer: Dealer;
  creditNoteNumber: string | null;
  creditNoteDate: string | null;
  cancelReason: string | null;
  cancelledAt: string | null;
  recordedBy: string;
  createdAt: string;
};

export function saleQuery(db: Kysely<DB>) {
  return db.selectFrom('sales').selectAll();
}

export function toSale(row: Selectable<SaleTable>): Sale {
  return {
    id: Number(row.id),
    status: row.status,
    source: row.source,
    vehicleId: row.vehicle_id === null ? null : Number(row.vehicle_id),
    reservationId: row.reservation_id === null ? null : Number(row.reservation_id),
    userId: row.user_id,
    vehicle: {
      title: row.vehicle_title,
      make: row.make,
      model: row.model,
      variant: row.variant,
      year: row.year,
      registration: row.registration,
      chassisNumber: row.chassis_number,
      engineNumber: row.engine_number,
    },
    buyer: { name: row.buyer_name, address: row.buyer_address, phone: row.buyer_phone, email: row.buyer_email, pan: row.buyer_pan },
    supplyState: row.buyer_state_code,
    language: row.language,
    pricePaise: Number(row.price_paise),
    tokenPaise: Number(row.token_paise),
    paidPaise: Number(row.paid_paise),
    paidMethod: row.paid_method,
    loanPaise: Number(row.loan_paise),
    lender: row.lender,
    purchasePricePaise: row.purchase_price_paise === null ? null : Number(row.purchase_price_paise),
    invoiceNumber: row.invoice_number,
    invoiceDate: row.invoice_date,
    scheme: row.scheme,
    taxablePaise: Number(row.taxable_paise),
    taxPaise: Number(row.tax_paise),
    taxLines: JSON.parse(row.tax_lines) as TaxLine[],
    dealer: JSON.parse(row.dealer) as Dealer,
    creditNoteNumber: row.credit_note_number,
    creditNoteDate: row.credit_note_date,
    cancelReason: row.cancel_reason,
    cancelledAt: row.cancelled_at === null ? null : indiaIso(Date.parse(row.cancelled_at)),
    recordedBy: row.recorded_by,
    createdAt: indiaIso(Date.parse(row.created_at)),
  };
}

export async function findSale(database: Database, id: number): Promise<Sale | null> {
  const row = await saleQuery(database.db).where('id', '=', id).executeTakeFirst();
  return row ? toSale(row) : null;
}

/** The desk's list, newest first. */
export async function listSales(database: Database, options: { limit?: number; offset?: number } = {}): Promise<Sale[]> {
  const rows = await saleQuery(database.db)
    .orderBy('id', 'desc')
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0)
    .execute();
  return rows.map(toSale);
}
