import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * `catalogue_version`: one row whose `version` grows with every write to `vehicles`, bumped by
 * the database itself (a trigger), so whoever wrote the change (an admin on any instance, a
 * reservation, a script, a test's SQL), every instance can tell by one primary-key read that
 * its in-memory listing index (server/catalog/catalogue-index.ts) is out of date
 * (docs/decisions/082-listing-index-in-memory.md). PostgreSQL bumps it once per statement;
 * SQLite, which has no statement triggers, once per row.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  await sql`CREATE TABLE catalogue_version (id integer PRIMARY KEY, version bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO catalogue_version (id, version) VALUES (1, 1)`.execute(db);
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION catalogue_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
      RETURN NULL;
    END $$`.execute(db);
    await sql`CREATE TRIGGER catalogue_version_bump AFTER INSERT OR UPDATE OR DELETE ON vehicles FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump()`.execute(
      db,
    );
    return;
  }
  for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
    await sql`CREATE TRIGGER ${sql.id(`catalogue_version_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON vehicles BEGIN
      UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    END`.execute(db);
  }
}
