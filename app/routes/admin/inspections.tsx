import { data, Form, Link } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { inspectionsOn, type DeskInspection } from '../../../server/inspections/inspection-desk.ts';
import { takeFlash } from '../../../server/http/flash.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { inputClass } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { PhoneFact } from '../../features/admin/admin-ui.tsx';
import { formatRupees } from '../../lib/format.ts';
import { DESK_STATUS_TONE, DESK_STATUSES, deskOfferStateLabels, type DeskStatus } from '../../features/appointments/inspection-desk.ts';
import { deskInspectionsText as t } from '../../features/appointments/desk-inspections-texts.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { dayLabel, slotTimeRange, STATUS_LABELS } from '../../features/appointments/test-drives.ts';
import type { Route } from './+types/inspections';
import { homeAddressLine } from '../../features/appointments/home-address.ts';
import { addDays, indiaDay, parseIndiaDate } from '../../lib/india-time.ts';

/** Sellers' inspections by day (decision 084): who, when, where, and how far each has got. */

export const meta: Route.MetaFunction = (args) => adminPageMeta(t('inspections'))(args);

const isDeskStatus = (value: string | null): value is DeskStatus => value !== null && (DESK_STATUSES as readonly string[]).includes(value);

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const url = new URL(request.url);
  const today = indiaDay(services.clock.now());
  const date = parseIndiaDate(url.searchParams.get('date')) ?? today;
  const wanted = url.searchParams.get('status');
  const status = isDeskStatus(wanted) ? wanted : null;
  const [schedule, flash] = await Promise.all([inspectionsOn(services, date, status), takeFlash(services.config.authSecret, request)]);
  return data({ date, today, status, schedule, toast: flash.toast }, { headers: flash.headers });
}

function Row({ item }: { item: DeskInspection }) {
  return (
    <li className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-inspection={item.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-lg font-bold tabular-nums">{slotTimeRange(item.slot)}</p>
          <Link to={adminPaths.inspection(item.id)} className="font-semibold text-brand-700 underline">
            {item.car.year} {item.car.make} {item.car.model}
          </Link>
        </div>
        <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${DESK_STATUS_TONE[item.status]}`}>{STATUS_LABELS[item.status]}</span>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-600">{t('seller')}: </dt>
          <dd className="inline font-medium">{item.name || '—'}</dd>
        </div>
        <PhoneFact label={t('phone')} phone={item.phone} />
        <div>
          <dt className="inline text-slate-600">{t('where')}: </dt>
          <dd className="inline font-medium">{item.mode === 'home' ? t('atSellersHome', { address: homeAddressLine(item) }) : t('atOurHub')}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">{t('offer')}: </dt>
          <dd className="inline font-medium">
            {item.offer ? `${formatRupees(item.offer.rupees)} · ${deskOfferStateLabels()[item.offer.state]}` : t('noneYet')}
          </dd>
        </div>
      </dl>
      <Link to={adminPaths.inspection(item.id)} className="self-start rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 hover:bg-slate-100">
        {t('openInspection', { id: item.id })}
      </Link>
    </li>
  );
}

export default function AdminInspections({ loaderData }: Route.ComponentProps) {
  const { date, today, status, schedule, toast } = loaderData;
  const navLink = 'rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 bg-white hover:bg-slate-100';
  const active = schedule.filter((item) => item.status !== 'cancelled').length;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight">{t('inspections')}</h1>
          <p className="text-slate-600">
            {dayLabel(date)}
            {date === today ? t('todaySuffix') : ''}:{' '}
            {status ? t('countOfStatus', { count: schedule.length, status: STATUS_LABELS[status].toLowerCase() }) : t('inspectionCount', { count: active })}
          </p>
        </div>
        <nav aria-label={t('day')} className="flex flex-wrap items-center gap-2">
          <Link to={adminPaths.inspectionsOn(addDays(date, -1), status ?? undefined)} className={navLink}>
            {t('previousDay')}
          </Link>
          <Link to={adminPaths.inspectionsOn(today, status ?? undefined)} className={navLink}>
            {t('today')}
          </Link>
          <Link to={adminPaths.inspectionsOn(addDays(date, 1), status ?? undefined)} className={navLink}>
            {t('nextDay')}
          </Link>
        </nav>
      </div>
      <Form key={`${date}-${status ?? ''}`} method="get" className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm font-semibold">
          {t('day')}
          <input type="date" name="date" defaultValue={date} className={`${inputClass} py-2`} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-semibold">
          {t('status')}
          <select name="status" defaultValue={status ?? ''} className={`${inputClass} py-2`}>
            <option value="">{t('all')}</option>
            {DESK_STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={navLink}>
          {t('show')}
        </button>
      </Form>
      {schedule.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 ring-1 ring-slate-200">
          {status
            ? t('noStatusInspectionsOn', { status: STATUS_LABELS[status].toLowerCase(), day: dayLabel(date) })
            : t('noInspectionsOn', { day: dayLabel(date) })}
        </p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {schedule.map((item) => (
            <Row key={item.id} item={item} />
          ))}
        </ul>
      )}
      <Toast toast={toast} />
    </div>
  );
}
