import { Children } from 'react';
import { FieldNotes } from '../../components/form.tsx';
import { Form, Link, useFetcher, useLocation, useNavigation } from 'react-router';
import { Pagination } from '../../components/pagination.tsx';
import type { Toast as ToastMessage } from '../../lib/toast.ts';
import { telLink, whatsappLink } from '../../lib/contact.ts';
import { customerWhatsappNumber, LEAD_STATUS_LABELS, LEAD_STATUSES, MAX_NOTES, MAX_SEARCH, type LeadStatusValue } from '../../lib/lead-forms.ts';
import { Toast } from './toast.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { useConfirmStep } from '../../components/confirm-dialog.tsx';
import { PhoneIcon, WhatsAppIcon } from '../../components/icons.tsx';
import { adminPaths } from '../../lib/paths.ts';
import { deskLeadsText as t } from './desk-leads-texts.ts';

/** The pieces both admin lead pages (requested vehicles, selling vehicles) are built from. */

export type LeadListFilter = { status: LeadStatusValue | null; q: string };

/** The list's address with its filter and page (page 1 and empty values left out). */
export function leadListHref(basePath: string, filter: LeadListFilter, page = 1): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.q) params.set('q', filter.q);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${basePath}?${query}` : basePath;
}

/** The CSV of everything the filter matches, on every page. */
export function leadExportHref(kind: 'requested-vehicles' | 'selling-vehicles', filter: LeadListFilter): string {
  return leadListHref(adminPaths.leadsExport(kind), filter);
}

const statusStyles: Record<LeadStatusValue, string> = {
  new: 'bg-amber-100 text-amber-900 ring-amber-300',
  contacted: 'bg-sky-100 text-sky-900 ring-sky-300',
  closed: 'bg-slate-200 text-slate-700 ring-slate-300',
};

function StatusBadge({ status }: { status: LeadStatusValue }) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide ring-1 ${statusStyles[status]}`}>{LEAD_STATUS_LABELS[status]}</span>
  );
}

