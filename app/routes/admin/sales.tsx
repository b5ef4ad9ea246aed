import { data, Link } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { takeFlash } from '../../../server/http/flash.ts';
import { listSales } from '../../../server/sales/store.ts';
import { latestToast, PageHeader, stamp } from '../../features/admin/admin-ui.tsx';
import { adminShellText } from '../../features/admin/admin-shell-texts.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { primaryButton } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { formatPaise } from '../../lib/money.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/sales';

/** The desk's sales, newest first, each with its invoice (decision 114). */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('salesTitle'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const [sales, flash] = await Promise.all([listSales(services.database, { limit: 100 }), takeFlash(services.config.authSecret, request)]);
  return data(
    {
      sales: sales.map((sale) => ({
        id: sale.id,
        invoiceNumber: sale.invoiceNumber,
        invoiceDate: sale.invoiceDate,
        car: sale.vehicle.title,
        buyer: sale.buyer.name,
        price: formatPaise(sale.pricePaise),
        status: sale.status,
      })),
      toast: flash.toast ? stamp(flash.toast.tone, flash.toast.text) : null,
    },
    { headers: flash.headers },
  );
}

export default function Sales({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('salesTitle')} back={{ to: adminPaths.dashboard, label: adminShellText('navDashboard') }}>
        <Link to={adminPaths.newSale()} className={primaryButton}>
          {t('recordSale')}
        </Link>
      </PageHeader>
      {loaderData.sales.length === 0 ? (
        <p className="text-slate-600">{t('noSales')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {loaderData.sales.map((sale) => (
            <li key={sale.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <Link to={adminPaths.sale(sale.id)} className="font-semibold text-brand-700 underline">
                {sale.invoiceNumber}
              </Link>
              <span className="ml-2 text-sm text-slate-600">{sale.invoiceDate}</span>
              <p>
                {sale.car} · {sale.buyer} · {sale.price}
              </p>
              <p className={sale.status === 'cancelled' ? 'text-sm font-semibold text-red-700' : 'text-sm font-semibold text-green-700'}>
                {t(`status_${sale.status}`)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Toast toast={latestToast(loaderData.toast)} position="bottom-center" />
    </div>
  );
}
