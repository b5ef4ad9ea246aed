import { data, Form } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { purchaseRegister, salesRegister, stockWithAge, thisMonth } from '../../../server/books/books.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { FormMessage, inputClass, primaryButton, secondaryButton } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { MONTH_PATTERN } from '../../features/purchases/schemas.ts';
import { purchasesText as t } from '../../features/purchases/purchases-texts.ts';
import { formatPaise } from '../../lib/money.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/books';

/**
 * The dealer's books (decision 118): a month's sales register (tax invoices, credit notes as
 * negative rows) and purchase register with their totals, and the stock with its cost and age,
 * oldest first; each also as CSV for the accountant. The month is India time's, this one unless
 * asked; a month that is not one is told on the page.
 */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('booksTitle'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const nowMs = services.clock.now();
  const asked = new URL(request.url).searchParams.get('month');
  const valid = asked === null || MONTH_PATTERN.test(asked);
  const month = asked !== null && valid ? asked : thisMonth(nowMs);
  const [sales, purchases, stock] = await Promise.all([
    salesRegister(services.database, month),
    purchaseRegister(services.database, month),
    stockWithAge(services.database, nowMs),
  ]);
  return data({ month, typed: asked ?? month, monthError: valid ? null : t('monthInvalid'), sales, purchases, stock }, { status: valid ? 200 : 400 });
}

const card = 'flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5';
const th = 'whitespace-nowrap px-2 py-1.5 text-left font-semibold';
const thNumber = 'whitespace-nowrap px-2 py-1.5 text-right font-semibold';
const td = 'px-2 py-1.5 align-top';
const tdNumber = 'whitespace-nowrap px-2 py-1.5 text-right align-top tabular-nums';
// A credit note's amounts read −₹4,20,000, the sign before the rupee.
const money = (paise: number | null) => (paise === null ? '—' : paise < 0 ? `−${formatPaise(-paise)}` : formatPaise(paise));

