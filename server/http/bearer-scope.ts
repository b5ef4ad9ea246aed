import type { MiddlewareHandler } from 'hono';
import { API_V1_PREFIX, hasBearerToken } from '../auth/session.ts';
import { discardBody, DISCARD_LIMITS } from './body-limit.ts';
import { problemResponse } from './problem.ts';

/**
 * A bearer token (the Android app's sign-in, decision 074) counts on /api/v1 and nowhere else:
 * a page, an admin page, an admin action or better-auth's own routes answer 401 to a request
 * that carries one, before anything reads a session. The pages know the browser's cookie only,
 * and a token that leaked from a phone must never open the admin panel.
 */
export function refuseBearerOutsideApi(): MiddlewareHandler {
  return async (c, next) => {
    if (!hasBearerToken(c.req.raw) || c.req.path.startsWith(API_V1_PREFIX)) return next();
    if (c.req.raw.body) await discardBody(c.req.raw.body, DISCARD_LIMITS);
    return problemResponse(401, 'A bearer token is accepted by the app API (/api/v1) only. Sign in on the site to use its pages.', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_request"' },
    });
  };
}
