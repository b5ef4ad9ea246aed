import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { contentTypeOf, type Storage } from '../media/storage.ts';
import { BackupUnreadableError, readArchive } from './archive.ts';
import { AUTH_SECRET_FILE } from '../http/startup.ts';
import { MANIFEST_ENTRY, SECRET_ENTRY, STORAGE_ENTRY_PREFIXES, type Manifest } from './backups.ts';
import { POSTGRES_ENTRY, readOnlySqlite, runPgTool, SQLITE_ENTRY } from './snapshot.ts';
import { digestTables, tableNames } from './table-digests.ts';

/**
 * Restores a backup (decision 112) into an empty data folder or database, and the two storages.
 * First it reads the whole backup and checks every entry against the manifest, writing nothing;
 * only a backup that reads whole and true is restored. Afterwards every table's rows and digest
 * and every file's digest are checked against the manifest again, on what was written.
 */

export class RestoreRefusedError extends Error {}

export type RestoreTarget = {
  dataDir: string;
  databaseUrl?: string | undefined;
  storage: Storage;
  privateStorage: Storage;
};

export type RestoreReport = { tables: number; rows: number; files: number; problems: string[] };

const SQLITE_FILE = 'gaadi-bazaar.sqlite';

/** Reads the backup through once: its manifest, and whether every entry matches it. */
export async function verifyBackup(file: string, secret: string): Promise<Manifest> {
  const digests = new Map<string, { bytes: number; sha256: string }>();
  let manifest: Manifest | null = null;
  for await (const entry of readArchive(file, secret)) {
    const hash = createHash('sha256');
    const pieces: Buffer[] = [];
    for await (const piece of entry.body) {
      hash.update(piece);
      if (entry.name === MANIFEST_ENTRY) pieces.push(piece);
    }
    if (entry.name === MANIFEST_ENTRY) manifest = JSON.parse(Buffer.concat(pieces).toString('utf8')) as Manifest;
    else digests.set(entry.name, { bytes: entry.size, sha256: hash.digest('hex') });
  }
  if (!manifest || manifest.app !== 'gaadi-bazaar' || manifest.format !== 1) throw new BackupUnreadableError(`${file} has no manifest this version can read.`);
  const expected = new Map<string, { bytes: number; sha256: string }>([
    [manifest.database.entry, manifest.database],
    ...Object.entries(manifest.files),
    ...(manifest.secret ? [[manifest.secret.entry, manifest.secret] as const] : []),
  ]);
  for (const [name, digest] of expected) {
    const found = digests.get(name);
    if (!found || found.sha256 !== digest.sha256 || found.bytes !== digest.bytes)
      throw new BackupUnreadableError(`${file} does not match its manifest (${name}): it is not a whole backup.`);
  }
  return manifest;
}

/** Which storage a backup entry's file goes back to, and its prefix there; null for the database and the manifest. */
function storageOfEntry(name: string): [keyof typeof STORAGE_ENTRY_PREFIXES, string] | null {
  return (Object.entries(STORAGE_ENTRY_PREFIXES) as [keyof typeof STORAGE_ENTRY_PREFIXES, string][]).find(([, prefix]) => name.startsWith(prefix)) ?? null;
}

async function storageIsEmpty(storage: Storage): Promise<boolean> {
  const keys = storage.keys()[Symbol.asyncIterator]();
  const first = await keys.next();
  await keys.return?.();
  return first.done === true;
}

async function postgresTables(databaseUrl: string): Promise<string[]> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }) });
  try {
    return await tableNames(db, 'postgres');
  } finally {
    await db.destroy();
  }
}

/** What is already in the target, in words; empty when there is nothing to overwrite. */
export async function whatTheTargetHolds(target: RestoreTarget): Promise<string[]> {
  const held: string[] = [];
  if (target.databaseUrl) {
    if ((await postgresTables(target.databaseUrl)).length > 0) held.push(`the database ${new URL(target.databaseUrl).pathname.slice(1)} has tables`);
  } else if (existsSync(path.join(target.dataDir, SQLITE_FILE))) {
    // A file with no tables (opened once, never migrated) holds nothing to lose.
    const file = readOnlySqlite(path.join(target.dataDir, SQLITE_FILE));
    try {
      if ((await tableNames(file, 'sqlite')).length > 0) held.push(`${path.join(target.dataDir, SQLITE_FILE)} has tables`);
    } finally {
      await file.destroy();
    }
  }
  if (!(await storageIsEmpty(target.storage))) held.push('the photo storage holds files');
  if (!(await storageIsEmpty(target.privateStorage))) held.push('the private storage holds files');
  return held;
}