export default function Books({ loaderData }: Route.ComponentProps) {
  const { month, typed, monthError, sales, purchases, stock } = loaderData;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('booksTitle')} />
      <p className="text-slate-700">{t('booksIntro')}</p>
      <Form method="get" className="flex flex-wrap items-end gap-3" noValidate>
        <label className="flex flex-col gap-1 text-sm font-semibold">
          {t('monthLabel')}
          <input
            type="month"
            name="month"
            defaultValue={typed}
            className={inputClass}
            aria-invalid={monthError ? true : undefined}
            aria-describedby={monthError ? 'month-error' : undefined}
          />
        </label>
        <button type="submit" className={primaryButton}>
          {t('show')}
        </button>
        {monthError ? (
          <p id="month-error" className="w-full text-sm font-medium text-red-700">
            {monthError}
          </p>
        ) : null}
      </Form>
      {monthError ? <FormMessage tone="error">{monthError}</FormMessage> : null}

      <section className={card} aria-labelledby="sales-register">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="sales-register" className="mr-auto text-lg font-bold">
            {t('salesRegister')} · {month}
          </h2>
          <a href={adminPaths.booksCsv('sales', month)} className={secondaryButton} download>
            {t('downloadCsv')}
          </a>
        </div>
        {sales.rows.length === 0 ? (
          <p className="text-slate-600">{t('noSales')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('col_number')}</th>
                  <th className={th}>{t('col_date')}</th>
                  <th className={th}>{t('col_buyer')}</th>
                  <th className={th}>{t('col_buyerGstinPan')}</th>
                  <th className={th}>{t('col_supplyState')}</th>
                  <th className={th}>{t('col_car')}</th>
                  <th className={th}>{t('col_registration')}</th>
                  <th className={thNumber}>{t('col_price')}</th>
                  <th className={thNumber}>{t('col_purchasePrice')}</th>
                  <th className={thNumber}>{t('col_taxable')}</th>
                  <th className={thNumber}>{t('col_cgst')}</th>
                  <th className={thNumber}>{t('col_sgst')}</th>
                  <th className={thNumber}>{t('col_igst')}</th>
                  <th className={thNumber}>{t('col_cess')}</th>
                  <th className={thNumber}>{t('col_total')}</th>
                </tr>
              </thead>
              <tbody>
                {sales.rows.map((row) => (
                  <tr key={`${row.kind}-${row.number}`} className="border-t border-slate-200" data-kind={row.kind}>
                    <td className={td}>
                      <a href={adminPaths.sale(row.saleId)} className="whitespace-nowrap font-semibold text-brand-700 underline">
                        {row.number}
                      </a>
                      <span className="block text-xs text-slate-600">{t(`kind_${row.kind}`)}</span>
                    </td>
                    <td className={`${td} whitespace-nowrap`}>{row.date}</td>
                    <td className={td}>{row.buyer}</td>
                    <td className={td}>{row.buyerPan || '—'}</td>
                    <td className={td}>{row.supplyState}</td>
                    <td className={`${td} min-w-40`}>{row.car}</td>
                    <td className={`${td} whitespace-nowrap`}>{row.registration || '—'}</td>
                    <td className={tdNumber}>{money(row.pricePaise)}</td>
                    <td className={tdNumber}>{money(row.purchasePricePaise)}</td>
                    <td className={tdNumber}>{money(row.taxablePaise)}</td>
                    <td className={tdNumber}>{money(row.cgstPaise)}</td>
                    <td className={tdNumber}>{money(row.sgstPaise)}</td>
                    <td className={tdNumber}>{money(row.igstPaise)}</td>
                    <td className={tdNumber}>{money(row.cessPaise)}</td>
                    <td className={tdNumber}>{money(row.totalPaise)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="border-t-2 border-slate-300 font-semibold">
                  <td className={td} colSpan={7}>
                    {t('totals')}
                  </td>
                  <td className={tdNumber}>{money(sales.totals.pricePaise)}</td>
                  <td className={tdNumber} />
                  <td className={tdNumber}>{money(sales.totals.taxablePaise)}</td>
                  <td className={tdNumber}>{money(sales.totals.cgstPaise)}</td>
                  <td className={tdNumber}>{money(sales.totals.sgstPaise)}</td>
                  <td className={tdNumber}>{money(sales.totals.igstPaise)}</td>
                  <td className={tdNumber}>{money(sales.totals.cessPaise)}</td>
                  <td className={tdNumber}>{money(sales.totals.totalPaise)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>

      <section className={card} aria-labelledby="purchase-register">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="purchase-register" className="mr-auto text-lg font-bold">
            {t('purchaseRegister')} · {month}
          </h2>
          <a href={adminPaths.booksCsv('purchases', month)} className={secondaryButton} download>
            {t('downloadCsv')}
          </a>
        </div>
        {purchases.rows.length === 0 ? (
          <p className="text-slate-600">{t('noPurchases')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <th className={th}>{t('col_possession')}</th>
                  <th className={th}>{t('col_seller')}</th>
                  <th className={th}>{t('col_car')}</th>
                  <th className={th}>{t('col_registration')}</th>
                  <th className={thNumber}>{t('col_price')}</th>
                  <th className={th}>{t('col_paymentReference')}</th>
                </tr>
              </thead>
              <tbody>
                {purchases.rows.map((row) => (
                  <tr key={row.id} className="border-t border-slate-200">
                    <td className={`${td} whitespace-nowrap`}>{row.possessionDate}</td>
                    <td className={td}>{row.seller.name}</td>
                    <td className={td}>
                      {row.inspectionId === null ? (
                        row.vehicleTitle
                      ) : (
                        <a href={adminPaths.inspection(row.inspectionId)} className="text-brand-700 underline">
                          {row.vehicleTitle}
                        </a>
                      )}
                    </td>
                    <td className={`${td} whitespace-nowrap`}>{row.registration || '—'}</td>
                    <td className={tdNumber}>{money(row.pricePaise)}</td>
                    <td className={td}>
                      {t(`method_${row.paymentMethod}`)} · {row.paymentReference}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="border-t-2 border-slate-300 font-semibold">
                  <td className={td} colSpan={4}>
                    {t('totals')}
                  </td>
                  <td className={tdNumber}>{money(purchases.totalPaise)}</td>
                  <td className={td} />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>

      <section className={card} aria-labelledby="stock">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="stock" className="mr-auto text-lg font-bold">
            {t('stock')}
          </h2>
          <a href={adminPaths.booksCsv('stock', month)} className={secondaryButton} download>
            {t('downloadCsv')}
          </a>
        </div>
        {stock.rows.length === 0 ? (
          <p className="text-slate-600">{t('noStock')}</p>
        ) : (
          <>
            <p className="font-semibold">{t('stockTotal', { count: stock.rows.length, value: formatPaise(stock.totalPaise) })}</p>
            <div className="overflow-x-auto">
              <table className="min-w-full text-sm">
                <thead className="bg-slate-50">
                  <tr>
                    <th className={th}>{t('col_car')}</th>
                    <th className={th}>{t('col_registration')}</th>
                    <th className={th}>{t('col_status')}</th>
                    <th className={thNumber}>{t('col_purchasePrice')}</th>
                    <th className={th}>{t('col_since')}</th>
                    <th className={thNumber}>{t('col_days')}</th>
                  </tr>
                </thead>
                <tbody>
                  {stock.rows.map((row) => (
                    <tr key={row.vehicleId} className="border-t border-slate-200" data-vehicle={row.vehicleId}>
                      <td className={td}>{row.name}</td>
                      <td className={`${td} whitespace-nowrap`}>{row.registration || '—'}</td>
                      <td className={td}>{t(`status_${row.status}`)}</td>
                      <td className={tdNumber}>{money(row.purchasePricePaise)}</td>
                      <td className={`${td} whitespace-nowrap`}>{row.since}</td>
                      <td className={tdNumber}>{row.days}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
