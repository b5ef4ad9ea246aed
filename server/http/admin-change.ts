import type { MiddlewareHandler } from 'hono';
import { isAdminPath } from '../../app/lib/paths.ts';
import { withoutLanguage } from '../../app/lib/i18n/language.ts';
import { adminStatus } from '../auth/admins.ts';
import { currentUser } from '../auth/session.ts';
import type { AppServices } from '../services.ts';

/**
 * Empties the page cache and the kept listing counts, here and on every other instance, after a change an admin made went through: a request to an admin
 * page (or its `.data` request) that is not a read (not GET/HEAD), answered below 400, by a
 * signed-in admin. Anything else — a visitor's POST, a failed or refused one, a sign-in —
 * leaves it alone, so nobody can empty the cache (and make every visitor's page a fresh render)
 * by posting junk.
 * Why at the edge and not in each service: see docs/decisions/016-time-and-caches-handed-in.md.
 */
export function clearPageCacheAfterAdminChange(
  services: Pick<AppServices, 'auth' | 'config' | 'database' | 'pageCache' | 'listingTotals' | 'changeNotices' | 'logger'>,
): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || c.res.status >= 400 || !isAdminPath(withoutLanguage(c.req.path.replace(/\.data$/, '')))) return;
    const user = await currentUser(services.auth, c.req.raw);
    if (user && (await adminStatus(services.config, services.database, user)) === 'admin') {
      services.pageCache.clear();
      services.listingTotals.clear();
      // The other instances on this database empty theirs, settings included (server/db/change-notices.ts).
      await services.changeNotices
        .announce()
        .catch((error: unknown) => services.logger.warn({ err: error }, 'change notices: could not tell the other instances'));
    }
  };
}
