import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Database } from './connection.ts';

/**
 * Tells the other instances of the site, over the database, that an admin changed something,
 * so they empty their caches (pages, settings, listing counts) within a second instead of
 * serving the old copy until it expires (docs/decisions/071-change-notices.md).
 *
 * On PostgreSQL a change is a `NOTIFY` on one channel; each instance keeps one connection of its
 * own (not one of the pool's: a pooled connection goes back to the pool and stops listening)
 * that `LISTEN`s, and opens and listens again after the database drops it. While it was gone a
 * notice may have been missed, so coming back counts as a change. SQLite has one instance: no
 * one else to tell.
 */
export type ChangeNotices = {
  /** Says to every other instance that something changed; resolves once the database took it. */
  announce(): Promise<void>;
  /** Whether the listening connection is up (always true where nobody else listens). */
  listening(): boolean;
  stop(): Promise<void>;
};

export const CHANGE_CHANNEL = 'gaadi_changes';
/** What the listening connection calls itself in pg_stat_activity (a test cuts it by this name). */
export const LISTENER_APPLICATION_NAME = 'gaadi-change-notices';

/** How long to wait before opening the listening connection again: short, then backing off to 10 s. */
const RECONNECT_DELAYS_MS = [250, 1_000, 2_000, 5_000, 10_000];

export function startChangeNotices(options: {
  database: Database;
  databaseUrl: string | undefined;
  logger: Pick<Logger, 'warn' | 'info'>;
  onChange: () => void;
}): ChangeNotices {
  const { database, databaseUrl, logger, onChange } = options;
  if (database.dialect !== 'postgres' || !databaseUrl) return { announce: async () => {}, listening: () => true, stop: async () => {} };

  // Our own notices come back to us too; the id tells them apart.
  const instance = randomUUID();
  let client: pg.Client | null = null;
  let connected = false;
  let stopped = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const scheduleReconnect = () => {
    if (stopped || retry) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)]!;
    failures += 1;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    retry.unref();
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString: databaseUrl,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    client = next;
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = null;
      if (connected && !stopped) logger.warn({ err: error }, 'change notices: the listening connection was lost; opening it again');
      connected = false;
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL && message.payload !== instance) onChange();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    // A notice sent while we were not listening is lost: treat coming back as a change.
    if (failures > 0) {
      logger.info('change notices: listening again');
      onChange();
    }
    connected = true;
    failures = 0;
  };

  void connect();

  return {
    async announce() {
      await sql`SELECT pg_notify(${CHANGE_CHANNEL}, ${instance})`.execute(database.db);
    },
    listening: () => connected,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      connected = false;
      await open?.end().catch(() => {});
    },
  };
}
