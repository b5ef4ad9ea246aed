import type { MiddlewareHandler } from 'hono';

/**
 * Security headers on every response. Scripts run only from our origin or with this
 * request's nonce, so injected markup cannot execute; YouTube is the one frame we embed.
 */
/** The hosts a hosted bot check loads its script and frame from. */
const botCheckHosts = {
  altcha: '',
  recaptcha: ' https://www.google.com https://www.gstatic.com',
  turnstile: ' https://challenges.cloudflare.com',
} as const;

export function securityHeaders(options: { production: boolean; botCheckProvider: keyof typeof botCheckHosts }): MiddlewareHandler<{ Variables: { nonce: string } }> {
  const vendor = botCheckHosts[options.botCheckProvider];
  return async (c, next) => {
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
    c.set('nonce', nonce);
    await next();
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'${vendor}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      `connect-src 'self'${vendor}`,
      `frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com${vendor}`,
      "object-src 'none'",
      "base-uri 'self'",
      // The sell form without JavaScript ends in a redirect to the WhatsApp chat.
      "form-action 'self' https://wa.me https://api.whatsapp.com",
      "frame-ancestors 'none'",
    ].join('; ');
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (options.production) c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
