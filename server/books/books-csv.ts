import { purchasesText as t } from '../../app/features/purchases/purchases-texts.ts';
import { toCsv } from '../leads/csv.ts';
import type { Purchase } from '../purchases/purchases.ts';
import type { RegisterTotals, SalesRegisterRow, StockRow } from './books.ts';

/**
 * The books as CSV for the accountant (decision 118): UTF-8 with a byte-order mark (Excel),
 * amounts in rupees with two decimals and no grouping, so the sheet adds them; text cells
 * guarded against formulas (toCsv). Headers in the language of the request.
 */

/** Paise as a sheet's amount: '123456.50', '-1200.00'. */
export function csvRupees(paise: number | null): string {
  if (paise === null) return '';
  const sign = paise < 0 ? '-' : '';
  const whole = Math.abs(paise);
  return `${sign}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

export function salesRegisterCsv(register: { rows: SalesRegisterRow[]; totals: RegisterTotals }): string {
  const headers = [
    t('col_kind'),
    t('col_number'),
    t('col_date'),
    t('col_buyer'),
    t('col_buyerGstinPan'),
    t('col_supplyState'),
    t('col_car'),
    t('col_registration'),
    t('col_price'),
    t('col_purchasePrice'),
    t('col_taxable'),
    t('col_cgst'),
    t('col_sgst'),
    t('col_igst'),
    t('col_cess'),
    t('col_total'),
  ];
  const money = (row: RegisterTotals) =>
    [row.pricePaise, row.taxablePaise, row.cgstPaise, row.sgstPaise, row.igstPaise, row.cessPaise, row.totalPaise].map(csvRupees);
  const rows = register.rows.map((row) => {
    const [price, ...rest] = money(row);
    return [
      t(`kind_${row.kind}`),
      row.number,
      row.date,
      row.buyer,
      row.buyerPan,
      row.supplyState,
      row.car,
      row.registration,
      price,
      csvRupees(row.purchasePricePaise),
      ...rest,
    ];
  });
  const [price, ...rest] = money(register.totals);
  rows.push([t('totals'), '', '', '', '', '', '', '', price, '', ...rest]);
  return toCsv(headers, rows);
}

export function purchaseRegisterCsv(register: { rows: Purchase[]; totalPaise: number }): string {
  const headers = [t('col_possession'), t('col_seller'), t('col_car'), t('col_registration'), t('col_price'), t('methodLabel'), t('col_paymentReference')];
  const rows = register.rows.map((row) => [
    row.possessionDate,
    row.seller.name,
    row.vehicleTitle,
    row.registration,
    csvRupees(row.pricePaise),
    t(`method_${row.paymentMethod}`),
    row.paymentReference,
  ]);
  rows.push([t('totals'), '', '', '', csvRupees(register.totalPaise), '', '']);
  return toCsv(headers, rows);
}

export function stockCsv(stock: { rows: StockRow[]; totalPaise: number }): string {
  const headers = [t('col_car'), t('col_registration'), t('col_status'), t('col_purchasePrice'), t('col_since'), t('col_days')];
  const rows = stock.rows.map((row) => [row.name, row.registration, t(`status_${row.status}`), csvRupees(row.purchasePricePaise), row.since, String(row.days)]);
  rows.push([t('totals'), '', '', csvRupees(stock.totalPaise), '', '']);
  return toCsv(headers, rows);
}
