import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { getProfile } from '../../../server/accounts/profiles.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { rentalDeskServices } from '../../../server/rentals/http/rental-services.ts';
import { addBlock, handoversOn, listBlocks, listBookings, listRequestedBookings, removeBlock, type Booking } from '../../../server/rentals/bookings.ts';
import { listFleet } from '../../../server/rentals/fleet.ts';
import { countLicencesWaiting, licenceStatusFor } from '../../../server/rentals/licences.ts';
import { confirmBooking, refuseBooking } from '../../../server/rentals/lifecycle.ts';
import { listBookingsOwingRefunds } from '../../../server/rentals/refunds.ts';
import { formatPaise } from '../../lib/money.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { FormMessage, inputClass, primaryButton, secondaryButton } from '../../components/form.tsx';
import { formError, parseForm } from '../../lib/form-errors.ts';
import { rentalDeskActionSchema } from '../../features/rentals/desk-action-schemas.ts';
import { appContext } from '../../context.ts';
import { formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { licenceStatusText } from '../../features/rentals/licence.ts';
import { adminPaths } from '../../lib/paths.ts';
import { HOUR_MS } from '../../features/rentals/rental-price.ts';
import { formatIndiaDay, formatRange, suggestedRange } from '../../features/rentals/rent-view.ts';
import { bookingStatusLabels, type BookingStatus } from '../../features/rentals/rentals.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { deskRentalsText as t } from '../../features/rentals/desk-rentals-texts.ts';
import type { Route } from './+types/rental-desk';
import { indiaDayStart, indiaWeekday } from '../../lib/india-time.ts';

export const meta: Route.MetaFunction = (args) => adminPageMeta(t('rentalDesk'))(args);

const DAY_MS = 24 * HOUR_MS;
/** The timeline shows three weeks from today (India time). */
const TIMELINE_DAYS = 21;
/** Statuses worth a bar on the timeline: holding the car, or just back. */
const SHOWN_STATUSES: BookingStatus[] = ['requested', 'confirmed', 'active', 'returned'];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const nowMs = services.clock.now();
  const startMs = indiaDayStart(nowMs);
  const endMs = startMs + TIMELINE_DAYS * DAY_MS;
  const [fleet, bookings, blocks, requested, licencesWaiting, today, active, owing, flash] = await Promise.all([
    listFleet(services.database),
    listBookings(services.database, { fromMs: startMs, toMs: endMs, statuses: SHOWN_STATUSES }),
    listBlocks(services.database, { fromMs: startMs, toMs: endMs }),
    listRequestedBookings(services.database),
    countLicencesWaiting(services.database),
    handoversOn(services.database, startMs),
    listBookings(services.database, { fromMs: 0, toMs: endMs, statuses: ['active', 'returned'] }),
    listBookingsOwingRefunds(services),
    takeFlash(services.config.authSecret, request),
  ]);
  // Who asked, so the desk can call them before confirming: name, phone and licence per renter.
  const renterOf = new Map<string, { licence: string; name: string; phone: string }>();
  for (const booking of requested) {
    if (renterOf.has(booking.userId)) continue;
    const [licence, profile] = await Promise.all([licenceStatusFor(services.database, booking.userId), getProfile(services.database, booking.userId)]);
    renterOf.set(booking.userId, { licence: licence?.status ?? 'none', name: profile?.name ?? '', phone: profile?.phone ?? '' });
  }
  const bar = (fromMs: number, toMs: number) => ({
    left: Math.max(0, ((fromMs - startMs) / (endMs - startMs)) * 100),
    width: Math.max(0.8, ((Math.min(toMs, endMs) - Math.max(fromMs, startMs)) / (endMs - startMs)) * 100),
  });
  return data(
    {
      toast: flash.toast,
      days: Array.from({ length: TIMELINE_DAYS }, (_, index) => ({
        label: formatIndiaDay(startMs + index * DAY_MS + 12 * HOUR_MS),
        weekend: [0, 6].includes(indiaWeekday(startMs + index * DAY_MS)),
      })),
      cars: fleet.map((car) => ({
        id: car.id,
        name: car.name,
        rentable: car.rentable,
        bars: [
          ...bookings
            .filter((booking) => booking.vehicleId === car.id)
            .map((booking) => ({
              key: `b${booking.id}`,
              kind: 'booking' as const,
              id: booking.id,
              status: booking.status,
              label: `#${booking.id} ${bookingStatusLabels()[booking.status]}`,
              title: formatRange(booking.fromMs, booking.toMs),
              ...bar(booking.fromMs, booking.toMs),
            })),
          ...blocks
            .filter((block) => block.vehicleId === car.id)
            .map((block) => ({
              key: `k${block.id}`,
              kind: 'block' as const,
              id: block.id,
              status: 'blocked',
              label: block.note || t('blocked'),
              title: formatRange(block.fromMs, block.toMs),
              ...bar(block.fromMs, block.toMs),
            })),
        ],
      })),
      blocks: blocks.map((block) => ({
        id: block.id,
        carName: fleet.find((car) => car.id === block.vehicleId)?.name ?? `#${block.vehicleId}`,
        range: formatRange(block.fromMs, block.toMs),
        note: block.note,
      })),
      requested: requested.map((booking) => ({
        id: booking.id,
        carName: booking.carName,
        range: formatRange(booking.fromMs, booking.toMs),
        atPickup: booking.quote.dueAtPickup,
        paidOnline: booking.paymentMethod === 'razorpay' ? booking.amountPaid : null,
        paymentProblem: booking.paymentProblem,
        refundOwed: booking.refundOwedPaise > 0 ? formatPaise(booking.refundOwedPaise) : null,
        renter: renterOf.get(booking.userId) ?? { licence: 'none', name: '', phone: '' },
      })),
      onTrip: active.map(bookingLine),
      refundsOwed: owing.map((booking) => ({ ...bookingLine(booking), owed: formatPaise(booking.refundOwedPaise), problem: booking.paymentProblem })),
      licencesWaiting,
      today: { label: formatIndiaDay(startMs + 12 * HOUR_MS), pickups: today.pickups.map(bookingLine), returns: today.returns.map(bookingLine) },
      suggested: suggestedRange(nowMs),
    },
    { headers: flash.headers },
  );
}

