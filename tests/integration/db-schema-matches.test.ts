import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { migratedSchemaDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * `server/db/schema.ts` is written by hand: the types every query is checked against. Nothing
 * held it to what the migrations make, so a column added by a migration and forgotten there (or
 * the reverse, or a NOT NULL typed as nullable) surfaced only as a wrong query at run time. Here
 * a server of this project's dialect migrates an empty database (ours and better-auth's tables),
 * Kysely reads its tables back, and each table and column must match the DB interface: same
 * tables, same columns, and a column may hold null exactly when its type says `| null`.
 */

const { dialect, url: sharedUrl } = sharedServer();

/** Kysely's own bookkeeping, and SQLite's full-text index (vehicles_fts and its shadow tables, read by raw SQL). */
const NOT_IN_SCHEMA = (table: string) => table === 'kysely_migration' || table === 'kysely_migration_lock' || table.startsWith('vehicles_fts');
/**
 * better-auth's tables (its own migrations, server/auth/auth.ts): schema.ts declares the columns
 * our queries read, so those must exist as typed; the rest are better-auth's business.
 */
const BETTER_AUTH_TABLES = new Set(['user', 'session', 'account', 'verification', 'rateLimit']);
/** PostgreSQL's search side table (migration 016); SQLite searches its FTS index instead. */
const POSTGRES_ONLY = new Set(['vehicle_search']);

type DeclaredColumn = { name: string; nullable: boolean };

/**
 * The DB interface of schema.ts: each table's declared columns, read with TypeScript's parser.
 * A table's type is an interface, or built from them as the file does (`Omit<A, 'x'> & { y: … }`).
 */
function declaredTables(): Map<string, DeclaredColumn[]> {
  const file = path.resolve(import.meta.dirname, '../../server/db/schema.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const named = new Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) named.set(node.name.text, node);
  });
  const columnsOf = (members: ts.NodeArray<ts.TypeElement>): DeclaredColumn[] =>
    members
      .filter(ts.isPropertySignature)
      .map((column) => ({ name: column.name.getText(source), nullable: /\bnull\b/.test(column.type?.getText(source) ?? '') }));
  const columnsOfType = (type: ts.TypeNode): DeclaredColumn[] => {
    if (ts.isTypeLiteralNode(type)) return columnsOf(type.members);
    if (ts.isIntersectionTypeNode(type)) return type.types.flatMap(columnsOfType);
    if (ts.isTypeReferenceNode(type)) {
      const name = type.typeName.getText(source);
      if (name === 'Omit' && type.typeArguments?.length === 2) {
        const left = new Set(
          type.typeArguments[1]!.getText(source)
            .split('|')
            .map((key) => key.trim().replace(/^['"]|['"]$/g, '')),
        );
        return columnsOfType(type.typeArguments[0]!).filter((column) => !left.has(column.name));
      }
      const columns = columnsOfName(name);
      if (columns) return columns;
    }
    throw new Error(`schema.ts: a table's type this test cannot read: ${type.getText(source)}`);
  };
  /** An interface's columns with those it extends, or a type alias's. */
  function columnsOfName(name: string): DeclaredColumn[] | null {
    const declaration = named.get(name);
    if (declaration && ts.isTypeAliasDeclaration(declaration)) return columnsOfType(declaration.type);
    if (!declaration) return null;
    const inherited = (declaration.heritageClauses ?? []).flatMap((clause) =>
      clause.types.flatMap((base) => columnsOfName(base.expression.getText(source)) ?? []),
    );
    return [...inherited, ...columnsOf(declaration.members)];
  }
  const db = named.get('DB');
  if (!db || !ts.isInterfaceDeclaration(db)) throw new Error('schema.ts has no DB interface');
  const tables = new Map<string, DeclaredColumn[]>();
  for (const member of db.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    tables.set(member.name.getText(source).replace(/^['"]|['"]$/g, ''), columnsOfType(member.type));
  }
  return tables;
}

describe.skipIf(!sharedUrl)(`server/db/schema.ts describes the migrated database (${dialect})`, () => {
  const migrated = migratedSchemaDatabase(dialect);

  /** A SQLite table's primary key columns (none asked on PostgreSQL, which makes them NOT NULL). */
  async function sqlitePrimaryKey(table: string): Promise<Set<string>> {
    if (dialect !== 'sqlite') return new Set();
    const rows = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) WHERE pk > 0`.execute(migrated().db);
    return new Set(rows.rows.map((row) => row.name));
  }

  it('has the same tables, the same columns, and null where the database allows it', async () => {
    const declared = declaredTables();
    if (dialect === 'sqlite') for (const table of POSTGRES_ONLY) declared.delete(table);
    const actual = (await migrated().db.introspection.getTables()).filter((table) => !NOT_IN_SCHEMA(table.name));
    expect(actual.map((table) => table.name).sort(), 'tables').toEqual([...declared.keys()].sort());
    for (const table of actual) {
      const columns = declared.get(table.name) ?? [];
      const names = table.columns.map((column) => column.name).sort();
      if (BETTER_AUTH_TABLES.has(table.name)) expect(names, `columns of ${table.name}`).toEqual(expect.arrayContaining(columns.map((column) => column.name)));
      else expect(names, `columns of ${table.name}`).toEqual(columns.map((column) => column.name).sort());
      const keys = await sqlitePrimaryKey(table.name);
      for (const column of table.columns.filter((entry) => columns.some((typed) => typed.name === entry.name))) {
        // SQLite reports a primary key without NOT NULL as nullable (an INTEGER one is the rowid
        // and never null; a text one would take a null only if our code wrote one, which it never does).
        if (column.isAutoIncrementing || keys.has(column.name)) continue;
        const typed = columns.find((entry) => entry.name === column.name);
        expect(typed?.nullable, `${table.name}.${column.name} may hold null in the database exactly when schema.ts says | null`).toBe(column.isNullable);
      }
    }
  });
});
