import { createServer, type Server, type ServerResponse } from 'node:http';
import { systemClock } from '../../server/clock.ts';
import {
  badRequest,
  createSandboxAccount,
  razorpayId,
  type CheckoutPaid,
  type SandboxOrder,
  type SandboxRefund,
} from '../../server/payments/sandbox-account.ts';
import { checkoutPage, checkoutScript } from '../../server/payments/sandbox-checkout.ts';
import { readBody, sendJson } from './standin-http.ts';

/**
 * A local stand-in for Razorpay's REST API, answering as Razorpay does (Basic auth with
 * key_id:key_secret, amounts in paise, `{"error": {"code", "description"}}` refusals with 400,
 * 401 and 5xx), so the payment adapter is tested over real HTTP without an account or money.
 * It also plays the customer paying in Checkout (`pay`: the callback values, signed with the
 * key secret) and Razorpay calling our webhook (`webhookBody` + `webhookSignature`). `pay` can
 * make a payment of another amount or currency than its order's (what a tampered or mixed-up
 * payment looks like); `GET /v1/payments/:id` answers what was really paid. `failRefunds(true)`
 * makes every refund answer 502 (Razorpay's gateway fault) while orders and payments still work,
 * and refunds honour `X-Refund-Idempotency` as Razorpay does: the key belongs to the account,
 * not to a payment, so the same key and body answer with the first refund again even when the
 * path names another payment (nothing is refunded for that one), and another body is a 400; a
 * key shorter than 10 characters or with anything but letters, digits, `-` and `_` is a 400.
 * One stand-in serves any number of servers, as one Razorpay account serves a staging and a
 * production. `misanswerRefunds` makes refunds answer with a refund of another payment or
 * amount (refunding nothing), as a key another refund used first makes Razorpay answer.
 *
 * For browser tests it serves Checkout itself, as Razorpay does: `checkoutUrl` is a checkout.js
 * defining `window.Razorpay(options)`; `open()` shows the payment frame (served from this
 * origin, titled "Razorpay Checkout"), whose Pay button pays the order through this stand-in and
 * hands `{razorpay_payment_id, razorpay_order_id, razorpay_signature}` to `options.handler`
 * by postMessage; Fail calls the `payment.failed` listener, Close `options.modal.ondismiss`. The
 * frame refuses an unknown key id or order as Checkout does.
 *
 * The protocol itself (orders, payments, refunds and their keys, Checkout's script and page) is
 * the demo's payment sandbox's (server/payments/sandbox-account.ts, sandbox-checkout.ts, decision
 * 095): the adapter's tests here hold the sandbox to Razorpay's behaviour too. The faults
 * (`setMode`, `failRefunds`, `misanswerRefunds`) are the stand-in's alone.
 */

export const STANDIN_KEY_ID = 'rzp_test_Standin1234';
export const STANDIN_KEY_SECRET = 'standin-key-secret-0123456789';
export const STANDIN_WEBHOOK_SECRET = 'standin-webhook-secret-0123456789';

export type RazorpayMode = 'ok' | 'bad-request' | 'server-error';

export type StandinOrder = SandboxOrder;
export type StandinRefund = SandboxRefund;

export type RazorpayStandin = {
  url: string;
  /** The stand-in's checkout.js (RAZORPAY_CHECKOUT_URL). */
  checkoutUrl: string;
  orders: StandinOrder[];
  refunds: StandinRefund[];
  /** Requests seen, for checks of what the adapter sent. */
  requests: Array<{ method: string; path: string; authorization: string; idempotencyKey: string | undefined; body: unknown }>;
  setMode(mode: RazorpayMode): void;
  /** While true every refund request fails with a 502, as when Razorpay's refund service is down. */
  failRefunds(failing: boolean): void;
  /**
   * While set, every refund request is answered 200 with a refund that is not the one asked for,
   * and nothing is refunded: of another payment (an earlier refund of one, else a made-up one), or
   * of this payment for another amount. Null: answered properly again.
   */
  misanswerRefunds(kind: 'another-payment' | 'another-amount' | null): void;
  /** The customer pays an order in Checkout: the values Checkout hands back, correctly signed. By default the order's amount in INR. */
  pay(orderId: string, paid?: { amount?: number; currency?: string }): CheckoutPaid;
  /** The webhook body Razorpay sends when a payment of an order is captured. */
  webhookBody(orderId: string, paymentId: string): string;
  webhookSignature(body: string, secret?: string): string;
  close(): Promise<void>;
};

