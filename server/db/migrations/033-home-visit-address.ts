import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { isPinCode } from '../../../app/lib/pin-code.ts';
import { areaOfPinCode } from '../../../app/lib/service-areas.ts';
import { LANDMARK_MAX, STREET_MAX } from '../../../app/features/appointments/home-address.ts';

/**
 * Home visits get an address (decision 097). A home test drive or inspection keeps its street
 * address (house or flat, street, area) and an optional landmark beside the PIN code; the
 * columns' CHECKs hold the lengths the forms say. Rows booked before keep '' (the desk shows
 * the PIN code alone for them).
 *
 * The served PIN codes become served areas: the saved setting `servicePinCodes` (a list of
 * codes) is rewritten as `serviceAreas`, each code with its locality from the shipped list
 * (app/lib/service-areas.ts), or the code itself as its name, for the admin to name.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  for (const table of ['test_drives', 'inspections']) {
    await db.schema
      .alterTable(table)
      .addColumn('street', 'text', (column) =>
        column
          .notNull()
          .defaultTo('')
          .check(sql`length(street) <= ${sql.lit(STREET_MAX)}`),
      )
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('landmark', 'text', (column) =>
        column
          .notNull()
          .defaultTo('')
          .check(sql`length(landmark) <= ${sql.lit(LANDMARK_MAX)}`),
      )
      .execute();
  }

  const saved = await sql<{
    value: string;
    updated_by: string | null;
    updated_at: string;
  }>`SELECT value, updated_by, updated_at FROM settings WHERE key = 'servicePinCodes'`.execute(db);
  const row = saved.rows[0];
  if (!row) return;
  let codes: unknown;
  try {
    codes = JSON.parse(row.value);
  } catch {
    codes = [];
  }
  const areas = Array.isArray(codes)
    ? [...new Set(codes.filter((code): code is string => typeof code === 'string' && isPinCode(code)))].map(areaOfPinCode)
    : [];
  await sql`DELETE FROM settings WHERE key = 'serviceAreas'`.execute(db);
  await sql`INSERT INTO settings (key, value, updated_by, updated_at) VALUES ('serviceAreas', ${JSON.stringify(areas)}, ${row.updated_by}, ${row.updated_at})`.execute(
    db,
  );
  await sql`DELETE FROM settings WHERE key = 'servicePinCodes'`.execute(db);
}