/** Add or remove a block; confirm or refuse a requested booking. Every change is audit-logged by its service. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  const desk = rentalDeskServices(services);
  // Read by its schema (decision 109): a wrong block is told beside its fields, with what was typed.
  const parsed = parseForm(rentalDeskActionSchema, form);
  if (!parsed.ok) return data({ ...formError(parsed.error, parsed.fields), values: parsed.values }, { status: 400 });
  const asked = parsed.value;
  let text: string;
  try {
    if (asked.intent === 'add-block') {
      const { vehicleId, from: fromMs, to: toMs, note } = asked;
      await addBlock(desk, { vehicleId, fromMs, toMs, note, actorEmail: admin.email });
      text = t('carBlocked');
    } else if (asked.intent === 'remove-block') {
      await removeBlock(desk, { blockId: asked.blockId, actorEmail: admin.email });
      text = t('blockRemoved');
    } else {
      const { bookingId } = asked;
      const booking =
        asked.intent === 'confirm'
          ? await confirmBooking(desk, { bookingId, actorEmail: admin.email })
          : await refuseBooking(desk, { bookingId, reason: asked.reason, actorEmail: admin.email });
      text = t(asked.intent === 'confirm' ? 'bookingConfirmedNumbered' : 'bookingRefusedNumbered', { id: booking.id });
    }
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('changeNotSaved'), log: 'rental desk action failed' });
    return data({ error: answer.message }, { status: answer.status });
  }
  throw redirect(adminPaths.rentalDesk, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
}

/** A booking as one line of the desk: which, its car, where it stands and its times. */
function bookingLine(booking: Booking) {
  return {
    id: booking.id,
    carName: booking.carName,
    status: booking.status,
    range: formatRange(booking.fromMs, booking.toMs),
    handedOverAt: booking.handedOverAt,
    returnedAt: booking.returnedAt,
  };
}
type BookingLine = ReturnType<typeof bookingLine>;

