import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * A booked visit's slot is kept as epoch milliseconds, as every rental time is (decision 107):
 * `test_drives.slot_start` and `inspections.slot_start` (UTC ISO text, migrations 007 and 025)
 * become the integer `slot_start_ms`. Text sorted and compared only because every writer wrote
 * the same `toISOString()` form; an integer compares as a time on both databases whatever wrote
 * it, and the appointments module (server/appointments) reads one convention.
 *
 * The seats stay the database's: the partial unique indexes that hold a slot's capacity, one
 * car and one person per slot are made again over the new column under their old names (the
 * services recognise a refusal by those names). The conversion is SQL, exact to the millisecond:
 * SQLite reads the seconds and the milliseconds of the text apart (strftime), PostgreSQL reads
 * the text as a timestamptz. This migration touches only these two tables.
 */

type Index = { name: string; columns: string; unique: boolean };

const INDEXES: Record<'test_drives' | 'inspections', Index[]> = {
  test_drives: [
    { name: 'test_drives_vehicle_slot_uq', columns: 'vehicle_id, slot_start_ms', unique: true },
    { name: 'test_drives_seat_uq', columns: 'slot_start_ms, seat', unique: true },
    { name: 'test_drives_user_slot_uq', columns: 'user_id, slot_start_ms', unique: true },
    { name: 'test_drives_slot_idx', columns: 'slot_start_ms', unique: false },
    { name: 'test_drives_user_idx', columns: 'user_id, slot_start_ms', unique: false },
  ],
  inspections: [
    { name: 'inspections_seat_uq', columns: 'slot_start_ms, seat', unique: true },
    { name: 'inspections_user_slot_uq', columns: 'user_id, slot_start_ms', unique: true },
    { name: 'inspections_user_idx', columns: 'user_id, slot_start_ms', unique: false },
    { name: 'inspections_slot_idx', columns: 'slot_start_ms', unique: false },
  ],
};

export async function up(db: Kysely<unknown>, dialect: Dialect) {
  for (const [table, indexes] of Object.entries(INDEXES)) {
    // SQLite adds a NOT NULL column only with a default, and cannot drop the default without
    // rebuilding the table (which its foreign keys make risky); every insert names the column
    // (schema.ts has no default for it), so the 0 is never used. PostgreSQL gets no default.
    if (dialect === 'sqlite') {
      await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN slot_start_ms bigint NOT NULL DEFAULT 0`.execute(db);
      await sql`UPDATE ${sql.table(table)} SET slot_start_ms = CAST(strftime('%s', slot_start) AS INTEGER) * 1000 + CAST(substr(strftime('%f', slot_start), 4, 3) AS INTEGER)`.execute(
        db,
      );
    } else {
      await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN slot_start_ms bigint`.execute(db);
      await sql`UPDATE ${sql.table(table)} SET slot_start_ms = round(extract(epoch from slot_start::timestamptz) * 1000)::bigint`.execute(db);
      await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN slot_start_ms SET NOT NULL`.execute(db);
    }
    // SQLite drops no column an index names; the indexes are made again below.
    for (const index of indexes) await sql`DROP INDEX IF EXISTS ${sql.id(index.name)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN slot_start`.execute(db);
    for (const index of indexes) {
      const unique = index.unique ? sql`UNIQUE ` : sql``;
      // A cancelled booking holds no seat (migration 007): the unique ones stay partial.
      const where = index.unique ? sql` WHERE status <> 'cancelled'` : sql``;
      await sql`CREATE ${unique}INDEX ${sql.id(index.name)} ON ${sql.table(table)} (${sql.raw(index.columns)})${where}`.execute(db);
    }
  }
}
