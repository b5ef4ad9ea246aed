import { data, Form, Link, Outlet, redirect, useLocation, type ShouldRevalidateFunctionArgs } from 'react-router';
import { recordAudit } from '../../../server/audit/audit.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { failingJobs, retryJob } from '../../../server/jobs/queue.ts';
import { backupStatus, type BackupStatus } from '../../../server/backups/backups.ts';
import { countOverdueRcTransfers } from '../../../server/sales/rc-transfers.ts';
import { whatsappLastDay } from '../../../server/notify/whatsapp-desk.ts';
import { deskWhatsAppText } from '../../features/admin/desk-whatsapp-texts.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { parseForm } from '../../lib/form-errors.ts';
import { retryJobSchema } from '../../features/admin/panel-schemas.ts';
import { countNewLeads, recordDashboardVisit } from '../../../server/admin/dashboard.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { handoversOn } from '../../../server/rentals/bookings.ts';
import { countLicencesWaiting } from '../../../server/rentals/licences.ts';
import { countBookingsOwingRefunds } from '../../../server/rentals/refunds.ts';
import { countOn } from '../../../server/appointments/appointments.ts';
import { listActiveReservations } from '../../../server/reservations/reservations.ts';
import { ReservationsDesk } from '../../features/admin/reservations-desk.tsx';
import { appContext, type AppServices } from '../../context.ts';
import { formatDateTime } from '../../lib/format.ts';
import { adminPaths, pageAddress } from '../../lib/paths.ts';
import { dayLabel } from '../../features/appointments/test-drives.ts';
import type { Route } from './+types/panel';
import { adminShellText as t } from '../../features/admin/admin-shell-texts.ts';
import { withoutLanguage } from '../../lib/i18n/language.ts';
import { addDays, indiaDay, indiaDayStart, indiaMidnight } from '../../lib/india-time.ts';

/** SPEC 2, Admin dashboard: the card grid only on exactly /admin-panel; otherwise the nested page. */
const cards = [
  { to: adminPaths.aliases.addVehicle, title: 'cardAddVehicle', text: 'cardAddVehicleText' },
  { to: adminPaths.vehicles, title: 'cardManageVehicles', text: 'cardManageVehiclesText' },
  { to: adminPaths.addCategory, title: 'cardAddCategory', text: 'cardAddCategoryText' },
  { to: adminPaths.categories, title: 'cardManageCategories', text: 'cardManageCategoriesText' },
  { to: adminPaths.statistics, title: 'cardStatistics', text: 'cardStatisticsText' },
  { to: adminPaths.sellingVehicles, title: 'cardSellingVehicles', text: 'cardSellingVehiclesText' },
  { to: adminPaths.requestedVehicles, title: 'cardRequestedVehicles', text: 'cardRequestedVehiclesText' },
  { to: adminPaths.settings, title: 'cardSettings', text: 'cardSettingsText' },
  { to: adminPaths.carModels, title: 'cardCarModels', text: 'cardCarModelsText' },
  { to: adminPaths.registerAdmin, title: 'cardCreateAdmin', text: 'cardCreateAdminText' },
  { to: adminPaths.auditLog, title: 'cardAuditLog', text: 'cardAuditLogText' },
] as const;

/**
 * Today's work, read only for the dashboard itself: this loader also runs when a nested page
 * under /admin-panel loads, and that is no visit to the dashboard.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  // A client-side navigation asks for `/admin-panel.data`: the page is the same; so is the Hindi `/hi/admin-panel`.
  if (withoutLanguage(new URL(pageAddress(request.url), request.url).pathname).replace(/\/+$/, '') !== adminPaths.dashboard)
    return { today: null, jobs: null, toast: null };
  const nowMs = services.clock.now();
  const since = await recordDashboardVisit(services.database, admin.email, new Date(nowMs));
  // "Today" is India's calendar day, whatever the server's time zone.
  const date = indiaDay(nowMs);
  const [leads, testDrives, inspections, handovers, licences, refundsOwed, jobs, flash, reservations, backup, rcOverdue, whatsapp] = await Promise.all([
    countNewLeads(services.database, since),
    countOn(services.database, 'test_drives', date),
    countOn(services.database, 'inspections', date),
    handoversOn(services.database, indiaDayStart(nowMs)),
    countLicencesWaiting(services.database),
    countBookingsOwingRefunds(services),
    failingJobs(services.database),
    takeFlash(services.config.authSecret, request),
    listActiveReservations(services),
    backupStatus(services.database, nowMs),
    countOverdueRcTransfers(services),
    // Only where WhatsApp is connected (decision 125): elsewhere every update goes by SMS.
    services.config.whatsapp ? whatsappLastDay(services.database, nowMs) : null,
  ]);
  const week = await comingWeek(services, date);
  return data(
    {
      today: {
        leads,
        date,
        testDrives,
        inspections,
        pickups: handovers.pickups.length,
        returns: handovers.returns.length,
        licences,
        refundsOwed,
        reservations,
        nowMs,
        week,
        backup,
        rcOverdue,
        whatsapp,
      },
      jobs,
      toast: flash.toast,
    },
    { headers: flash.headers },
  );
}

/** The days after today whose work the desk plans for now (a home inspection tomorrow needs a driver today). */
const COMING_DAYS = 6;

