import { recordAudit } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { purchaseRegister, salesRegister, stockWithAge, thisMonth } from '../../../server/books/books.ts';
import { purchaseRegisterCsv, salesRegisterCsv, stockCsv } from '../../../server/books/books-csv.ts';
import { appContext } from '../../context.ts';
import { MONTH_PATTERN } from '../../features/purchases/schemas.ts';
import { purchasesText as t } from '../../features/purchases/purchases-texts.ts';
import type { Route } from './+types/books-csv';

/**
 * A register of the dealer's books as CSV (decision 118): /admin/books/sales.csv?month=2026-11,
 * purchases.csv, stock.csv. The files name buyers and sellers, so each download is audited.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const register = /^(sales|purchases|stock)\.csv$/.exec(params.file)?.[1] as 'sales' | 'purchases' | 'stock' | undefined;
  if (!register) throw new Response(t('noSales'), { status: 404 });
  const asked = new URL(request.url).searchParams.get('month');
  const month = asked ?? thisMonth(services.clock.now());
  if (!MONTH_PATTERN.test(month)) return new Response(t('monthInvalid'), { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const csv =
    register === 'sales'
      ? salesRegisterCsv(await salesRegister(services.database, month))
      : register === 'purchases'
        ? purchaseRegisterCsv(await purchaseRegister(services.database, month))
        : stockCsv(await stockWithAge(services.database, services.clock.now()));
  await recordAudit(services, {
    actorEmail: admin.email,
    action: 'export',
    entity: 'books',
    summary: `Downloaded the ${register} register of ${month} as CSV`,
  });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${register}-${register === 'stock' ? 'today' : month}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
