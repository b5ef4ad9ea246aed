import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ServerBuild } from 'react-router';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import { withinRequest } from '../request-context.ts';
import { answerMetrics, METRICS_PATH } from './metrics-endpoint.ts';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.ts';
import { createRouteLabeller, type RouteLabeller } from './route-label.ts';
import { listen } from './startup.ts';

/**
 * What happens to every request the server's port takes, before anything answers it (decision
 * 111): it gets its X-Request-Id, set on the response first, so every answer carries it (pages
 * from the cache, files, errors, the readiness check); the code that answers runs within it, so
 * every log line and every job queued on its behalf names it; and when the answer is sent it is
 * counted and timed by route pattern and status.
 */

/** Methods counted by name; anything else (a scanner's WebDAV verbs) is `other`, so the label stays bounded. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export type Observation = { metrics: () => Metrics | null; routeOf: () => RouteLabeller; trustProxy: boolean; logger: Pick<Logger, 'debug'> };

export function answeredAs(request: IncomingMessage, response: ServerResponse, observation: Observation, answer: () => void): void {
  const requestId = requestIdFor(request.headers['x-request-id'], observation.trustProxy);
  response.setHeader(REQUEST_ID_HEADER, requestId);
  const started = performance.now();
  const path = request.url?.split('?')[0] ?? '/';
  response.once('finish', () => {
    const method = request.method && METHODS.has(request.method) ? request.method : 'other';
    const route = observation.routeOf()(path);
    const seconds = (performance.now() - started) / 1000;
    observation.metrics()?.observeRequest({ method, route, status: response.statusCode }, seconds);
    // The access line, for LOG_LEVEL=debug (the proxy in front keeps the full access log). Named
    // explicitly: an emitter's listener does not run within the request's context.
    observation.logger.debug({ requestId, method, route, status: response.statusCode, ms: Math.round(seconds * 1000) }, 'request answered');
  });
  withinRequest({ requestId }, answer);
}

/** The route labels of the app as built: its API routes, its pages, and `exact`, the paths the edge answers itself. */
export function routeLabellerOf(
  appRoutes: ReadonlyArray<{ method: string; path: string }>,
  pages: ServerBuild['routes'] | null,
  exact: readonly string[],
): RouteLabeller {
  const apiRoutes = appRoutes
    .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/') && !route.path.includes('*'))
    .map((route) => route.path);
  return createRouteLabeller({ exact, apiRoutes, pages });
}

/** The METRICS_PORT server, listening on HOST, or null when none is configured. */
export async function openMetricsPort(
  config: Pick<Config, 'host' | 'trustProxy' | 'metrics'>,
  metrics: Metrics,
  logger: Pick<Logger, 'debug' | 'error'>,
): Promise<Server | null> {
  if (config.metrics.port === null) return null;
  // Scrapes are not counted among the site's requests: they are the monitoring's, not visitors'.
  const observation: Observation = { metrics: () => null, routeOf: () => () => METRICS_PATH, trustProxy: config.trustProxy, logger };
  const server = createServer((request, response) =>
    answeredAs(
      request,
      response,
      observation,
      () => void answerMetrics(request, response, { metrics, token: config.metrics.token, where: 'metrics-port', portConfigured: true, logger }),
    ),
  );
  await listen(server, config.metrics.port, config.host, 'METRICS_PORT');
  return server;
}
