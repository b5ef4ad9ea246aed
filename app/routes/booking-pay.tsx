import { QuoteLines } from '../features/rentals/quote-parts.tsx';
import { data, Link, redirect } from 'react-router';
import { getProfile } from '../../server/accounts/profiles.ts';
import { requireUser } from '../../server/auth/session.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { rentalDeskServices } from '../../server/rentals/http/rental-services.ts';
import { PaymentError } from '../../server/payments/gateway.ts';
import { getOwnBooking } from '../../server/rentals/bookings.ts';
import { confirmCheckoutPayment, startOnlinePayment, type CheckoutStart } from '../../server/rentals/payments.ts';
import { FormMessage, primaryButton, secondaryButton } from '../components/form.tsx';
import { useSite } from './site-layout.tsx';
import { useRazorpayCheckout } from '../features/payments/use-razorpay-checkout.ts';
import { appContext } from '../context.ts';
import { formatRupees, formatIndiaDateTime } from '../lib/format.ts';
import { rentText as t } from '../features/rentals/rent-texts.ts';
import { parseId } from '../lib/input.ts';
import { checkoutAnswerSchema } from '../features/rentals/schemas.ts';
import { paths } from '../lib/paths.ts';
import { formatRange } from '../features/rentals/rent-view.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/booking-pay';

export function meta({ matches, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.payBooking(Number(params.id)), title: t('payTitle'), noIndex: true });
}

/**
 * Paying an online booking (docs/decisions/021, 030): the order is made (or reused) here, the
 * page opens Razorpay Checkout, and Checkout's answer is posted back to this page's action,
 * which marks the booking paid only when its signature is Razorpay's. The webhook records the
 * same payment if the page is closed before it posts.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const id = parseId(params.id);
  if (id === null) throw data({ message: t('bookingNotFound') }, { status: 404 });
  let booking;
  try {
    booking = await getOwnBooking(services.database, user.id, id);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('bookingNotRead'), log: 'booking payment page failed' });
    throw data({ message: answer.message }, { status: answer.status });
  }
  // Nothing to pay (paid already, paid at pickup, lapsed or cancelled): the bookings list says why.
  if (booking.paymentMethod !== 'razorpay' || booking.status !== 'requested' || booking.amountPaid > 0 || !services.config.razorpay)
    throw redirect(paths.myBookings);
  let checkout: CheckoutStart | null = null;
  let message: string | null = null;
  try {
    checkout = await startOnlinePayment(rentalDeskServices(services), { userId: user.id, bookingId: booking.id });
  } catch (error) {
    if (!(error instanceof PaymentError)) {
      const answer = answerError(error, services.logger, { fallback: t('paymentNotStarted'), log: 'payment start failed' });
      throw data({ message: answer.message }, { status: answer.status });
    }
    services.logger.warn({ err: error, booking: booking.id }, 'payments: the order could not be created');
    message = t('paymentNotAnswering');
  }
  const profile = await getProfile(services.database, user.id);
  return data(
    {
      booking: {
        id: booking.id,
        carName: booking.carName,
        fromMs: booking.fromMs,
        toMs: booking.toMs,
        quote: booking.quote,
        holdExpiresAt: booking.holdExpiresAt,
      },
      checkout,
      checkoutUrl: services.config.razorpay.checkoutUrl,
      prefill: { name: profile?.name ?? '', email: user.email, contact: profile?.phone ?? '' },
      message,
    },
    { status: message ? 502 : 200, headers: { 'Cache-Control': 'no-store' } },
  );
}

/** Checkout's answer: checked by its signature before the booking is marked paid. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const id = parseId(params.id);
  if (id === null) return data({ error: t('bookingNotFound') }, { status: 404 });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  let booking;
  try {
    booking = await confirmCheckoutPayment(rentalDeskServices(services), {
      userId: user.id,
      bookingId: id,
      ...checkoutAnswerSchema.parse(Object.fromEntries(form)),
    });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('paymentNotRecorded'), log: 'payment confirmation failed' });
    return data({ error: answer.message }, { status: answer.status });
  }
  const notice = t('paidNotice', { amount: formatRupees(booking.amountPaid), id: booking.id });
  throw redirect(paths.myBookings, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: notice }) });
}

export default function BookingPay({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, checkout, checkoutUrl, prefill, message } = loaderData;
  const site = useSite();
  const checkoutWindow = useRazorpayCheckout(checkoutUrl);
  const { problem, notice, verifying } = checkoutWindow;
  const pay = () =>
    checkout &&
    checkoutWindow.pay({
      keyId: checkout.keyId,
      orderId: checkout.orderId,
      amountPaise: checkout.amount,
      currency: checkout.currency,
      name: site.siteName,
      description: t('checkoutDescription', { id: booking.id, car: booking.carName }),
      prefill,
    });

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-5">
      <nav aria-label={t('breadcrumb')} className="text-sm">
        <Link to={paths.myBookings} className="font-semibold text-brand-700 underline">
          ← {t('myBookings')}
        </Link>
      </nav>
      <header>
        <h1 className="text-2xl font-extrabold tracking-tight">{t('payForBooking', { id: booking.id })}</h1>
        <p className="mt-1 text-slate-600">
          {booking.carName} · {formatRange(booking.fromMs, booking.toMs)}
        </p>
      </header>
      {message ? <FormMessage tone="error">{message}</FormMessage> : null}
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      {problem ? <FormMessage tone="error">{problem}</FormMessage> : null}
      {notice ? <FormMessage tone="info">{notice}</FormMessage> : null}
      <section aria-labelledby="pay-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="pay-heading" className="text-lg font-bold">
          {t('payOnline')}
        </h2>
        <div className="mt-2">
          <QuoteLines quote={booking.quote} />
        </div>
        {booking.holdExpiresAt ? (
          <p className="mt-2 text-sm text-slate-600">{t('heldUntilLapses', { when: formatIndiaDateTime(booking.holdExpiresAt) })}</p>
        ) : null}
        <p className="mt-2 text-sm text-slate-600">{t('payMethods')}</p>
        <noscript>
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{t('needsJavaScript')}</p>
        </noscript>
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <button type="button" onClick={() => void pay()} disabled={!checkout || checkoutWindow.loading || verifying} className={`${primaryButton} sm:flex-1`}>
            {verifying
              ? t('checkingPayment')
              : checkoutWindow.loading
                ? t('openingRazorpay')
                : t('payAmount', { amount: formatRupees(booking.quote.payableNow) })}
          </button>
          <Link to={paths.myBookings} className={secondaryButton}>
            {t('later')}
          </Link>
        </div>
      </section>
    </div>
  );
}
