import type { Context, Hono } from 'hono';
import { webhookAnswerSchema } from '../../http/api-answers.ts';
import { razorpayEventSchema } from '../../../app/features/payments/schemas.ts';
import { rentalDeskText as t } from '../../../app/features/rentals/rental-desk-texts.ts';
import { AppError } from '../../errors.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { recordPayment } from '../../rentals/payments.ts';
import { recordReservationPayment } from '../../reservations/reservations.ts';
import { PaymentError } from '../gateway.ts';
import { handlePaymentWebhook, type PaymentSettlers } from '../webhook.ts';

/** Where Razorpay posts its events (registered in its dashboard as SITE_ORIGIN + this path). */
export const PAYMENT_WEBHOOK_PATH = '/api/v1/payments/razorpay/webhook';

/**
 * Where it posted them before payments had their own home (docs/decisions/106): a dashboard
 * still set to it keeps working, answered by the same handler.
 */
export const OLD_PAYMENT_WEBHOOK_PATH = '/api/v1/rentals/razorpay/webhook';

/** Each owner kind's settlement, by its own rules: what a booking owes, what a reservation holds. */
function settlers(services: AppServices): PaymentSettlers {
  return {
    'rental-booking': (payment) => recordPayment(services, payment),
    reservation: (payment) => recordReservationPayment(services, payment),
  };
}

/**
 * Razorpay's webhook. It sits before the CSRF check (server/http/app.ts): a server-to-server
 * call has no Origin, and it proves itself with the HMAC signature of its raw body instead.
 * Answers 200 to every event it accepts (Razorpay retries anything else), 403 to a bad signature.
 */
export function paymentWebhook(services: AppServices) {
  const owners = settlers(services);
  return async (c: Context) => {
    const rawBody = await c.req.text().catch(() => null);
    if (rawBody === null) return problem(c, 400, t('bodyUnreadable'));
    try {
      const result = await handlePaymentWebhook(services, { rawBody, signature: c.req.header('x-razorpay-signature') ?? '' }, owners);
      return c.json({ ok: true, handled: result.handled }, 200);
    } catch (error) {
      if (error instanceof AppError) return problem(c, error.status, error.message);
      // Razorpay could not be asked what was paid: an outside fault; Razorpay sends the event again.
      if (error instanceof PaymentError) {
        services.logger.warn({ err: error }, 'payments: webhook could not check the payment with Razorpay');
        return problem(c, 502, t('paymentNotChecked'));
      }
      services.logger.error({ err: error }, 'payments: webhook failed');
      return problem(c, 500, t('somethingWrongShort'));
    }
  };
}

const described = (old: boolean) =>
  describeRoute({
    tag: 'Payments',
    summary: old ? "Razorpay's webhook at its former address (the same handler)" : "Razorpay's webhook: a captured payment settles what was paid for",
    description: old
      ? 'Kept so a Razorpay dashboard still set to it keeps working; prefer POST /payments/razorpay/webhook.'
      : 'Called by Razorpay, not by an app. The X-Razorpay-Signature header must be the HMAC-SHA256 of the raw body with the webhook secret (403 otherwise). The payment goes to the owner of its order (a rental booking, a reservation) and is settled once: a replayed event changes nothing.',
    body: { kind: 'json', schema: razorpayEventSchema },
    ok: { status: 200, schema: webhookAnswerSchema, description: 'Acknowledged; `handled` says whether it settled a payment of ours.' },
    refusals: {
      400: 'Not JSON, or the body could not be read.',
      403: "The signature is not Razorpay's (or no webhook secret is configured).",
      502: 'Razorpay could not be asked what was paid; it sends the event again.',
    },
  });

/**
 * The webhook's two addresses in the API's routes, so the OpenAPI document describes them. The
 * requests themselves are answered before the CSRF check (server/http/app.ts; a Razorpay
 * call has no Origin); these routes are the same handler, reached only if that ever changes.
 */
export function paymentWebhookApi(api: Hono, services: AppServices, handler = paymentWebhook(services)) {
  api.post(PAYMENT_WEBHOOK_PATH.slice('/api/v1'.length), described(false), handler);
  api.post(OLD_PAYMENT_WEBHOOK_PATH.slice('/api/v1'.length), described(true), handler);
}
