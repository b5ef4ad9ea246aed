import { listAudit, type AuditEntry } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { Pagination } from '../../components/pagination.tsx';
import { appContext } from '../../context.ts';
import { formatDateTime } from '../../lib/format.ts';
import { parsePage } from '../../lib/input.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { RichText } from '../../lib/i18n/rich.tsx';
import { auditFieldLabel, auditNestedLabel } from '../../features/admin/audit-fields.ts';
import type { Route } from './+types/audit-log';
import { adminPaths } from '../../lib/paths.ts';
import { adminShellText as t } from '../../features/admin/admin-shell-texts.ts';

const PER_PAGE = 20;

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('auditLogTitle'))(args);
}

/** Audit action codes and entities are stored as codes; people read them through these labels. */
const ACTION_LABELS = {
  approve: 'actionApprove',
  cancel: 'actionCancel',
  confirm: 'actionConfirm',
  convert: 'actionConvert',
  create: 'actionCreate',
  delete: 'actionDelete',
  deliver: 'actionDeliver',
  export: 'actionExport',
  extend: 'actionExtend',
  handover: 'actionHandover',
  'no-show': 'actionNoShow',
  offer: 'actionOffer',
  purchase: 'actionPurchase',
  'rc-step': 'actionRcStep',
  record: 'actionRecord',
  refuse: 'actionRefuse',
  reschedule: 'actionReschedule',
  reset: 'actionReset',
  retry: 'actionRetry',
  'retry-refund': 'actionRetryRefund',
  return: 'actionReturn',
  returned: 'actionReturned',
  sell: 'actionSell',
  settle: 'actionSettle',
  status: 'actionStatus',
  update: 'actionUpdate',
} as const;

const ENTITY_LABELS = {
  admin: 'entityAdmin',
  books: 'entityBooks',
  car_model: 'entityCarModel',
  category: 'entityCategory',
  'driving-licence': 'entityDrivingLicence',
  inspection: 'entityInspection',
  job: 'entityJob',
  'rental-block': 'entityRentalBlock',
  'rental-booking': 'entityRentalBooking',
  'rental-terms': 'entityRentalTerms',
  reservation: 'entityReservation',
  sale: 'entitySale',
  settings: 'entitySettings',
  sell_submission: 'entitySellSubmission',
  test_drive: 'entityTestDrive',
  vehicle: 'entityVehicle',
  vehicle_image: 'entityVehicleImage',
  vehicle_request: 'entityVehicleRequest',
} as const;

/** A code's label from `labels`, or the code itself when it has none. */
function labelOf<Labels extends Record<string, Parameters<typeof t>[0]>>(labels: Labels, code: string): string {
  return Object.hasOwn(labels, code) ? t(labels[code]!) : code;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const page = parsePage(new URL(request.url).searchParams.get('page'));
  const list = await listAudit(services.database, { page, perPage: PER_PAGE });
  return { entries: list.items, total: list.total, page: list.page, pageCount: list.pageCount };
}

