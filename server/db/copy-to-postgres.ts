import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from './connection.ts';

/**
 * Copies every row of a SQLite installation into a PostgreSQL database that already has the
 * same schema (migrated by the app's own migrations), for `npm run migrate-to-postgres`
 * (docs/deployment.md). Resumable: rows whose key is already there are left alone, so a copy
 * that stopped half-way is run again. Verified: each table's rows are counted and hashed on
 * both sides after the copy, in one canonical form, and any difference is reported.
 */

/** Kept by each side for itself, or rebuilt from other rows (vehicle_search by its trigger; catalogue_version is bumped by the copy itself). */
const NOT_COPIED = new Set(['kysely_migration', 'kysely_migration_lock', 'vehicle_search', 'catalogue_version', 'rateLimit']);
/** Rows read and written at a time: well under PostgreSQL's 65,535 parameters at our widest table. */
const BATCH_ROWS = 500;

type Column = { name: string; type: string };
type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;

export type TableCopied = { table: string; rows: number; copiedNow: number; checksum: string; matches: boolean; problem?: string };

export async function copySqliteToPostgres(source: Database, target: Database, onTable: (copied: TableCopied) => void = () => {}): Promise<TableCopied[]> {
  if (source.dialect !== 'sqlite' || target.dialect !== 'postgres') throw new Error('The copy goes from SQLite to PostgreSQL.');
  const from = source.db as unknown as AnyDb;
  const to = target.db as unknown as AnyDb;
  const sourceTables = new Set((await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(from)).rows.map((row) => row.name));
  const tables = (await tablesInForeignKeyOrder(to)).filter((table) => sourceTables.has(table) && !NOT_COPIED.has(table));
  const results: TableCopied[] = [];
  for (const table of tables) {
    const columns = await sharedColumns(from, to, table);
    const key = await primaryKey(to, table);
    const copiedNow = await copyRows(from, to, table, columns);
    await moveSequencesPast(to, table, columns);
    const result = await verify(from, to, table, columns, key, copiedNow);
    results.push(result);
    onTable(result);
  }
  return results;
}

/** The target's tables, each after the tables it refers to (so a row's parent is always there first). */
async function tablesInForeignKeyOrder(to: AnyDb): Promise<string[]> {
  const tables = (
    await sql<{
      name: string;
    }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(
      to,
    )
  ).rows.map((row) => row.name);
  const references = (
    await sql<{ child: string; parent: string }>`
      SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint c
      JOIN pg_class child ON child.oid = c.conrelid JOIN pg_class parent ON parent.oid = c.confrelid
      WHERE c.contype = 'f' AND child.relnamespace = current_schema()::regnamespace`.execute(to)
  ).rows;
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const reference of references) if (reference.child === table && reference.parent !== table) visit(reference.parent);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** The columns both sides have, with the target's type (the source's SQLite types say little). */
async function sharedColumns(from: AnyDb, to: AnyDb, table: string): Promise<Column[]> {
  const sourceNames = new Set((await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(from)).rows.map((row) => row.name));
  const targetColumns = (
    await sql<{
      name: string;
      type: string;
    }>`SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`.execute(
      to,
    )
  ).rows;
  return targetColumns.filter((column) => sourceNames.has(column.name));
}

/** A table's name as PostgreSQL reads a name given as text ("user" is a reserved word). */
function quoted(table: string): string {
  return `"${table.replaceAll('"', '""')}"`;
}

async function primaryKey(to: AnyDb, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
    WHERE i.indrelid = ${quoted(table)}::regclass AND i.indisprimary ORDER BY a.attname`.execute(to);
  return rows.map((row) => row.name);
}

/** A SQLite value as the PostgreSQL column takes it: booleans from 0/1, instants from text or milliseconds. */
function toTarget(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value === 1 || value === true || value === '1' || value === 'true';
  if (type.startsWith('timestamp')) return new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
  return value;
}

/** One form for a value read from either side, for the checksum. */
function canonical(value: unknown, type: string): string {
  const typed = toTarget(value, type);
  if (typed === null) return '\u0000';
  if (typed instanceof Date) return typed.toISOString();
  if (typeof typed === 'boolean') return typed ? 't' : 'f';
  return String(typed);
}

/** Copies the rows in SQLite's storage order, a batch at a time; returns how many were new. */
async function copyRows(from: AnyDb, to: AnyDb, table: string, columns: Column[]): Promise<number> {
  let after = 0;
  let inserted = 0;
  const names = columns.map((column) => column.name);
  for (;;) {
    const { rows } = await sql<
      Row & { _rowid: number }
    >`SELECT rowid AS _rowid, ${sql.join(names.map((name) => sql.ref(name)))} FROM ${sql.table(table)} WHERE rowid > ${after} ORDER BY rowid LIMIT ${BATCH_ROWS}`.execute(
      from,
    );
    if (rows.length === 0) return inserted;
    after = rows.at(-1)!._rowid;
    const values = rows.map((row) => Object.fromEntries(columns.map((column) => [column.name, toTarget(row[column.name], column.type)])));
    const result = await to
      .insertInto(table)
      .values(values)
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
}

/** A serial id goes on from the highest copied one, so the next car or lead gets a fresh number. */
async function moveSequencesPast(to: AnyDb, table: string, columns: Column[]): Promise<void> {
  for (const column of columns) {
    if (column.type !== 'integer' && column.type !== 'bigint') continue;
    const { rows } = await sql<{ sequence: string | null }>`SELECT pg_get_serial_sequence(${quoted(table)}, ${column.name}) AS sequence`.execute(to);
    const sequence = rows[0]?.sequence;
    if (!sequence) continue;
    await sql`SELECT setval(${sequence}, GREATEST((SELECT MAX(${sql.ref(column.name)}) FROM ${sql.table(table)}), 1))`.execute(to);
  }
}

/** Counts and hashes the rows of both sides in key order. */
async function verify(from: AnyDb, to: AnyDb, table: string, columns: Column[], key: string[], copiedNow: number): Promise<TableCopied> {
  const order = key.length > 0 ? key : columns.map((column) => column.name);
  const hash = async (db: AnyDb) => {
    const digest = createHash('sha256');
    let rows = 0;
    const { rows: all } = await sql<Row>`SELECT ${sql.join(columns.map((column) => sql.ref(column.name)))} FROM ${sql.table(table)}`.execute(db);
    // Sorted here, not by the database: SQLite and PostgreSQL collate text differently.
    const lines = all.map((row) => columns.map((column) => canonical(row[column.name], column.type)).join('\u0001'));
    const keyed = all.map((row, index) => ({
      key: order.map((name) => canonical(row[name], columns.find((column) => column.name === name)?.type ?? 'text')).join('\u0001'),
      line: lines[index]!,
    }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { line } of keyed) {
      digest.update(line).update('\n');
      rows += 1;
    }
    return { rows, checksum: digest.digest('hex') };
  };
  const [source, target] = await Promise.all([hash(from), hash(to)]);
  const matches = source.rows === target.rows && source.checksum === target.checksum;
  return {
    table,
    rows: target.rows,
    copiedNow,
    checksum: target.checksum,
    matches,
    ...(matches
      ? {}
      : { problem: source.rows !== target.rows ? `${source.rows} rows in SQLite, ${target.rows} in PostgreSQL` : 'the rows differ (checksums do not match)' }),
  };
}
