import type { Context } from 'hono';
import { rentalDeskText as t } from '../../../app/lib/i18n/rentalDesk.ts';
import { AppError } from '../../errors.ts';
import { PaymentError } from '../../payments/gateway.ts';
import type { AppServices } from '../../services.ts';
import { problem } from '../../http/problem.ts';
import { recordReservationPayment } from '../../reservations/reservations.ts';
import { handlePaymentWebhook } from '../payments.ts';

/** Where Razorpay posts its events (registered in its dashboard as SITE_ORIGIN + this path). */
export const PAYMENT_WEBHOOK_PATH = '/api/v1/rentals/razorpay/webhook';

/**
 * Razorpay's webhook. It sits before the CSRF check (server/http/app.ts): a server-to-server
 * call has no Origin, and it proves itself with the HMAC signature of its raw body instead.
 * Answers 200 to every event it accepts (Razorpay retries anything else), 403 to a bad signature.
 */
export function paymentWebhook(services: AppServices) {
  return async (c: Context) => {
    const rawBody = await c.req.text().catch(() => null);
    if (rawBody === null) return problem(c, 400, t('bodyUnreadable'));
    try {
      // A car reservation's order (decision 080) is recorded by reservations, with the same rules.
      const result = await handlePaymentWebhook(services, rawBody, c.req.header('x-razorpay-signature') ?? '', async (payment) => (await recordReservationPayment(services, payment)) !== null);
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
