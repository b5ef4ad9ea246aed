import { SUMMARY_TEXT_FIELDS, type Category, type ImageRef, type Vehicle, type VehicleInput } from '../../app/lib/vehicle.ts';
import { priceDigits } from '../../app/lib/format.ts';
import { sql } from 'kysely';
import { isSlug, slugify } from '../../app/lib/slug.ts';
import type { Database } from '../db/connection.ts';
import { textColumns, toCategory, toImageRef, toVehicle, vehicleTextColumns } from './rows.ts';
import { buildSearchText } from './search.ts';
import { filterColumns } from './filters.ts';
import { isPublicStatus, listedSql, listedUnqualifiedSql } from './public-status.ts';

function mapOrNull(map: Record<string, unknown> | null): string | null {
  return map && Object.keys(map).length > 0 ? JSON.stringify(map) : null;
}

/** The columns a vehicle card needs (see toSummary), with the category's name. */
export const summaryColumns = [
  'vehicles.id',
  ...SUMMARY_TEXT_FIELDS.map((field) => `vehicles.${vehicleTextColumns[field]}` as const),
  'vehicles.price_rupees',
  'vehicles.odometer',
  'vehicles.featured',
  'vehicles.status',
  'categories.name as category_name',
] as const;

/** The images of these vehicles, each vehicle's in its order: the first one is its cover. */
export async function storedImagesOf(database: Database, vehicleIds: number[]) {
  if (vehicleIds.length === 0) return [];
  return database.db
    .selectFrom('vehicle_images')
    .select(['id', 'vehicle_id', 'position', 'key', 'width', 'height', 'variant_widths'])
    .where('vehicle_id', 'in', vehicleIds)
    .orderBy('vehicle_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Each vehicle's cover: the image in its first position. */
export async function coversFor(database: Database, vehicleIds: number[]): Promise<Map<number, ImageRef>> {
  const covers = new Map<number, ImageRef>();
  for (const row of await storedImagesOf(database, vehicleIds)) {
    if (!covers.has(row.vehicle_id)) covers.set(row.vehicle_id, toImageRef(row));
  }
  return covers;
}

/**
 * The vehicle with all its images in order, or null, as the public may see it: sold vehicles are
 * still found, drafts are not (public-status.ts). The admin pages read getVehicleForAdmin.
 */
export async function getVehicle(database: Database, id: number): Promise<Vehicle | null> {
  const vehicle = await getVehicleForAdmin(database, id);
  return vehicle && isPublicStatus(vehicle.status) ? vehicle : null;
}

/** Any vehicle, a draft too: for the admin pages and services only. */
export async function getVehicleForAdmin(database: Database, id: number): Promise<Vehicle | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const row = await database.db
    .selectFrom('vehicles')
    .innerJoin('categories', 'categories.id', 'vehicles.category_id')
    .selectAll('vehicles')
    .select(['categories.name as category_name', 'categories.slug as category_slug'])
    .where('vehicles.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const images = await database.db
    .selectFrom('vehicle_images')
    .select(['key', 'width', 'height', 'variant_widths'])
    .where('vehicle_id', '=', id)
    .orderBy('position')
    .execute();
  return toVehicle(row, images.map(toImageRef));
}

/** What a category card shows (see toCategory), besides its count. */
const categoryColumns = [
  'categories.id',
  'categories.name',
  'categories.slug',
  'categories.image_key',
  'categories.image_width',
  'categories.image_height',
  'categories.image_widths',
] as const;

export async function listCategories(database: Database): Promise<Category[]> {
  const rows = await database.db
    .selectFrom('categories')
    .leftJoin('vehicles', (join) => join.onRef('vehicles.category_id', '=', 'categories.id').on(listedSql))
    .select(categoryColumns)
    // Sale stock and rental fleet counted apart: a category may hold only rental cars (the demo's "Rental Cars").
    .select([
      sql<number | string>`count(case when vehicles.purpose = 'sale' then 1 end)`.as('vehicle_count'),
      sql<number | string>`count(case when vehicles.purpose = 'rental' then 1 end)`.as('fleet_count'),
    ])
    .groupBy(categoryColumns)
    .orderBy('categories.created_at')
    .orderBy('categories.id')
    .execute();
  return rows.map(toCategory);
}

/** The id of the category with this slug, or null (also for text no slug could be). */
export async function categoryIdBySlug(database: Database, slug: string): Promise<number | null> {
  if (!isSlug(slug, 80)) return null;
  const row = await database.db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirst();
  return row?.id ?? null;
}

/** A category's slug: its name's, or 'category' for a name with no letter or digit in it. */
export const categorySlug = (name: string): string => slugify(name, 'category');

export async function createCategory(database: Database, input: { name: string; image?: ImageRef | null }, nowMs: number): Promise<number> {
  const now = new Date(nowMs).toISOString();
  const row = await database.db
    .insertInto('categories')
    .values({
      name: input.name.trim(),
      slug: categorySlug(input.name),
      image_key: input.image?.key ?? null,
      image_width: input.image?.width ?? null,
      image_height: input.image?.height ?? null,
      image_widths: input.image ? input.image.widths.join(',') : null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function categoryName(database: Database, categoryId: number): Promise<string> {
  const category = await database.db.selectFrom('categories').select('name').where('id', '=', categoryId).executeTakeFirst();
  if (!category) throw new Error(`No category ${categoryId}`);
  return category.name;
}

/** The stored columns for what an admin typed: trimmed, price digits, maps as JSON, search text. */
export function vehicleColumns(input: VehicleInput, categoryName: string) {
  return {
    ...textColumns(input),
    category_id: input.categoryId,
    price_rupees: priceDigits(input.price),
    odometer: input.odometer,
    featured: input.featured ? 1 : 0,
    inspection: mapOrNull(input.inspection),
    refurbishment: mapOrNull(input.refurbishment),
    financial: mapOrNull(input.financial),
    search_text: buildSearchText({ ...input, categoryName }),
    ...filterColumns(input),
  };
}

/** Rows of vehicle_images for `images`, numbered from `firstPosition`. */
export function imageRows(vehicleId: number, images: ImageRef[], firstPosition: number, now: string) {
  return images.map((image, index) => ({
    vehicle_id: vehicleId,
    position: firstPosition + index,
    key: image.key,
    width: image.width,
    height: image.height,
    variant_widths: image.widths.join(','),
    created_at: now,
  }));
}

export async function createVehicle(database: Database, input: VehicleInput, images: ImageRef[], nowMs: number): Promise<number> {
  const now = new Date(nowMs).toISOString();
  const category = await categoryName(database, input.categoryId);
  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('vehicles')
      .values({ ...vehicleColumns(input, category), status: 'available', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (images.length > 0)
      await trx
        .insertInto('vehicle_images')
        .values(imageRows(row.id, images, 0, now))
        .execute();
    return row.id;
  });
}

/** Everything the sitemap lists: categories, every sale vehicle's page and every rental car's page. */
export async function sitemapEntries(database: Database) {
  const [categories, vehicles, rentals] = await Promise.all([
    database.db.selectFrom('categories').select(['slug', 'updated_at']).orderBy('id').execute(),
    database.db.selectFrom('vehicles').select(['id', 'updated_at']).where(listedUnqualifiedSql).where('purpose', '=', 'sale').orderBy('id').execute(),
    // Only the fleet cars whose page answers: terms saved and commercially registered (fleet.ts's rentable).
    database.db
      .selectFrom('vehicles')
      .innerJoin('rental_terms', 'rental_terms.vehicle_id', 'vehicles.id')
      .select(['vehicles.id as id', 'vehicles.updated_at as updated_at'])
      .where(listedSql)
      .where('vehicles.purpose', '=', 'rental')
      .where('rental_terms.commercial_registration', '=', 1)
      .orderBy('vehicles.id')
      .execute(),
  ]);
  return { categories, vehicles, rentals };
}
