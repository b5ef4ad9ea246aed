import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

/**
 * Starts the real, built server on a free port with its own data directory, and for PostgreSQL
 * its own copy of the seeded template database, dropped again on stop.
 *
 * By default the built server runs inside the test worker: the worker imports
 * build/server/index.js (the same bundle `node server.js` runs) and opens it on its own HTTP
 * listener, real SQLite file and real PostgreSQL database, with its log written to this
 * harness instead of standard output. That saves a Node process, its start-up and its module
 * loading per test file (docs/decisions/034-suite-speed.md). `childProcess: true` starts
 * `node server.js` as before, for tests of the process itself (its memory through `pid`, its
 * exit); the shared server of each project (global-server.ts) is one too.
 *
 * The server's error log is read: every line it logs at pino level error or fatal (>= 50)
 * fails the test that was running (tests/support/error-log-check.ts, a setup file of the
 * integration and browser projects), unless the test declared it first:
 *
 *     server.expectErrorLog(/the new-lead email could not be sent/);
 *
 * A declaration made inside a test holds until that test ends; one made in beforeAll (outside
 * any test) holds for the server's whole life. The shared server of a project
 * (global-server.ts) allows no error at all: a test that provokes one starts its own server.
 */

export type Dialect = 'sqlite' | 'postgres';

export type TestServer = {
  url: string;
  dialect: Dialect;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * The server process's id (to read its memory from /proc). Only a server started with
   * `childProcess: true` has one of its own; reading it on another throws.
   */
  pid: number;
  /** Everything the server printed (or logged), for assertions on its logs and for debugging failures. */
  output: () => string;
  /** Resolves once the server has printed a line matching `pattern` (rejects after `timeoutMs`). */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
  /** A child process only: ends it at once with `signal` (SIGKILL: a crash), keeping its data; `stop` then removes the data. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
  /** Declares an error log line the test provokes on purpose (see the comment at the top). */
  expectErrorLog: (pattern: RegExp) => void;
  /** Error log lines not declared with expectErrorLog, each returned once. */
  takeUnexpectedErrorLogs: () => string[];
  stop: () => Promise<void>;
  /** Stops the server and leaves its data directory and database for the caller (who removes them). */
  stopKeepingData: () => Promise<void>;
};

/** pino's numeric level for `error`; `fatal` is 60. */
const PINO_ERROR = 50;

/** Servers started by this test file and still running, for the error-log check after each test. */
export const runningServers = new Set<TestServer>();
/** Unexpected error lines of servers that stopped before the check could read them. */
export const errorLogsOfStoppedServers: string[] = [];
/** Whether a test (not a beforeAll/afterAll hook) is running: its declarations end with it. */
let inTest = false;
export function beginTest() {
  inTest = true;
}
export function endTest() {
  inTest = false;
  for (const server of runningServers) (server as TestServer & { forgetTestPatterns?: () => void }).forgetTestPatterns?.();
}

/** The error-level lines of pino JSON output (lines that are not JSON are not log records). */
export function errorLogLines(text: string): string[] {
  return text.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      const record = JSON.parse(line) as { level?: unknown };
      return typeof record.level === 'number' && record.level >= PINO_ERROR;
    } catch {
      return false;
    }
  });
}

