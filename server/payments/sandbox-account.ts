import { randomInt } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { razorpaySignature } from './razorpay.ts';

/**
 * One Razorpay account in memory, answering the calls of Razorpay's REST API that the adapter
 * makes (server/payments/razorpay.ts lists them) as Razorpay does: Basic auth with the key id and
 * secret, amounts in paise, refusals as `{"error": {"code", "description", …}}` with 400 or 401,
 * and refunds keyed by `X-Refund-Idempotency` across the whole account (decision 093). It also
 * plays what the customer does in Checkout: paying an order (the handler's values, signed with the
 * key secret) or failing to. The demo's payment sandbox serves it (sandbox.ts, decision 095); the
 * tests' Razorpay stand-in puts its faults in front of it (tests/support/razorpay-standin.ts).
 * Every answer is `{status, body}`; whoever serves it writes it as JSON.
 */

export type SandboxKeys = { keyId: string; keySecret: string; webhookSecret: string };

export type SandboxOrder = {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: unknown;
  created_at: number;
};
export type SandboxPayment = {
  id: string;
  orderId: string;
  amount: number;
  currency: string;
  status: 'captured' | 'failed';
  refunded: number;
  createdAt: number;
};
export type SandboxRefund = {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  notes: unknown;
  status: 'processed';
  speed_processed: 'normal';
  created_at: number;
};
/** What Checkout hands the page's `handler` after a payment. */
export type CheckoutPaid = { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
export type SandboxAnswer = { status: number; body: unknown };

export type SandboxAccount = ReturnType<typeof createSandboxAccount>;

/** Failed payments one order may collect in Checkout. */
const MAX_FAILED_ATTEMPTS = 20;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id as Razorpay makes them: a prefix, `_`, 14 letters and digits. */
export function razorpayId(prefix: string): string {
  return `${prefix}_${Array.from({ length: 14 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;
}

/** A refusal in Razorpay's words. */
export function badRequest(description: string, field?: string): { error: Record<string, unknown> } {
  return {
    error: {
      code: 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      metadata: {},
      ...(field ? { field } : {}),
    },
  };
}

const unauthorized = { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } };

const fields = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' ? (body as Record<string, unknown>) : {});

export function createSandboxAccount(keys: SandboxKeys, clock: Clock) {
  const orders: SandboxOrder[] = [];
  const payments = new Map<string, SandboxPayment>();
  const refunds: SandboxRefund[] = [];
  const idempotent = new Map<string, { body: string; refund: SandboxRefund }>();
  const authorization = `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}`;
  const seconds = () => Math.floor(clock.now() / 1000);
  const orderOf = (id: unknown) => orders.find((order) => order.id === id);
  const eventCommon = (event: string) => ({ entity: 'event', account_id: `acc_${keys.keyId.slice(-14)}`, event, created_at: seconds() });

  /** A payment of `orderId` as Razorpay reports it (GET /v1/payments/:id, webhooks). */
  function paymentEntity(payment: SandboxPayment) {
    const status = payment.status === 'failed' ? 'failed' : payment.refunded >= payment.amount ? 'refunded' : 'captured';
    return {
      id: payment.id,
      entity: 'payment',
      amount: payment.amount,
      currency: payment.currency,
      status,
      order_id: payment.orderId,
      method: 'upi',
      amount_refunded: payment.refunded,
      refund_status: payment.refunded === 0 ? null : status === 'refunded' ? 'full' : 'partial',
      captured: payment.status === 'captured',
      created_at: payment.createdAt,
    };
  }

  /** The customer pays the order in Checkout (by default its amount in rupees): the handler's values, signed with the key secret. */
  function pay(orderId: string, paid: { amount?: number; currency?: string } = {}): CheckoutPaid {
    const order = orderOf(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const payment: SandboxPayment = {
      id: razorpayId('pay'),
      orderId,
      amount: paid.amount ?? order.amount,
      currency: paid.currency ?? 'INR',
      status: 'captured',
      refunded: 0,
      createdAt: seconds(),
    };
    payments.set(payment.id, payment);
    Object.assign(order, { status: 'paid', amount_paid: payment.amount, amount_due: 0, attempts: order.attempts + 1 });
    return { razorpay_order_id: orderId, razorpay_payment_id: payment.id, razorpay_signature: razorpaySignature(`${orderId}|${payment.id}`, keys.keySecret) };
  }

  return {
    keys,
    orders,
    payments,
    refunds,
    /** Whether a request's Authorization header carries this account's key id and secret. */
    authorizes: (header: string | undefined) => header === authorization,
    unauthorized: (): SandboxAnswer => ({ status: 401, body: unauthorized }),

    /** POST /v1/orders */
    createOrder(body: unknown): SandboxAnswer {
      const input = fields(body);
      if (typeof input.amount !== 'number' || !Number.isInteger(input.amount) || input.amount < 100)
        return { status: 400, body: badRequest('The amount must be atleast INR 1.00', 'amount') };
      if (input.currency !== 'INR') return { status: 400, body: badRequest('The currency field is invalid.', 'currency') };
      const order: SandboxOrder = {
        id: razorpayId('order'),
        entity: 'order',
        amount: input.amount,
        amount_paid: 0,
        amount_due: input.amount,
        currency: 'INR',
        receipt: String(input.receipt ?? ''),
        status: 'created',
        attempts: 0,
        notes: input.notes ?? {},
        created_at: seconds(),
      };
      orders.push(order);
      return { status: 200, body: order };
    },

    /** GET /v1/payments/:id */
    fetchPayment(paymentId: string): SandboxAnswer {
      const payment = payments.get(paymentId);
      return payment ? { status: 200, body: paymentEntity(payment) } : { status: 400, body: badRequest('The id provided does not exist', 'id') };
    },

    /**
     * POST /v1/payments/:id/refund with `X-Refund-Idempotency: key` (`rawBody` as sent): a key seen
     * before answers with its first refund when the body is the same, whatever payment the path
     * names, and is a 400 with another body.
     */
    refund(paymentId: string, body: unknown, rawBody: string, key: string | undefined): SandboxAnswer & { made?: SandboxRefund } {
      if (key !== undefined && !/^[A-Za-z0-9_-]{10,}$/.test(key))
        return {
          status: 400,
          body: badRequest('The idempotency key must be at least 10 characters long and contain only alphabets, numbers, hyphens and underscores.'),
        };
      const seen = key === undefined ? undefined : idempotent.get(key);
      if (seen)
        return seen.body === rawBody
          ? { status: 200, body: seen.refund }
          : { status: 400, body: badRequest('Different request with the same idempotency key has already been processed.') };
      const payment = payments.get(paymentId);
      if (!payment || payment.status !== 'captured') return { status: 400, body: badRequest('The id provided does not exist', 'id') };
      const input = fields(body);
      const amount = typeof input.amount === 'number' ? input.amount : payment.amount - payment.refunded;
      if (!Number.isInteger(amount) || amount < 100 || amount > payment.amount - payment.refunded)
        return { status: 400, body: badRequest('The refund amount provided is greater than amount captured') };
      payment.refunded += amount;
      const refund: SandboxRefund = {
        id: razorpayId('rfnd'),
        entity: 'refund',
        amount,
        currency: payment.currency,
        payment_id: paymentId,
        notes: input.notes ?? {},
        status: 'processed',
        speed_processed: 'normal',
        created_at: seconds(),
      };
      refunds.push(refund);
      if (key !== undefined) idempotent.set(key, { body: rawBody, refund });
      return { status: 200, body: refund, made: refund };
    },

    /** The order Checkout opens for `keyId`, or null (another account's key, or no such order). */
    checkoutOrder: (keyId: unknown, orderId: unknown): SandboxOrder | null => (keyId === keys.keyId ? (orderOf(orderId) ?? null) : null),

    pay,

    /** Checkout's Pay button: `{key_id, order_id}`; an order is paid once. */
    checkoutPay(body: unknown): SandboxAnswer & { paid?: CheckoutPaid } {
      const input = fields(body);
      const order = input.key_id === keys.keyId ? orderOf(input.order_id) : undefined;
      if (!order) return { status: 400, body: badRequest('The id provided does not exist', 'order_id') };
      if (order.status === 'paid') return { status: 400, body: badRequest('Order has already been paid', 'order_id') };
      const paid = pay(order.id);
      return { status: 200, body: paid, paid };
    },

    /**
     * A payment that fails in Checkout (the bank declines it): a failed payment of the order, and
     * the error Checkout hands `payment.failed` (its `metadata` names the order and the payment).
     */
    checkoutFail(body: unknown): SandboxAnswer {
      const input = fields(body);
      const order = input.key_id === keys.keyId ? orderOf(input.order_id) : undefined;
      if (!order) return { status: 400, body: badRequest('The id provided does not exist', 'order_id') };
      if (order.status === 'paid') return { status: 400, body: badRequest('Order has already been paid', 'order_id') };
      // Each failure is kept, so a page anyone can open must not be able to add them without end.
      if (order.attempts >= MAX_FAILED_ATTEMPTS)
        return { status: 400, body: badRequest('Too many payment attempts for this order. Please try again with a new order.', 'order_id') };
      const payment: SandboxPayment = {
        id: razorpayId('pay'),
        orderId: order.id,
        amount: order.amount,
        currency: order.currency,
        status: 'failed',
        refunded: 0,
        createdAt: seconds(),
      };
      payments.set(payment.id, payment);
      Object.assign(order, { status: 'attempted', attempts: order.attempts + 1 });
      return {
        status: 200,
        body: {
          error: {
            code: 'BAD_REQUEST_ERROR',
            description: 'The bank declined this payment.',
            source: 'bank',
            step: 'payment_authorization',
            reason: 'payment_failed',
            metadata: { order_id: order.id, payment_id: payment.id },
          },
        },
      };
    },

    /** The body of the `payment.captured` webhook for a payment of an order (one this account does not hold is described from its order). */
    paymentCapturedEvent(orderId: string, paymentId: string): string {
      const payment = payments.get(paymentId);
      const order = orderOf(orderId);
      const entity = payment
        ? { ...paymentEntity(payment), status: 'captured', captured: true }
        : {
            id: paymentId,
            entity: 'payment',
            amount: order?.amount ?? 0,
            currency: 'INR',
            status: 'captured',
            order_id: orderId,
            method: 'upi',
            captured: true,
          };
      return JSON.stringify({ ...eventCommon('payment.captured'), contains: ['payment'], payload: { payment: { entity } } });
    },

    /** The body of the `refund.processed` webhook for a refund. */
    refundProcessedEvent(refund: SandboxRefund): string {
      const payment = payments.get(refund.payment_id);
      return JSON.stringify({
        ...eventCommon('refund.processed'),
        contains: ['refund', 'payment'],
        payload: { refund: { entity: refund }, ...(payment ? { payment: { entity: paymentEntity(payment) } } : {}) },
      });
    },

    /** `X-Razorpay-Signature` of a webhook body: HMAC-SHA256 with the webhook secret, unless another secret is named. */
    webhookSignature: (body: string, secret = keys.webhookSecret) => razorpaySignature(body, secret),
  };
}
