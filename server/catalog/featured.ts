import { sql, type SqlBool } from 'kysely';
import type { VehicleSummary } from '../../app/lib/vehicle.ts';
import type { Database } from '../db/connection.ts';
import { toSummary } from './rows.ts';
import { listedSql } from './public-status.ts';
import { coversFor, summaryColumns } from './vehicles.ts';

/** The newest featured cars still for sale, for the home page's storefront (sold ones and the rental fleet left out). */
export async function listFeaturedVehicles(database: Database, limit: number): Promise<VehicleSummary[]> {
  const rows = await database.db
    .selectFrom('vehicles')
    .innerJoin('categories', 'categories.id', 'vehicles.category_id')
    // As in the partial index vehicles_for_sale_idx (literals): the rental fleet is not sale stock.
    .where(listedSql)
    .where(sql<SqlBool>`vehicles.purpose = 'sale'`)
    .where('vehicles.featured', '=', 1)
    .select(summaryColumns)
    .orderBy('vehicles.created_at', 'desc')
    .orderBy('vehicles.id', 'desc')
    .limit(Math.max(1, Math.min(24, limit)))
    .execute();
  const covers = await coversFor(
    database,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toSummary(row, covers.get(row.id) ?? null));
}
