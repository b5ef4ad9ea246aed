import type { MiddlewareHandler } from 'hono';

/**
 * Security headers on every response. Scripts run only from our origin or with this
 * request's nonce, so injected markup cannot execute; YouTube is the one frame we embed.
 */
export function securityHeaders(options: { production: boolean }): MiddlewareHandler<{ Variables: { nonce: string } }> {
  return async (c, next) => {
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
    c.set('nonce', nonce);
    await next();
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "connect-src 'self'",
      'frame-src https://www.youtube.com https://www.youtube-nocookie.com https://player.vimeo.com',
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
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