/** Test drives, inspections, pickups and returns booked on each of the next COMING_DAYS days (India days). */
async function comingWeek(services: AppServices, today: string) {
  return Promise.all(
    Array.from({ length: COMING_DAYS }, async (_, index) => {
      const date = addDays(today, index + 1);
      const [testDrives, inspections, handovers] = await Promise.all([
        countOn(services.database, 'test_drives', date),
        countOn(services.database, 'inspections', date),
        handoversOn(services.database, indiaMidnight(date)),
      ]);
      return { date, testDrives, inspections, pickups: handovers.pickups.length, returns: handovers.returns.length };
    }),
  );
}

/** "Retry now" on a failing job (mail, SMS, a scheduled run): queued again with its attempts counted afresh. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const answer = async (tone: 'success' | 'error', text: string) =>
    redirect(adminPaths.dashboard, { status: 303, headers: await flashHeaders(services.config.authSecret, { tone, text }) });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  // The job's id is a hidden field: a wrong one is the dashboard's message, as a job already gone through.
  const parsed = parseForm(retryJobSchema, form);
  if (!parsed.ok) return answer('error', parsed.error);
  const { id } = parsed.value;
  if (!(await retryJob(services.database, id, services.clock.now()))) return answer('error', t('jobNotFound'));
  services.jobs.wake();
  await recordAudit(services, {
    actorEmail: admin.email,
    action: 'retry',
    entity: 'job',
    entityId: id,
    summary: `Retried background job #${id}`,
    before: null,
    after: null,
  });
  return answer('success', t('jobQueuedAgain', { id }));
}

/** What each kind of job is, in the team's words (text keys, read where the job is shown). */
const JOB_LABELS = {
  mail: 'jobMail',
  sms: 'jobSms',
  whatsapp: 'jobWhatsApp',
  'whatsapp-reply': 'jobWhatsAppReply',
  'retention-purge': 'jobRetentionPurge',
  'test-drive-reminders': 'jobTestDriveReminders',
  'rental-hold-expiry': 'jobRentalHoldExpiry',
  'rental-reminders': 'jobRentalReminders',
  'refund-retry': 'jobRefundRetry',
  'reservation-expiry': 'jobReservationExpiry',
  'inspection-reminders': 'jobInspectionReminders',
  'daily-backup': 'jobDailyBackup',
  'rc-transfer-overdue': 'jobRcTransferOverdue',
} as const;

function jobLabel(name: string): string {
  const key = JOB_LABELS[name as keyof typeof JOB_LABELS] as (typeof JOB_LABELS)[keyof typeof JOB_LABELS] | undefined;
  return key ? t(key) : name;
}

/** Back on the dashboard from a nested page, today's work is read again (the route stayed matched). */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}

/**
 * The last good backup (decision 112), as a quiet line while all is well and a warning when the
 * newest one failed or the last good one is over a day old: the desk sees what the mail told once.
 */
function BackupLine({ backup }: { backup: BackupStatus }) {
  const last = backup.lastGood
    ? t('backupLast', {
        time: formatDateTime(new Date(backup.lastGood.finishedMs).toISOString()),
        size: `${(backup.lastGood.bytes / 1024 / 1024).toFixed(1)} MB`,
      })
    : null;
  if (!backup.warning) return <p className="text-sm text-slate-600">{last}</p>;
  const warning =
    backup.warning === 'failed' ? t('backupFailed', { error: backup.lastFailure?.error ?? '' }) : backup.warning === 'old' ? t('backupOld') : t('backupNever');
  return (
    <section aria-labelledby="backup-heading" role="alert" className="flex flex-col gap-1 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-red-200">
      <h2 id="backup-heading" className="text-lg font-bold text-red-800">
        {t('backupHeading')}
      </h2>
      <p className="break-words">{warning}</p>
      <p className="text-sm text-slate-600">{last ?? t('backupNoneYet')}</p>
    </section>
  );
}

