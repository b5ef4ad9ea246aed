import { createContext } from 'react-router';
import type { Config } from './config.ts';
import type { Database } from './db/connection.ts';
import type { Storage } from './media/storage.ts';
import type { Logger } from './logger.ts';
import type { Auth } from './auth/auth.ts';
import type { Mailer } from './notify/mail.ts';
import type { SmsSender } from './notify/sms.ts';
import type { BotCheck } from './security/bot-check.ts';
import type { Clock } from './clock.ts';
import type { SettingsCache } from './admin/settings.ts';
import type { PageCache } from './http/page-cache.ts';
import type { ListingTotals } from './catalog/listing-totals.ts';
import type { VehicleListing } from './catalog/listing.ts';
import type { PaymentGateway } from './payments/gateway.ts';
import type { PaymentSandbox } from './payments/sandbox.ts';
import type { ChangeNotices } from './db/change-notices.ts';
import type { JobSignal } from './jobs/worker.ts';
import type { Metrics } from './observability/metrics.ts';

/**
 * What the server hands every loader and action: the database and the other services are
 * created once at start (server/http/server-entry.ts), never imported as globals, so tests
 * and the JSON API use exactly the same instances.
 */
export type AppServices = {
  config: Config;
  database: Database;
  storage: Storage;
  /**
   * Files nobody may fetch by URL (driving-licence photos): DATA_DIR/private, outside the
   * /media/ root. Served only by routes that check who is asking.
   */
  privateStorage: Storage;
  logger: Logger;
  auth: Auth;
  mailer: Mailer;
  sms: SmsSender;
  botCheck: BotCheck;
  /** The time for rules (form-token ages, cache lifetimes): Date.now in production. */
  clock: Clock;
  /** The admin settings, kept `SETTINGS_CACHE_SECONDS` (0 in test mode). */
  settingsCache: SettingsCache;
  /** Listings' counts of matches, kept `LISTING_TOTALS_SECONDS` (0 in test mode). */
  listingTotals: ListingTotals;
  /** The listing of cars for sale, its queries chosen for the database (SQLite or PostgreSQL) once at start. */
  listing: VehicleListing;
  /** Public pages for signed-out visitors, kept `PAGE_CACHE_SECONDS` (0 in test mode). */
  pageCache: PageCache;
  /** Online payment for rental bookings (Razorpay), or null when no keys are set: pay at pickup only. */
  payments: PaymentGateway | null;
  /** The demo's payment sandbox that `payments` talks to (PAYMENTS=sandbox, decision 095), or null. */
  paymentSandbox: PaymentSandbox | null;
  /** Tells the other instances on this database to empty their caches after an admin's change. */
  changeNotices: ChangeNotices;
  /** Wakes this process's job worker after a transaction that enqueued a job committed (server/jobs/worker.ts). */
  jobs: JobSignal;
  /** What /metrics reports of this instance (decision 111): the senders, the page cache and the payment adapter count into it. */
  metrics: Metrics;
};

export type RequestContext = AppServices & {
  /** Per-request nonce that lets our own inline scripts pass the Content-Security-Policy. */
  nonce: string;
  /** The visitor's address, for rate limits (from X-Forwarded-For only behind a trusted proxy). */
  clientAddress: string;
  /** The TCP peer's address, never a header: who may see the demo outbox (loopback only). */
  socketAddress: string;
};

/**
 * The key under which the server (server/http/app.ts) puts each request's services. It is
 * created here rather than in app/ because the server fills it, and server code imports
 * nothing from app/ but app/lib (decision 015); route modules read it through app/context.ts.
 */
export const appContext = createContext<RequestContext>();
