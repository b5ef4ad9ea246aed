import { describe, expect, it } from 'vitest';
import { allPersonalData } from '../../server/privacy/all-personal-data.ts';
import { migratedSchemaDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Each domain declares the personal data its tables hold (server/privacy/personal-data.ts), and
 * the download and account deletion are built from those declarations alone. Here a server of
 * this project's dialect migrates an empty database (ours and better-auth's tables), Kysely reads
 * every table and column back, and a column whose name looks personal must be declared by its
 * table's owner: as personal data, or as not personal with a reason. A new table with a phone
 * number in it fails here until someone says how it is exported, erased and kept.
 */

const { dialect, url: sharedUrl } = sharedServer();

/**
 * Names that say a column is about a person, each for the kind of data it catches. Broad on
 * purpose: a false alarm costs one line of notPersonal with its reason, a miss costs a person's
 * data left behind when they delete their account.
 */
const LOOKS_PERSONAL: Array<[RegExp, string]> = [
  [/(^|_)user_?id$|^userId$|^account_?id$/i, 'an account id'],
  [/e_?mail/i, 'an email address'],
  [/phone|mobile/i, 'a phone number'],
  [/(^|_)name$/i, "a person's name"],
  [/address|street|landmark|pin_?code|city/i, 'a postal address'],
  [/licen[cs]e|(^|_)dob$|birth/i, 'a driving licence or date of birth'],
  [/(^|_)ip(_|$)|ipAddress|user_?agent/i, 'a network address or device'],
  [/(^|_)notes?$|description|summary|comment|message|(^|_)body$|reason/i, 'text a person typed, which may name someone'],
  [/(_by|recipient)$/i, 'who did something (an admin email)'],
  [/photo|image$/i, 'a photo that may show a person or their papers'],
  [/password|token|secret|code_hash/i, 'a credential'],
];

/** Kysely's own bookkeeping, and SQLite's full-text index (vehicles_fts and its shadow tables: a copy of vehicles, declared there). */
const NOT_DATA = (table: string) => table === 'kysely_migration' || table === 'kysely_migration_lock' || table.startsWith('vehicles_fts');

describe.skipIf(!sharedUrl)(`every personal column of the migrated database is declared (${dialect})`, () => {
  const migrated = migratedSchemaDatabase(dialect);

  it('declares each column that looks personal, as personal or with the reason it is not', async () => {
    const tables = (await migrated().db.introspection.getTables()).filter((table) => !NOT_DATA(table.name));
    const undeclared: string[] = [];
    for (const table of tables) {
      const declarations = allPersonalData.filter((declaration) => declaration.table === table.name);
      const covered = new Set(declarations.flatMap((declaration) => [...Object.keys(declaration.personal), ...Object.keys(declaration.notPersonal ?? {})]));
      for (const column of table.columns) {
        const why = LOOKS_PERSONAL.find(([pattern]) => pattern.test(column.name));
        if (why && !covered.has(column.name)) undeclared.push(`${table.name}.${column.name} (looks like ${why[1]})`);
      }
    }
    expect(undeclared, 'declare these in their domain’s personal-data.ts').toEqual([]);
  });

  it('declares only tables and columns that exist, each table once', async () => {
    const tables = new Map((await migrated().db.introspection.getTables()).map((table) => [table.name, new Set(table.columns.map((column) => column.name))]));
    const stale = allPersonalData.flatMap((declaration) => {
      const columns = tables.get(declaration.table);
      if (!columns) return [`${declaration.table} (no such table)`];
      return [...Object.keys(declaration.personal), ...Object.keys(declaration.notPersonal ?? {})]
        .filter((column) => !columns.has(column))
        .map((column) => `${declaration.table}.${column}`);
    });
    expect(stale).toEqual([]);
    const names = allPersonalData.map((declaration) => declaration.table);
    expect(
      names.filter((name, index) => names.indexOf(name) !== index),
      'tables declared twice',
    ).toEqual([]);
  });

  it('gives each section of the download one name', () => {
    const sections = allPersonalData.flatMap((declaration) => ('section' in declaration.export ? [declaration.export.section] : []));
    expect(new Set(sections).size).toBe(sections.length);
  });
});
