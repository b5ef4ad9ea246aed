import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
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
 * by postMessage; its Cancel button calls `options.modal.ondismiss`. The frame refuses an
 * unknown key id or order as Checkout does.
 */

export const STANDIN_KEY_ID = 'rzp_test_Standin1234';
export const STANDIN_KEY_SECRET = 'standin-key-secret-0123456789';
export const STANDIN_WEBHOOK_SECRET = 'standin-webhook-secret-0123456789';

export type RazorpayMode = 'ok' | 'bad-request' | 'server-error';

export type StandinOrder = { id: string; amount: number; currency: string; receipt: string; status: string };
export type StandinRefund = { id: string; payment_id: string; amount: number };

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
  pay(orderId: string, paid?: { amount?: number; currency?: string }): { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string };
  /** The webhook body Razorpay sends when a payment of an order is captured. */
  webhookBody(orderId: string, paymentId: string): string;
  webhookSignature(body: string, secret?: string): string;
  close(): Promise<void>;
};

function sendText(response: ServerResponse, type: string, text: string, status = 200) {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

/**
 * The stand-in's checkout.js: `new Razorpay(options).open()` lays the payment frame over the
 * page and listens for its answer from this script's own origin only, as Checkout does.
 */
const CHECKOUT_JS = `(function () {
  var origin = new URL(document.currentScript.src).origin;
  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    this.options = options || {};
    this.listeners = {};
  }
  Razorpay.prototype.on = function (event, callback) { this.listeners[event] = callback; };
  Razorpay.prototype.open = function () {
    var self = this;
    var options = self.options;
    var overlay = document.createElement('div');
    overlay.setAttribute('data-razorpay-standin', '');
    overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center';
    var frame = document.createElement('iframe');
    frame.title = 'Razorpay Checkout';
    frame.style.cssText = 'width:min(360px,92vw);height:420px;border:0;border-radius:12px;background:#fff';
    var query = new URLSearchParams({ key_id: options.key || '', order_id: options.order_id || '', amount: String(options.amount || ''), name: options.name || '', description: options.description || '' });
    frame.src = origin + '/v1/checkout/public?' + query.toString();
    overlay.appendChild(frame);
    function close() {
      window.removeEventListener('message', listen);
      overlay.remove();
    }
    function listen(event) {
      if (event.origin !== origin || event.source !== frame.contentWindow || !event.data) return;
      if (event.data.type === 'razorpay.paid') {
        close();
        options.handler && options.handler({ razorpay_payment_id: event.data.razorpay_payment_id, razorpay_order_id: event.data.razorpay_order_id, razorpay_signature: event.data.razorpay_signature });
      } else if (event.data.type === 'razorpay.dismiss') {
        close();
        options.modal && options.modal.ondismiss && options.modal.ondismiss();
      } else if (event.data.type === 'razorpay.failed') {
        self.listeners['payment.failed'] && self.listeners['payment.failed']({ error: event.data.error });
      }
    }
    window.addEventListener('message', listen);
    document.body.appendChild(overlay);
  };
  Razorpay.prototype.close = function () {
    var overlay = document.querySelector('[data-razorpay-standin]');
    if (overlay) overlay.remove();
  };
  window.Razorpay = Razorpay;
})();
`;

/** The payment frame: the order's amount, Pay and Cancel. */
function checkoutPage(order: StandinOrder | null): string {
  if (!order) return '<!doctype html><title>Razorpay Checkout</title><p>Invalid order or key id.</p>';
  const rupees = (order.amount / 100).toLocaleString('en-IN');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Razorpay Checkout</title></head>
<body style="font-family:sans-serif;padding:16px">
<h1 style="font-size:18px">Razorpay Checkout (stand-in)</h1>
<p>Order ${order.id}</p>
<button id="pay" type="button">Pay ₹${rupees}</button>
<button id="cancel" type="button">Cancel</button>
<p id="status" role="status"></p>
<script>
var orderId = ${JSON.stringify(order.id)};
var keyId = new URLSearchParams(location.search).get('key_id');
document.getElementById('pay').addEventListener('click', function () {
  fetch('/v1/checkout/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key_id: keyId, order_id: orderId }) })
    .then(function (answer) { return answer.json().then(function (body) { return { ok: answer.ok, body: body }; }); })
    .then(function (result) {
      if (!result.ok) {
        document.getElementById('status').textContent = result.body.error.description;
        parent.postMessage({ type: 'razorpay.failed', error: result.body.error }, '*');
        return;
      }
      parent.postMessage(Object.assign({ type: 'razorpay.paid' }, result.body), '*');
    });
});
document.getElementById('cancel').addEventListener('click', function () { parent.postMessage({ type: 'razorpay.dismiss' }, '*'); });
</script></body></html>`;
}

const badRequest = (description: string, field?: string) => ({ error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', step: 'payment_initiation', reason: 'input_validation_failed', metadata: {}, ...(field ? { field } : {}) } });

export async function startRazorpayStandin(): Promise<RazorpayStandin> {
  let mode: RazorpayMode = 'ok';
  let refundsFail = false;
  let refundsMisanswered: 'another-payment' | 'another-amount' | null = null;
  const orders: StandinOrder[] = [];
  const payments = new Map<string, { orderId: string; amount: number; currency: string; refunded: number }>();
  const idempotent = new Map<string, { body: string; refund: StandinRefund }>();
  const refunds: StandinRefund[] = [];
  const requests: RazorpayStandin['requests'] = [];
  const expectedAuth = `Basic ${Buffer.from(`${STANDIN_KEY_ID}:${STANDIN_KEY_SECRET}`).toString('base64')}`;
  const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('base64url').replace(/[^A-Za-z0-9]/g, 'x')}`;
  const sign = (payload: string, secret: string) => createHmac('sha256', secret).update(payload).digest('hex');
  /** A captured payment of the order, and the values Checkout hands the page for it. */
  const payOrder = (orderId: string, paid: { amount?: number; currency?: string } = {}) => {
    const order = orders.find((item) => item.id === orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const paymentId = id('pay');
    payments.set(paymentId, { orderId, amount: paid.amount ?? order.amount, currency: paid.currency ?? 'INR', refunded: 0 });
    order.status = 'paid';
    return { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: sign(`${orderId}|${paymentId}`, STANDIN_KEY_SECRET) };
  };

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
      const idempotencyKey = request.headers['x-refund-idempotency'];
      requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      // Checkout, as the customer's browser meets it: public, keyed by the key id only.
      const url = new URL(path, 'http://standin');
      if (request.method === 'GET' && url.pathname === '/v1/checkout.js') return sendText(response, 'text/javascript; charset=utf-8', CHECKOUT_JS);
      if (request.method === 'GET' && url.pathname === '/v1/checkout/public') {
        const order = orders.find((item) => item.id === url.searchParams.get('order_id'));
        if (url.searchParams.get('key_id') !== STANDIN_KEY_ID || !order) return sendText(response, 'text/html; charset=utf-8', checkoutPage(null), 400);
        return sendText(response, 'text/html; charset=utf-8', checkoutPage(order));
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/pay') {
        const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
        const order = orders.find((item) => item.id === input.order_id);
        if (input.key_id !== STANDIN_KEY_ID || !order) return sendJson(response, 400, badRequest('The id provided does not exist', 'order_id'));
        if (order.status === 'paid') return sendJson(response, 400, badRequest('Order has already been paid', 'order_id'));
        return sendJson(response, 200, payOrder(order.id));
      }
      if (request.headers.authorization !== expectedAuth) return sendJson(response, 401, { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } });
      if (mode === 'server-error') return sendJson(response, 500, { error: { code: 'SERVER_ERROR', description: 'The server encountered an error. The incident has been reported to admins.', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } });
      const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      if (request.method === 'POST' && path === '/v1/orders') {
        if (mode === 'bad-request') return sendJson(response, 400, badRequest('The amount must be atleast INR 1.00', 'amount'));
        if (typeof input.amount !== 'number' || !Number.isInteger(input.amount) || input.amount < 100) return sendJson(response, 400, badRequest('The amount must be atleast INR 1.00', 'amount'));
        if (input.currency !== 'INR') return sendJson(response, 400, badRequest('The currency field is invalid.', 'currency'));
        const order = { id: id('order'), entity: 'order', amount: input.amount, amount_paid: 0, amount_due: input.amount, currency: 'INR', receipt: String(input.receipt ?? ''), status: 'created', attempts: 0, notes: input.notes ?? {}, created_at: Math.floor(Date.now() / 1000) };
        orders.push(order);
        return sendJson(response, 200, order);
      }
      const paymentMatch = /^\/v1\/payments\/([^/]+)$/.exec(path);
      if (request.method === 'GET' && paymentMatch) {
        const paymentId = decodeURIComponent(paymentMatch[1]!);
        const payment = payments.get(paymentId);
        if (!payment) return sendJson(response, 400, badRequest('The id provided does not exist', 'id'));
        const status = payment.refunded >= payment.amount ? 'refunded' : 'captured';
        return sendJson(response, 200, { id: paymentId, entity: 'payment', amount: payment.amount, currency: payment.currency, status, order_id: payment.orderId, method: 'upi', amount_refunded: payment.refunded, refund_status: payment.refunded === 0 ? null : status === 'refunded' ? 'full' : 'partial', captured: true, created_at: Math.floor(Date.now() / 1000) });
      }
      const refundMatch = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path);
      if (request.method === 'POST' && refundMatch) {
        if (refundsFail) return sendJson(response, 502, { error: { code: 'GATEWAY_ERROR', description: 'Refunds are temporarily unavailable. Please try again later.', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } });
        const key = request.headers['x-refund-idempotency'];
        if (typeof key === 'string' && !/^[A-Za-z0-9_-]{10,}$/.test(key)) return sendJson(response, 400, badRequest('The idempotency key must be at least 10 characters long and contain only alphabets, numbers, hyphens and underscores.'));
        // Keyed by the key alone, across the account's payments, as Razorpay does.
        const seen = typeof key === 'string' ? idempotent.get(key) : undefined;
        if (seen) return seen.body === text ? sendJson(response, 200, seen.refund) : sendJson(response, 400, badRequest('Different request with the same idempotency key has already been processed.'));
        const paymentId = decodeURIComponent(refundMatch[1]!);
        const payment = payments.get(paymentId);
        if (!payment) return sendJson(response, 400, badRequest('The id provided does not exist', 'id'));
        const amount = typeof input.amount === 'number' ? input.amount : payment.amount - payment.refunded;
        if (refundsMisanswered === 'another-payment') {
          const other = refunds.find((refund) => refund.payment_id !== paymentId) ?? { id: id('rfnd'), entity: 'refund', amount, currency: payment.currency, payment_id: id('pay'), status: 'processed', speed_processed: 'normal', created_at: Math.floor(Date.now() / 1000) };
          return sendJson(response, 200, other);
        }
        if (refundsMisanswered === 'another-amount') return sendJson(response, 200, { id: id('rfnd'), entity: 'refund', amount: amount - 100, currency: payment.currency, payment_id: paymentId, status: 'processed', speed_processed: 'normal', created_at: Math.floor(Date.now() / 1000) });
        if (mode === 'bad-request' || amount > payment.amount - payment.refunded) return sendJson(response, 400, badRequest('The refund amount provided is greater than amount captured'));
        payment.refunded += amount;
        const refund = { id: id('rfnd'), entity: 'refund', amount, currency: payment.currency, payment_id: paymentId, status: 'processed', speed_processed: 'normal', created_at: Math.floor(Date.now() / 1000) };
        refunds.push(refund);
        if (typeof key === 'string') idempotent.set(key, { body: text, refund });
        return sendJson(response, 200, refund);
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
    orders,
    refunds,
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
    pay: payOrder,
    webhookBody(orderId, paymentId) {
      const order = orders.find((item) => item.id === orderId);
      const payment = payments.get(paymentId);
      return JSON.stringify({
        entity: 'event',
        account_id: 'acc_Standin',
        event: 'payment.captured',
        contains: ['payment'],
        payload: { payment: { entity: { id: paymentId, entity: 'payment', amount: payment?.amount ?? order?.amount ?? 0, currency: payment?.currency ?? 'INR', status: 'captured', order_id: orderId, method: 'upi', captured: true } } },
        created_at: Math.floor(Date.now() / 1000),
      });
    },
    webhookSignature: (body, secret = STANDIN_WEBHOOK_SECRET) => sign(body, secret),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
