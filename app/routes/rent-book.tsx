import { useState } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { currentUser, requireUser } from '../../server/auth/session.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { rentalDeskServices } from '../../server/rentals/http/rental-services.ts';
import { carAvailability } from '../../server/rentals/bookings.ts';
import { requestBooking } from '../../server/rentals/lifecycle.ts';
import { renterReadiness, type StepAction, type StepState } from '../../server/rentals/readiness.ts';
import { rentalPolicy, rentalSettings } from '../../server/rentals/store.ts';
import { ServedAreas } from '../features/appointments/home-visit.tsx';
import { sortedAreas } from '../lib/service-areas.ts';
import { FormMessage, inputClass, primaryButton, secondaryButton } from '../components/form.tsx';
import { QuoteBreakdown } from '../features/rentals/quote-parts.tsx';
import { appContext } from '../context.ts';
import { formatRupees } from '../lib/format.ts';
import { rentText as t } from '../features/rentals/rent-texts.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { PIN_CODE_PATTERN } from '../lib/pin-code.ts';
import { formatRange, typedRange } from '../features/rentals/rent-view.ts';
import { askedRange, DELIVERY_ADDRESS_MAX, rangeMessages, rentalBookingFormSchema } from '../features/rentals/schemas.ts';
import { rentalFacts } from '../features/rentals/rental-facts.ts';
import { quoteRental } from '../features/rentals/rental-price.ts';
import { formError, parseWith } from '../lib/form-errors.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/rent-book';

export function meta({ matches, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.rentalBook(params.id), title: t('bookTitle'), noIndex: true });
}

