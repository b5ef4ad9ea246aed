import type { VehicleSummary } from '../../app/lib/vehicle.ts';
import { cardTitle } from '../../app/lib/vehicle.ts';
import { browseText as t } from '../../app/lib/i18n/browse.ts';
import type { Database } from '../db/connection.ts';
import { coversFor, getVehicle, summaryColumns } from '../catalog/vehicles.ts';
import { toSummary } from '../catalog/rows.ts';
import { NotFoundError } from '../errors.ts';

export type WishlistItem =
  { available: true; vehicle: VehicleSummary; addedAt: string } | { available: false; vehicleId: number; title: string; addedAt: string };

/** Whether this person's wishlist holds the vehicle. Reads only their own rows. */
export async function isWishlisted(database: Database, userId: string, vehicleId: number): Promise<boolean> {
  const row = await database.db
    .selectFrom('wishlist_entries')
    .select('vehicle_id')
    .where('user_id', '=', userId)
    .where('vehicle_id', '=', vehicleId)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The ids of the vehicles on this person's wishlist, so every card can show its heart filled or
 * not. Reads only their own rows; a wishlist is a handful of cars, so the page carries them all.
 */
export async function wishlistedIds(database: Database, userId: string): Promise<number[]> {
  const rows = await database.db.selectFrom('wishlist_entries').select('vehicle_id').where('user_id', '=', userId).orderBy('vehicle_id').execute();
  return rows.map((row) => Number(row.vehicle_id));
}

/**
 * Adds or removes the vehicle; returns whether it is wishlisted afterwards. A vehicle that
 * does not exist cannot be added.
 */
export async function setWishlisted(database: Database, userId: string, vehicleId: number, wishlisted: boolean, nowMs: number): Promise<boolean> {
  if (!wishlisted) {
    await database.db.deleteFrom('wishlist_entries').where('user_id', '=', userId).where('vehicle_id', '=', vehicleId).execute();
    return false;
  }
  const vehicle = await getVehicle(database, vehicleId);
  if (!vehicle) throw new NotFoundError(t('vehicleGone'));
  await database.db
    .insertInto('wishlist_entries')
    .values({ user_id: userId, vehicle_id: vehicleId, title: cardTitle(vehicle), created_at: new Date(nowMs).toISOString() })
    .onConflict((conflict) => conflict.columns(['user_id', 'vehicle_id']).doNothing())
    .execute();
  return true;
}

/** How many cars this person's wishlist holds. */
export async function countWishlist(database: Database, userId: string): Promise<number> {
  const row = await database.db
    .selectFrom('wishlist_entries')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * The wishlist, newest first, each vehicle as it is now; a removed one as no longer available.
 * The page shows it whole; the app's API reads it a page at a time (`page`).
 */
export async function listWishlist(database: Database, userId: string, page?: { limit: number; offset: number }): Promise<WishlistItem[]> {
  let query = database.db
    .selectFrom('wishlist_entries')
    .leftJoin('vehicles', 'vehicles.id', 'wishlist_entries.vehicle_id')
    .leftJoin('categories', 'categories.id', 'vehicles.category_id')
    .select([
      'wishlist_entries.vehicle_id as entry_vehicle_id',
      'wishlist_entries.title as entry_title',
      'wishlist_entries.created_at as added_at',
      ...summaryColumns,
    ])
    .where('wishlist_entries.user_id', '=', userId)
    .orderBy('wishlist_entries.created_at', 'desc')
    // Two cars added in the same millisecond keep one order from page to page.
    .orderBy('wishlist_entries.vehicle_id', 'desc');
  if (page) query = query.limit(page.limit).offset(page.offset);
  const rows = await query.execute();
  const covers = await coversFor(
    database,
    rows.flatMap((row) => (row.id === null ? [] : [row.id])),
  );
  return rows.map((row) => {
    if (row.id === null || row.status === null) {
      return { available: false, vehicleId: row.entry_vehicle_id, title: row.entry_title, addedAt: row.added_at };
    }
    const vehicle = toSummary(
      {
        id: row.id,
        name: row.name ?? '',
        make: row.make ?? '',
        model: row.model ?? '',
        variant: row.variant ?? '',
        year: row.year ?? '',
        fuel_type: row.fuel_type ?? '',
        transmission: row.transmission ?? '',
        body_type: row.body_type ?? '',
        price_rupees: row.price_rupees,
        odometer: row.odometer,
        price: row.price ?? '',
        featured: row.featured ?? 0,
        status: row.status,
        category_name: row.category_name ?? '',
      },
      covers.get(row.id) ?? null,
    );
    return { available: true, vehicle, addedAt: row.added_at };
  });
}
