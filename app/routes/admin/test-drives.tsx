import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { recordAudit } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { settingsFor } from '../../../server/admin/settings.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { notifyTestDrive } from '../../../server/test-drives/notify.ts';
import {
  changeTestDriveStatus,
  daySchedule,
  rescheduleTestDriveByAdmin,
  type AdminTestDriveAction,
  type ScheduledTestDrive,
} from '../../../server/test-drives/test-drives.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { FieldNotes, inputClass } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { telLink } from '../../lib/contact.ts';
import { formError, parseForm } from '../../lib/form-errors.ts';
import { adminTestDriveSchema } from '../../features/admin/test-drive-desk-schemas.ts';
import { adminPaths, paths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { deskTestDrivesText as t } from '../../features/admin/desk-test-drives-texts.ts';
import { dayLabel, MODE_LABELS, slotLabel, slotTimeRange, STATUS_LABELS, type TestDriveStatus } from '../../features/appointments/test-drives.ts';
import type { Route } from './+types/test-drives';
import { homeAddressLine } from '../../features/appointments/home-address.ts';
import { addDays, indiaDay, parseIndiaDate } from '../../lib/india-time.ts';

/** The day's test drives for the team: who comes when, and confirm / reschedule / done / no-show. */

export const meta: Route.MetaFunction = (args) => adminPageMeta(t('testDrives'))(args);

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const today = indiaDay(services.clock.now());
  const date = parseIndiaDate(new URL(request.url).searchParams.get('date')) ?? today;
  const [schedule, flash] = await Promise.all([daySchedule(services, date), takeFlash(services.config.authSecret, request)]);
  return data({ date, today, schedule, toast: flash.toast }, { headers: flash.headers });
}

/** Each button: its label and answer (keys of the deskTestDrives texts) and its audit summary (English, as the audit log is). */
const ACTIONS = {
  confirm: { label: 'confirm', done: 'confirmedDone', audit: 'Confirmed test drive' },
  done: { label: 'markDone', done: 'doneDone', audit: 'Marked test drive done' },
  no_show: { label: 'noShow', done: 'noShowDone', audit: 'Marked test drive no-show' },
  cancel: { label: 'cancel', done: 'cancelDone', audit: 'Cancelled test drive' },
} as const satisfies Record<AdminTestDriveAction, { label: string; done: string; audit: string }>;

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const url = new URL(request.url);
  const back = adminPaths.testDrivesOn(parseIndiaDate(url.searchParams.get('date')) ?? indiaDay(services.clock.now()));
  const answer = async (tone: 'success' | 'error', text: string, status = 303) =>
    redirect(back, { status, headers: await flashHeaders(services.config.authSecret, { tone, text }) });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  const parsed = parseForm(adminTestDriveSchema, form);
  if (!parsed.ok) {
    // A wrong slot is told beside its field, with what was typed; any other refusal is the day's message.
    if (parsed.fields.slot) return data({ ...formError(parsed.error, parsed.fields), values: parsed.values }, { status: 400 });
    return answer('error', parsed.error);
  }
  const asked = parsed.value;
  const { id, intent } = asked;
  try {
    if (asked.intent === 'reschedule') {
      const { slot } = asked;
      // The customer's messages are queued in the move's transaction (decision 069).
      const { before, after } = await rescheduleTestDriveByAdmin(services, await settingsFor(services), { id, slot }, (trx, moved) =>
        notifyTestDrive(trx, services, 'rescheduled', moved),
      );
      services.jobs.wake();
      await recordAudit(services, {
        actorEmail: admin.email,
        action: 'reschedule',
        entity: 'test_drive',
        entityId: id,
        summary: `Moved test drive #${id} (${after.vehicleTitle}) from ${slotLabel(before.slot)} to ${slotLabel(after.slot)}`,
        before,
        after,
      });
      return answer('success', t('moved', { slot: slotLabel(after.slot) }));
    }
    const action = asked.intent;
    const { before, after } = await changeTestDriveStatus(services, { id, action });
    await recordAudit(services, {
      actorEmail: admin.email,
      action,
      entity: 'test_drive',
      entityId: id,
      summary: `${ACTIONS[action].audit} #${id} (${after.vehicleTitle}, ${slotLabel(after.slot)})`,
      before: { status: before.status },
      after: { status: after.status },
    });
    return answer('success', t(ACTIONS[action].done));
  } catch (error) {
    const refused = answerError(error, services.logger, { fallback: t('changeFailed'), log: 'admin test-drive change failed', context: { id, intent } });
    return answer('error', refused.message);
  }
}

const statusTone: Record<TestDriveStatus, string> = {
  booked: 'bg-sky-100 text-sky-800',
  confirmed: 'bg-green-100 text-green-800',
  done: 'bg-slate-200 text-slate-800',
  no_show: 'bg-amber-100 text-amber-800',
  cancelled: 'bg-slate-100 text-slate-600 line-through',
};

const actionButton = 'rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 hover:bg-slate-100 disabled:opacity-50';

/** A refused move, told beside the slot of the test drive it was for. */
type Refused = { fields: Record<string, string>; values: Record<string, string> } | undefined;

