import type { Context, MiddlewareHandler } from 'hono';
import { databaseAnswers, type Database } from '../db/connection.ts';
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
    c.html(standalonePage({ title: t('outageTitle', { site: services.config.siteName }), heading: t('outageHeading'), text, phone: services.config.sellerPhone }), 503, headers),
  );
}

/** Whether a failed request failed because the database is unreachable (logged as such when it is). */
export async function failedForOutage(c: Context, services: OutageServices): Promise<boolean> {
  if (await databaseAnswers(services.database, CHECK_TIMEOUT_MS)) return false;
  services.logger.warn({ path: c.req.path }, 'database unreachable: answered 503');
  return true;
}

/** Pages render their own error page (500) when a loader fails: that answer becomes the outage page. */
export function answerOutagesWith503(services: OutageServices): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 500 || !(await failedForOutage(c, services))) return;
    // Emptied first: Hono copies the old answer's headers (its Content-Encoding too) onto a new one.
    c.res = undefined;
    c.res = outageResponse(c, services);
  };
}
