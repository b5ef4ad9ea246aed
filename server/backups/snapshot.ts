import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { NodeSqliteDialect } from '@better-auth/kysely-adapter/node-sqlite-dialect';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/connection.ts';
import { digestTables, type TableDigest } from './table-digests.ts';

/**
 * A consistent copy of the database taken while the site keeps writing (decision 112), with the
 * rows and digest of every table as that copy holds them.
 * - SQLite: `VACUUM INTO` writes the database as one read transaction sees it, into a new file,
 *   without stopping writers (WAL mode lets them go on).
 * - PostgreSQL: `pg_dump` in its custom format, inside a snapshot this process exports, so the
 *   dump and the counted rows are the same moment.
 */
export type DatabaseSnapshot = { file: string; entryName: string; bytes: number; sha256: string; tables: Record<string, TableDigest> };

export const SQLITE_ENTRY = 'database.sqlite';
export const POSTGRES_ENTRY = 'database.pgdump';

export class PgToolMissingError extends Error {}

export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return { bytes: (await stat(file)).size, sha256: hash.digest('hex') };
}

/** Opens a SQLite file read-only for digests, changing nothing in it. */
export function readOnlySqlite(file: string): Kysely<unknown> {
  return new Kysely({ dialect: new NodeSqliteDialect({ database: new DatabaseSync(file, { readOnly: true }) }) });
}

export async function snapshotDatabase(database: Database, options: { databaseUrl?: string | undefined; folder: string }): Promise<DatabaseSnapshot> {
  return database.dialect === 'postgres' ? snapshotPostgres(options.databaseUrl!, options.folder) : snapshotSqlite(database, options.folder);
}

async function snapshotSqlite(database: Database, folder: string): Promise<DatabaseSnapshot> {
  const file = path.join(folder, SQLITE_ENTRY);
  await rm(file, { force: true });
  await sql`VACUUM INTO ${file}`.execute(database.db);
  const copy = readOnlySqlite(file);
  try {
    const tables = await digestTables(copy, 'sqlite');
    return { file, entryName: SQLITE_ENTRY, ...(await fileDigest(file)), tables };
  } finally {
    await copy.destroy();
  }
}

/** Runs a PostgreSQL client tool; a tool that is not installed says what to install. */
export function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (piece: Buffer) => (errors += piece.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new PgToolMissingError(
              `${tool} is not installed on this machine. Install PostgreSQL's client tools of the server's major version or newer (on Debian or Ubuntu: apt-get install postgresql-client), then run the command again.`,
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${tool} failed: ${errors.trim().split('\n').slice(-3).join(' ') || `exit ${code}`}`)),
    );
  });
}

async function snapshotPostgres(databaseUrl: string, folder: string): Promise<DatabaseSnapshot> {
  const file = path.join(folder, POSTGRES_ENTRY);
  // One connection holds the snapshot open while pg_dump reads it and the tables are counted in it.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    return await db.connection().execute(async (connection) => {
      await sql`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`.execute(connection);
      try {
        const { rows } = await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(connection);
        const dump = runPgTool('pg_dump', [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          `--snapshot=${rows[0]!.id}`,
          `--file=${file}`,
          `--dbname=${databaseUrl}`,
        ]);
        const tables = await digestTables(connection, 'postgres');
        await dump;
        return { file, entryName: POSTGRES_ENTRY, ...(await fileDigest(file)), tables };
      } finally {
        await sql`COMMIT`.execute(connection);
      }
    });
  } finally {
    await db.destroy();
  }
}