/**
 * The booking steps for one car and range (renterReadiness, the same the booking service
 * refuses by): signed in, phone verified (the OTP flow of /profile-complete), licence on file
 * (/profile/licence), then Book. Each step links to where it is done and comes back here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const id = parseId(params.id);
  const url = new URL(request.url);
  const { range, problem } = askedRange(url.searchParams);
  if (id === null) throw data({ message: t('carNotFound') }, { status: 404 });
  // Dates that do not parse or are reversed: back to the car page with them, which says what is wrong.
  if (!range) throw redirect(paths.rentalCar(id, problem ? typedRange(url.searchParams) : null));
  const here = paths.rentalBook(id, { from: range.from, to: range.to });
  let availability;
  let message: string | null = null;
  try {
    availability = await carAvailability(services, id, range);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('priceFailed'), log: 'rental quote failed' });
    if (answer.status === 404) throw data({ message: answer.message }, { status: 404 });
    if (answer.status === 500) throw data({ message: answer.message }, { status: 500 });
    throw redirect(paths.rentalCar(id, { from: range.from, to: range.to }));
  }
  if (!availability.available) message = t('justTaken');
  const terms = availability.terms!;
  const user = await currentUser(services.auth, request);
  const readiness = await renterReadiness(services.database, user?.id ?? null, terms, range.fromMs);
  const stepLinks: Record<StepAction['to'], string> = {
    'sign-in': paths.loginThen(here),
    'verify-phone': paths.profileCompleteThen(here),
    licence: paths.profileLicenceThen(here),
  };
  const steps = readiness.steps.map(({ label, state, detail, action }) => ({
    label,
    state,
    detail,
    ...(action ? { action: { to: stepLinks[action.to], label: action.label } } : {}),
  }));
  const policy = await rentalPolicy(services);
  return data(
    {
      car: { id: availability.id, name: availability.name, deliveryAvailable: terms.deliveryAvailable },
      range,
      // The page works the quote out again as the renter ticks protection, delivery or paying
      // online: the same quoteRental on the same rates and settings as the server's.
      rates: {
        hourlyRate: terms.hourlyRate,
        dailyRate: terms.dailyRate,
        weeklyRate: terms.weeklyRate,
        kmPerDay: terms.kmPerDay,
        extraKmRate: terms.extraKmRate,
        deposit: terms.deposit,
        minHours: terms.minHours,
      },
      policy,
      facts: rentalFacts(terms, policy),
      steps,
      // Razorpay Checkout is offered only while its keys are set (docs/decisions/021, 030).
      onlinePayment: services.payments !== null,
      ready: readiness.ready && availability.available,
      message,
      // Delivery goes to the areas home visits go to (decision 097): listed before the renter types a PIN code.
      areas: terms.deliveryAvailable ? sortedAreas((await rentalSettings(services)).serviceAreas) : [],
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const id = parseId(params.id);
  const { range } = askedRange(new URL(request.url).searchParams);
  if (id === null) return data(formError(t('carNotFound')), { status: 404 });
  if (!range) return data(formError(rangeMessages.unreadable), { status: 400 });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data(formError(form.message), { status: form.status });
  const choice = parseWith(rentalBookingFormSchema, Object.fromEntries(form));
  if (!choice.ok) return data(formError(choice.error, choice.fields), { status: 400 });
  const { pickup, pinCode, payment, deliveryAddress, protection } = choice.value;
  let booking;
  try {
    // The desk hears of it by mail when notifications are on; the renter's request never waits for it.
    booking = await requestBooking(rentalDeskServices(services), {
      userId: user.id,
      vehicleId: id,
      fromMs: range.fromMs,
      toMs: range.toMs,
      pickup,
      pinCode,
      deliveryAddress,
      protection,
      paymentMethod: payment,
    });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('bookingFailed'), log: 'rental booking failed' });
    return data(formError(answer.message, { ...answer.fields }), { status: answer.status, headers: answer.headers });
  }
  // Paid online: on to Razorpay Checkout; the car is held for the payment meanwhile.
  if (booking.paymentMethod === 'razorpay') throw redirect(paths.payBooking(booking.id));
  const text = t('requestedNotice', {
    id: booking.id,
    car: booking.carName,
    range: formatRange(booking.fromMs, booking.toMs),
    due: formatRupees(booking.quote.dueAtPickup),
    total: formatRupees(booking.quote.total),
    deposit: formatRupees(booking.quote.deposit),
  });
  throw redirect(paths.myBookings, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
}

const stepTone: Record<StepState, string> = {
  done: 'bg-green-700 text-white',
  waiting: 'bg-amber-400 text-amber-950',
  todo: 'bg-slate-200 text-slate-700',
  problem: 'bg-red-600 text-white',
};

export default function RentBook({ loaderData, actionData }: Route.ComponentProps) {
  const { car, range, rates, policy, facts, steps, ready, message, onlinePayment, areas } = loaderData;
  const busy = useNavigation().state === 'submitting';
  const [payment, setPayment] = useState<'pay-at-pickup' | 'razorpay'>('pay-at-pickup');
  const [protection, setProtection] = useState(false);
  const [pickup, setPickup] = useState<'hub' | 'delivery'>('hub');
  const quote = quoteRental(rates, range, policy, { protection, delivery: pickup === 'delivery', payOnline: payment === 'razorpay' });
  const protectionFact = facts.find((fact) => fact.key === 'protection');
  const fields = actionData?.fields;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-5">
      <nav aria-label={t('breadcrumb')} className="text-sm">
        <Link to={paths.rentalCar(car.id, { from: range.from, to: range.to })} className="font-semibold text-brand-700 underline">
          ← {car.name}
        </Link>
      </nav>
      <header>
        <h1 className="text-2xl font-extrabold tracking-tight">{t('bookThe', { car: car.name })}</h1>
        <p className="mt-1 text-slate-600">{formatRange(range.fromMs, range.toMs)}</p>
      </header>
      {message ? <FormMessage tone="error">{message}</FormMessage> : null}
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      <ol className="flex flex-col gap-3" aria-label={t('bookingSteps')}>
        {steps.map((step, index) => (
          <li key={step.label} className="flex items-start gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <span className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${stepTone[step.state]}`} aria-hidden="true">
              {step.state === 'done' ? '✓' : index + 1}
            </span>
            <div className="min-w-0 flex-1">
              <p className="font-semibold">
                {step.label}
                <span className="sr-only">
                  :{' '}
                  {step.state === 'done'
                    ? t('stepDone')
                    : step.state === 'waiting'
                      ? t('stepWaiting')
                      : step.state === 'problem'
                        ? t('stepProblem')
                        : t('stepTodo')}
                </span>
              </p>
              <p className="break-words text-sm text-slate-600">{step.detail}</p>
            </div>
            {step.action ? (
              <Link to={step.action.to} className={`${secondaryButton} shrink-0 px-4 py-2 text-sm`}>
                {step.action.label}
              </Link>
            ) : null}
          </li>
        ))}
      </ol>
      <section aria-labelledby="book-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="book-heading" className="text-lg font-bold">
          {onlinePayment ? t('yourBooking') : t('payAtPickup')}
        </h2>
        {/* Choices first, then the quote they change, then Book: the price is read right above the button. */}
        {ready ? (
          <Form method="post" className="mt-4 flex flex-col gap-3">
            <fieldset className="flex flex-col gap-2">
              <legend className="font-semibold">{t('factProtection')}</legend>
              <label className="flex items-start gap-2">
                <input
                  type="checkbox"
                  name="protection"
                  checked={protection}
                  onChange={(event) => setProtection(event.currentTarget.checked)}
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
                />
                <span>
                  {t('addProtection', { amount: formatRupees(policy.protectionPerDay) })}
                  {protectionFact ? <span className="block text-sm text-slate-600">{protectionFact.text}</span> : null}
                </span>
              </label>
            </fieldset>
            <fieldset className="flex flex-col gap-2">
              <legend className="font-semibold">{t('pickup')}</legend>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="pickup"
                  value="hub"
                  checked={pickup === 'hub'}
                  onChange={() => setPickup('hub')}
                  className="h-4 w-4 accent-brand-700"
                />{' '}
                {t('atOurHub')}
              </label>
              {car.deliveryAvailable ? (
                <label className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="pickup"
                    value="delivery"
                    checked={pickup === 'delivery'}
                    onChange={() => setPickup('delivery')}
                    className="h-4 w-4 accent-brand-700"
                  />{' '}
                  {t('deliveredToAddress', { fee: formatRupees(policy.deliveryFee) })}
                </label>
              ) : null}
              {car.deliveryAvailable && pickup === 'delivery' ? (
                <div className="ml-6 flex flex-col gap-2">
                  <label className="flex flex-col gap-1 text-sm font-semibold text-slate-700">
                    {t('deliveryAddress')}
                    <textarea
                      name="deliveryAddress"
                      rows={2}
                      maxLength={DELIVERY_ADDRESS_MAX}
                      aria-invalid={fields?.deliveryAddress ? true : undefined}
                      className={`${inputClass} py-2`}
                    />
                  </label>
                  {fields?.deliveryAddress ? <p className="text-sm font-medium text-red-700">{fields.deliveryAddress}</p> : null}
                  <ServedAreas areas={areas} />
                  <label className="flex flex-col gap-1 text-sm font-semibold text-slate-700">
                    {t('pinCode')}
                    <input
                      name="pinCode"
                      inputMode="numeric"
                      maxLength={6}
                      pattern={PIN_CODE_PATTERN}
                      aria-invalid={fields?.pinCode ? true : undefined}
                      className={`${inputClass} max-w-40 py-2`}
                    />
                  </label>
                </div>
              ) : null}
              {fields?.pinCode ? <p className="text-sm font-medium text-red-700">{fields.pinCode}</p> : null}
            </fieldset>
            {onlinePayment ? (
              <fieldset className="flex flex-col gap-2">
                <legend className="font-semibold">{t('payment')}</legend>
                <label className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="payment"
                    value="pay-at-pickup"
                    checked={payment === 'pay-at-pickup'}
                    onChange={() => setPayment('pay-at-pickup')}
                    className="h-4 w-4 accent-brand-700"
                  />{' '}
                  {t('payAtPickup')}
                </label>
                <label className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="payment"
                    value="razorpay"
                    checked={payment === 'razorpay'}
                    onChange={() => setPayment('razorpay')}
                    className="h-4 w-4 accent-brand-700"
                  />{' '}
                  {t('payOnlineNow')}
                </label>
              </fieldset>
            ) : null}
            <QuoteBreakdown quote={quote} facts={facts} />
            <button type="submit" disabled={busy} className={primaryButton}>
              {busy
                ? t('booking')
                : payment === 'razorpay'
                  ? t('bookAndPayOnline', { amount: formatRupees(quote.payableNow) })
                  : t('bookPayAtPickup', { amount: formatRupees(quote.dueAtPickup) })}
            </button>
          </Form>
        ) : (
          <>
            <QuoteBreakdown quote={quote} facts={facts} />
            <p className="mt-4 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">{t('finishSteps')}</p>
          </>
        )}
      </section>
    </div>
  );
}
