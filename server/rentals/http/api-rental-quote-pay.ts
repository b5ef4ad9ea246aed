import type { Hono } from 'hono';
import { rentalDeskText as t } from '../../../app/features/rentals/rental-desk-texts.ts';
import type { z } from 'zod';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { parseId } from '../../../app/lib/input.ts';
import { quoteTotals } from '../../../app/features/rentals/rental-price.ts';
import { paymentStartSchema, rentalQuoteAnswerSchema } from '../../http/api-answers.ts';
import { rentalQuoteAskSchema } from '../../../app/features/rentals/schemas.ts';
import { getProfile } from '../../accounts/profiles.ts';
import { currentUser } from '../../auth/session.ts';
import { ConflictError, InvalidInputError, UpstreamError } from '../../errors.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { PaymentError } from '../../payments/gateway.ts';
import type { AppServices } from '../../services.ts';
import { carAvailability, getBooking, getOwnBooking } from '../bookings.ts';
import { startOnlinePayment } from '../payments.ts';
import { bookingJson, quoteJson } from './api-rentals.ts';
import { indiaIso } from '../../../app/lib/india-time.ts';
import { paiseToRupees } from '../../../app/lib/money.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const fallback = () => t('somethingWrong');

/**
 * The rental quote a booking page shows, and paying a held booking online, in the JSON API
 * (/api/v1): the same services as the pages (carAvailability and quoteRental; startOnlinePayment
 * as /profile/bookings/{id}/pay).
 */
export function rentalQuoteAndPayApi(api: Hono, services: AppServices) {
  const { database, logger } = services;

  const quote = describeRoute({
    tag: 'Rentals',
    summary: 'The quote for a rental car: its lines, total, deposit, what is paid now and at pickup',
    description:
      'Asked as a booking is: `from` and `to` in India time as `2026-12-01T10:00` (required, checked against the notice, horizon and length rules), `pickup` hub or delivery (with a served `pinCode`), `protection`, and `payment` (razorpay moves the total to payable now). Whether the car is free is said, not refused.',
    params: { id: 'The rental car id.' },
    query: rentalQuoteAskSchema,
    ok: { status: 200, schema: rentalQuoteAnswerSchema, description: 'The quote, as the booking page shows it.' },
    refusals: { 400: 'The range or a choice cannot be booked: `fields` names it.', 404: 'No such rental car.' },
  });
  api.get('/rentals/cars/:id/quote', quote, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return problem(c, 404, t('carNotFound'));
    const asked = parseWith(rentalQuoteAskSchema, c.req.query());
    if (!asked.ok) return problem(c, 400, asked.error, { fields: asked.fields });
    const { fromMs, toMs, pickup, payment, pinCode, protection } = asked.value;
    try {
      // As booking does: online payment is a choice only while it is set up.
      if (payment === 'razorpay' && !services.payments) throw new InvalidInputError(t('onlineNotAvailableChoose'), { payment: t('onlineNotAvailable') });
      const delivery = pickup === 'delivery';
      const car = await carAvailability(services, id, { fromMs, toMs }, { delivery, pinCode, protection, payOnline: payment === 'razorpay' });
      const priced = car.quote!;
      const body = {
        carId: car.id,
        carName: car.name,
        from: indiaIso(fromMs),
        to: indiaIso(toMs),
        pickup,
        pinCode: delivery ? pinCode : null,
        protection,
        payment,
        available: car.available,
        nextFree: car.nextFree,
        quote: quoteJson(priced)!,
        totals: quoteTotals(priced).map(({ key, label, amount }) => ({ key, label, amount })),
      } satisfies z.input<typeof rentalQuoteAnswerSchema>;
      return c.json(body, 200, { 'Cache-Control': 'no-cache' });
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: fallback(), log: 'api: rental quote failed' });
    }
  });

  const pay = describeRoute({
    tag: 'Rentals',
    summary: 'Start paying my held online booking: the Razorpay order for Checkout',
    description:
      'The order is made once per booking and kept: asking again (paying later, a retry, twenty taps) answers the same order. Open Razorpay Checkout with `keyId`, `orderId`, `amountPaise` and `currency`; send its answer to POST /me/bookings/{id}/payment. The booking is held until `booking.holdExpiresAt`.',
    auth: true,
    params: { id: 'The booking id.' },
    ok: { status: 200, schema: paymentStartSchema, description: 'What Checkout needs.' },
    refusals: {
      404: '',
      409: 'Nothing to pay online: paid already, paid at pickup, lapsed or cancelled, or online payment is off (`reason` online-payment-off).',
      502: '',
    },
  });
  api.post('/me/bookings/:id/pay', pay, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'), { headers: NO_STORE });
    const id = parseId(c.req.param('id'));
    if (id === null) return problem(c, 404, t('bookingNotFound'), { headers: NO_STORE });
    try {
      // Whose booking first: another person's is "not found" whatever else holds.
      await getOwnBooking(database, user.id, id);
      if (!services.payments) throw new ConflictError(t('onlineOff')).because('online-payment-off');
      let checkout;
      try {
        checkout = await startOnlinePayment(services, { userId: user.id, bookingId: id });
      } catch (error) {
        if (!(error instanceof PaymentError)) throw error;
        logger.warn({ err: error, booking: id }, 'payments: the order could not be created');
        throw new UpstreamError(t('paymentNotAnswering'));
      }
      const [booking, profile] = await Promise.all([getBooking(database, id), getProfile(database, user.id)]);
      const body = {
        provider: checkout.provider,
        keyId: checkout.keyId,
        orderId: checkout.orderId,
        amountPaise: checkout.amount,
        amountRupees: paiseToRupees(checkout.amount),
        currency: checkout.currency,
        bookingId: checkout.bookingId,
        prefill: { name: profile?.name ?? '', email: user.email, contact: profile?.phone ?? '' },
        booking: bookingJson(booking!),
      } satisfies z.input<typeof paymentStartSchema>;
      return c.json(body, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: fallback(), log: 'api: payment start failed' });
    }
  });
}
