import { Hono, type Context } from 'hono';
import type { AppServices } from '../../services.ts';
import { CLIENT_ADDRESS_HEADER } from '../auth.ts';
import { consumeRateLimit, rateLimits, type RateLimitPolicy } from '../../security/rate-limit.ts';
import { problem } from '../../http/problem.ts';
import { authText as t } from '../../../app/features/auth/auth-texts.ts';
import { languageCookieAtSignIn } from '../flows.ts';
import { currentUser } from '../session.ts';

/**
 * The only better-auth endpoints reachable over HTTP (docs/decisions/009). The pages and the
 * Android API call better-auth's server API directly, behind our own limits and bot check, so
 * sign-in, sign-up, password changes and the rest have no business being public: each public
 * endpoint would be a way around those limits. What stays is what a browser must reach by URL:
 *
 * - `GET verify-email`: the link in the verification mail;
 * - `GET callback/google`: where Google sends the browser back (the genericOAuth plugin uses
 *   better-auth's core `callback/:providerId` route);
 * - `GET get-session`: the session as JSON, without the session token.
 *
 * Every other `/api/auth/*` path falls through to the JSON 404 of `/api/*` in app.ts.
 */
export function authRoutes(services: AppServices, requestAddress: (c: Context) => string, rawAddress: (c: Context) => string | undefined) {
  const routes = new Hono();

  /** Our limit per address first, then better-auth with the address it should count against. */
  const forward = (name: string, policy: RateLimitPolicy) => async (c: Context) => {
    const limit = await consumeRateLimit(services.database, { key: `auth-${name}:${requestAddress(c)}`, ...policy, now: services.clock.now() });
    if (!limit.allowed) return problem(c, 429, t('tooManyRequests'), { headers: { 'Retry-After': String(limit.retryAfterSeconds) } });
    const headers = new Headers(c.req.raw.headers);
    // Whatever a client put in this header is theirs to choose; only our resolved address counts.
    headers.delete(CLIENT_ADDRESS_HEADER);
    const address = rawAddress(c);
    if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
    const response = await services.auth.handler(new Request(c.req.raw.url, { method: 'GET', headers }));
    // The bearer plugin copies a session cookie it sets into `set-auth-token`: the token belongs
    // in the httpOnly cookie here, never in a header a script can read (the app gets its token
    // from /api/v1/auth/*).
    if (!response.headers.has('set-auth-token')) return response;
    const cleaned = new Headers(response.headers);
    cleaned.delete('set-auth-token');
    cleaned.delete('access-control-expose-headers');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: cleaned });
  };

  const verifyEmail = forward('verify-email', rateLimits.authLink);
  routes.get('/verify-email', async (c) => {
    const response = await verifyEmail(c);
    // The link signed this browser in (often a phone other than the one signed up on): the
    // person's language choice comes with the session (decision 087).
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    if (cookies.length === 0) return response;
    const user = await currentUser(services.auth, new Request(c.req.url, { headers: { cookie: cookies.join('; ') } })).catch(() => null);
    const language = user ? await languageCookieAtSignIn(services, c.req.raw, user.id) : null;
    if (!language) return response;
    const headers = new Headers(response.headers);
    headers.append('Set-Cookie', language);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  });
  routes.get('/callback/google', forward('callback', rateLimits.authLink));

  const getSession = forward('get-session', rateLimits.sessionRead);
  routes.get('/get-session', async (c) => {
    const response = await getSession(c);
    if (!response.ok) return response;
    const body = (await response.json().catch(() => null)) as { session?: Record<string, unknown> } | null;
    // The token is the session cookie's value: it belongs in the httpOnly cookie only, never
    // in a body a script (or an injected one) can read.
    if (body?.session) delete body.session.token;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.set('content-type', 'application/json');
    headers.set('cache-control', 'no-store');
    return new Response(JSON.stringify(body), { status: response.status, headers });
  });

  return routes;
}
