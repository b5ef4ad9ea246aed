import { QuoteLines } from '../../components/rentals/quote-parts.tsx';
import { data, Form, redirect, useNavigation } from 'react-router';
import { getProfile } from '../../../server/accounts/profiles.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { rentalDeskServices } from '../../../server/rentals/http/rental-services.ts';
import { getBooking } from '../../../server/rentals/bookings.ts';
import { licenceStatusFor } from '../../../server/rentals/licences.ts';
import { confirmBooking, handOver, markNoShow, previewReturn, refuseBooking, returnCar, settleDeposit } from '../../../server/rentals/lifecycle.ts';
import { formatPaise, refundsOf, retryBookingRefunds } from '../../../server/rentals/refunds.ts';
import { InvalidInputError, NotFoundError } from '../../../server/errors.ts';
import { PageHeader } from '../../components/admin/admin-ui.tsx';
import { FormMessage, inputClass, primaryButton, secondaryButton } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { formError, noFormErrors } from '../../lib/form-errors.ts';
import { formatKilometres, formatRupees } from '../../lib/format.ts';
import { cleanLine, cleanText, parseId, parseWholeNumber } from '../../lib/input.ts';
import { LICENCE_STATUS_TEXT } from '../../lib/licence.ts';
import { adminPaths } from '../../lib/paths.ts';
import type { ReturnCharges } from '../../lib/rental-price.ts';
import { formatIndiaDateTime, formatRange } from '../../lib/rent-view.ts';
import { BOOKING_STATUS_LABELS, FUEL_EIGHTHS_MAX, indiaDateTimeParam, parseIndiaDateTime } from '../../lib/rentals.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import type { Route } from './+types/rental-booking';

export function meta({ matches, location, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: `Booking #${params.id}`, noIndex: true });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const id = parseId(params.id);
  const booking = id === null ? null : await getBooking(services.database, id);
  if (!booking) throw data({ message: 'This booking was not found.' }, { status: 404 });
  // A booking kept after its customer deleted the account has no one to look up (decision 029).
  const userId = booking.userId || null;
  const [user, profile, licence, refunds, flash] = await Promise.all([
    userId ? services.database.db.selectFrom('user').select(['email', 'name']).where('id', '=', userId).executeTakeFirst() : undefined,
    userId ? getProfile(services.database, userId) : null,
    userId ? licenceStatusFor(services.database, userId) : null,
    refundsOf(services, booking.id),
    takeFlash(services.config.authSecret, request),
  ]);
  return data(
    {
      booking,
      customer: { name: userId ? profile?.name || user?.name || '' : 'Account deleted', email: user?.email ?? '', phone: profile?.phone ?? '', phoneVerified: Boolean(profile?.phoneVerified) },
      licence: licence?.status ?? null,
      refunds: refunds.map((refund) => ({
        id: refund.id,
        amount: formatPaise(refund.amountPaise, refund.currency),
        reason: refund.reason,
        owed: refund.status === 'owed',
        attempts: refund.attempts,
        lastError: refund.lastError,
        nextTry: refund.status === 'owed' && refund.nextTryMs !== null ? formatIndiaDateTime(refund.nextTryMs) : null,
        refundedAt: refund.refundedAt ? formatIndiaDateTime(Date.parse(refund.refundedAt)) : null,
      })),
      refundOwed: booking.refundOwedPaise > 0 ? formatPaise(booking.refundOwedPaise) : null,
      now: indiaDateTimeParam(services.clock.now()),
      toast: flash.toast,
    },
    { headers: flash.headers },
  );
}

function wholeNumber(form: FormData, name: string, label: string, max: number): number {
  const value = parseWholeNumber(cleanLine(form.get(name), 12).replace(/[₹,\s]/g, ''), { min: 0, max });
  if (value === null) throw new InvalidInputError(`${label} must be a whole number from 0 to ${max}.`, { [name]: `${label} must be a whole number from 0 to ${max}.` });
  return value;
}

