import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';

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
   * Razorpay Checkout, only while online payment is configured: its script's origin may run,
   * and its payment frame (served from the checkout or the API origin) may open. Null: neither.
   */
  paymentCheckout?: { scriptUrl: string; apiUrl: string } | null;
  /** The origin public photos are linked from when it is not ours (MEDIA_PUBLIC_BASE_URL), or ''. */
  mediaOrigin?: string;
};

/** The security options the configuration gives (the live answers and the page cache share them). */
export function securityOptionsOf(config: Pick<Config, 'mode' | 'botCheck' | 'razorpay' | 'mediaBaseUrl'>): SecurityOptions {
  return {
    mediaOrigin: config.mediaBaseUrl ? new URL(config.mediaBaseUrl).origin : '',
    production: config.mode === 'production',
    botCheckProvider: config.botCheck.provider,
    paymentCheckout: config.razorpay ? { scriptUrl: config.razorpay.checkoutUrl, apiUrl: config.razorpay.apiUrl } : null,
  };
}

/** The CSP sources Razorpay Checkout needs: its script's origin, and its frame's origins. */
function paymentSources(checkout: SecurityOptions['paymentCheckout']): { script: string; frame: string } {
  if (!checkout) return { script: '', frame: '' };
  const scriptOrigin = new URL(checkout.scriptUrl).origin;
  const frameOrigins = [...new Set([scriptOrigin, new URL(checkout.apiUrl).origin])];
  return { script: ` ${scriptOrigin}`, frame: frameOrigins.map((origin) => ` ${origin}`).join('') };
}

/** The Content-Security-Policy letting our origin's scripts and the inline ones `scriptSources` names run. */
function contentSecurityPolicy(options: SecurityOptions, scriptSources: string): string {
  const vendor = botCheckHosts[options.botCheckProvider];
  const payment = paymentSources(options.paymentCheckout);
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
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every security header of an answer, as [name, value] pairs. `scriptSources`: the CSP sources
 * of the inline scripts allowed to run (`'nonce-…'`, or `'sha256-…'` hashes for a cached page).
 */
export function securityHeaderList(options: SecurityOptions, scriptSources: string): [string, string][] {
  const headers: [string, string][] = [
    ['Content-Security-Policy', contentSecurityPolicy(options, scriptSources)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
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
    for (const [name, value] of securityHeaderList(options, c.get('scriptSources') ?? `'nonce-${nonce}'`)) c.header(name, value);
  };
}