function pretty(value: unknown): string {
  return value === null || value === undefined ? '—' : JSON.stringify(value, null, 2);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A recorded value as it was written: text as it is, '—' for none, numbers and yes/no as JSON writes them. */
function recorded(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A value inside a record: its fields by name (nested records and lists of them too), a plain value as written. */
function RecordedValue({ value }: { value: unknown }) {
  if (isObject(value)) {
    return (
      <dl className="flex flex-col gap-0.5">
        {Object.entries(value).map(([key, field]) => (
          <div key={key} className="flex flex-wrap gap-x-2">
            <dt className="font-sans text-slate-600">{auditNestedLabel(key)}:</dt>
            <dd>
              <RecordedValue value={field} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  if (Array.isArray(value) && value.some((item) => isObject(item) || Array.isArray(item))) {
    return (
      <ol className="flex list-decimal flex-col gap-1 pl-4">
        {value.map((item, index) => (
          <li key={index}>
            <RecordedValue value={item} />
          </li>
        ))}
      </ol>
    );
  }
  return <>{recorded(value)}</>;
}

/**
 * One side of a change. A record of fields lists each field by its name in the page's language
 * (auditFieldLabel), the changed ones marked, each value as it was recorded; the field's code is
 * kept in `data-field` for whoever needs it. Anything else is shown as JSON.
 */
function RecordView({ entity, value, changed }: { entity: string; value: unknown; changed: string[] }) {
  if (!isObject(value)) {
    return (
      <pre lang="en" className="max-h-80 overflow-auto rounded-lg bg-white p-3 text-xs leading-relaxed ring-1 ring-slate-200">
        {pretty(value)}
      </pre>
    );
  }
  return (
    <dl className="max-h-80 overflow-auto rounded-lg bg-white text-xs ring-1 ring-slate-200">
      {Object.entries(value).map(([key, field]) => (
        <div
          key={key}
          data-field={key}
          className={`grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-2 border-b border-slate-100 px-3 py-1.5 last:border-b-0 ${changed.includes(key) ? 'bg-amber-50' : ''}`}
        >
          <dt className="font-semibold text-slate-600">{auditFieldLabel(entity, key)}</dt>
          <dd lang="en" className="break-words font-mono text-slate-900">
            <RecordedValue value={field} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The keys whose values differ, when both sides are plain objects. */
function changedKeys(before: unknown, after: unknown): string[] {
  if (!isObject(before) || !isObject(after)) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

function Entry({ entry }: { entry: AuditEntry }) {
  const hasDetail = entry.before !== null || entry.after !== null;
  const changed = changedKeys(entry.before, entry.after);
  return (
    <li className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm text-slate-600">
        <time dateTime={entry.createdAt} className="font-medium text-slate-800">
          {formatDateTime(entry.createdAt)}
        </time>
        <span className="min-w-0 break-all">{entry.actorEmail}</span>
      </div>
      <p className="flex flex-wrap items-center gap-2">
        <span className="rounded-md bg-slate-900 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-white">{labelOf(ACTION_LABELS, entry.action)}</span>
        <span className="font-semibold">
          {labelOf(ENTITY_LABELS, entry.entity)}
          {entry.entityId ? <span className="font-normal text-slate-600"> #{entry.entityId}</span> : null}
        </span>
      </p>
      {/* Written in English when the change was recorded, like the record before and after it. */}
      {entry.summary ? (
        <p lang="en" className="break-words text-slate-800">
          {entry.summary}
        </p>
      ) : null}
      {hasDetail ? (
        <details className="group rounded-xl bg-slate-50 ring-1 ring-slate-200">
          <summary className="cursor-pointer rounded-xl px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-slate-100">
            {changed.length ? (
              // The changed fields by their names in the page's language; the records below keep their codes.
              <RichText
                text={t('beforeAndAfterChanged', { number: changed.length, keys: changed.map((key) => auditFieldLabel(entry.entity, key)).join(', ') })}
                parts={{ keys: (keys) => <span className="font-normal">{keys}</span> }}
              />
            ) : (
              t('beforeAndAfter')
            )}
          </summary>
          <div className="grid gap-3 p-3 pt-1 md:grid-cols-2">
            {(['before', 'after'] as const).map((side) => (
              <div key={side} className="min-w-0">
                <h3 className="mb-1 text-xs font-bold uppercase tracking-wide text-slate-600">{side === 'before' ? t('before') : t('after')}</h3>
                <RecordView entity={entry.entity} value={entry[side]} changed={changed} />
              </div>
            ))}
          </div>
        </details>
      ) : null}
    </li>
  );
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, total, page, pageCount } = loaderData;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-extrabold tracking-tight">{t('auditLogTitle')}</h1>
        <p className="text-sm text-slate-600">{t('auditEntries', { count: total })}</p>
      </div>
      {entries.length ? (
        <ol className="flex flex-col gap-3">
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </ol>
      ) : (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">{total ? t('noEntriesOnPage') : t('noAuditYet')}</p>
      )}
      <Pagination
        page={Math.min(page, pageCount)}
        pageCount={pageCount}
        hrefFor={(target) => (target === 1 ? adminPaths.auditLog : `${adminPaths.auditLog}?page=${target}`)}
      />
    </div>
  );
}