function BookingLines({ items, className = '' }: { items: BookingLine[]; className?: string }) {
  return (
    <ul className={`flex flex-col gap-1 text-sm ${className}`}>
      {items.map((booking) => (
        <li key={booking.id}>
          <Link to={adminPaths.rentalBooking(booking.id)} className="font-semibold text-brand-700 underline">
            #{booking.id} · {booking.carName}
          </Link>{' '}
          · {bookingStatusLabels()[booking.status]} · {booking.range}
          {/* When it actually went out and came back, which may differ from the booked range. */}
          {booking.returnedAt ? (
            <span data-returned> · {t('returnedWhen', { when: formatIndiaDateTime(booking.returnedAt) })}</span>
          ) : booking.handedOverAt ? (
            <span data-handed-over> · {t('handedOverWhen', { when: formatIndiaDateTime(booking.handedOverAt) })}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The `#…` of a path, without the hash. */
const anchorOf = (path: string) => path.slice(path.indexOf('#') + 1);

/** Today's pickups or returns, under the anchor the dashboard's tile links to. */
function HandoverList({ id, title, empty, items }: { id: string; title: string; empty: string; items: BookingLine[] }) {
  return (
    <div id={id} className="scroll-mt-24">
      <h3 className="font-bold">
        {title} ({items.length})
      </h3>
      {items.length === 0 ? <p className="mt-1 text-sm text-slate-600">{empty}</p> : null}
      <BookingLines items={items} className="mt-1" />
    </div>
  );
}

const barTone: Record<string, string> = {
  requested: 'bg-amber-400 text-amber-950',
  confirmed: 'bg-green-700 text-white',
  active: 'bg-blue-600 text-white',
  returned: 'bg-slate-500 text-white',
  blocked: 'bg-slate-800 text-white bg-[repeating-linear-gradient(45deg,transparent,transparent_6px,rgba(255,255,255,.15)_6px,rgba(255,255,255,.15)_12px)]',
};

/** A field's own message, under it. */
function FieldError({ message }: { message: string | undefined }) {
  return message ? <span className="font-medium text-red-700">{message}</span> : null;
}

export default function RentalDesk({ loaderData, actionData }: Route.ComponentProps) {
  // A refused block: each message beside its field, and what was typed kept.
  const blockErrors = (actionData && 'fields' in actionData ? actionData.fields : {}) as Record<string, string>;
  const typed = (actionData && 'values' in actionData ? actionData.values : {}) as Record<string, string>;
  const { days, cars, requested, onTrip, refundsOwed, blocks, licencesWaiting, today, toast, suggested } = loaderData;
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('rentalDesk')}>
        <Link to={adminPaths.rentalLicences} className={`${secondaryButton} px-4 py-2 text-sm`}>
          {t('licencesToReview', { number: licencesWaiting })}
        </Link>
      </PageHeader>
      {toast ? <FormMessage tone={toast.tone}>{toast.text}</FormMessage> : null}
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}

      {refundsOwed.length > 0 ? (
        <section
          id={anchorOf(adminPaths.rentalRefundsOwed)}
          aria-labelledby="refunds-owed-heading"
          className="scroll-mt-24 rounded-2xl bg-red-50 p-4 shadow-sm ring-1 ring-red-200"
        >
          <h2 id="refunds-owed-heading" className="text-lg font-bold text-red-900">
            {t('refundsOwedHeading', { number: refundsOwed.length })}
          </h2>
          <p className="text-sm text-red-900">{t('refundsOwedIntro')}</p>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {refundsOwed.map((booking) => (
              <li key={booking.id}>
                <Link to={adminPaths.rentalBooking(booking.id)} className="font-semibold text-brand-700 underline">
                  #{booking.id} · {booking.carName}
                </Link>{' '}
                · {bookingStatusLabels()[booking.status]} · <strong className="text-red-800">{t('refundOwed', { amount: booking.owed })}</strong>
                {booking.problem ? <span className="block text-amber-900">{t('paymentProblem', { problem: booking.problem })}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="today-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="today-heading" className="text-lg font-bold">
          {t('todayHeading', { day: today.label })}
        </h2>
        <div className="mt-2 grid gap-4 md:grid-cols-2">
          <HandoverList id={anchorOf(adminPaths.rentalPickupsToday)} title={t('pickups')} empty={t('noPickupsToday')} items={today.pickups} />
          <HandoverList id={anchorOf(adminPaths.rentalReturnsToday)} title={t('returns')} empty={t('noReturnsToday')} items={today.returns} />
        </div>
      </section>

      <section aria-labelledby="requested-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="requested-heading" className="text-lg font-bold">
          {t('waitingHeading', { number: requested.length })}
        </h2>
        {requested.length === 0 ? <p className="mt-1 text-sm text-slate-600">{t('noBookingsWaiting')}</p> : null}
        <ul className="mt-3 flex flex-col gap-3">
          {requested.map((booking) => (
            <li key={booking.id} className="flex flex-col gap-3 rounded-xl p-3 ring-1 ring-slate-200 md:flex-row md:items-center">
              <div className="min-w-0 flex-1">
                <Link to={adminPaths.rentalBooking(booking.id)} className="font-semibold text-brand-700 underline">
                  #{booking.id} · {booking.carName}
                </Link>
                <p className="text-sm text-slate-600">
                  {booking.range} ·{' '}
                  {booking.paidOnline === null
                    ? t('amountAtPickup', { amount: formatRupees(booking.atPickup) })
                    : booking.paidOnline > 0
                      ? t('paidOnline', { amount: formatRupees(booking.paidOnline) })
                      : t('onlinePaymentAwaited')}
                  {booking.refundOwed ? <strong className="text-red-800"> · {t('refundOwed', { amount: booking.refundOwed })}</strong> : null}
                </p>
                {booking.paymentProblem ? (
                  <p className="text-sm font-semibold text-amber-900">{t('paymentProblem', { problem: booking.paymentProblem })}</p>
                ) : null}
                <p className="text-sm">
                  {booking.renter.name || t('noName')}
                  {booking.renter.phone ? (
                    <>
                      {' · '}
                      <a href={`tel:${booking.renter.phone}`} className="text-brand-700 underline">
                        {booking.renter.phone}
                      </a>
                    </>
                  ) : null}
                  {' · '}
                  {t('licenceLabel')}{' '}
                  {booking.renter.licence === 'none' ? (
                    <span className="font-semibold text-red-700">{t('noneOnFile')}</span>
                  ) : (
                    <Link
                      to={adminPaths.rentalLicences}
                      className={booking.renter.licence === 'approved' ? 'font-semibold text-green-700' : 'font-semibold text-amber-800 underline'}
                    >
                      {licenceStatusText()[booking.renter.licence as keyof ReturnType<typeof licenceStatusText>]}
                    </Link>
                  )}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Form method="post">
                  <input type="hidden" name="bookingId" value={booking.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="confirm"
                    disabled={busy || booking.renter.licence !== 'approved'}
                    className={`${primaryButton} px-4 py-2 text-sm`}
                  >
                    {t('confirmNumbered', { id: booking.id })}
                  </button>
                </Form>
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="bookingId" value={booking.id} />
                  <input
                    name="reason"
                    aria-label={t('refuseReasonFor', { id: booking.id })}
                    placeholder={t('reason')}
                    maxLength={300}
                    className={`${inputClass} w-36 py-2 text-sm`}
                  />
                  <button type="submit" name="intent" value="refuse" disabled={busy} className={`${secondaryButton} px-4 py-2 text-sm text-red-700`}>
                    {t('refuse')}
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      </section>

      {onTrip.length > 0 ? (
        <section aria-labelledby="trip-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="trip-heading" className="text-lg font-bold">
            {t('onTripAndBack')}
          </h2>
          <BookingLines items={onTrip} className="mt-2" />
        </section>
      ) : null}

      <section aria-labelledby="timeline-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="timeline-heading" className="text-lg font-bold">
          {t('nextThreeWeeks')}
        </h2>
        <div className="mt-3 overflow-x-auto">
          <div className="min-w-[760px]">
            <div className="grid grid-cols-[140px_1fr] text-[11px] text-slate-500 lg:grid-cols-[220px_1fr]">
              <span className="sticky left-0 z-10 bg-white" />
              <div className="grid" style={{ gridTemplateColumns: `repeat(${days.length}, minmax(0, 1fr))` }}>
                {days.map((day) => (
                  <span key={day.label} className={`border-l border-slate-200 px-0.5 ${day.weekend ? 'bg-slate-50' : ''}`}>
                    {day.label.replace(/,.*/, '')}
                    <br />
                    {day.label.replace(/^[^,]*, /, '')}
                  </span>
                ))}
              </div>
            </div>
            <ul>
              {cars.map((car) => (
                <li key={car.id} className="grid grid-cols-[140px_1fr] items-center border-t border-slate-100 py-1.5 lg:grid-cols-[220px_1fr]">
                  {/* Stays in view while a phone scrolls the weeks sideways. */}
                  <span className="sticky left-0 z-10 line-clamp-2 bg-white pr-2 text-sm font-semibold" title={car.name}>
                    {car.name}
                    {!car.rentable ? <span className="block text-xs font-normal text-red-700">{t('notBookable')}</span> : null}
                  </span>
                  <div className="relative h-8 rounded bg-slate-50">
                    {car.bars.map((bar) =>
                      bar.kind === 'booking' ? (
                        <Link
                          key={bar.key}
                          to={adminPaths.rentalBooking(bar.id)}
                          title={`${bar.label}: ${bar.title}`}
                          className={`absolute top-1 bottom-1 overflow-hidden whitespace-nowrap rounded px-1 text-[11px] font-semibold leading-6 ${barTone[bar.status] ?? 'bg-slate-300'}`}
                          style={{ left: `${bar.left}%`, width: `${bar.width}%` }}
                        >
                          {bar.label}
                        </Link>
                      ) : (
                        <span
                          key={bar.key}
                          title={`${bar.label}: ${bar.title}`}
                          className={`absolute top-1 bottom-1 overflow-hidden whitespace-nowrap rounded px-1 text-[11px] font-semibold leading-6 ${barTone.blocked}`}
                          style={{ left: `${bar.left}%`, width: `${bar.width}%` }}
                        >
                          {bar.label}
                        </span>
                      ),
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </div>
        {cars.length === 0 ? <p className="text-sm text-slate-600">{t('noFleet')}</p> : null}
      </section>

      <section aria-labelledby="blocks-heading" className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="blocks-heading" className="text-lg font-bold">
            {t('blockACar')}
          </h2>
          <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2">
            <input type="hidden" name="intent" value="add-block" />
            <label className="flex flex-col gap-1 text-sm font-semibold sm:col-span-2">
              {t('car')}
              <select name="vehicleId" required defaultValue={typed.vehicleId} aria-invalid={blockErrors.vehicleId ? true : undefined} className={inputClass}>
                {cars.map((car) => (
                  <option key={car.id} value={car.id}>
                    {car.name}
                  </option>
                ))}
              </select>
              <FieldError message={blockErrors.vehicleId} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('from')}
              <input
                type="datetime-local"
                name="from"
                required
                defaultValue={typed.from ?? suggested.from}
                aria-invalid={blockErrors.from ? true : undefined}
                className={inputClass}
              />
              <FieldError message={blockErrors.from} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('to')}
              <input
                type="datetime-local"
                name="to"
                required
                defaultValue={typed.to ?? suggested.to}
                aria-invalid={blockErrors.to ? true : undefined}
                className={inputClass}
              />
              <FieldError message={blockErrors.to} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-semibold sm:col-span-2">
              {t('reason')}
              <input name="note" maxLength={200} placeholder={t('blockReasonPlaceholder')} defaultValue={typed.note} className={inputClass} />
            </label>
            <button type="submit" disabled={busy || cars.length === 0} className={`${primaryButton} sm:col-span-2`}>
              {t('addBlock')}
            </button>
          </Form>
        </div>
        <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">{t('blocks')}</h2>
          {blocks.length === 0 ? <p className="mt-1 text-sm text-slate-600">{t('noBlocks')}</p> : null}
          <ul className="mt-2 flex flex-col gap-2">
            {blocks.map((block) => (
              <li key={block.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg p-2 ring-1 ring-slate-200">
                <span className="text-sm">
                  <strong>{block.carName}</strong> · {block.range}
                  {block.note ? ` · ${block.note}` : ''}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-block" />
                  <input type="hidden" name="blockId" value={block.id} />
                  <button type="submit" disabled={busy} className={`${secondaryButton} px-3 py-1.5 text-sm`}>
                    {t('remove')}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </div>
  );
}
