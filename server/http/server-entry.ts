import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ServerBuild } from 'react-router';
import { getRequestListener } from '@hono/node-server';
import * as build from 'virtual:react-router/server-build';
import type { AppServices } from '../services.ts';
import { parseConfig, type Config } from '../config.ts';
import { databaseAnswers, openDatabase, type Database } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { openStorage } from '../media/open-storage.ts';
import { createAuth, migrateAuth } from '../auth/auth.ts';
import { createMailer } from '../notify/mail.ts';
import { createSmsSender } from '../notify/sms.ts';
import { createBotCheck } from '../security/bot-check.ts';
import { securityHeadersOutsideApp, securityOptionsOf, type SecurityOptions } from './security.ts';
import { createApp, LIVENESS_PATH } from './app.ts';
import { removeStaleUploads, uploadTempDir } from './forms.ts';
import { setImageConcurrency } from '../media/images.ts';
import { createPageCache, type PageCache } from './page-cache.ts';
import { createSettingsCache } from '../admin/settings.ts';
import { clockStartingAt, systemClock } from '../clock.ts';
import { createListingTotals } from '../catalog/listing-totals.ts';
import { createCatalogueIndex } from '../catalog/catalogue-index.ts';
import { createVehicleListing } from '../catalog/listing.ts';
import { ensureDemoAdmin } from '../admin/demo-admin.ts';
import { createLogger, type Logger } from '../logger.ts';
import { checkDatabase, checkDataDir, configOrExit, keptAuthSecret, listen, madeAuthSecretLine, startupFailureLine } from './startup.ts';
import { createJobSignal, startWorker, type Worker } from '../jobs/worker.ts';
import { startScheduler, type Scheduler } from '../jobs/scheduler.ts';
import { appJobs } from '../jobs/registry.ts';
import { createRazorpayGateway } from '../payments/razorpay.ts';
import { createPaymentSandbox, sandboxRazorpayConfig } from '../payments/sandbox.ts';
import { servedUrl } from './served-url.ts';
import { requestUrlOnSite } from './request-url.ts';
import { adminPaths } from '../../app/lib/paths.ts';
import { startChangeNotices } from '../db/change-notices.ts';
import { warmUp } from './warm-up.ts';
import { createMetrics, type Metrics } from '../observability/metrics.ts';
import { countedGateway } from '../observability/payment-counts.ts';
import { answerMetrics, METRICS_PATH } from './metrics-endpoint.ts';
import { answeredAs, openMetricsPort, routeLabellerOf } from './observed-requests.ts';
import type { RouteLabeller } from './route-label.ts';

/** Compressed pages the page cache may hold (about 16 KB a page with both codings): some 500 pages. */
const PAGE_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Readiness for a load balancer: 200 only while this instance has started (migrated, seeded),
 * is not shutting down and its database and photo storage answer within a second; 503
 * otherwise. `/healthz` is liveness only (server/http/app.ts): it asks nothing of the database. Answered before routing, so maintenance mode, the page
 * cache and the rate limits never stand in its way.
 */
export const READINESS_PATH = '/readyz';
const READINESS_TIMEOUT_MS = 1000;

async function answerReadiness(response: ServerResponse, services: Pick<AppServices, 'database' | 'storage'> | null, security: SecurityOptions): Promise<void> {
  // The photo storage too: an instance whose bucket does not answer cannot take an upload.
  const ready =
    services !== null &&
    (await Promise.all([databaseAnswers(services.database, READINESS_TIMEOUT_MS), services.storage.answers(READINESS_TIMEOUT_MS)])).every(Boolean);
  // The security headers every other answer carries (security.ts), though no route made this one.
  response.writeHead(ready ? 200 : 503, { ...securityHeadersOutsideApp(security), 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify({ status: ready ? 'ready' : 'not ready' }));
}

/**
 * What the server answers while it migrates and starts: alive (liveness: a probe must not have a
 * long migration restarted), not ready (/readyz, above), and 503 for everything else.
 */
function startingUp(request: Request): Response {
  if (new URL(request.url).pathname === LIVENESS_PATH)
    return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } });
  return new Response('Starting up, please try again in a moment.', { status: 503, headers: { 'Retry-After': '5' } });
}

/**
 * The services every request and every job uses, on an opened database: migrated, with
 * better-auth's tables. The server and `npm run worker` both start from here.
 */
