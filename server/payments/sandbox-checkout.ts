import { formatPaise } from '../../app/lib/money.ts';
import { escapeHtml } from '../html.ts';
import type { SandboxOrder } from './sandbox-account.ts';

/**
 * Razorpay Checkout as the browser meets it, for the demo's payment sandbox (sandbox.ts, decision
 * 095) and the tests' Razorpay stand-in alike: a checkout.js defining `window.Razorpay(options)`,
 * whose `open()` lays a payment frame over the page, and the page in that frame, with the order's
 * amount, the merchant's name and Pay, Fail and Close. Pay hands the page's `handler` the three
 * signed values Checkout gives; Fail calls the `payment.failed` listener with Checkout's error and
 * leaves the frame open, as Checkout does; Close calls `modal.ondismiss`. The frame talks to the
 * page by postMessage, each side listening to the other's origin only.
 */

/** The title of the payment frame (the browser tests find it by this). */
export const CHECKOUT_FRAME_TITLE = 'Razorpay Checkout';

/** A value inside an inline script: JSON that cannot close the script element. */
const scriptValue = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/** checkout.js: `framePath` is where the payment frame is served, on the script's own origin. */
export function checkoutScript(options: { framePath: string }): string {
  return `(function () {
  var origin = new URL(document.currentScript.src).origin;
  var framePath = ${scriptValue(options.framePath)};
  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    this.options = options || {};
    this.listeners = {};
  }
  Razorpay.prototype.on = function (event, callback) { this.listeners[event] = callback; };
  Razorpay.prototype.open = function () {
    var self = this;
    var options = self.options;
    var narrow = window.innerWidth < 640;
    var overlay = document.createElement('div');
    overlay.setAttribute('data-razorpay-checkout', '');
    overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.6);display:flex;justify-content:center;align-items:' + (narrow ? 'flex-end' : 'center');
    var frame = document.createElement('iframe');
    frame.title = ${scriptValue(CHECKOUT_FRAME_TITLE)};
    frame.style.cssText = narrow
      ? 'width:100%;height:min(560px,92vh);border:0;border-radius:16px 16px 0 0;background:#fff'
      : 'width:400px;height:min(560px,92vh);border:0;border-radius:16px;background:#fff;box-shadow:0 20px 50px rgba(15,23,42,.35)';
    var query = new URLSearchParams({ key_id: options.key || '', order_id: options.order_id || '', name: options.name || '', description: options.description || '', origin: location.origin });
    frame.src = origin + framePath + '?' + query.toString();
    overlay.appendChild(frame);
    var overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    function close() {
      window.removeEventListener('message', listen);
      document.body.style.overflow = overflow;
      overlay.remove();
    }
    self.closeFrame = close;
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
    frame.focus();
  };
  Razorpay.prototype.close = function () { this.closeFrame && this.closeFrame(); };
  window.Razorpay = Razorpay;
})();
`;
}

/** The origin the frame answers to: the opening page's, when it names a proper one. */
function originOf(value: string | undefined): string | null {
  try {
    const url = new URL(value ?? '');
    return /^https?:$/.test(url.protocol) && url.origin === value ? url.origin : null;
  } catch {
    return null;
  }
}

const STYLE = `*{box-sizing:border-box}html,body{margin:0;height:100%}body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',Arial,sans-serif;color:#0f172a;background:#fff;-webkit-font-smoothing:antialiased}
main{display:flex;flex-direction:column;min-height:100%}
.bar{display:flex;align-items:center;gap:12px;background:#1e40af;color:#fff;padding:16px 20px}
.logo{flex:none;display:grid;place-items:center;width:40px;height:40px;border-radius:12px;background:#fff;color:#1e40af;font-weight:800;font-size:18px}
.merchant{margin:0;font-weight:700;font-size:16px}.desc{margin:2px 0 0;font-size:13px;color:#d9e8ff;overflow-wrap:anywhere}
.body{flex:1;display:flex;flex-direction:column;gap:14px;padding:18px 20px 20px}
.amount{margin:0;display:flex;flex-direction:column;border-radius:16px;background:#eef5ff;box-shadow:inset 0 0 0 1px #d9e8ff;padding:12px 16px}
.amount span{font-size:12px;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:#1e40af}.amount strong{font-size:30px;font-weight:800;color:#1e3a8a}
.note{margin:0;border-radius:12px;background:#fffbeb;box-shadow:inset 0 0 0 1px #fde68a;padding:10px 12px;font-size:13px;line-height:1.45;color:#78350f}
.meta{margin:0;display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:13px;color:#475569}.meta dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:#0f172a;overflow-wrap:anywhere}
.status{margin:0;min-height:1.2em;font-size:14px;font-weight:600}.status.failed{border-radius:12px;background:#fef2f2;box-shadow:inset 0 0 0 1px #fecaca;padding:10px 12px;color:#991b1b}
.actions{margin-top:auto;display:flex;flex-direction:column;gap:8px}
button{font:inherit;font-weight:600;min-height:48px;border-radius:12px;border:0;padding:12px 16px;cursor:pointer}button:disabled{opacity:.6;cursor:wait}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.pay{background:#1e40af;color:#fff;font-size:16px}.pay:hover{background:#1e3a8a}
.row{display:grid;grid-template-columns:1fr 1fr;gap:8px}.fail{background:#fff;color:#b91c1c;box-shadow:inset 0 0 0 1px #fca5a5}.close{background:#fff;color:#334155;box-shadow:inset 0 0 0 1px #cbd5e1}
.foot{margin:0;text-align:center;font-size:12px;color:#64748b}`;

