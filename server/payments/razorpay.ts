import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaymentError, REFUND_OF_ANOTHER_PAYMENT, type PaymentGateway, type PaymentOrder } from './gateway.ts';

/**
 * Razorpay's REST API (docs/decisions/021):
 *
 *   POST {apiUrl}/v1/orders                    {amount, currency: "INR", receipt, notes} -> {id: "order_…", amount, currency, status}
 *   GET  {apiUrl}/v1/payments/{id}                                                       -> {id: "pay_…", order_id, amount, currency, status}
 *   POST {apiUrl}/v1/payments/{id}/refund      {amount, notes}                           -> {id: "rfnd_…", amount, payment_id}
 *        with X-Refund-Idempotency: the same key and body return the first refund instead of a second,
 *        whatever payment the path names (the key is the account's, not the payment's); another
 *        body is a 400. A key is 10 or more letters, digits, hyphens and underscores.
 *   Authorization: Basic base64(key_id:key_secret); amounts in paise.
 *
 * A refusal is `{"error": {"code": "BAD_REQUEST_ERROR", "description": "…"}}` with 400, 401
 * (wrong keys) or 5xx. Checkout's callback carries `razorpay_signature` =
 * HMAC-SHA256(order_id + "|" + payment_id, key_secret) in hex; a webhook carries
 * `X-Razorpay-Signature` = HMAC-SHA256(raw body, webhook secret) in hex.
 */

export type RazorpayOptions = {
  keyId: string;
  keySecret: string;
  /** Needed to accept webhooks; without it every webhook is refused. */
  webhookSecret: string | undefined;
  /** https://api.razorpay.com; tests point it at a local stand-in. */
  apiUrl: string;
  timeoutMs?: number;
};

type RazorpayAnswer = {
  id?: unknown;
  amount?: unknown;
  currency?: unknown;
  order_id?: unknown;
  payment_id?: unknown;
  status?: unknown;
  error?: { code?: unknown; description?: unknown };
};

/** Hex HMAC-SHA256 of `payload` with `secret`. */
export function razorpaySignature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** Compares two hex signatures in constant time; false for anything that is not 64 hex digits. */
function sameSignature(expected: string, given: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}

export function razorpayError(status: number, answer: RazorpayAnswer | null): PaymentError {
  const code = typeof answer?.error?.code === 'string' ? answer.error.code : status >= 500 ? 'SERVER_ERROR' : 'UNKNOWN';
  const description =
    typeof answer?.error?.description === 'string' && answer.error.description.trim()
      ? answer.error.description.trim()
      : `Razorpay refused the request (HTTP ${status}).`;
  const prefix = status === 401 ? 'Razorpay did not accept our keys' : status >= 500 ? 'Razorpay is not answering properly' : 'Razorpay refused the request';
  return new PaymentError(`${prefix}: ${description}`, code, status);
}

export function createRazorpayGateway(options: RazorpayOptions): PaymentGateway {
  const base = options.apiUrl.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RazorpayAnswer> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new PaymentError(`Razorpay could not be reached: ${error instanceof Error ? error.message : String(error)}`, 'NETWORK_ERROR', undefined, {
        cause: error,
      });
    }
    const answer = (await response.json().catch(() => null)) as RazorpayAnswer | null;
    if (!response.ok || !answer || typeof answer.id !== 'string') throw razorpayError(response.status, answer);
    return answer;
  }

  return {
    provider: 'razorpay',
    keyId: options.keyId,
    async createOrder(input): Promise<PaymentOrder> {
      const answer = await call('POST', '/v1/orders', {
        amount: input.amountPaise,
        currency: 'INR',
        receipt: input.receipt.slice(0, 40),
        notes: input.notes ?? {},
      });
      return { orderId: answer.id as string, amountPaise: Number(answer.amount), currency: 'INR' };
    },
    verifyPaymentSignature({ orderId, paymentId, signature }) {
      return sameSignature(razorpaySignature(`${orderId}|${paymentId}`, options.keySecret), signature);
    },
    verifyWebhookSignature(rawBody, signature) {
      if (!options.webhookSecret) return false;
      return sameSignature(razorpaySignature(rawBody, options.webhookSecret), signature);
    },
    async fetchPayment(paymentId) {
      const answer = await call('GET', `/v1/payments/${encodeURIComponent(paymentId)}`);
      if (typeof answer.amount !== 'number' || typeof answer.currency !== 'string')
        throw new PaymentError('Razorpay answered without the payment amount.', 'BAD_ANSWER', 200);
      return {
        paymentId: answer.id as string,
        orderId: typeof answer.order_id === 'string' ? answer.order_id : null,
        amountPaise: answer.amount,
        currency: answer.currency,
        status: typeof answer.status === 'string' ? answer.status : '',
      };
    },
    async refund(input) {
      const answer = await call(
        'POST',
        `/v1/payments/${encodeURIComponent(input.paymentId)}/refund`,
        { amount: input.amountPaise, notes: input.notes ?? {} },
        { 'x-refund-idempotency': input.idempotencyKey },
      );
      // A key Razorpay saw before answers with that key's first refund, of whatever payment: only
      // a refund of this payment, for this amount, is this refund (decision 093).
      if (answer.payment_id !== input.paymentId || answer.amount !== input.amountPaise) {
        const named = `${typeof answer.payment_id === 'string' ? `payment ${answer.payment_id}` : 'no payment'}, ${typeof answer.amount === 'number' ? `${answer.amount} paise` : 'no amount'}`;
        throw new PaymentError(
          `Razorpay answered with refund ${String(answer.id)} (${named}) instead of a refund of ${input.amountPaise} paise of payment ${input.paymentId}; it is not counted as refunded.`,
          REFUND_OF_ANOTHER_PAYMENT,
          200,
        );
      }
      return { refundId: answer.id as string };
    },
  };
}