const root = path.resolve(import.meta.dirname, '../..');
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether PostgreSQL answers. Under CI an unreachable server is a failure, never a skip. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI but ${POSTGRES_ADMIN_URL} did not answer: ${String(error)}`, { cause: error });
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function withAdminClient<T>(task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database, or a copy of `template` (a database nobody is connected to). */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `gaadi_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await withAdminClient(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        return;
      } catch (error) {
        // Two copies of one template started at the same instant can collide; the next try passes.
        if (!template || attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    drop: async () => {
      // Wait for the pool's connections to close first: a forced drop that kills them surfaces
      // as unhandled errors in the process that owned them.
      await withAdminClient(async (client) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          const { rows } = await client.query<{ count: string }>('SELECT count(*) AS count FROM pg_stat_activity WHERE datname = $1', [name]);
          if (Number(rows[0]?.count) === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * A migrated database with the demo inventory, and its data directory (photos; the SQLite
 * file), made once per dialect per run by the projects' global setup (global-server.ts).
 * A server started with `seed: true` begins from a copy of it instead of migrating and
 * seeding again: a file copy for SQLite, `CREATE DATABASE … TEMPLATE` for PostgreSQL.
 * Handed to the test workers in the environment, which they inherit.
 */
export type SeededTemplate = { dataDir: string; postgresDatabase: string | null };
const templateVariable = (dialect: Dialect) => `GAADI_TEST_SEEDED_TEMPLATE_${dialect.toUpperCase()}`;

function seededTemplate(dialect: Dialect): SeededTemplate | null {
  const value = process.env[templateVariable(dialect)];
  return value ? (JSON.parse(value) as SeededTemplate) : null;
}

/**
 * Makes the seeded template of `dialect` unless this run has one already, and announces it in
 * the environment; `remove` (for the global teardown) is null when it was made before.
 */
export async function ensureSeededTemplate(dialect: Dialect): Promise<{ remove: (() => Promise<void>) | null }> {
  if (seededTemplate(dialect)) return { remove: null };
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-template-'));
  const database = dialect === 'postgres' ? await createPostgresDatabase() : null;
  const server = await launchServer({ dialect, seed: true }, dataDir, database);
  // Stopped cleanly, so the SQLite file is whole and nobody is connected to the PostgreSQL one.
  await server.stopKeepingData();
  const errors = errorLogLines(server.output());
  if (errors.length > 0) throw new Error(`Seeding the ${dialect} template database logged errors:\n${errors.join('\n')}`);
  const template: SeededTemplate = { dataDir, postgresDatabase: database?.name ?? null };
  process.env[templateVariable(dialect)] = JSON.stringify(template);
  return {
    remove: async () => {
      delete process.env[templateVariable(dialect)];
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestServerOptions = {
  dialect: Dialect;
  seed?: boolean;
  env?: Record<string, string>;
  /** Run `node server.js` as a process of its own instead of inside the test worker. */
  childProcess?: boolean;
  /**
   * A PostgreSQL database this server runs on instead of a copy of its own: another server's (a
   * second instance of one site) or one the test made (reached through a proxy it controls).
   * Whoever made it drops it.
   */
  databaseUrl?: string | undefined;
  /**
   * Start on another server's data directory and database (a restart after a crash, a second
   * instance): that server's `stop` removes them, this one's leaves them. Implies childProcess.
   */
  sameDataAs?: TestServer;
  /** The data directory to use (an empty folder, e.g. on a small disk of the test's own); removed when the server stops. */
  dataDir?: string;
};

export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  if (options.sameDataAs) {
    const other = options.sameDataAs;
    const shared = other.databaseUrl ? { url: other.databaseUrl, drop: async () => {} } : null;
    const server = await launchServer(options, other.dataDir, shared);
    return { ...server, stop: server.stopKeepingData };
  }
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'gaadi-test-')));
  const template = options.seed === false ? null : seededTemplate(options.dialect);
  if (template) await cp(template.dataDir, dataDir, { recursive: true });
  const shared = options.databaseUrl;
  const database = shared
    ? { url: shared, drop: async () => {} }
    : options.dialect === 'postgres'
      ? await createPostgresDatabase(template?.postgresDatabase ?? undefined)
      : null;
  return options.childProcess ? launchServer(options, dataDir, database) : openServerInWorker(options, dataDir, database);
}

/**
 * What every server started for a test or a benchmark runs with: test mode on loopback at `port`,
 * its own data directory, the demo inventory unless `seed` is false, and only warnings logged.
 */
export function testModeEnv(port: number, dataDir: string, seed = true): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    APP_MODE: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SITE_ORIGIN: `http://127.0.0.1:${port}`,
    SEED_DEMO: String(seed),
    LOG_LEVEL: 'warn',
  };
}

/** The server's environment, as `node server.js` would get it. */
function serverEnv(options: TestServerOptions, port: number, dataDir: string, database: { url: string } | null): Record<string, string> {
  return {
    ...testModeEnv(port, dataDir, options.seed !== false),
    // JSON even in demo mode: the error-log check and waitForOutput read the records.
    LOG_FORMAT: 'json',
    // Drawn demo photos are made once per machine and copied for every test database.
    DEMO_IMAGE_CACHE: path.join(tmpdir(), 'gaadi-demo-image-cache'),
    // better-auth's scrypt costs ~100 ms a password; the suite hashes hundreds (decision 016).
    PASSWORD_HASHING: 'fast-for-tests',
    // The bot check's proof of work costs 30–130 ms a form at full strength; the suite solves hundreds (decision 034).
    BOT_CHECK_WORK: 'light-for-tests',
    // A demo-mode server would take its first daily backup five seconds after it starts (the
    // demo's 21 MB of photos, encrypted), loading the machine under whatever the test is doing.
    // The backup tests and the restore drill take theirs when they mean to.
    BACKUP_AT: 'off',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  };
}

/**
 * What a server printed, read by `output`, `waitForOutput` and the error-log check: the same
 * for a child process (its stdout and stderr) and for a server in the worker (its log).
 */
function outputLog() {
  let output = '';
  const outputListeners = new Set<() => void>();
  const lifetimePatterns: RegExp[] = [];
  let testPatterns: RegExp[] = [];
  let checkedUpTo = 0;
  return {
    append: (text: string) => {
      output += text;
      for (const listener of outputListeners) listener();
    },
    output: () => output,
    takeUnexpectedErrorLogs: () => {
      // Only whole lines: a line still being written is read at the next check.
      const end = output.lastIndexOf('\n') + 1;
      if (end <= checkedUpTo) return [];
      const fresh = output.slice(checkedUpTo, end);
      checkedUpTo = end;
      const allowed = [...lifetimePatterns, ...testPatterns];
      return errorLogLines(fresh).filter((line) => !allowed.some((pattern) => pattern.test(line)));
    },
    waitForOutput: (pattern: RegExp, timeoutMs = 15_000) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          // Whole lines only: a child's long line can arrive in pieces, and the error-log check
          // reads a line once it is whole (so a declaration must outlive the wait).
          const line = output
            .slice(0, output.lastIndexOf('\n') + 1)
            .split('\n')
            .find((candidate) => pattern.test(candidate));
          if (line === undefined) return false;
          outputListeners.delete(listener);
          clearTimeout(timer);
          resolve(line);
          return true;
        };
        const listener = () => void check();
        const timer = setTimeout(() => {
          outputListeners.delete(listener);
          reject(new Error(`The server printed nothing matching ${pattern} within ${timeoutMs} ms. Its output:\n${output.slice(-4000)}`));
        }, timeoutMs);
        outputListeners.add(listener);
        check();
      }),
    expectErrorLog: (pattern: RegExp) => (inTest ? testPatterns : lifetimePatterns).push(pattern),
    forgetTestPatterns: () => {
      testPatterns = [];
    },
  };
}