/**
 * The page in the payment frame for `order` (null: an unknown order or another account's key, as
 * Checkout refuses them). `merchant` and `description` are what the pay page passed to Checkout;
 * `payPath` and `failPath` take `{key_id, order_id}` from this page (same origin); `nonce` lets its
 * script run under the serving site's Content-Security-Policy.
 */
export function checkoutPage(input: {
  order: SandboxOrder | null;
  keyId: string;
  merchant: string;
  description: string;
  parentOrigin: string | undefined;
  payPath: string;
  failPath: string;
  nonce?: string;
}): string {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${CHECKOUT_FRAME_TITLE}</title><style>${STYLE}</style></head>`;
  const parentOrigin = originOf(input.parentOrigin);
  if (!input.order || !parentOrigin) {
    return `${head}<body><main><div class="body"><p class="status failed">This payment cannot be opened: the order or the key is not this account's.</p></div></main></body></html>`;
  }
  const { order } = input;
  const merchant = input.merchant.trim() || 'Merchant';
  const amount = formatPaise(order.amount);
  const nonce = input.nonce ? ` nonce="${escapeHtml(input.nonce)}"` : '';
  return `${head}<body><main aria-labelledby="merchant">
<header class="bar"><span class="logo" aria-hidden="true">${escapeHtml(merchant.slice(0, 1).toUpperCase())}</span><div><p class="merchant" id="merchant">${escapeHtml(merchant)}</p>${input.description ? `<p class="desc">${escapeHtml(input.description)}</p>` : ''}</div></header>
<div class="body">
<p class="amount"><span>Amount to pay</span><strong>${amount}</strong></p>
<p class="note"><strong>Payment sandbox:</strong> no money moves. Pay completes the payment, Fail has the bank decline it, Close goes back without paying.</p>
<dl class="meta"><dt>Order</dt><dd>${escapeHtml(order.id)}</dd><dt>Receipt</dt><dd>${escapeHtml(order.receipt || '—')}</dd></dl>
<p class="status" id="status" role="status" aria-live="polite"></p>
<div class="actions"><button type="button" class="pay" id="pay">Pay ${amount}</button><div class="row"><button type="button" class="fail" id="fail">Fail</button><button type="button" class="close" id="close">Close</button></div></div>
<p class="foot">Stands in for Razorpay Checkout</p>
</div></main>
<script${nonce}>
(function () {
  var order = ${scriptValue({ key_id: input.keyId, order_id: order.id })};
  var parentOrigin = ${scriptValue(parentOrigin)};
  var paths = ${scriptValue({ pay: input.payPath, fail: input.failPath })};
  var buttons = [document.getElementById('pay'), document.getElementById('fail'), document.getElementById('close')];
  var status = document.getElementById('status');
  function busy(on) { buttons.forEach(function (button) { button.disabled = on; }); }
  function tell(message) { parent.postMessage(message, parentOrigin); }
  function show(text, failed) { status.textContent = text; status.className = failed ? 'status failed' : 'status'; }
  function send(path) {
    busy(true);
    return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) })
      .then(function (answer) { return answer.json().then(function (body) { return { ok: answer.ok, body: body }; }); })
      .catch(function () { return { ok: false, body: { error: { code: 'NETWORK_ERROR', description: 'The payment could not be sent. Please try again.' } } }; })
      .then(function (result) { busy(false); return result; });
  }
  document.getElementById('pay').addEventListener('click', function () {
    show('Paying…', false);
    send(paths.pay).then(function (result) {
      if (!result.ok || result.body.error) {
        show('Payment failed: ' + result.body.error.description, true);
        tell({ type: 'razorpay.failed', error: result.body.error });
        return;
      }
      show('Paid.', false);
      tell(Object.assign({ type: 'razorpay.paid' }, result.body));
    });
  });
  document.getElementById('fail').addEventListener('click', function () {
    send(paths.fail).then(function (result) {
      show('Payment failed: ' + result.body.error.description + ' Nothing was charged. Pay to try again, or Close.', true);
      tell({ type: 'razorpay.failed', error: result.body.error });
    });
  });
  document.getElementById('close').addEventListener('click', function () { tell({ type: 'razorpay.dismiss' }); });
  document.getElementById('pay').focus();
})();
</script></body></html>`;
}