/** The return as the desk typed it: odometer, fuel, when it came back, the fuel shortfall in rupees. */
function returnInput(form: FormData, bookingId: number) {
  const returnedText = cleanLine(form.get('returnedAt'), 16);
  const returnedMs = returnedText ? parseIndiaDateTime(returnedText) : null;
  if (returnedText && returnedMs === null) throw new InvalidInputError('Please give the return time as a date and time.', { returnedAt: 'Please give the return time as a date and time.' });
  return {
    bookingId,
    odometerIn: wholeNumber(form, 'odometerIn', 'The odometer', 9_999_999),
    fuelIn: wholeNumber(form, 'fuelIn', 'The fuel level', FUEL_EIGHTHS_MAX),
    fuelCharge: wholeNumber(form, 'fuelCharge', 'The fuel charge', 100_000),
    ...(returnedMs !== null ? { returnedMs } : {}),
  };
}

/** Each step of a booking at the desk, audit-logged by its service; the customer is told where the service says so. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const bookingId = parseId(params.id);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ ...formError(form.message), preview: null }, { status: form.status });
  const desk = rentalDeskServices(services);
  const actorEmail = admin.email;
  let text: string;
  try {
    if (bookingId === null) throw new NotFoundError('This booking was not found.');
    switch (form.get('intent')) {
      case 'confirm':
        await confirmBooking(desk, { bookingId, actorEmail });
        text = 'Booking confirmed; the customer was told.';
        break;
      case 'refuse':
        await refuseBooking(desk, { bookingId, reason: cleanText(form.get('reason'), { maxLength: 300 }), actorEmail });
        text = 'Booking refused; the customer was told.';
        break;
      case 'handover':
        await handOver(desk, { bookingId, odometerOut: wholeNumber(form, 'odometerOut', 'The odometer', 9_999_999), fuelOut: wholeNumber(form, 'fuelOut', 'The fuel level', FUEL_EIGHTHS_MAX), actorEmail });
        text = 'Car handed over.';
        break;
      case 'no-show':
        await markNoShow(desk, { bookingId, actorEmail });
        text = 'Marked a no-show.';
        break;
      case 'preview': {
        const preview = await previewReturn(desk, returnInput(form, bookingId));
        return { ...noFormErrors(), preview };
      }
      case 'return':
        await returnCar(desk, { ...returnInput(form, bookingId), actorEmail });
        text = 'Car returned; the charges are below.';
        break;
      case 'settle': {
        const closed = await settleDeposit(desk, { bookingId, depositRefund: wholeNumber(form, 'depositRefund', 'The deposit refund', 10_000_000), actorEmail });
        text = closed.refundOwedPaise > 0
          ? 'Deposit settled and the booking closed; Razorpay did not take the refund yet, so it is owed and retried (see Money below).'
          : 'Deposit settled; the booking is closed and the customer has the closing statement.';
        break;
      }
      case 'retry-refund': {
        const result = await retryBookingRefunds(desk, { bookingId, actorEmail });
        if (result.owed > 0) {
          return data({ error: `The refund failed again${result.lastError ? ` (${result.lastError})` : ''}. It stays owed and is retried automatically.`, preview: null, fields: {} as Record<string, string> }, { status: 502 });
        }
        text = result.refunded > 0 ? 'Refund sent through Razorpay.' : 'No refund is owed on this booking.';
        break;
      }
      default:
        throw new InvalidInputError('The form could not be read. Please reload the page and try again.');
    }
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: 'The change could not be saved. Please try again.', log: 'rental booking action failed', context: { bookingId } });
    return data({ ...formError(answer.message, { ...answer.fields }), preview: null }, { status: answer.status });
  }
  throw redirect(adminPaths.rentalBooking(bookingId), { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
}

function Statement({ charges, deposit, depositRefund }: { charges: ReturnCharges; deposit: number; depositRefund: number | null }) {
  const rows: Array<[string, string]> = [
    ['Km driven', formatKilometres(charges.kmDriven)],
    [`Extra km (${charges.extraKm} km)`, formatRupees(charges.extraKmCharge)],
    [`Late return (${charges.lateHours} h)`, formatRupees(charges.lateFee)],
    ['Fuel shortfall', formatRupees(charges.fuelCharge)],
    ['Charges', formatRupees(charges.total)],
    ['Deposit', formatRupees(deposit)],
    ['Deposit refund', formatRupees(depositRefund ?? charges.depositRefund)],
  ];
  if (charges.amountDue > 0) rows.push(['Still owed', formatRupees(charges.amountDue)]);
  return (
    <dl className="divide-y divide-slate-100 text-sm" aria-label="Closing statement">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-3 py-1.5">
          <dt className="text-slate-700">{label}</dt>
          <dd className="font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function NumberField({ name, label, max, defaultValue, error }: { name: string; label: string; max: number; defaultValue?: string | number | undefined; error?: string | undefined }) {
  return (
    <label className="flex flex-col gap-1 text-sm font-semibold">
      {label}
      <input name={name} type="number" min={0} max={max} step={1} inputMode="numeric" required defaultValue={defaultValue} aria-invalid={error ? true : undefined} className={inputClass} />
      {error ? <span className="font-medium text-red-700">{error}</span> : null}
    </label>
  );
}

export default function RentalBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, customer, licence, toast, now, refunds, refundOwed } = loaderData;
  const busy = useNavigation().state === 'submitting';
  const fields = actionData?.fields ?? {};
  const { quote } = booking;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={`Booking #${booking.id}`} back={{ to: adminPaths.rentalDesk, label: 'Rental desk' }} />
      {toast ? <FormMessage tone={toast.tone}>{toast.text}</FormMessage> : null}
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <p className="text-lg font-bold">{booking.carName}</p>
          <p className="text-sm text-slate-600">{formatRange(booking.fromMs, booking.toMs)}</p>
          <p className="mt-2">
            Status: <strong data-status={booking.status}>{BOOKING_STATUS_LABELS[booking.status]}</strong>
          </p>
          <div className="mt-3 max-w-md">
            <QuoteLines quote={quote} />
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Pickup</dt>
            <dd className="break-words">{booking.pickup === 'delivery' ? `Deliver to ${booking.deliveryAddress}, ${booking.pinCode}` : 'At the hub'}</dd>
            <dt className="text-slate-600">Damage protection</dt>
            <dd>{booking.protection ? 'Chosen' : 'Not chosen'}</dd>
            <dt className="text-slate-600">Km included</dt>
            <dd>{quote.kmIncluded === null ? 'Unlimited' : `${quote.kmIncluded} km, then ${formatRupees(quote.extraKmRate)}/km`}</dd>
            <dt className="text-slate-600">Payment</dt>
            <dd>{booking.paymentMethod === 'pay-at-pickup' ? `${formatRupees(quote.dueAtPickup)} at pickup, deposit included` : `Online, paid ${formatRupees(booking.amountPaid)}; ${formatRupees(quote.dueAtPickup)} at pickup`}</dd>
            {booking.amountRefunded > 0 ? (
              <>
                <dt className="text-slate-600">Refunded</dt>
                <dd>{formatRupees(booking.amountRefunded)}</dd>
              </>
            ) : null}
            {booking.odometerOut !== null ? (
              <>
                <dt className="text-slate-600">Out</dt>
                <dd>
                  {formatKilometres(booking.odometerOut)}, fuel {booking.fuelOut}/8
                </dd>
              </>
            ) : null}
            {booking.odometerIn !== null ? (
              <>
                <dt className="text-slate-600">In</dt>
                <dd>
                  {formatKilometres(booking.odometerIn)}, fuel {booking.fuelIn}/8{booking.returnedAt ? `, ${formatIndiaDateTime(booking.returnedAt)}` : ''}
                </dd>
              </>
            ) : null}
          </dl>
        </section>
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="font-bold">Customer</h2>
          <p>{customer.name || '—'}</p>
          <p className="text-sm text-slate-600">{customer.email}</p>
          <p className="text-sm text-slate-600">
            {customer.phone ? (
              <a href={`tel:${customer.phone}`} className="text-brand-700 underline">
                {customer.phone}
              </a>
            ) : (
              'No phone'
            )}
            {customer.phoneVerified ? ' (verified)' : ''}
          </p>
          <p className="mt-2 text-sm">
            Licence: <strong>{licence ? LICENCE_STATUS_TEXT[licence] : 'none on file'}</strong>{' '}
            <a href={adminPaths.rentalLicences + '?status=all'} className="text-brand-700 underline">
              review
            </a>
          </p>
        </section>
      </div>

      {refunds.length > 0 || booking.paymentProblem ? (
        <section aria-labelledby="money-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="money-heading" className="text-lg font-bold">
            Money{refundOwed ? <span className="ml-2 rounded bg-red-100 px-2 py-0.5 text-sm font-semibold text-red-800">Refund owed {refundOwed}</span> : null}
          </h2>
          {booking.paymentProblem ? (
            <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-900" data-payment-problem>
              Payment problem: {booking.paymentProblem}
            </p>
          ) : null}
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {refunds.map((refund) => (
              <li key={refund.id}>
                <strong>{refund.amount}</strong> ({refund.reason}):{' '}
                {refund.owed ? (
                  <span className="font-semibold text-red-800">
                    owed after {refund.attempts} {refund.attempts === 1 ? 'try' : 'tries'}
                    {refund.lastError ? ` · ${refund.lastError}` : ''}
                    {refund.nextTry ? ` · next try ${refund.nextTry}` : ''}
                  </span>
                ) : (
                  <span className="text-green-800">refunded {refund.refundedAt ?? ''}</span>
                )}
              </li>
            ))}
          </ul>
          {refundOwed ? (
            <Form method="post" className="mt-3">
              <button type="submit" name="intent" value="retry-refund" disabled={busy} className={`${primaryButton} px-4 py-2 text-sm`}>
                Retry refund
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      {booking.status === 'requested' ? (
        <section className="flex flex-wrap items-end gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <Form method="post" className="flex flex-col gap-1">
            <button type="submit" name="intent" value="confirm" disabled={busy || licence !== 'approved'} className={primaryButton}>
              Confirm booking
            </button>
            {licence !== 'approved' ? <span className="text-sm text-amber-800">Approve the licence first.</span> : null}
          </Form>
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1 text-sm font-semibold">
              Reason for refusing
              <input name="reason" maxLength={300} className={`${inputClass} py-2`} />
            </label>
            <button type="submit" name="intent" value="refuse" disabled={busy} className={`${secondaryButton} text-red-700`}>
              Refuse booking
            </button>
          </Form>
        </section>
      ) : null}

      {booking.status === 'confirmed' ? (
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">Handover</h2>
          <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-3 sm:items-end">
            <NumberField name="odometerOut" label="Odometer out (km)" max={9_999_999} error={fields.odometerOut} />
            <NumberField name="fuelOut" label="Fuel out (eighths, 8 = full)" max={FUEL_EIGHTHS_MAX} defaultValue={8} error={fields.fuelOut} />
            <button type="submit" name="intent" value="handover" disabled={busy} className={primaryButton}>
              Hand over
            </button>
          </Form>
          <Form method="post" className="mt-3">
            <button type="submit" name="intent" value="no-show" disabled={busy} className={`${secondaryButton} px-4 py-2 text-sm`}>
              Mark no-show
            </button>
          </Form>
        </section>
      ) : null}

      {booking.status === 'active' ? (
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">Return</h2>
          <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
            <NumberField name="odometerIn" label="Odometer in (km)" max={9_999_999} defaultValue={booking.odometerOut ?? undefined} error={fields.odometerIn} />
            <NumberField name="fuelIn" label="Fuel in (eighths)" max={FUEL_EIGHTHS_MAX} defaultValue={booking.fuelOut ?? 8} error={fields.fuelIn} />
            <NumberField name="fuelCharge" label="Fuel shortfall (₹)" max={100_000} defaultValue={0} error={fields.fuelCharge} />
            <label className="flex flex-col gap-1 text-sm font-semibold">
              Returned at
              <input name="returnedAt" type="datetime-local" defaultValue={now} className={inputClass} />
            </label>
            <div className="flex flex-wrap gap-2 lg:col-span-4">
              <button type="submit" name="intent" value="preview" disabled={busy} className={secondaryButton}>
                Show charges
              </button>
              <button type="submit" name="intent" value="return" disabled={busy} className={primaryButton}>
                Record return
              </button>
            </div>
          </Form>
          {actionData?.preview ? (
            <div className="mt-4 rounded-xl bg-slate-50 p-3">
              <h3 className="font-semibold">Charges if returned so</h3>
              <Statement charges={actionData.preview} deposit={quote.deposit} depositRefund={null} />
            </div>
          ) : null}
        </section>
      ) : null}

      {booking.charges && (booking.status === 'returned' || booking.status === 'closed') ? (
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">Closing statement</h2>
          <Statement charges={booking.charges} deposit={quote.deposit} depositRefund={booking.depositRefund} />
          {booking.status === 'returned' ? (
            <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
              <NumberField name="depositRefund" label="Deposit refund (₹)" max={quote.deposit} defaultValue={booking.charges.depositRefund} error={fields.depositRefund} />
              <button type="submit" name="intent" value="settle" disabled={busy} className={primaryButton}>
                Settle deposit and close
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
