import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import { withoutLanguage } from '../../app/lib/i18n/language.ts';
import { matchPattern, pathPatterns } from '../../app/lib/paths.ts';
import { SANDBOX_CHECKOUT_PAGE } from '../payments/sandbox.ts';

/**
 * Security headers on every response. Scripts run only from our origin or with this
 * request's nonce, so injected markup cannot execute; YouTube is the one frame we embed.
 * A page served from the page cache names its inline scripts by their SHA-256 hashes instead
 * of a nonce (server/http/page-cache.ts, docs/decisions/027-compressed-page-cache.md).
 */
/** The hosts a hosted bot check loads its script and frame from. */
const botCheckHosts = {
  altcha: '',
  recaptcha: ' https://www.google.com https://www.gstatic.com',
  turnstile: ' https://challenges.cloudflare.com',
} as const;

export type SecurityOptions = {
  production: boolean;
  botCheckProvider: keyof typeof botCheckHosts;
  /**
   * Razorpay Checkout, only while online payment is configured and only on the pages that pay
   * (isPaymentPage): its script's origin may run, and its payment frame (served from the
   * checkout or the API origin) may open. Null: neither, anywhere.
   */
  paymentCheckout?: { scriptUrl: string; apiUrl: string } | null;
  /**
   * The demo's payment sandbox (decision 095) instead: its Checkout page is this origin's, so the
   * pages that pay may frame this origin (its script is this origin's too, which 'self' allows),
   * and that page may be framed by this origin and nothing else.
   */
  paymentSandbox?: boolean;
  /** The origin public photos are linked from when it is not ours (MEDIA_PUBLIC_BASE_URL), or ''. */
  mediaOrigin?: string;
};

/** The security options the configuration gives (the live answers and the page cache share them). */
export function securityOptionsOf(config: Pick<Config, 'mode' | 'botCheck' | 'razorpay' | 'mediaBaseUrl' | 'paymentSandbox'>): SecurityOptions {
  return {
    mediaOrigin: config.mediaBaseUrl ? new URL(config.mediaBaseUrl).origin : '',
    production: config.mode === 'production',
    botCheckProvider: config.botCheck.provider,
    paymentCheckout: config.razorpay && !config.paymentSandbox ? { scriptUrl: config.razorpay.checkoutUrl, apiUrl: config.razorpay.apiUrl } : null,
    paymentSandbox: config.paymentSandbox,
  };
}

/** The pages that open Razorpay Checkout: a rental booking's and a reservation's pay page, in either language. */
export function isPaymentPage(pathname: string): boolean {
  const path = withoutLanguage(pathname);
  return matchPattern(pathPatterns.payBooking, path) !== null || matchPattern(pathPatterns.payReservation, path) !== null;
}

/** The CSP sources Razorpay Checkout needs: its script's origin, and its frame's origins (this origin's, for the sandbox's). */
function paymentSources(checkout: SecurityOptions['paymentCheckout'], sandbox: boolean): { script: string; frame: string } {
  if (sandbox) return { script: '', frame: " 'self'" };
  if (!checkout) return { script: '', frame: '' };
  const scriptOrigin = new URL(checkout.scriptUrl).origin;
  const frameOrigins = [...new Set([scriptOrigin, new URL(checkout.apiUrl).origin])];
  return { script: ` ${scriptOrigin}`, frame: frameOrigins.map((origin) => ` ${origin}`).join('') };
}

/**
 * The Content-Security-Policy letting our origin's scripts and the inline ones `scriptSources`
 * names run, and Razorpay's on a page that pays.
 */
function contentSecurityPolicy(options: SecurityOptions, scriptSources: string, paying: boolean, sandboxCheckout: boolean): string {
  const vendor = botCheckHosts[options.botCheckProvider];
  const payment = paymentSources(paying ? options.paymentCheckout : null, paying && options.paymentSandbox === true);
  return [
    "default-src 'self'",
    `script-src 'self'${scriptSources ? ` ${scriptSources}` : ''}${vendor}${payment.script}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${options.mediaOrigin ? ` ${options.mediaOrigin}` : ''}`,
    "font-src 'self'",
    `connect-src 'self'${vendor}`,
    `frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com${vendor}${payment.frame}`,
    "object-src 'none'",
    "base-uri 'self'",
    // The sell form without JavaScript ends in a redirect to the WhatsApp chat.
    "form-action 'self' https://wa.me https://api.whatsapp.com",
    // The sandbox's Checkout page opens in a frame of this site's pay pages; nothing else is framed.
    `frame-ancestors ${sandboxCheckout ? "'self'" : "'none'"}`,
  ].join('; ');
}

/**
 * Every security header of an answer, as [name, value] pairs. `scriptSources`: the CSP sources
 * of the inline scripts allowed to run (`'nonce-…'`, or `'sha256-…'` hashes for a cached page);
 * `paying`: the answer is a pay page's (isPaymentPage), where Checkout may run; `sandboxCheckout`:
 * it is the payment sandbox's Checkout page, which the pay pages frame.
 */
export function securityHeaderList(options: SecurityOptions, scriptSources: string, paying = false, sandboxCheckout = false): [string, string][] {
  const headers: [string, string][] = [
    ['Content-Security-Policy', contentSecurityPolicy(options, scriptSources, paying, sandboxCheckout)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', sandboxCheckout ? 'SAMEORIGIN' : 'DENY'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
  ];
  if (options.production) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * The same headers for an answer made outside the app, before any routing (`/readyz`, in
 * server/http/server-entry.ts): no inline script runs there.
 */
export function securityHeadersOutsideApp(options: SecurityOptions): Record<string, string> {
  return Object.fromEntries(securityHeaderList(options, ''));
}

export type SecurityVariables = { nonce: string; scriptSources?: string };

export function securityHeaders(options: SecurityOptions): MiddlewareHandler<{ Variables: SecurityVariables }> {
  return async (c, next) => {
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
    c.set('nonce', nonce);
    await next();
    const sandboxCheckout = options.paymentSandbox === true && c.req.path === SANDBOX_CHECKOUT_PAGE;
    for (const [name, value] of securityHeaderList(options, c.get('scriptSources') ?? `'nonce-${nonce}'`, isPaymentPage(c.req.path), sandboxCheckout))
      c.header(name, value);
  };
}

/**
 * A document's CSP is the one it was loaded with: a pay page reached inside the app (a link, the
 * redirect after booking or signing in) would keep the previous page's policy, without Checkout.
 * Its data request from another page is therefore answered with React Router's redirect to load
 * the page as a document (a 204 with `X-Remix-Redirect` and `X-Remix-Reload-Document`). The pay
 * page's own data requests (after its form is posted) come from the page itself (`Referer`) and
 * are answered as usual.
 */
export function paymentPagesAsDocuments(): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (c.req.method !== 'GET' || !path.endsWith('.data')) return next();
    const page = path.slice(0, -'.data'.length);
    if (!isPaymentPage(page)) return next();
    // By its path only: behind a proxy the request's own origin need not be the one the browser saw.
    if (URL.parse(c.req.header('referer') ?? '')?.pathname === page) return next();
    const url = new URL(c.req.url);
    url.searchParams.delete('_routes');
    const search = url.searchParams.toString();
    return c.body(null, 204, { 'X-Remix-Redirect': search ? `${page}?${search}` : page, 'X-Remix-Reload-Document': 'true', 'Cache-Control': 'no-store' });
  };
}
