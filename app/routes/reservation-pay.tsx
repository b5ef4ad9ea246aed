import { data, Link, redirect } from 'react-router';
import { getProfile } from '../../server/accounts/profiles.ts';
import { requireUser } from '../../server/auth/session.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { confirmReservationPayment } from '../../server/reservations/reservations.ts';
import { findOwnReservation } from '../../server/reservations/store.ts';
import { FormMessage, primaryButton, secondaryButton } from '../components/form.tsx';
import { useSite } from './site-layout.tsx';
import { useRazorpayCheckout } from '../features/payments/use-razorpay-checkout.ts';
import { appContext } from '../context.ts';
import { formatRupees, formatIndiaDateTime } from '../lib/format.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { reservationMessages } from '../features/reservations/reservations.ts';
import { reservationText as t } from '../features/reservations/reservation-texts.ts';
import { checkoutAnswerSchema } from '../features/rentals/schemas.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/reservation-pay';
import { rupeesToPaise } from '../lib/money.ts';

export function meta({ matches, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.payReservation(Number(params.id)), title: t('payTitle'), noIndex: true });
}

/**
 * Paying a reservation's token (docs/decisions/080) in Razorpay Checkout, as a booking is paid
 * (decision 030): the order was made when the buyer pressed Reserve; Checkout's answer is posted
 * to this page's action, which reserves the car only when its signature is Razorpay's. The
 * webhook records the same payment if the page is closed before it posts.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const id = parseId(params.id);
  if (id === null) throw data({ message: reservationMessages.notYours }, { status: 404 });
  let reservation;
  try {
    reservation = await findOwnReservation(services.database, user.id, id);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('readFailed'), log: 'reservation payment page failed' });
    throw data({ message: answer.message }, { status: answer.status });
  }
  // Nothing to pay (paid, lapsed, cancelled): the profile's list says why.
  if (reservation.status !== 'pending' || !reservation.paymentOrderId || !services.payments || Date.parse(reservation.payBy) <= services.clock.now())
    throw redirect(paths.myReservations);
  const profile = await getProfile(services.database, user.id);
  return data(
    {
      reservation: {
        id: reservation.id,
        vehicleId: reservation.vehicleId,
        vehicleTitle: reservation.vehicleTitle,
        amount: reservation.amount,
        holdHours: reservation.holdHours,
        payBy: reservation.payBy,
      },
      checkout: { keyId: services.payments.keyId, orderId: reservation.paymentOrderId, amountPaise: rupeesToPaise(reservation.amount) },
      checkoutUrl: services.config.razorpay?.checkoutUrl ?? '',
      prefill: { name: profile?.name ?? '', email: user.email, contact: profile?.phone ?? '' },
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

/** Checkout's answer: checked by its signature before the car is reserved. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const id = parseId(params.id);
  if (id === null) return data({ error: reservationMessages.notYours }, { status: 404 });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  let reservation;
  try {
    reservation = await confirmReservationPayment(services, { userId: user.id, reservationId: id, ...checkoutAnswerSchema.parse(Object.fromEntries(form)) });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('recordFailed'), log: 'reservation payment failed' });
    return data({ error: answer.message }, { status: answer.status });
  }
  const notice = t('reservedNotice', {
    car: reservation.vehicleTitle,
    until: formatIndiaDateTime(reservation.heldUntil ?? ''),
    amount: formatRupees(reservation.amount),
  });
  throw redirect(paths.myReservations, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: notice }) });
}

export default function ReservationPay({ loaderData, actionData }: Route.ComponentProps) {
  const { reservation, checkout, checkoutUrl, prefill } = loaderData;
  const site = useSite();
  const checkoutWindow = useRazorpayCheckout(checkoutUrl);
  const { problem, notice, verifying } = checkoutWindow;
  const pay = () =>
    checkoutWindow.pay({
      keyId: checkout.keyId,
      orderId: checkout.orderId,
      amountPaise: checkout.amountPaise,
      currency: 'INR',
      name: site.siteName,
      description: t('checkoutDescription', { id: reservation.id, car: reservation.vehicleTitle }),
      prefill,
    });

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to={reservation.vehicleId ? paths.vehicle(reservation.vehicleId) : paths.home} className="font-semibold text-brand-700 underline">
          {t('backToCar')}
        </Link>
      </nav>
      <header>
        <h1 className="text-2xl font-extrabold tracking-tight">{t('reserveCar', { car: reservation.vehicleTitle })}</h1>
        <p className="mt-1 text-slate-600">{t('payIntro', { amount: formatRupees(reservation.amount), hours: reservation.holdHours })}</p>
      </header>
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      {problem ? <FormMessage tone="error">{problem}</FormMessage> : null}
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      <section aria-labelledby="pay-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="pay-heading" className="text-lg font-bold">
          {t('fullyRefundable')}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>{t('pointPrice')}</li>
          <li>{t('pointCancel')}</li>
          <li>{t('pointHoldEnds')}</li>
        </ul>
        <p className="mt-3 text-sm text-slate-600">{t('payByNote', { time: formatIndiaDateTime(reservation.payBy) })}</p>
        <noscript>
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{t('needsScript')}</p>
        </noscript>
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <button type="button" onClick={() => void pay()} disabled={checkoutWindow.loading || verifying} className={`${primaryButton} sm:flex-1`}>
            {verifying ? t('checking') : checkoutWindow.loading ? t('opening') : t('pay', { amount: formatRupees(reservation.amount) })}
          </button>
          <Link to={paths.myReservations} className={secondaryButton}>
            {t('later')}
          </Link>
        </div>
      </section>
    </div>
  );
}