/** The last day's WhatsApp messages in one line (decision 125), with the way to each one's delivery status. */
function WhatsAppLine({ counts }: { counts: { total: number; read: number; failed: number } }) {
  return (
    <p className={`text-sm ${counts.failed > 0 ? 'text-red-800' : 'text-slate-600'}`}>
      {deskWhatsAppText('lastDay', { total: counts.total, read: counts.read, failed: counts.failed })}{' '}
      <Link to={adminPaths.whatsappMessages(counts.failed > 0 ? { status: 'failed' } : {})} className="font-semibold text-brand-700 underline">
        {deskWhatsAppText('seeMessages')}
      </Link>
    </p>
  );
}

type Tile = { label: string; count: number; to: string; note: string };

function TodayTile({ tile }: { tile: Tile }) {
  return (
    <li>
      <Link
        to={tile.to}
        className={`flex h-full flex-col gap-1 rounded-2xl p-4 shadow-sm ring-1 hover:ring-brand-600 ${tile.count > 0 ? 'bg-brand-50 ring-brand-100' : 'bg-white ring-slate-200'}`}
      >
        <span className={`text-3xl font-extrabold tabular-nums ${tile.count > 0 ? 'text-brand-800' : 'text-slate-500'}`}>{tile.count}</span>
        <span className="font-semibold leading-snug">{tile.label}</span>
        <span className="text-sm text-slate-600">{tile.note}</span>
      </Link>
    </li>
  );
}

type WeekDay = { date: string; testDrives: number; inspections: number; pickups: number; returns: number };

