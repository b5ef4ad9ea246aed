import type { Context } from 'hono';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';
import { adminStatus } from '../auth/admins.ts';
import { currentUser, hasBearerToken, type SessionUser } from '../auth/session.ts';
import { problem } from '../http/problem.ts';
import type { AppServices } from '../services.ts';

/**
 * The desk's operations in the JSON API (decision 120) take an admin's site session and nothing
 * else: a bearer token is the app's, made on a phone, and must never reach the desk (as it never
 * reaches the admin pages, server/http/bearer-scope.ts). The cross-site check guards their
 * mutations as it guards every cookie-carrying post. Answers the admin, or the refusal to send.
 */
export async function deskAdmin(services: Pick<AppServices, 'auth' | 'config' | 'database'>, c: Context): Promise<SessionUser | Response> {
  if (hasBearerToken(c.req.raw)) return problem(c, 401, t('deskSignInFirst'));
  const user = await currentUser(services.auth, c.req.raw);
  if (!user) return problem(c, 401, t('deskSignInFirst'));
  if ((await adminStatus(services.config, services.database, user)) !== 'admin') return problem(c, 403, t('deskOnly'));
  return user;
}
