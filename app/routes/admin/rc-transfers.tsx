import { Link } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { settingsFor } from '../../../server/admin/settings.ts';
import { openRcTransfers } from '../../../server/sales/rc-transfers.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { appContext } from '../../context.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { formatDateTime } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/rc-transfers';

/**
 * The dealer's liability list (decision 117): every car sold whose registration transfer has not
 * reached its buyer, with the days since the sale and the step it is at; overdue ones first and
 * marked. Until the RC is delivered, the dealer answers for what the car does.
 */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('rcListTitle'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const [transfers, settings] = await Promise.all([openRcTransfers(services), settingsFor(services)]);
  return { transfers, overdueDays: settings.rcTransferOverdueDays };
}

export default function RcTransfers({ loaderData }: Route.ComponentProps) {
  const { transfers, overdueDays } = loaderData;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('rcListTitle')} back={{ to: adminPaths.sales, label: t('backToSales') }} />
      <p className="max-w-2xl text-slate-700">{t('rcListIntro', { days: overdueDays })}</p>
      {transfers.length === 0 ? (
        <p className="text-slate-600">{t('rcListEmpty')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {transfers.map((transfer) => (
            <li
              key={transfer.saleId}
              className={`rounded-2xl bg-white p-4 shadow-sm ring-1 ${transfer.overdue ? 'ring-2 ring-red-300' : 'ring-slate-200'}`}
              data-overdue={transfer.overdue ? 'yes' : 'no'}
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Link to={adminPaths.sale(transfer.saleId)} className="font-semibold text-brand-700 underline">
                  {transfer.invoiceNumber}
                </Link>
                {transfer.overdue ? <span className="rounded-full bg-red-100 px-2 py-0.5 text-sm font-bold text-red-800">{t('rcOverdue')}</span> : null}
                <span className="text-sm text-slate-600">{formatDateTime(new Date(transfer.soldMs).toISOString())}</span>
              </div>
              <p className="mt-1 break-words">
                {transfer.car} · {transfer.registration} · {transfer.buyer}
              </p>
              <p className={`text-sm font-semibold ${transfer.overdue ? 'text-red-800' : 'text-slate-700'}`}>{t('rcListDays', { count: transfer.days })}</p>
              <p className="text-sm text-slate-700">
                {t('rcListStep', {
                  step: transfer.state === 'sold' ? t('rcState_sold') : t(`rcStep_${transfer.state as Exclude<typeof transfer.state, 'sold' | 'closed'>}`),
                })}
                {transfer.next ? ` · ${t('rcListNext', { step: t(`rcStep_${transfer.next}`) })}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