function sendText(response: ServerResponse, type: string, text: string, status = 200) {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

export async function startRazorpayStandin(): Promise<RazorpayStandin> {
  let mode: RazorpayMode = 'ok';
  let refundsFail = false;
  let refundsMisanswered: 'another-payment' | 'another-amount' | null = null;
  // Razorpay's protocol is the demo's payment sandbox's (server/payments/sandbox-account.ts); the faults are the stand-in's own.
  const account = createSandboxAccount({ keyId: STANDIN_KEY_ID, keySecret: STANDIN_KEY_SECRET, webhookSecret: STANDIN_WEBHOOK_SECRET }, systemClock);
  const requests: RazorpayStandin['requests'] = [];
  const seconds = () => Math.floor(systemClock.now() / 1000);

  const server: Server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const path = request.url ?? '';
      const idempotencyKey = typeof request.headers['x-refund-idempotency'] === 'string' ? request.headers['x-refund-idempotency'] : undefined;
      requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization ?? '', idempotencyKey, body });
      const answer = (result: { status: number; body: unknown }) => sendJson(response, result.status, result.body);
      // Checkout, as the customer's browser meets it: public, keyed by the key id only.
      const url = new URL(path, 'http://standin');
      if (request.method === 'GET' && url.pathname === '/v1/checkout.js')
        return sendText(response, 'text/javascript; charset=utf-8', checkoutScript({ framePath: '/v1/checkout/public' }));
      if (request.method === 'GET' && url.pathname === '/v1/checkout/public') {
        const order = account.checkoutOrder(url.searchParams.get('key_id'), url.searchParams.get('order_id'));
        const page = checkoutPage({
          order,
          keyId: STANDIN_KEY_ID,
          merchant: url.searchParams.get('name') ?? '',
          description: url.searchParams.get('description') ?? '',
          parentOrigin: url.searchParams.get('origin') ?? undefined,
          payPath: '/v1/checkout/pay',
          failPath: '/v1/checkout/fail',
        });
        return sendText(response, 'text/html; charset=utf-8', page, order ? 200 : 400);
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/pay') return answer(account.checkoutPay(body));
      if (request.method === 'POST' && url.pathname === '/v1/checkout/fail') return answer(account.checkoutFail(body));
      if (!account.authorizes(request.headers.authorization)) return answer(account.unauthorized());
      if (mode === 'server-error')
        return sendJson(response, 500, {
          error: {
            code: 'SERVER_ERROR',
            description: 'The server encountered an error. The incident has been reported to admins.',
            source: 'NA',
            step: 'NA',
            reason: 'NA',
            metadata: {},
          },
        });
      if (request.method === 'POST' && path === '/v1/orders') {
        if (mode === 'bad-request') return sendJson(response, 400, badRequest('The amount must be atleast INR 1.00', 'amount'));
        return answer(account.createOrder(body));
      }
      const paymentMatch = /^\/v1\/payments\/([^/]+)$/.exec(path);
      if (request.method === 'GET' && paymentMatch) return answer(account.fetchPayment(decodeURIComponent(paymentMatch[1]!)));
      const refundMatch = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path);
      if (request.method === 'POST' && refundMatch) {
        if (refundsFail)
          return sendJson(response, 502, {
            error: {
              code: 'GATEWAY_ERROR',
              description: 'Refunds are temporarily unavailable. Please try again later.',
              source: 'NA',
              step: 'NA',
              reason: 'NA',
              metadata: {},
            },
          });
        const paymentId = decodeURIComponent(refundMatch[1]!);
        const payment = account.payments.get(paymentId);
        if (refundsMisanswered && payment) {
          const amount =
            body && typeof body === 'object' && typeof (body as { amount?: unknown }).amount === 'number'
              ? (body as { amount: number }).amount
              : payment.amount - payment.refunded;
          const made = (paidFor: string, paise: number): SandboxRefund => ({
            id: razorpayId('rfnd'),
            entity: 'refund',
            amount: paise,
            currency: payment.currency,
            payment_id: paidFor,
            notes: {},
            status: 'processed',
            speed_processed: 'normal',
            created_at: seconds(),
          });
          if (refundsMisanswered === 'another-payment')
            return sendJson(response, 200, account.refunds.find((refund) => refund.payment_id !== paymentId) ?? made(razorpayId('pay'), amount));
          return sendJson(response, 200, made(paymentId, amount - 100));
        }
        if (mode === 'bad-request') return sendJson(response, 400, badRequest('The refund amount provided is greater than amount captured'));
        return answer(account.refund(paymentId, body, text, idempotencyKey));
      }
      return sendJson(response, 400, badRequest('The requested URL was not found on the server.'));
    })().catch(() => {
      if (!response.headersSent) sendJson(response, 500, { error: { code: 'SERVER_ERROR', description: 'stand-in failure' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    checkoutUrl: `http://127.0.0.1:${port}/v1/checkout.js`,
    orders: account.orders,
    refunds: account.refunds,
    requests,
    setMode: (next) => {
      mode = next;
    },
    failRefunds: (failing) => {
      refundsFail = failing;
    },
    misanswerRefunds: (kind) => {
      refundsMisanswered = kind;
    },
    pay: account.pay,
    webhookBody: account.paymentCapturedEvent,
    webhookSignature: account.webhookSignature,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