/** Status filter, name-or-phone search and the CSV export of what is shown (all pages). */
export function LeadToolbar({
  filter,
  basePath,
  exportHref,
  searchLabel = t('searchByNameOrPhone'),
}: {
  filter: LeadListFilter;
  basePath: string;
  exportHref: string;
  searchLabel?: string;
}) {
  const field =
    'w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100';
  return (
    <Form
      method="get"
      action={basePath}
      role="search"
      className="grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[10rem_minmax(0,1fr)_auto_auto] sm:items-end"
    >
      <div className="flex flex-col gap-1">
        <label htmlFor="lead-status" className="text-sm font-semibold">
          {t('status')}
        </label>
        <select id="lead-status" name="status" defaultValue={filter.status ?? ''} className={field}>
          <option value="">{t('all')}</option>
          {LEAD_STATUSES.map((status) => (
            <option key={status} value={status}>
              {LEAD_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="lead-search" className="text-sm font-semibold">
          {searchLabel}
        </label>
        <input id="lead-search" name="q" type="search" defaultValue={filter.q} maxLength={MAX_SEARCH} placeholder={t('searchPlaceholder')} className={field} />
      </div>
      <div className="flex gap-2">
        <button type="submit" className="flex-1 rounded-xl bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 sm:flex-none">
          {t('apply')}
        </button>
        {filter.status || filter.q ? (
          <Link to={basePath} className="flex-1 rounded-xl px-4 py-2.5 text-center font-semibold ring-1 ring-slate-300 hover:bg-slate-100 sm:flex-none">
            {t('clear')}
          </Link>
        ) : null}
      </div>
      <a href={exportHref} download className="rounded-xl px-4 py-2.5 text-center font-semibold text-brand-700 ring-1 ring-brand-600 hover:bg-brand-50">
        {t('exportCsv')}
      </a>
    </Form>
  );
}

/** 'Call Customer' (SPEC 2) and a WhatsApp chat with the customer's own number. */
function CustomerContact({ phone, whatsappText }: { phone: string; whatsappText: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      <a
        href={telLink(phone)}
        className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
      >
        <PhoneIcon className="h-4 w-4" /> {t('callCustomer')}
      </a>
      <a
        href={whatsappLink(customerWhatsappNumber(phone), whatsappText)}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex items-center gap-2 rounded-xl bg-whatsapp px-4 py-2.5 text-sm font-semibold text-white hover:brightness-110"
      >
        <WhatsAppIcon className="h-4 w-4" /> WhatsApp
      </a>
    </div>
  );
}

type ActionData = { toast: ToastMessage; id: number | null; fields?: Record<string, string> };

/** Status and notes of one lead, saved without leaving the list. */
function LeadStatusForm({ id, status, notes }: { id: number; status: LeadStatusValue; notes: string }) {
  const fetcher = useFetcher<ActionData>();
  const busy = fetcher.state !== 'idle';
  // A refused save is told beside its fields (what was typed stays in them: the list is not reloaded).
  const fields = fetcher.state === 'idle' ? (fetcher.data?.fields ?? {}) : {};
  const field =
    'w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 py-2 text-base shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100';
  return (
    <fetcher.Form method="post" className="flex flex-col gap-2 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value="update" />
      <div className="flex flex-col gap-1">
        <label htmlFor={`status-${id}`} className="text-sm font-semibold">
          {t('status')}
        </label>
        <select
          id={`status-${id}`}
          name="status"
          defaultValue={status}
          aria-invalid={fields.status ? true : undefined}
          aria-describedby={fields.status ? `status-${id}-error` : undefined}
          className={field}
        >
          {LEAD_STATUSES.map((value) => (
            <option key={value} value={value}>
              {LEAD_STATUS_LABELS[value]}
            </option>
          ))}
        </select>
        <FieldNotes id={`status-${id}`} error={fields.status} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`notes-${id}`} className="text-sm font-semibold">
          {t('notes')}
        </label>
        <textarea
          id={`notes-${id}`}
          name="notes"
          rows={2}
          defaultValue={notes}
          maxLength={MAX_NOTES}
          aria-invalid={fields.notes ? true : undefined}
          aria-describedby={fields.notes ? `notes-${id}-error` : undefined}
          className={field}
          placeholder={t('notesPlaceholder')}
        />
        <FieldNotes id={`notes-${id}`} error={fields.notes} />
      </div>
      <button
        type="submit"
        disabled={busy}
        className="self-start rounded-xl bg-slate-900 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 disabled:bg-slate-400"
      >
        {busy ? t('saving') : t('save')}
      </button>
      <Toast toast={fetcher.state === 'idle' ? fetcher.data?.toast : null} />
    </fetcher.Form>
  );
}

/**
 * Deletes a lead after a confirmation in the site's dialog (a customer asked to be forgotten, or
 * it is junk), posted to the list's action as the admin lists' other deletes are; the list then
 * says so. Without script the button deletes at once.
 */
function DeleteLeadButton({ id, label }: { id: number; label: string }) {
  const fetcher = useFetcher<ActionData>();
  const step = useConfirmStep<number>();
  const location = useLocation();
  return (
    <>
      <fetcher.Form method="post">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="intent" value="delete" />
        <button
          type="submit"
          aria-haspopup="dialog"
          disabled={fetcher.state !== 'idle'}
          onClick={(event) => step.ask(id, event)}
          className="rounded-xl px-3 py-2 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50 disabled:opacity-60"
        >
          {fetcher.state !== 'idle' ? t('deleting') : t('delete')}
        </button>
        <Toast toast={fetcher.state === 'idle' && fetcher.data?.toast.tone === 'error' ? fetcher.data.toast : null} />
      </fetcher.Form>
      {step.confirming !== null ? (
        <ConfirmDialog
          title={t('deleteDialogTitle', { label })}
          message={t('deleteDialogMessage')}
          confirmLabel={t('delete')}
          cancelHref={`${location.pathname}${location.search}`}
          onCancel={step.keep}
          onConfirm={step.confirmed}
        >
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="intent" value="delete" />
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** One labelled value of a lead card. */
export function Detail({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={`min-w-0 ${wide ? 'sm:col-span-2' : ''}`}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="whitespace-pre-line break-words text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * One lead in an admin list: who or what it is and its status, its details (`children`), then
 * the customer's phone and WhatsApp, the status and notes form and the delete button.
 */
export function LeadCard({
  lead,
  title,
  subtitle,
  whatsappText,
  deleteLabel,
  children,
}: {
  lead: { id: number; phone: string; status: LeadStatusValue; notes: string };
  title: string;
  subtitle: React.ReactNode;
  whatsappText: string;
  deleteLabel: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-words text-lg font-bold">{title}</h2>
          <p className="text-sm text-slate-600">{subtitle}</p>
        </div>
        <StatusBadge status={lead.status} />
      </div>
      {children}
      <CustomerContact phone={lead.phone} whatsappText={whatsappText} />
      <LeadStatusForm id={lead.id} status={lead.status} notes={lead.notes} />
      <div className="flex justify-end">
        <DeleteLeadButton id={lead.id} label={deleteLabel} />
      </div>
    </li>
  );
}

/**
 * The frame both lead lists share: heading and count, the toolbar, the loading line while the
 * next page or filter loads, the cards (or the empty text), paging and the action's toast.
 * `basePath` is the address the visitor is on (the selling list has an alias).
 */
export function LeadListPage(props: {
  title: string;
  intro: string;
  /** Singular and plural of what is counted: ['request', 'requests']. */
  noun: [string, string];
  loadingText: string;
  emptyText: string;
  exportKind: 'requested-vehicles' | 'selling-vehicles';
  total: number;
  page: number;
  pageCount: number;
  filter: LeadListFilter;
  toast: ToastMessage | null | undefined;
  children: React.ReactNode;
}) {
  const { filter, total } = props;
  const navigation = useNavigation();
  const location = useLocation();
  const basePath = location.pathname.replace(/\/+$/, '');
  const loading = navigation.state === 'loading' && navigation.location.pathname === location.pathname;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight">{props.title}</h1>
          <p className="text-slate-600">{props.intro}</p>
        </div>
        <p className="text-sm text-slate-600">{t('countNewestFirst', { total, noun: total === 1 ? props.noun[0] : props.noun[1] })}</p>
      </div>
      <LeadToolbar filter={filter} basePath={basePath} exportHref={leadExportHref(props.exportKind, filter)} />
      {loading ? (
        <p role="status" className="rounded-2xl bg-white p-4 text-center font-medium text-slate-700 ring-1 ring-slate-200">
          {props.loadingText}
        </p>
      ) : null}
      {Children.count(props.children) > 0 ? (
        <ul className={`grid gap-4 lg:grid-cols-2 ${loading ? 'opacity-60' : ''}`}>{props.children}</ul>
      ) : (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">{props.emptyText}</p>
      )}
      <Pagination page={props.page} pageCount={props.pageCount} hrefFor={(target) => leadListHref(basePath, filter, target)} />
      <Toast toast={props.toast} />
    </div>
  );
}

/** SPEC 8: a lead list that could not be loaded, with a way to try again. */
export function LeadListError({ title, retryHref }: { title: string; retryHref: string }) {
  return (
    <div role="alert" className="mx-auto max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-xl font-bold">{title}</h1>
      <p className="mt-2 text-slate-600">{t('reloadInAMoment')}</p>
      <a href={retryHref} className="mt-5 inline-block rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white">
        {t('tryAgain')}
      </a>
    </div>
  );
}
