import path from 'node:path';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import * as build from 'virtual:react-router/server-build';
import type { AppServices } from '../services.ts';
import { ConfigError, parseConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createLocalStorage } from '../media/storage.ts';
import { createAuth, migrateAuth } from '../auth/auth.ts';
import { createMailer } from '../notify/mail.ts';
import { createSmsSender } from '../notify/sms.ts';
import { createBotCheck } from '../security/bot-check.ts';
import { securityOptionsOf } from './security.ts';
import { createApp } from './app.ts';
import { removeStaleUploads, uploadTempDir } from './forms.ts';
import { setImageConcurrency } from '../media/images.ts';
import { createPageCache, type PageCache } from './page-cache.ts';
import { createSettingsCache } from '../admin/settings.ts';
import { systemClock } from '../clock.ts';
import { createListingTotals } from '../catalog/listing-totals.ts';
import { createVehicleListing } from '../catalog/listing.ts';
import { ensureDemoAdmin } from '../admin/demo-admin.ts';
import { createLogger, type Logger } from '../logger.ts';
import { checkDatabase, checkDataDir, listen, startupFailureLine } from './startup.ts';
import { startRetentionSchedule } from '../privacy/retention.ts';
import { startReminderSchedule } from '../test-drives/notify.ts';
import { startRentalSchedule } from '../rentals/lifecycle.ts';
import { createRazorpayGateway } from '../payments/razorpay.ts';
import { servedUrl } from './served-url.ts';
import { adminPaths } from '../../app/lib/paths.ts';

/** Compressed pages the page cache may hold (about 16 KB a page with both codings): some 500 pages. */
const PAGE_CACHE_BYTES = 8 * 1024 * 1024;

/** A server that is listening and serving, and how to stop it (requests in flight finish first). */
export type OpenServer = { server: Server; close: () => Promise<void> };

/**
 * Starts the product on an already validated configuration: bind the port, open and migrate
 * the database, load the demo inventory when asked, and serve. Throws when start-up fails,
 * with the port and the database released again. `startServer` below is the process around
 * it; the integration tests run it inside their worker (tests/support/server.ts), with the
 * logger writing where the test reads it.
 */