function Row({
  drive,
  busy,
  refused,
}: {
  drive: ScheduledTestDrive & { desk: { actions: AdminTestDriveAction[]; movable: boolean } };
  busy: boolean;
  refused: Refused;
}) {
  const slotError = refused?.values.id === String(drive.id) ? refused.fields.slot : undefined;
  const slotId = `slot-${drive.id}`;
  // What the desk may do is the transition table's (server/test-drives/test-drive-transitions.ts).
  const { actions: allowed, movable } = drive.desk;
  return (
    <li className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-test-drive={drive.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-lg font-bold tabular-nums">{slotTimeRange(drive.slot)}</p>
          {drive.vehicleId !== null ? (
            <Link to={paths.vehicle(drive.vehicleId)} className="font-semibold text-brand-700 underline">
              {drive.vehicleTitle}
            </Link>
          ) : (
            <span className="font-semibold">{t('removed', { title: drive.vehicleTitle })}</span>
          )}
        </div>
        <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${statusTone[drive.status]}`}>{STATUS_LABELS[drive.status]}</span>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-600">{t('customer')}</dt>
          <dd className="inline font-medium">{drive.name || '—'}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">{t('phone')}</dt>
          <dd className="inline font-medium">
            <a href={telLink(drive.phone)} className="underline">
              {drive.phone}
            </a>
          </dd>
        </div>
        <div className="min-w-0 truncate">
          <dt className="inline text-slate-600">{t('email')}</dt>
          <dd className="inline">{drive.email}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">{t('where')}</dt>
          <dd className="inline font-medium">{drive.mode === 'home' ? t('atCustomersHome', { address: homeAddressLine(drive) }) : MODE_LABELS.hub}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">{t('booking')}</dt>
          <dd className="inline">
            #{drive.id}
            {drive.remindedAt ? t('reminderSent') : ''}
          </dd>
        </div>
      </dl>
      {allowed.length > 0 ? (
        <Form method="post" preventScrollReset className="flex flex-wrap gap-2">
          <input type="hidden" name="id" value={drive.id} />
          {allowed.map((intent) => (
            <button
              key={intent}
              type="submit"
              name="intent"
              value={intent}
              disabled={busy}
              className={`${actionButton} ${intent === 'cancel' ? 'text-red-700' : intent === 'confirm' ? 'bg-brand-700 text-white ring-brand-700 hover:bg-brand-800' : ''}`}
            >
              {t(ACTIONS[intent].label)}
            </button>
          ))}
        </Form>
      ) : null}
      {movable ? (
        <details open={slotError ? true : undefined}>
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">{t('reschedule')}</summary>
          <Form method="post" preventScrollReset className="mt-2 flex flex-wrap items-end gap-2">
            <input type="hidden" name="id" value={drive.id} />
            <div className="flex flex-col gap-1">
              <label htmlFor={slotId} className="text-sm font-semibold">
                {t('newDayAndHour')}
              </label>
              <input
                id={slotId}
                type="datetime-local"
                name="slot"
                step={3600}
                defaultValue={slotError ? refused?.values.slot : drive.slot}
                required
                aria-invalid={slotError ? true : undefined}
                aria-describedby={slotError ? `${slotId}-error` : undefined}
                className={`${inputClass} py-2`}
              />
              <FieldNotes id={slotId} error={slotError} />
            </div>
            <button type="submit" name="intent" value="reschedule" disabled={busy} className={actionButton}>
              {t('move')}
            </button>
          </Form>
        </details>
      ) : null}
    </li>
  );
}

export default function AdminTestDrives({ loaderData, actionData }: Route.ComponentProps) {
  const { date, today, schedule, toast } = loaderData;
  const refused = (actionData && 'values' in actionData ? actionData : undefined) as Refused;
  const busy = useNavigation().state !== 'idle';
  const active = schedule.filter((drive) => drive.status !== 'cancelled');
  const count = (status: TestDriveStatus) => schedule.filter((drive) => drive.status === status).length;
  const navLink = 'rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 bg-white hover:bg-slate-100';
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight">{t('testDrives')}</h1>
          <p className="text-slate-600">
            {dayLabel(date)}
            {date === today ? t('todaySuffix') : ''}: {t('driveCount', { count: active.length })}
            {active.length > 0 ? t('dayCounts', { toConfirm: count('booked'), done: count('done'), noShow: count('no_show') }) : ''}
          </p>
        </div>
        <nav aria-label={t('day')} className="flex flex-wrap items-center gap-2">
          <Link to={adminPaths.testDrivesOn(addDays(date, -1))} className={navLink}>
            {t('previousDay')}
          </Link>
          <Link to={adminPaths.testDrivesOn(today)} className={navLink}>
            {t('today')}
          </Link>
          <Link to={adminPaths.testDrivesOn(addDays(date, 1))} className={navLink}>
            {t('nextDay')}
          </Link>
          {/* Keyed by the day: the field shows the day on screen after each move. */}
          <Form key={date} method="get" className="flex items-center gap-2">
            <label htmlFor="schedule-date" className="sr-only">
              {t('day')}
            </label>
            <input id="schedule-date" type="date" name="date" defaultValue={date} className={`${inputClass} py-2`} />
            <button type="submit" className={navLink}>
              {t('show')}
            </button>
          </Form>
        </nav>
      </div>
      {schedule.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 ring-1 ring-slate-200">{t('noDrivesOn', { day: dayLabel(date) })}</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {schedule.map((drive) => (
            <Row key={`${drive.id}-${drive.status}-${drive.slot}`} drive={drive} busy={busy} refused={refused} />
          ))}
        </ul>
      )}
      <Toast toast={toast} />
    </div>
  );
}
