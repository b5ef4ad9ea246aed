import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { ConfigError, parseConfig, type Config } from '../config.ts';

/**
 * The checks that stop a start early with one line a person can act on, instead of a stack
 * trace after minutes of migrating: the port first (before anything is written or printed),
 * then DATA_DIR, then the database.
 */

/**
 * The configuration from the environment, or the process ends with the reason on one line (a
 * ConfigError says which variable and what is wrong with it): the server and `npm run worker`
 * start the same way.
 */
export function configOrExit(env: Record<string, string | undefined>): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** A start-up problem already put into words for the operator. */
export class StartupError extends Error {}

function codeOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
}

/** The error's own first line, never its stack. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}

/** Binds the port; a port in use or not ours to take is a StartupError naming `variable` (PORT, or METRICS_PORT). */
export function listen(server: Server, port: number, host: string, variable = 'PORT'): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: unknown) => {
      server.off('listening', onListening);
      const code = codeOf(error);
      if (code === 'EADDRINUSE')
        reject(new StartupError(`Port ${port} on ${host} is already in use: stop the program using it or set ${variable} to a free port.`));
      else if (code === 'EACCES') reject(new StartupError(`Port ${port} on ${host} may not be used by this user: set ${variable} to a port above 1023.`));
      else if (code === 'EADDRNOTAVAIL')
        reject(new StartupError(`HOST ${host} is not an address of this machine: set HOST to one of its addresses or 0.0.0.0.`));
      else reject(new StartupError(`Could not listen on ${host}:${port}: ${firstLine(error)}`));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * DATA_DIR holds the SQLite file and the uploaded photos: it must be a directory this process
 * can write. Checked by writing a file, since permission bits say nothing for root or for a
 * read-only mount.
 */
export function checkDataDir(dataDir: string): void {
  const shown = path.resolve(dataDir);
  try {
    if (!statSync(dataDir).isDirectory()) throw new StartupError(`DATA_DIR ${shown} is a file, not a directory: point DATA_DIR at a directory.`);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    if (codeOf(error) === 'ENOTDIR') throw new StartupError(`DATA_DIR ${shown} cannot be a directory: a part of its path is a file.`);
    // Absent: created below.
  }
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    if (codeOf(error) === 'ENOTDIR' || codeOf(error) === 'EEXIST') throw new StartupError(`DATA_DIR ${shown} cannot be created: a part of its path is a file.`);
    throw new StartupError(`DATA_DIR ${shown} cannot be created (${codeOf(error) || firstLine(error)}): create it or point DATA_DIR at a writable directory.`);
  }
  const probe = path.join(dataDir, `.write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    throw new StartupError(`DATA_DIR ${shown} is not writable (${codeOf(error) || firstLine(error)}): the server keeps its database and photos there.`);
  }
}

/** The file in DATA_DIR that holds the secret of an installation without AUTH_SECRET. */
export const AUTH_SECRET_FILE = 'auth-secret';

/**
 * The configuration with this installation's secret: AUTH_SECRET when set; else the one kept in
 * DATA_DIR, made (32 random bytes, readable by this user only) the first time. No secret is
 * written in the code, where anyone could read it and forge verification links, sessions' device
 * cookies and bot-check solutions. `made` says the secret is new, for the one line that says so.
 */
export function keptAuthSecret(config: Config): { config: Config; made: string | null } {
  if (config.authSecretSource === 'environment') return { config, made: null };
  const file = path.join(config.dataDir, AUTH_SECRET_FILE);
  let made: string | null = null;
  // Written whole under a name of its own, then linked into place: a process that starts beside
  // this one reads either no file or the whole secret, and linking never replaces one.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
    linkSync(draft, file);
    made = path.resolve(file);
  } catch (error) {
    if (codeOf(error) !== 'EEXIST')
      throw new StartupError(
        `DATA_DIR ${path.resolve(config.dataDir)}: the secret could not be kept in ${AUTH_SECRET_FILE} (${codeOf(error) || firstLine(error)}): set AUTH_SECRET instead.`,
      );
  } finally {
    rmSync(draft, { force: true });
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32)
    throw new StartupError(`${path.resolve(file)} holds no secret (under 32 characters): delete it to have a new one made, or set AUTH_SECRET.`);
  return { config: { ...config, authSecret: secret }, made };
}

/** The line logged once, when an installation made its secret. */
export function madeAuthSecretLine(file: string): string {
  return `AUTH_SECRET is not set: made a random secret for this installation and kept it in ${file} (readable by this user only). Back it up with the data; a site on several machines sets AUTH_SECRET, the same on each.`;
}

/** Where the database is, without its password. */
function databaseLocation(databaseUrl: string | undefined, dataDir: string): string {
  if (!databaseUrl) return path.resolve(dataDir, 'gaadi-bazaar.sqlite');
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** One query, so an unreachable or refusing database is named before migrations begin. */
export async function checkDatabase(database: Database, options: { databaseUrl?: string | undefined; dataDir: string }): Promise<void> {
  try {
    await sql`select 1`.execute(database.db);
  } catch (error) {
    const where = databaseLocation(options.databaseUrl, options.dataDir);
    const code = codeOf(error);
    const reason = code && !firstLine(error).includes(code) ? `${code}: ${firstLine(error)}` : firstLine(error);
    throw new StartupError(`The database at ${where} could not be reached (${reason}): check DATABASE_URL and that the database server is running.`);
  }
}

/** The one line printed for a failed start. */
export function startupFailureLine(error: unknown): string {
  if (error instanceof StartupError) return `Could not start: ${error.message}`;
  return `Could not start: ${firstLine(error)}`;
}