async function openServer(config: Config, logger: Logger, env: Record<string, string | undefined>): Promise<OpenServer> {
  // The port is bound first, so a port in use is reported before anything is migrated, seeded
  // or printed; until the app is ready the server answers 503.
  let app: ReturnType<typeof createApp> | null = null;
  let pageCache: PageCache | null = null;
  const listener = getRequestListener((request, bindings) =>
    app ? app.fetch(request, bindings) : new Response('Starting up, please try again in a moment.', { status: 503, headers: { 'Retry-After': '5' } }),
  );
  // A page the page cache holds is sent before any routing (server/http/page-cache.ts).
  const server: Server = createServer((request, response) => {
    if (!pageCache?.answer(request, response)) void listener(request, response);
  });
  let database: Database | null = null;
  let retention: ReturnType<typeof startRetentionSchedule> | null = null;
  let reminders: ReturnType<typeof startReminderSchedule> | null = null;
  let rentalJobs: ReturnType<typeof startRentalSchedule> | null = null;
  const stopSchedules = () => Promise.all([retention?.stop(), reminders?.stop(), rentalJobs?.stop()]);
  try {
    await listen(server, config.port, config.host);
    checkDataDir(config.dataDir);
    database = openDatabase(config);
    await checkDatabase(database, config);
    const storage = createLocalStorage(path.join(config.dataDir, 'media'));
    const privateStorage = createLocalStorage(path.join(config.dataDir, 'private'));
    const mailer = createMailer({ config, database, logger });
    const sms = createSmsSender({ config, database, logger });
    const botCheck = createBotCheck({ config, database, logger });
    const auth = createAuth({ config, database, mailer, logger });
    // Caches live as long as this server and take their lifetimes from the configuration (0 in test mode).
    const clock = systemClock;
    const settingsCache = createSettingsCache({ ttlMs: config.settingsCacheSeconds * 1000, clock });
    const listingTotals = createListingTotals({ ttlMs: config.listingTotalsSeconds * 1000, clock });
    pageCache = createPageCache({
      ttlMs: config.pageCacheSeconds * 1000,
      maxBytes: PAGE_CACHE_BYTES,
      clock,
      security: securityOptionsOf(config),
    });
    const listing = createVehicleListing(database, listingTotals);
    const payments = config.razorpay ? createRazorpayGateway(config.razorpay) : null;
    const services: AppServices = { config, database, storage, privateStorage, logger, auth, mailer, sms, botCheck, clock, settingsCache, listingTotals, listing, pageCache, payments };

    const applied = await migrateToLatest(database);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await migrateAuth(auth);
    if (config.seedDemo) {
      // Loaded only when asked: Vite puts the demo inventory and its drawings (thousands of lines)
      // in a chunk of their own instead of the production server's code.
      const { seedDemoInventory } = await import('../db/demo/seed.ts');
      logger.info('demo inventory: loading it if the database is empty (drawing the photos takes about half a minute the first time)');
      const seeded = await seedDemoInventory(services, config.demoImageCache, (done, total) => {
        if (done % 5 === 0 || done === total) logger.info(`drawing demo photos: ${done} of ${total} cars`);
      });
      if (seeded) logger.info(seeded, 'demo inventory loaded');
    }
    const demoAdmin = await ensureDemoAdmin(services, config.demoAdminPassword);
    if (demoAdmin) {
      logger.info(
        { email: demoAdmin.email, ...(demoAdmin.generatedPassword ? { password: demoAdmin.generatedPassword } : {}) },
        demoAdmin.generatedPassword
          ? `Demo admin: sign in at ${adminPaths.login} as ${demoAdmin.email} with password ${demoAdmin.generatedPassword}`
          : `Demo admin: sign in at ${adminPaths.login} as ${demoAdmin.email}`,
      );
    }
    // The privacy page's retention periods, enforced on a schedule (docs/decisions/013).
    retention = startRetentionSchedule(services);
    // Test-drive reminders an hour before (server/test-drives/notify.ts); every few minutes.
    reminders = startReminderSchedule(services);
    // Lapsed rental holds expire and day-before reminders go out (server/rentals/lifecycle.ts).
    rentalJobs = startRentalSchedule(services);
    setImageConcurrency(config.imageConcurrency);
    // Upload folders a crash left behind; in the background, the site need not wait for it.
    void removeStaleUploads(uploadTempDir(config.dataDir)).catch((error: unknown) => logger.warn({ err: error }, 'could not remove stale uploads'));
    app = createApp(services, build);
  } catch (error) {
    await stopSchedules();
    await new Promise((resolve) => server.close(resolve));
    await database?.close().catch(() => {});
    throw error;
  }
  const openedDatabase = database;
  logger.info({ port: config.port, database: openedDatabase.dialect, mode: config.mode }, `${config.siteName} is serving on ${servedUrl(env.SITE_ORIGIN, config.host, config.port)}`);

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= new Promise<void>((resolve, reject) => {
      // The database closes after the last request and the last run of a scheduled job.
      const schedulesStopped = stopSchedules();
      server.close(() => {
        schedulesStopped
          .then(() => openedDatabase.close())
          .then(() => {
            logger.info('stopped');
            resolve();
          }, reject);
      });
      // Idle keep-alive connections would hold close() open until they time out.
      server.closeIdleConnections();
    }));
  return { server, close };
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
export async function startServer(env: Record<string, string | undefined> = process.env) {
  let config;
  try {
    config = parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  let opened: OpenServer;
  try {
    opened = await openServer(config, logger, env);
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
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    void opened.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return opened.server;
}
