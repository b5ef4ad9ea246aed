import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/**
 * `/metrics` for Prometheus (decision 111). Nobody else may read it: it tells how busy the site
 * is, how its payments fare, what fails. It is served either on a port of its own (METRICS_PORT,
 * reached only from the monitoring network; the site's port then answers 404 there) or on the
 * site's port to a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`; with neither
 * configured, not at all (404). A refusal says nothing about the figures.
 */
export const METRICS_PATH = '/metrics';

/** Compares in constant time: both sides are hashed first, so not even the token's length shows in the time taken. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether the request carries `Authorization: Bearer <token>`. */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  // Compared even when absent, so a missing header and a wrong one cost the same.
  return sameToken(match?.[1] ?? '', token) && match !== null;
}

const PLAIN = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/**
 * Answers `/metrics` on the site's port, or when `where` is the metrics port, anything asked of
 * it. `token` null: no token configured.
 */
export async function answerMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  options: { metrics: Metrics | null; token: string | null; where: 'site' | 'metrics-port'; portConfigured: boolean; logger: Pick<Logger, 'error'> },
): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  const refuse = (status: 401 | 404 | 405, headers: Record<string, string> = {}) => {
    response.writeHead(status, { ...PLAIN, ...headers });
    response.end(status === 401 ? 'Unauthorized\n' : status === 405 ? 'Method Not Allowed\n' : 'Not found\n');
  };
  if (path !== METRICS_PATH) return refuse(404);
  if (options.where === 'site' && (options.portConfigured || options.token === null)) return refuse(404);
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, { Allow: 'GET, HEAD' });
  // On its own port a token, when one is set, is asked too: the port may be reachable from more than the scraper.
  if (options.token !== null && !carriesToken(request.headers.authorization, options.token)) return refuse(401, { 'WWW-Authenticate': 'Bearer' });
  if (!options.metrics) return refuse(404);
  let scraped: { contentType: string; body: string };
  try {
    scraped = await options.metrics.scrape();
  } catch (error) {
    // Each figure read at scrape time guards its own reading (metrics.ts); this is a fault of ours.
    options.logger.error({ err: error }, 'metrics: the scrape failed');
    response.writeHead(500, PLAIN);
    response.end('The metrics could not be gathered; the log says why.\n');
    return;
  }
  response.writeHead(200, { 'Content-Type': scraped.contentType, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  response.end(request.method === 'HEAD' ? undefined : scraped.body);
}