type BuiltServer = {
  openServerWithLog: (
    env: Record<string, string>,
    logDestination: { write: (line: string) => void },
  ) => Promise<{ server: HttpServer; close: () => Promise<void> }>;
};
const builtServerPath = path.join(root, 'build/server/index.js');

let resolvingAsNodeServerJs = false;
/**
 * Makes this worker load packages as `node server.js` does. Vitest starts its workers with
 * Node's `development` condition, which would give the server React Router's development
 * build; from here on Node resolves without it (React itself follows NODE_ENV).
 */
function resolveAsNodeServerJs() {
  if (resolvingAsNodeServerJs) return;
  resolvingAsNodeServerJs = true;
  process.env.NODE_ENV = 'production';
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: context.conditions.filter((condition) => condition !== 'development') }),
  });
}

/** The built server, opened inside this worker (see the comment at the top). */
async function openServerInWorker(
  options: TestServerOptions,
  dataDir: string,
  database: { url: string; drop: () => Promise<void> } | null,
): Promise<TestServer> {
  resolveAsNodeServerJs();
  const built = (await import(/* @vite-ignore */ pathToFileURL(builtServerPath).href)) as BuiltServer;
  const log = outputLog();
  const removeData = async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  let opened: Awaited<ReturnType<BuiltServer['openServerWithLog']>>;
  let port: number;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      opened = await built.openServerWithLog(serverEnv(options, port, dataDir, database), { write: (line) => log.append(line) });
      break;
    } catch (error) {
      // Another process took the free port between the check and the bind: try another.
      if (attempt < 5 && /already in use/.test(String(error))) continue;
      await removeData();
      throw new Error(`The test server did not start: ${String(error)}\n${log.output()}`, { cause: error });
    }
  }
  const server: TestServer & { forgetTestPatterns: () => void } = {
    url: `http://127.0.0.1:${port}`,
    dialect: options.dialect,
    dataDir,
    databaseUrl: database?.url,
    get pid(): number {
      throw new Error('This test server runs inside the test worker: start it with startTestServer({ …, childProcess: true }) to read its process id.');
    },
    kill: () => Promise.reject(new Error('This test server runs inside the test worker: start it with startTestServer({ …, childProcess: true }) to kill it.')),
    output: log.output,
    waitForOutput: log.waitForOutput,
    expectErrorLog: log.expectErrorLog,
    takeUnexpectedErrorLogs: log.takeUnexpectedErrorLogs,
    forgetTestPatterns: log.forgetTestPatterns,
    stopKeepingData: async () => {
      await opened.close();
      if (runningServers.delete(server)) errorLogsOfStoppedServers.push(...log.takeUnexpectedErrorLogs());
    },
    stop: async () => {
      await server.stopKeepingData();
      await removeData();
    },
  };
  runningServers.add(server);
  return server;
}