async function openServices(config: Config, logger: Logger, database: Database): Promise<AppServices> {
  const { storage, privateStorage } = openStorage(config, logger);
  const clock = config.testClockStartMs === null ? systemClock : clockStartingAt(config.testClockStartMs);
  const metrics = createMetrics({ database, clock });
  const mailer = createMailer({ config, database, logger, clock, counts: metrics.messages });
  const sms = createSmsSender({ config, database, logger, clock, counts: metrics.messages });
  const botCheck = createBotCheck({ config, database, logger, clock });
  const jobs = createJobSignal();
  const auth = createAuth({ config, database, mailer, logger, clock, jobs });
  // Caches live as long as this server and take their lifetimes from the configuration (0 in test mode).
  const settingsCache = createSettingsCache({ ttlMs: config.settingsCacheSeconds * 1000, clock });
  const listingTotals = createListingTotals({ ttlMs: config.listingTotalsSeconds * 1000, clock });
  const pageCache = createPageCache({
    ttlMs: config.pageCacheSeconds * 1000,
    maxBytes: PAGE_CACHE_BYTES,
    clock,
    security: securityOptionsOf(config),
    onLookup: metrics.pageCacheLookup,
  });
  const catalogueIndex = config.listingIndex === 'memory' ? createCatalogueIndex(database) : undefined;
  const listing = createVehicleListing(database, listingTotals, catalogueIndex);
  const payments = config.razorpay ? countedGateway(createRazorpayGateway(config.razorpay), metrics) : null;
  // The demo's payment sandbox answers for Razorpay on this server (decision 095); the adapter above talks to it.
  const paymentSandbox = config.paymentSandbox && config.razorpay ? createPaymentSandbox(config.razorpay, clock, logger) : null;
  // Another instance's admin changed something: what this one kept may be stale (decision 071).
  const changeNotices = startChangeNotices({
    database,
    databaseUrl: config.databaseUrl,
    logger,
    onChange: () => {
      pageCache.clear();
      listingTotals.clear();
      settingsCache.clear();
    },
  });
  const services: AppServices = {
    config,
    database,
    storage,
    privateStorage,
    logger,
    auth,
    mailer,
    sms,
    botCheck,
    clock,
    settingsCache,
    listingTotals,
    listing,
    pageCache,
    payments,
    paymentSandbox,
    jobs,
    changeNotices,
    metrics,
  };

  const applied = await migrateToLatest(database);
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  await migrateAuth(auth);
  // The first visitor should not wait for the cars to be read (a third of a second at 100,000).
  await catalogueIndex
    ?.warm()
    .catch((error: unknown) => logger.warn({ err: error }, 'listing index: the cars could not be read at start; the first listing reads them'));
  return services;
}

