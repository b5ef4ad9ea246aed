import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { NodeSqliteDialect } from '@better-auth/kysely-adapter/node-sqlite-dialect';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export type Database = {
  db: Kysely<DB>;
  dialect: Dialect;
  close: () => Promise<void>;
  /** PostgreSQL's connection pool as the driver counts it, for /metrics (SQLite has no pool). */
  pool?: PoolUse;
};

/** How the pool is used now, and the connections it lost or could not open since start. */
export type PoolUse = { max: number; totalCount: () => number; idleCount: () => number; waitingCount: () => number; errorCount: () => number };

/** Connections per instance to PostgreSQL. */
const POOL_SIZE = 10;

/**
 * The one place that opens the database. SQLite (a file in DATA_DIR) unless DATABASE_URL
 * points at PostgreSQL.
 */
export function openDatabase(options: { dataDir: string; databaseUrl?: string | undefined; onConnectionLost?: (error: Error) => void }): Database {
  if (options.databaseUrl) {
    // int8 (COUNT(*), bigint sums) arrives as a string by default; our numbers fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
    // A database that does not answer fails the query after 10 s instead of hanging it.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POOL_SIZE, connectionTimeoutMillis: 10_000 });
    let errors = 0;
    // An idle connection that the server drops (a restart, a failover, an idle timeout) is
    // reported here; with no listener Node treats it as an uncaught error and the process exits.
    // The pool has already thrown that connection away and opens a new one for the next query.
    pool.on('error', (error) => {
      errors += 1;
      options.onConnectionLost?.(error);
    });
    // A connection in use has no pool listener: when the database goes away under it, its query
    // fails with the error (the caller answers), and the same error is also emitted on the
    // connection, which without a listener would end the process. Nothing more to do here.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      watchQueries(client);
    });
    // The pool as Kysely uses it, where a connection that cannot be had (refused, timed out) is a lost connection too.
    const watchedPool = {
      Client: pg.Client,
      options: pool.options,
      connect: () =>
        pool.connect().catch((error: unknown) => {
          errors += 1;
          return Promise.reject(markedLoss(error));
        }),
      end: () => pool.end(),
    };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: watchedPool }) });
    const use: PoolUse = {
      max: POOL_SIZE,
      totalCount: () => pool.totalCount,
      idleCount: () => pool.idleCount,
      waitingCount: () => pool.waitingCount,
      errorCount: () => errors,
    };
    return { db, dialect: 'postgres', close: () => db.destroy(), pool: use };
  }

  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'gaadi-bazaar.sqlite');
  const sqlite = new DatabaseSync(file);
  // WAL lets readers run while a write is in progress; busy_timeout waits out a short lock
  // instead of failing the request.
  sqlite.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const db = new Kysely<DB>({ dialect: new NodeSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Errors of PostgreSQL connections lost or refused under a query (a restart, a failover, an
 * administrator ending sessions, a cut network), as the driver reported them: the request they
 * broke is answered 503 with Retry-After (server/http/database-outage.ts), not 500. Kept by
 * identity, so an ECONNRESET of another service (the photo bucket, the payment API) is not one.
 */
const connectionLosses = new WeakSet<object>();

/** Socket errors of a connection that went away or could not be made. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * PostgreSQL's own codes for a session it ended or would not start: admin_shutdown,
 * crash_shutdown, cannot_connect_now, idle_session_timeout, too_many_connections (with class 08,
 * connection_exception).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);

/** Whether a failed query's error says the connection was lost, rather than the query being refused. */
function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08');
  // pg's words for a connection whose socket closed under a query, or that is unusable since.
  return /^Connection terminated|not queryable|^Client was closed/.test(error.message);
}

function markedLoss(error: unknown): unknown {
  if (error instanceof Error) connectionLosses.add(error);
  return error;
}

/** Marks the connection losses among the errors of `client`'s queries (the promise form Kysely uses). */
function watchQueries(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => Promise.reject(isConnectionLoss(error) ? markedLoss(error) : error));
  }) as typeof client.query;
}

/**
 * Whether `error`, or an error it was caused by (better-auth wraps what a query threw), is a
 * database connection lost or refused while a request was answered.
 */
export function isDatabaseConnectionLoss(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    if (connectionLosses.has(current)) return true;
    seen.add(current);
  }
  return false;
}

/**
 * Whether `error` (or what caused it) is a full disk: SQLite's SQLITE_FULL, PostgreSQL's
 * disk_full (53100), or ENOSPC from a file write (a photo, a backup). Like a lost connection it
 * is no fault of the request: the person hears 503 and tries again once there is room, and
 * nothing half-written is kept (SQLite rolls the statement back; files are written then renamed).
 */
export function isStorageFull(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    const { code, errcode } = current as { code?: unknown; errcode?: unknown };
    if (code === 'ENOSPC' || code === '53100' || errcode === 13 || /database or disk is full/i.test(current.message)) return true;
    seen.add(current);
  }
  return false;
}

/**
 * Whether the database answers a trivial query within `timeoutMs`: for readiness, and to tell
 * an outage (answer 503, try again) from a fault of ours (500) when a request failed.
 */
export async function databaseAnswers(database: Database, timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const answered = sql`select 1`.execute(database.db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Distinct statements kept prepared; Kysely's queries are a few hundred, `IN (?, ?…)` lists add some. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The dialect prepares every statement it runs, and parsing and planning a listing's SQL
 * costs about 0.1 ms, some ten times per page (docs/decisions/033-search-at-100k.md): the
 * database it is given keeps the last statements prepared, by their text. A statement is run to
 * completion (`all`/`run`) before the next one starts, so one prepared statement serves every
 * request; SQLite prepares it again by itself when a migration changes the schema.
 */
function withStatementCache(sqlite: DatabaseSync): DatabaseSync {
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    const kept = statements.get(sql);
    if (kept) {
      // Most recently used last, so the first entry is the one to drop.
      statements.delete(sql);
      statements.set(sql, kept);
      return kept;
    }
    const statement = sqlite.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    statements.set(sql, statement);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
