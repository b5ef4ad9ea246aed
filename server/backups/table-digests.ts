import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/connection.ts';

/** What a backup's manifest says of one table: its rows and a digest of their contents. */
export type TableDigest = { rows: number; sha256: string };

// Any executor of the database (a connection inside a snapshot, the restored database): the
// digest reads every table by name, whatever the app's typed schema says.
type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function tableNames(db: AnyDb, dialect: Dialect): Promise<string[]> {
  const rows =
    dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`.execute(db)
      : await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1`.execute(db);
  return rows.rows.map((row) => row.name);
}

/** One form for a value as the driver hands it over, the same on the backed-up and the restored side. */
function canonical(value: unknown): unknown {
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * Rows and digest of every table. The digest does not depend on the order rows come in (it
 * hashes the sorted digests of the rows), so a table with no key digests the same after a
 * restore that laid its rows out differently.
 */
export async function digestTables(db: AnyDb, dialect: Dialect): Promise<Record<string, TableDigest>> {
  const digests: Record<string, TableDigest> = {};
  for (const table of await tableNames(db, dialect)) {
    const rows = await db.selectFrom(table).selectAll().execute();
    const rowDigests = rows.map((row) => {
      const columns = Object.keys(row).sort();
      const values = columns.map((column) => [column, canonical((row as Record<string, unknown>)[column])]);
      return createHash('sha256').update(JSON.stringify(values)).digest('hex');
    });
    rowDigests.sort();
    digests[table] = { rows: rows.length, sha256: createHash('sha256').update(rowDigests.join('\n')).digest('hex') };
  }
  return digests;
}
