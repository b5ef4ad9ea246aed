import type { Context, MiddlewareHandler } from 'hono';
import { databaseAnswers, isDatabaseConnectionLoss, isStorageFull, type Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { standalonePage } from './standalone-page.ts';
import { edgeRefusal } from './problem.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';

/**
 * A request that failed while the database does not answer (a restart, a failover, a cut
 * network) is an outage, not a fault of ours: the visitor hears 503 with a short page (or
 * problem+json on the API) that says to try again in a minute, with `Retry-After`, instead of "something went
 * wrong"; the log says the database is unreachable, once per request, without a stack. Asked
 * only after a request has already failed, so it costs nothing while all is well.
 *
 * So is a request whose own connection was lost or refused under it (isDatabaseConnectionLoss:
 * ECONNRESET, "Connection terminated unexpectedly", ECONNREFUSED, PostgreSQL's 57P01…), on
 * every path, even when the database answers again by the time it is asked: a connection the
 * database ended a moment ago is no fault of ours either, and the next try goes out on a new one.
 */

/** How long the check may take: the pool already waited for a connection, this only confirms. */
const CHECK_TIMEOUT_MS = 2_000;
/** What the visitor reads during an outage, in the request's language. */
export const outageMessage = () => t('outage');

export type OutageServices = { database: Database; logger: Pick<Logger, 'warn'>; config: { siteName: string; sellerPhone: string } };

export function outageResponse(c: Context, services: OutageServices): Response {
  const headers = { 'Retry-After': '30', 'Cache-Control': 'no-store' };
  const text = outageMessage();
  return edgeRefusal(c, 503, text, headers, () =>
    c.html(
      standalonePage({ title: t('outageTitle', { site: services.config.siteName }), heading: t('outageHeading'), text, phone: services.config.sellerPhone }),
      503,
      headers,
    ),
  );
}

/**
 * Whether a request failed because its database connection was lost or the database is
 * unreachable (logged as such when it is). `error`: what failed it, when known.
 */
export async function failedForOutage(c: Context, services: OutageServices, error?: unknown): Promise<boolean> {
  if (isStorageFull(error)) {
    services.logger.warn({ path: c.req.path, err: { message: (error as Error).message } }, 'disk full under a request: answered 503, nothing saved');
    return true;
  }
  if (isDatabaseConnectionLoss(error)) {
    services.logger.warn(
      { path: c.req.path, err: { message: (error as Error).message, code: (error as { code?: unknown }).code } },
      'database connection lost under a request: answered 503',
    );
    return true;
  }
  if (await databaseAnswers(services.database, CHECK_TIMEOUT_MS)) return false;
  services.logger.warn({ path: c.req.path }, 'database unreachable: answered 503');
  return true;
}

/**
 * The pages' loaders and actions (React Router) answer a failure with their error page; what
 * failed them is only seen by entry.server.tsx's handleError, which notes a lost connection
 * here against the request's router context.
 */
const pagesWithLostConnection = new WeakSet<object>();

/** Notes `error` against the page's router context when it is a lost connection, and says whether it was. */
export function noteFailedPage(routerContext: object, error: unknown): boolean {
  if (!isDatabaseConnectionLoss(error) && !isStorageFull(error)) return false;
  pagesWithLostConnection.add(routerContext);
  return true;
}

/** Whether the page rendered with `routerContext` failed on a lost database connection. */
export function pageLostConnection(routerContext: object): boolean {
  return pagesWithLostConnection.has(routerContext);
}

export type OutageVariables = { databaseConnectionLost?: boolean };

/**
 * Pages render their own error page (500) when a loader fails: that answer becomes the outage
 * page. The page handler sets `databaseConnectionLost` when pageLostConnection says so.
 */
export function answerOutagesWith503(services: OutageServices): MiddlewareHandler<{ Variables: OutageVariables }> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 500) return;
    const lost = c.get('databaseConnectionLost') === true;
    if (lost) services.logger.warn({ path: c.req.path }, 'database connection lost under a page: answered 503');
    else if (!(await failedForOutage(c, services))) return;
    // Emptied first: Hono copies the old answer's headers (its Content-Encoding too) onto a new one.
    c.res = undefined;
    c.res = outageResponse(c, services);
  };
}
