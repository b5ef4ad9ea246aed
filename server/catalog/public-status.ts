import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { VehicleStatus } from '../../app/lib/vehicle.ts';

/**
 * The one rule of which cars the public sees (decision 084). A 'draft' (made from an accepted
 * inspection offer, server/inspections/inspection-desk.ts) is seen by the admins only, until one
 * publishes it; a 'sold' car keeps its page but leaves the listing, search and counts.
 *
 * Written with literals and with `status <> 'sold'` as its own term, as the partial indexes of
 * migrations 005, 006 and 014 say it: SQLite uses a partial index only when a term of the
 * query's WHERE is the index's condition itself (a bound parameter would not do either).
 */

/** Cars listed for sale or rent: not sold, not a draft. `vehicles.` qualified, for joins. */
export const listedSql: RawBuilder<SqlBool> = sql<SqlBool>`vehicles.status <> 'sold' AND vehicles.status <> 'draft'`;

/** The same, for a query on `vehicles` alone. */
export const listedUnqualifiedSql: RawBuilder<SqlBool> = sql<SqlBool>`status <> 'sold' AND status <> 'draft'`;

/** A car whose page and API answer anyone may see (a sold one included). */
export function isPublicStatus(status: VehicleStatus): boolean {
  return status !== 'draft';
}

export type PublicVehicleStatus = Exclude<VehicleStatus, 'draft'>;

/**
 * The status as a public answer states it. Every public read leaves drafts out (listedSql,
 * getVehicle), so a draft never gets here; should one slip through, it reads as not for sale
 * rather than as for sale.
 */
export function publicStatus(status: VehicleStatus): PublicVehicleStatus {
  return status === 'draft' ? 'sold' : status;
}