export async function restoreBackup(
  file: string,
  secret: string,
  target: RestoreTarget,
  options: { force: boolean; print: (line: string) => void },
): Promise<RestoreReport> {
  const { print } = options;
  print(`Reading ${file} and checking it against its manifest…`);
  const manifest = await verifyBackup(file, secret);
  const wantsPostgres = Boolean(target.databaseUrl);
  if ((manifest.dialect === 'postgres') !== wantsPostgres) {
    throw new RestoreRefusedError(
      manifest.dialect === 'postgres'
        ? 'This backup is of a PostgreSQL database: set DATABASE_URL to an empty database to restore it into.'
        : 'This backup is of a SQLite installation: unset DATABASE_URL to restore it into DATA_DIR (then `npm run migrate-to-postgres` moves it over).',
    );
  }
  const held = await whatTheTargetHolds(target);
  if (held.length > 0 && !options.force)
    throw new RestoreRefusedError(
      `The target is not empty (${held.join('; ')}). Restore into an empty data folder or database, or add --force to replace what is there.`,
    );
  if (held.length > 0) print(`Replacing what is there (--force): ${held.join('; ')}.`);

  const scratch = await mkdtemp(path.join(target.dataDir, '.restore-'));
  try {
    for await (const entry of readArchive(file, secret)) {
      if (entry.name === MANIFEST_ENTRY) continue;
      if (entry.name === SECRET_ENTRY) {
        // The restored site keeps its sessions and links: it is the same installation again.
        await pipeline(Readable.from(entry.body), createWriteStream(path.join(target.dataDir, AUTH_SECRET_FILE), { mode: 0o600 }));
        print(`The installation's secret is back in ${path.join(target.dataDir, AUTH_SECRET_FILE)}: whoever was signed in stays signed in.`);
        continue;
      }
      if (entry.name === SQLITE_ENTRY || entry.name === POSTGRES_ENTRY) {
        await pipeline(Readable.from(entry.body), createWriteStream(path.join(scratch, entry.name), { mode: 0o600 }));
        continue;
      }
      const stored = storageOfEntry(entry.name);
      if (!stored) continue;
      const [storageName, prefix] = stored;
      const pieces: Buffer[] = [];
      for await (const piece of entry.body) pieces.push(piece);
      await target[storageName].put(entry.name.slice(prefix.length), Buffer.concat(pieces), contentTypeOf(entry.name));
    }
    if (manifest.dialect === 'sqlite') {
      const live = path.join(target.dataDir, SQLITE_FILE);
      for (const leftover of ['-wal', '-shm']) await rm(`${live}${leftover}`, { force: true });
      await rename(path.join(scratch, SQLITE_ENTRY), live);
    } else {
      await restorePostgres(target.databaseUrl!, path.join(scratch, POSTGRES_ENTRY), held.length > 0);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  print('Checking every table and file against the manifest…');
  return checkRestored(manifest, target);
}

async function restorePostgres(databaseUrl: string, dump: string, replacing: boolean): Promise<void> {
  if (replacing) {
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }) });
    try {
      await sql`DROP SCHEMA public CASCADE`.execute(db);
      await sql`CREATE SCHEMA public`.execute(db);
    } finally {
      await db.destroy();
    }
  }
  await runPgTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, dump]);
}

async function checkRestored(manifest: Manifest, target: RestoreTarget): Promise<RestoreReport> {
  const db = target.databaseUrl
    ? new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.databaseUrl, max: 1 }) }) })
    : readOnlySqlite(path.join(target.dataDir, SQLITE_FILE));
  const problems: string[] = [];
  try {
    const restored = await digestTables(db, manifest.dialect);
    for (const [table, expected] of Object.entries(manifest.tables)) {
      const found = restored[table];
      if (!found) problems.push(`${table}: missing`);
      else if (found.rows !== expected.rows) problems.push(`${table}: ${found.rows} rows, the backup counted ${expected.rows}`);
      else if (found.sha256 !== expected.sha256) problems.push(`${table}: the rows differ from the backup's`);
    }
  } finally {
    await db.destroy();
  }
  for (const [name, expected] of Object.entries(manifest.files)) {
    const [storageName, prefix] = storageOfEntry(name)!;
    const stored = await target[storageName].get(name.slice(prefix.length));
    const bytes = stored ? Buffer.from(await new Response(stored.body).arrayBuffer()) : null;
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== expected.sha256) problems.push(`${name}: not restored whole`);
  }
  const rows = Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0);
  return { tables: Object.keys(manifest.tables).length, rows, files: Object.keys(manifest.files).length, problems };
}