async function launchServer(options: TestServerOptions, dataDir: string, database: { url: string; drop: () => Promise<void> } | null): Promise<TestServer> {
  const port = await freePort();
  const env = serverEnv(options, port, dataDir, database);
  const log = outputLog();
  const child: ChildProcess = spawn(process.execPath, ['server.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (chunk: Buffer) => log.append(chunk.toString());
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  let ready = false;
  // A server that exited, or was killed by a signal (exitCode stays null then), will never answer.
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const stopProcess = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    if (runningServers.delete(server)) errorLogsOfStoppedServers.push(...log.takeUnexpectedErrorLogs());
  };
  const server: TestServer & { forgetTestPatterns: () => void } = {
    url,
    dialect: options.dialect,
    dataDir,
    databaseUrl: database?.url,
    pid: child.pid!,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
      if (runningServers.delete(server)) errorLogsOfStoppedServers.push(...log.takeUnexpectedErrorLogs());
    },
    output: log.output,
    waitForOutput: log.waitForOutput,
    expectErrorLog: log.expectErrorLog,
    takeUnexpectedErrorLogs: log.takeUnexpectedErrorLogs,
    forgetTestPatterns: log.forgetTestPatterns,
    stopKeepingData: stopProcess,
    stop: async () => {
      await stopProcess();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  if (!ready) {
    await server.stop();
    throw new Error(`The test server did not start${child.signalCode ? ` (it was killed by ${child.signalCode})` : ''}:\n${log.output()}`);
  }
  runningServers.add(server);
  return server;
}