/** This server as it calls itself: the address it is bound to, loopback for "every address". */
function ownUrl(server: Server): string {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The server is not listening on a TCP port.');
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The configuration with the installation's secret (startup.ts keptAuthSecret), saying once when it was made. */
function withKeptAuthSecret(config: Config, logger: Logger): Config {
  const kept = keptAuthSecret(config);
  if (kept.made) logger.warn({ file: kept.made }, madeAuthSecretLine(kept.made));
  return kept.config;
}

/** The scheduler (every instance) and, unless WORKER=off, the worker; `stop` waits for the job in hand. */
type Background = { stop: () => Promise<void> };

function startBackground(services: AppServices, options: { worker: boolean }): Background {
  const { handlers, schedules } = appJobs(services);
  const { database, logger, clock, jobs, config } = services;
  const scheduler: Scheduler = startScheduler({ database, clock, logger, signal: jobs, schedules });
  const worker: Worker | null = options.worker
    ? startWorker({
        database,
        logger,
        clock,
        handlers,
        signal: jobs,
        pollMs: config.jobs.pollMs,
        leaseMs: config.jobs.leaseMs,
        backoffMs: config.jobs.backoffMs,
      })
    : null;
  return { stop: async () => void (await Promise.all([scheduler.stop(), worker?.stop()])) };
}

/**
 * `npm run worker`: the queue's worker and the scheduler as a process of their own, beside app
 * instances started with WORKER=off. Stops on SIGTERM/SIGINT after the job in hand.
 */
export async function startWorkerProcess(env: Record<string, string | undefined> = process.env) {
  let config = configOrExit(env);
  if (config.paymentSandbox) {
    // Its refunds go to the sandbox inside the demo server, which this process cannot reach.
    console.error(
      'PAYMENTS: the payment sandbox lives inside the demo server, which runs its own worker: start the server alone (WORKER on), not `npm run worker`',
    );
    process.exit(1);
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  let database: Database | null = null;
  let background: Background;
  try {
    checkDataDir(config.dataDir);
    config = withKeptAuthSecret(config, logger);
    database = openDatabase({
      ...config,
      onConnectionLost: (error) => logger.warn({ err: error }, 'database: an idle connection was lost; the next query opens a new one'),
    });
    await checkDatabase(database, config);
    const services = await openServices(config, logger, database);
    // Its own /metrics when METRICS_PORT is set (another port than an app instance's on the same machine): mails and SMS sent, the queue.
    await openMetricsPort(config, services.metrics, logger);
    background = startBackground(services, { worker: true });
  } catch (error) {
    logger.debug({ err: error }, 'start-up failed');
    console.error(startupFailureLine(error));
    await database?.close().catch(() => {});
    process.exit(1);
  }
  logger.info({ database: database.dialect }, 'worker: running queued jobs and the schedules');
  const opened = database;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker: shutting down after the job in hand');
    void background
      .stop()
      .then(() => opened.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * A server that is listening and serving, and how to stop it (requests in flight and the job in
 * hand finish first). `drain` only turns /readyz to 503, so a load balancer stops sending before
 * the port closes.
 */
export type OpenServer = { server: Server; drain: () => void; close: () => Promise<void> };

/**
 * What `npm run dev` (scripts/dev.mjs) puts around the product: the HTTP server Vite's hot-reload
 * socket already listens on; Vite's middlewares, which answer Vite's own requests (modules,
 * public/) and pass the rest on; and the pages with the app that serves them, taken from Vite's
 * module graph on every request. After an edit Vite evaluates that graph anew, with a new
 * `appContext` key the pages read, so the app that fills it is made anew with them.
 * Everything else (database, services, schedules) is the server `npm start` runs.
 */
export type DevelopmentPages = {
  server: Server;
  middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
  load: () => Promise<{ build: ServerBuild; createApp: typeof createApp }>;
};

/** Serves with the app of the pages Vite has now, made again when an edit gave it new ones. */
function developmentApp(development: DevelopmentPages, services: AppServices): Pick<ReturnType<typeof createApp>, 'fetch'> {
  let current: { build: ServerBuild; app: ReturnType<typeof createApp> } | null = null;
  return {
    fetch: async (request, ...rest) => {
      const { build, createApp: create } = await development.load();
      if (current?.build !== build) current = { build, app: create(services, build, 'development') };
      return current.app.fetch(request, ...rest);
    },
  };
}

/**
 * Starts the product on an already validated configuration: bind the port, open and migrate
 * the database, load the demo inventory when asked, and serve. Throws when start-up fails,
 * with the port and the database released again. `startServer` below is the process around
 * it; the integration tests run it inside their worker (tests/support/server.ts), with the
 * logger writing where the test reads it.
 */

async function openServer(configFromEnv: Config, logger: Logger, env: Record<string, string | undefined>, development?: DevelopmentPages): Promise<OpenServer> {
  let config = configFromEnv;
  // The port is bound first, so a port in use is reported before anything is migrated, seeded
  // or printed; until the app is ready the server answers 503.
  let app: Pick<ReturnType<typeof createApp>, 'fetch'> | null = null;
  let pageCache: PageCache | null = null;
  const listener = getRequestListener((request, bindings) => (app ? app.fetch(request, bindings) : startingUp(request)));
  // The app sees each request at the site's own origin, not at the socket's http:// (request-url.ts).
  const urlOnSite = requestUrlOnSite(config);
  const toApp = (request: IncomingMessage, response: ServerResponse) => {
    request.url = urlOnSite(request.url ?? '/', request.headers.host);
    void listener(request, response);
  };
  // Set the moment shutdown begins: a load balancer that asks /readyz stops sending requests.
  let draining = false;
  // Set once the app serves and its first pages were rendered once (warm-up.ts): until then /readyz says 503.
  let warmedUp = false;
  // Set once the services are open; until then requests are answered but not counted.
  let metrics: Metrics | null = null;
  // Made with the app, from its routes (route-label.ts); until then every request is `other`.
  let routeOf: RouteLabeller = () => 'other';
  const observation = { metrics: () => metrics, routeOf: () => routeOf, trustProxy: config.trustProxy, logger };
  // A page the page cache holds is sent before any routing (server/http/page-cache.ts).
  const server: Server = development?.server ?? createServer();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url?.split('?')[0] ?? '/';
    answeredAs(request, response, observation, () => {
      if (path === READINESS_PATH) void answerReadiness(response, draining || !warmedUp ? null : services, securityOptionsOf(config));
      else if (path === METRICS_PATH)
        void answerMetrics(request, response, { metrics, token: config.metrics.token, where: 'site', portConfigured: config.metrics.port !== null, logger });
      else if (development) development.middleware(request, response, () => toApp(request, response));
      else if (!pageCache?.answer(request, response)) toApp(request, response);
    });
  });
  // /metrics on a port of its own (METRICS_PORT), bound beside the site's once the services are open.
  let metricsServer: Server | null = null;
  let database: Database | null = null;
  let background: Background | null = null;
  let services: AppServices | null = null;
  try {
    await listen(server, config.port, config.host);
    checkDataDir(config.dataDir);
    config = withKeptAuthSecret(config, logger);
    // The sandbox's keys, made now, and its API at the address this server just bound (decision 095).
    if (config.paymentSandbox) config = { ...config, razorpay: sandboxRazorpayConfig(ownUrl(server)) };
    // The message and code only: pg hangs the whole connection (settings, buffers) on the error.
    database = openDatabase({
      ...config,
      onConnectionLost: (error) =>
        logger.warn(
          { err: { message: error.message, code: (error as { code?: string }).code } },
          'database: an idle connection was lost; the next query opens a new one',
        ),
    });
    await checkDatabase(database, config);
    services = await openServices(config, logger, database);
    pageCache = services.pageCache;
    metrics = services.metrics;
    metricsServer = await openMetricsPort(config, services.metrics, logger);
    if (config.seedDemo) {
      // Loaded only when asked: Vite puts the demo inventory and its drawings (thousands of lines)
      // in a chunk of their own instead of the production server's code.
      const { seedDemoInventory } = await import('../db/demo/seed.ts');
      logger.info('demo inventory: loading it if the database is empty (drawing the photos takes about half a minute the first time)');
      const seeded = await seedDemoInventory(services, config.demoImageCache, (done, total) => {
        if (done % 5 === 0 || done === total) logger.info(`drawing demo photos: ${done} of ${total} cars`);
      });
      if (seeded) logger.info(seeded, 'demo inventory loaded');
      // A week of test drives, bookings and leads around today, only for `npm run demo` and only
      // on the database the inventory was just loaded into: the test suite books the same cars
      // at chosen times and counts what it booked (server/db/demo/week.ts).
      if (seeded && config.mode === 'demo') {
        const { seedDemoWeek } = await import('../db/demo/week.ts');
        logger.info(await seedDemoWeek(services), 'demo week of test drives, rental bookings, leads and sales loaded');
      }
    }
    const demoAdmin = await ensureDemoAdmin(services, config.demoAdminPassword);
    if (demoAdmin) {
      // To the terminal of the person running the demo, not into the log: logs never hold an address or a password (decision 111).
      console.log(
        demoAdmin.generatedPassword
          ? `Demo admin: sign in at ${adminPaths.login} as ${demoAdmin.email} with password ${demoAdmin.generatedPassword}`
          : `Demo admin: sign in at ${adminPaths.login} as ${demoAdmin.email}`,
      );
    }
    // Mail, SMS and the recurring work (retention purge, reminders, rental jobs), from the queue (decisions 069, 070).
    background = startBackground(services, { worker: config.jobs.worker });
    setImageConcurrency(config.imageConcurrency);
    // Upload folders a crash left behind; in the background, the site need not wait for it.
    void removeStaleUploads(uploadTempDir(config.dataDir), services.clock.now()).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not remove stale uploads'),
    );
    const created = development ? null : createApp(services, build);
    app = created ?? developmentApp(development!, services);
    routeOf = routeLabellerOf(created?.routes ?? [], created ? build.routes : null, [LIVENESS_PATH, READINESS_PATH, METRICS_PATH]);
    // Vite compiles each page as it is first asked for; warming it would only slow `npm run dev` down.
    if (!development) await warmUp(server, logger);
    warmedUp = true;
  } catch (error) {
    await Promise.all([background?.stop(), services?.changeNotices.stop()]);
    await Promise.all([new Promise((resolve) => server.close(resolve)), metricsServer && new Promise((resolve) => metricsServer!.close(resolve))]);
    await database?.close().catch(() => {});
    throw error;
  }
  const openedDatabase = database;
  const opened = services;
  const openedMetricsServer = metricsServer;
  logger.info(
    { port: config.port, database: openedDatabase.dialect, mode: config.mode },
    `${config.siteName} is serving on ${servedUrl(env.SITE_ORIGIN, config.host, config.port)}`,
  );
  if (config.paymentSandbox)
    logger.info('Payments go through the payment sandbox (PAYMENTS=sandbox): no money moves; Checkout is a sheet with Pay, Fail and Close');

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= new Promise<void>((resolve, reject) => {
      draining = true;
      // The database closes after the last request and the job in hand (SIGTERM lets it finish).
      const backgroundStopped = Promise.all([background?.stop(), opened.changeNotices.stop()]);
      openedMetricsServer?.close();
      openedMetricsServer?.closeIdleConnections();
      server.close(() => {
        Promise.resolve(backgroundStopped)
          .then(() => openedDatabase.close())
          .then(() => {
            logger.info('stopped');
            resolve();
          }, reject);
      });
      // Idle keep-alive connections would hold close() open until they time out.
      server.closeIdleConnections();
    }));
  return {
    server,
    drain: () => {
      draining = true;
    },
    close,
  };
}

