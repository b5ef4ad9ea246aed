import { Link } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { listWhatsAppMessages, type DeskWhatsAppMessage } from '../../../server/notify/whatsapp-desk.ts';
import { isWhatsAppStatus, WHATSAPP_STATUSES } from '../../features/notifications/whatsapp-statuses.ts';
import { Pagination } from '../../components/pagination.tsx';
import { appContext } from '../../context.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { deskWhatsAppText as t } from '../../features/admin/desk-whatsapp-texts.ts';
import { adminShellText } from '../../features/admin/admin-shell-texts.ts';
import { whatsappChatLink } from '../../lib/contact.ts';
import { formatDateTime } from '../../lib/format.ts';
import { parsePage } from '../../lib/input.ts';
import { isLanguage, LANGUAGE_NAMES } from '../../lib/i18n/language.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { adminPaths } from '../../lib/paths.ts';
import type { Route } from './+types/whatsapp-messages';

/**
 * The WhatsApp messages the site sent (decision 125), newest first, each with what the person
 * reads and its delivery status as Meta last reported it through the webhook: the desk sees
 * whether a confirmation reached the customer, and when the SMS went instead. Reached from the
 * dashboard's WhatsApp line (not the menu).
 */

const PER_PAGE = 25;

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('title'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const query = new URL(request.url).searchParams;
  // An unknown status shows them all, as no filter.
  const requested = query.get('status');
  const status = isWhatsAppStatus(requested) ? requested : null;
  const list = await listWhatsAppMessages(services.database, { page: parsePage(query.get('page')), perPage: PER_PAGE, status });
  return { messages: list.items, total: list.total, page: list.page, pageCount: list.pageCount, status, connected: services.config.whatsapp !== null };
}

const STATUS_LABELS = { queued: 'statusQueued', sent: 'statusSent', delivered: 'statusDelivered', read: 'statusRead', failed: 'statusFailed' } as const;

const STATUS_TONES = {
  queued: 'bg-slate-100 text-slate-800 ring-slate-300',
  sent: 'bg-sky-50 text-sky-900 ring-sky-200',
  delivered: 'bg-emerald-50 text-emerald-900 ring-emerald-200',
  read: 'bg-emerald-100 text-emerald-900 ring-emerald-300',
  failed: 'bg-red-50 text-red-900 ring-red-200',
} as const;

function Message({ message }: { message: DeskWhatsAppMessage }) {
  const language = isLanguage(message.language) ? message.language : null;
  return (
    <li className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5" data-status={message.status}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm text-slate-600">
        <time dateTime={message.createdAt} className="font-medium text-slate-800">
          {formatDateTime(message.createdAt)}
        </time>
        <span>
          {t('to')}:{' '}
          <a
            href={whatsappChatLink(message.recipient)}
            target="_blank"
            rel="noreferrer"
            aria-label={t('openChat', { phone: message.recipient })}
            className="font-semibold text-brand-700 underline"
          >
            {message.recipient}
          </a>
        </span>
        {language ? <span>{LANGUAGE_NAMES[language]}</span> : <span>{message.language}</span>}
      </div>
      <p className="text-xs text-slate-600">
        {t('template')}: <code className="font-mono text-slate-800">{message.template}</code>
      </p>
      <p lang={language ?? undefined} className="whitespace-pre-wrap break-words text-slate-900">
        {message.preview}
      </p>
      <div className="flex flex-col gap-1 text-sm">
        <p>
          <span className={`inline-block rounded-md px-2 py-0.5 font-semibold ring-1 ${STATUS_TONES[message.status]}`}>
            {t('statusSince', { status: t(STATUS_LABELS[message.status]), time: formatDateTime(message.statusAt) })}
          </span>
        </p>
        {message.status === 'failed' && message.errorText ? (
          <p className="break-words text-red-800">
            {t('failedReason', { reason: message.errorCode === null ? message.errorText : `${message.errorCode} · ${message.errorText}` })}
          </p>
        ) : null}
        {message.fellBackAt ? <p className="font-semibold text-slate-800">{t('smsInstead', { time: formatDateTime(message.fellBackAt) })}</p> : null}
      </div>
    </li>
  );
}

export default function WhatsAppMessages({ loaderData }: Route.ComponentProps) {
  const { messages, total, page, pageCount, status, connected } = loaderData;
  const filters = [null, ...WHATSAPP_STATUSES] as const;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('title')} back={{ to: adminPaths.dashboard, label: adminShellText('navDashboard') }}>
        <p className="text-sm text-slate-600">{t('count', { count: total })}</p>
      </PageHeader>
      <p className="text-slate-700">{t('intro')}</p>
      {connected ? null : <p className="rounded-2xl bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200">{t('notConfigured')}</p>}
      <nav aria-label={t('filterLabel')}>
        <ul className="flex flex-wrap gap-2">
          {filters.map((filter) => (
            <li key={filter ?? 'all'}>
              <Link
                to={adminPaths.whatsappMessages(filter ? { status: filter } : {})}
                aria-current={filter === status ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center rounded-xl px-3 text-sm font-semibold ring-1 ${
                  filter === status ? 'bg-brand-700 text-white ring-brand-700' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-100'
                }`}
              >
                {filter ? t(STATUS_LABELS[filter]) : t('filterAll')}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {messages.length ? (
        <ol className="flex flex-col gap-3">
          {messages.map((message) => (
            <Message key={message.id} message={message} />
          ))}
        </ol>
      ) : (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">{status ? t('noneOfStatus') : t('none')}</p>
      )}
      <Pagination
        page={Math.min(page, pageCount)}
        pageCount={pageCount}
        hrefFor={(target) => adminPaths.whatsappMessages({ ...(status ? { status } : {}), page: target })}
      />
    </div>
  );
}
