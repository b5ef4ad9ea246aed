import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { createSandboxAccount, razorpayId, type SandboxAccount, type SandboxAnswer } from './sandbox-account.ts';
import { checkoutPage, checkoutScript } from './sandbox-checkout.ts';

/**
 * The demo's payment sandbox (decision 095): with `PAYMENTS=sandbox` (what `npm run demo` sets;
 * refused in production and beside Razorpay keys, server/config.ts) the server answers for
 * Razorpay itself, under /dev/payment-sandbox, so every money flow can be tried on a fresh machine
 * the way the outbox lets mail be read. The production adapter (razorpay.ts) talks to it over HTTP
 * as it talks to Razorpay: its keys, made at start, point it at this server's own address.
 *
 *   POST {base}/v1/orders, GET {base}/v1/payments/:id, POST {base}/v1/payments/:id/refund
 *        Razorpay's API, with Basic auth by the sandbox's keys (sandbox-account.ts)
 *   GET  {base}/v1/checkout.js      Checkout's script, which the pay pages load
 *   GET  {base}/checkout            the payment sheet in Checkout's frame (sandbox-checkout.ts)
 *   POST {base}/checkout/pay, /checkout/fail   the sheet's Pay and Fail
 *
 * After a payment and a refund it posts Razorpay's signed webhook (`payment.captured`,
 * `refund.processed`) to the app's webhook path on this server, as Razorpay would. Its orders,
 * payments and refunds live in this process's memory, like one Razorpay test account per start.
 */

/** Where the sandbox answers: beside the outbox (/dev/outbox), and no page of the app. */
export const SANDBOX_BASE = '/dev/payment-sandbox';
/** The page in Checkout's frame: the one page this site lets itself frame (server/http/security.ts). */
export const SANDBOX_CHECKOUT_PAGE = `${SANDBOX_BASE}/checkout`;

export type SandboxRazorpayConfig = { keyId: string; keySecret: string; webhookSecret: string; apiUrl: string; checkoutUrl: string };

/**
 * The Razorpay settings of a server whose payments go through its own sandbox: keys made now at
 * random (never real ones), the API at `ownUrl` (this server as it calls itself), and Checkout's
 * script on the site's own origin, wherever the browser reaches it.
 */
export function sandboxRazorpayConfig(ownUrl: string): SandboxRazorpayConfig {
  return {
    keyId: razorpayId('rzp_test'),
    keySecret: randomBytes(24).toString('base64url'),
    webhookSecret: randomBytes(24).toString('base64url'),
    apiUrl: `${ownUrl.replace(/\/+$/, '')}${SANDBOX_BASE}`,
    checkoutUrl: `${SANDBOX_BASE}/v1/checkout.js`,
  };
}

export type PaymentSandbox = { account: SandboxAccount; ownOrigin: string; logger: Pick<Logger, 'info' | 'warn'> };

/** The sandbox of the keys `sandboxRazorpayConfig` made (the configuration's, where the webhook secret may be unset). */
export function createPaymentSandbox(
  razorpay: { keyId: string; keySecret: string; webhookSecret: string | undefined; apiUrl: string },
  clock: Clock,
  logger: Pick<Logger, 'info' | 'warn'>,
): PaymentSandbox {
  const keys = { keyId: razorpay.keyId, keySecret: razorpay.keySecret, webhookSecret: razorpay.webhookSecret ?? '' };
  return { account: createSandboxAccount(keys, clock), ownOrigin: new URL(razorpay.apiUrl).origin, logger };
}

async function bodyOf(c: Context): Promise<{ text: string; json: unknown }> {
  const text = await c.req.text().catch(() => '');
  try {
    return { text, json: text ? JSON.parse(text) : null };
  } catch {
    return { text, json: null };
  }
}

const answer = (c: Context, result: SandboxAnswer) => c.json(result.body as object, result.status as 200, { 'Cache-Control': 'no-store' });

/** The sandbox's routes, mounted at SANDBOX_BASE by the app (server/http/app.ts) before the CSRF check: its API is called server to server. */
export function paymentSandboxRoutes(sandbox: PaymentSandbox, webhookPath: string) {
  const { account, logger } = sandbox;
  const routes = new Hono<{ Variables: { nonce: string } }>();

  /** Razorpay's webhook to the app's own handler, signed with the webhook secret, after the answer that caused it. */
  const sendWebhook = (event: string, body: string) => {
    void fetch(`${sandbox.ownOrigin}${webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': account.webhookSignature(body), 'x-razorpay-event-id': razorpayId('evt') },
      body,
      signal: AbortSignal.timeout(15_000),
    }).then(
      (response) => {
        if (response.ok) logger.info({ event, status: response.status }, `payment sandbox: the app accepted the ${event} webhook`);
        else logger.warn({ event, status: response.status }, `payment sandbox: the app answered the ${event} webhook with ${response.status}`);
        return response.body?.cancel();
      },
      (error: unknown) => logger.warn({ err: error, event }, `payment sandbox: the ${event} webhook could not be delivered`),
    );
  };

  // Public, as checkout.razorpay.com is: answered before the API's key check below.
  routes.get('/v1/checkout.js', (c) =>
    c.body(checkoutScript({ framePath: SANDBOX_CHECKOUT_PAGE }), 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }),
  );
  routes.get('/checkout', (c) => {
    const order = account.checkoutOrder(c.req.query('key_id'), c.req.query('order_id'));
    const html = checkoutPage({
      order,
      keyId: account.keys.keyId,
      merchant: c.req.query('name') ?? '',
      description: c.req.query('description') ?? '',
      parentOrigin: c.req.query('origin'),
      payPath: `${SANDBOX_CHECKOUT_PAGE}/pay`,
      failPath: `${SANDBOX_CHECKOUT_PAGE}/fail`,
      nonce: c.get('nonce'),
    });
    return c.html(html, order ? 200 : 400, { 'Cache-Control': 'no-store' });
  });
  routes.post('/checkout/pay', async (c) => {
    const result = account.checkoutPay((await bodyOf(c)).json);
    if (result.paid) {
      const { razorpay_order_id: orderId, razorpay_payment_id: paymentId } = result.paid;
      logger.info({ orderId, paymentId }, `payment sandbox: ${orderId} paid (${paymentId})`);
      sendWebhook('payment.captured', account.paymentCapturedEvent(orderId, paymentId));
    }
    return answer(c, result);
  });
  routes.post('/checkout/fail', async (c) => answer(c, account.checkoutFail((await bodyOf(c)).json)));

  // Razorpay's API: the adapter's calls, with the sandbox's keys.
  routes.use('/v1/*', async (c, next) => (account.authorizes(c.req.header('authorization')) ? next() : answer(c, account.unauthorized())));
  routes.post('/v1/orders', async (c) => answer(c, account.createOrder((await bodyOf(c)).json)));
  routes.get('/v1/payments/:id', (c) => answer(c, account.fetchPayment(c.req.param('id'))));
  routes.post('/v1/payments/:id/refund', async (c) => {
    const body = await bodyOf(c);
    const result = account.refund(c.req.param('id'), body.json, body.text, c.req.header('x-refund-idempotency'));
    if (result.made) {
      logger.info(
        { paymentId: result.made.payment_id, refundId: result.made.id, amount: result.made.amount },
        `payment sandbox: ${result.made.payment_id} refunded (${result.made.id})`,
      );
      sendWebhook('refund.processed', account.refundProcessedEvent(result.made));
    }
    return answer(c, result);
  });
  routes.all('*', (c) => c.json({ error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } }, 400));
  return routes;
}