/**
 * The server of `env` with its log written to `logDestination` instead of standard output: the
 * integration tests run it inside their worker this way and read the records they assert on
 * and the errors that fail a test (tests/support/server.ts). Throws on a bad setting or a
 * failed start.
 */
export async function openServerWithLog(env: Record<string, string | undefined>, logDestination: { write: (line: string) => void }): Promise<OpenServer> {
  const config = parseConfig(env);
  return openServer(config, createLogger(config.logLevel, config.logFormat, logDestination), env);
}

/**
 * Starts the product as a process: validate configuration, open the server (above), then
 * serve until SIGTERM/SIGINT, finishing requests in flight. A bad setting or a failed start
 * ends the process with code 1 and one line an operator can act on, never a stack trace.
 */
export async function startServer(env: Record<string, string | undefined> = process.env, development?: DevelopmentPages) {
  const config = configOrExit(env);
  const logger = createLogger(config.logLevel, config.logFormat);
  let opened: OpenServer;
  try {
    opened = await openServer(config, logger, env, development);
  } catch (error) {
    // The details go to the log.
    logger.debug({ err: error }, 'start-up failed');
    console.error(startupFailureLine(error));
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainDelayMs: config.drainDelayMs }, 'shutting down: not ready from now, then finishing requests in flight and the job in hand');
    opened.drain();
    // The load balancer's health checks see 503 during the delay and stop sending; then the port closes.
    const closeTimer = setTimeout(() => {
      const forceExit = setTimeout(() => process.exit(1), 10_000);
      forceExit.unref();
      void opened.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }, config.drainDelayMs);
    closeTimer.unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return opened.server;
}

/**
 * `npm run migrate-to-postgres` (scripts/migrate-to-postgres.mjs): loaded only when run, so the
 * server's own start does not carry it. Resolves with whether the copy matched.
 */
export async function migrateToPostgres(argv: string[], env: Record<string, string | undefined>, print: (line: string) => void): Promise<boolean> {
  const command = await import('../db/migrate-to-postgres.ts');
  return command.migrateToPostgres(argv, env, print);
}

/** `npm run backup` (scripts/backup.mjs), loaded only when run. Resolves with whether the backup was taken. */
export async function backup(env: Record<string, string | undefined>, print: (line: string) => void): Promise<boolean> {
  const command = await import('../backups/commands.ts');
  return command.backupCommand(env, print);
}

/** `npm run restore` (scripts/restore.mjs), loaded only when run. Resolves with whether the restore matched its manifest. */
export async function restore(argv: string[], env: Record<string, string | undefined>, print: (line: string) => void): Promise<boolean> {
  const command = await import('../backups/commands.ts');
  return command.restoreCommand(argv, env, print);
}