/** The days after today, each with what is booked and a way to that day's schedule. */
function ComingWeek({ week }: { week: WeekDay[] }) {
  return (
    <section aria-labelledby="week-heading" className="flex flex-col gap-3">
      <h2 id="week-heading" className="text-lg font-bold">
        {t('comingWeek')}
      </h2>
      <ul className="divide-y divide-slate-200 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {week.map((day) => {
          const work = [
            day.testDrives > 0 ? (
              <Link key="drives" to={adminPaths.testDrivesOn(day.date)} className="font-semibold text-brand-700 underline">
                {t('weekTestDrives', { number: day.testDrives })}
              </Link>
            ) : null,
            day.inspections > 0 ? (
              <Link key="inspections" to={adminPaths.inspectionsOn(day.date)} className="font-semibold text-brand-700 underline">
                {t('weekInspections', { number: day.inspections })}
              </Link>
            ) : null,
            day.pickups > 0 ? (
              <Link key="pickups" to={adminPaths.rentalDesk} className="font-semibold text-brand-700 underline">
                {t('weekPickups', { number: day.pickups })}
              </Link>
            ) : null,
            day.returns > 0 ? (
              <Link key="returns" to={adminPaths.rentalDesk} className="font-semibold text-brand-700 underline">
                {t('weekReturns', { number: day.returns })}
              </Link>
            ) : null,
          ].filter(Boolean);
          return (
            <li key={day.date} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-4">
              <span className="w-32 shrink-0 font-semibold">{dayLabel(day.date)}</span>
              {work.length > 0 ? (
                <span className="flex flex-wrap gap-x-4 gap-y-1 text-sm">{work}</span>
              ) : (
                <span className="text-sm text-slate-600">{t('weekNothing')}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export default function AdminPanel({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  if (pathname.replace(/\/+$/, '') !== adminPaths.dashboard || !loaderData.today || !loaderData.jobs) return <Outlet />;
  const { leads, date, testDrives, inspections, pickups, returns, licences, refundsOwed, reservations, nowMs, week, backup, rcOverdue, whatsapp } =
    loaderData.today;
  const jobs = loaderData.jobs;
  const leadNote = leads.since ? t('sinceLastVisit', { time: formatDateTime(leads.since) }) : t('notYetContacted');
  const tiles: Tile[] = [
    { label: t('tileNewRequests'), count: leads.requests, to: `${adminPaths.requestedVehicles}?status=new`, note: leadNote },
    { label: t('tileNewSellOffers'), count: leads.sellOffers, to: `${adminPaths.sellingVehicles}?status=new`, note: leadNote },
    { label: t('tileTestDrivesToday'), count: testDrives, to: adminPaths.testDrivesOn(date), note: t('tileTestDrivesNote') },
    { label: t('tileInspectionsToday'), count: inspections, to: adminPaths.inspectionsOn(date), note: t('tileInspectionsNote') },
    { label: t('tilePickupsToday'), count: pickups, to: adminPaths.rentalPickupsToday, note: t('tilePickupsNote') },
    { label: t('tileReturnsToday'), count: returns, to: adminPaths.rentalReturnsToday, note: t('tileReturnsNote') },
    { label: t('tileLicences'), count: licences, to: adminPaths.rentalLicences, note: t('tileLicencesNote') },
    // Only while there is one: money a renter is owed is rare, and then it is the first thing to see.
    ...(refundsOwed > 0 ? [{ label: t('tileRefundsOwed'), count: refundsOwed, to: adminPaths.rentalRefundsOwed, note: t('tileRefundsOwedNote') }] : []),
    // Only while there is one (decision 117): a sold car whose RC is late is the dealer's liability.
    ...(rcOverdue > 0 ? [{ label: t('tileRcOverdue'), count: rcOverdue, to: adminPaths.rcTransfers, note: t('tileRcOverdueNote') }] : []),
  ];
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-extrabold tracking-tight">{t('dashboardTitle')}</h1>
      <section aria-labelledby="today-heading" className="flex flex-col gap-3">
        <h2 id="today-heading" className="text-lg font-bold">
          {t('todaysWork')}
        </h2>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-7">
          {tiles.map((tile) => (
            <TodayTile key={tile.label} tile={tile} />
          ))}
        </ul>
      </section>
      <ComingWeek week={week} />
      {/* Only while there is one (decision 080): cars held for a buyer, the soonest to end first. */}
      {reservations.length > 0 ? (
        <section aria-labelledby="reservations-heading" className="flex flex-col gap-3">
          <h2 id="reservations-heading" className="text-lg font-bold">
            {t('carsReserved', { number: reservations.length })}
          </h2>
          <ReservationsDesk reservations={reservations} nowMs={nowMs} backTo={adminPaths.dashboard} />
        </section>
      ) : null}
      {/* Only while there is one: mail or a scheduled run that keeps failing needs someone to look. */}
      {jobs.count > 0 ? (
        <section aria-labelledby="jobs-heading" className="flex flex-col gap-3">
          <h2 id="jobs-heading" className="text-lg font-bold">
            {t('jobsFailing', { number: jobs.count })}
          </h2>
          <ul className="flex flex-col gap-2">
            {jobs.jobs.map((job) => (
              <li
                key={job.id}
                className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-red-200 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-semibold">
                    {jobLabel(job.name)} #{job.id}{' '}
                    <span className="font-normal text-slate-600">
                      {job.status === 'failed'
                        ? t('jobGaveUp', { attempts: job.attempts })
                        : job.nextTryMs
                          ? t('jobRetryingAt', { attempt: job.attempts, max: job.maxAttempts, time: formatDateTime(new Date(job.nextTryMs).toISOString()) })
                          : t('jobRetrying', { attempt: job.attempts, max: job.maxAttempts })}
                    </span>
                  </p>
                  <p className="break-words text-sm text-red-800">{job.lastError}</p>
                </div>
                <Form method="post" className="shrink-0">
                  <input type="hidden" name="intent" value="retry-job" />
                  <input type="hidden" name="id" value={job.id} />
                  <button type="submit" className="min-h-11 rounded-lg bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800">
                    {t('retryNow')}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <BackupLine backup={backup} />
      {whatsapp ? <WhatsAppLine counts={whatsapp} /> : null}
      <section aria-labelledby="shortcuts-heading" className="flex flex-col gap-3">
        <h2 id="shortcuts-heading" className="text-lg font-bold">
          {t('everythingElse')}
        </h2>
        <ul className="grid gap-4 [grid-template-columns:repeat(auto-fill,minmax(min(100%,320px),1fr))]">
          {cards.map((card) => (
            <li key={card.to}>
              <Link to={card.to} className="block h-full rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600">
                <h3 className="text-lg font-bold">{t(card.title)}</h3>
                <p className="mt-1 text-slate-600">{t(card.text)}</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <Toast toast={loaderData.toast} />
    </div>
  );
}
