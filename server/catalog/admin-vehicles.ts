import { vehicleMessages } from '../../app/lib/vehicle-schema.ts';
import { detailTitle, type ImageRef, type Vehicle, type VehicleInput, type VehicleStatus } from '../../app/lib/vehicle.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/connection.ts';
import { pageOf, pageWindow, type Page } from '../db/paging.ts';
import type { Storage } from '../media/storage.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import type { Upload } from '../media/images.ts';
import { discardImages, MAX_VEHICLE_IMAGES, storeUploads } from './admin-images.ts';
import { toImageRef } from './rows.ts';
import { searchCondition, searchTerms } from './search.ts';
import { createVehicle, getVehicleForAdmin, storedImagesOf, vehicleColumns } from './vehicles.ts';
import type { Clock } from '../clock.ts';
import { adminVehiclesText as t } from '../../app/features/admin/admin-vehicles-texts.ts';

/** Vehicle administration: the inventory list, add, edit (with status), delete. */

type Deps = { database: Database; storage: Storage; clock: Clock };

export type VehicleEdit = VehicleInput & { status: VehicleStatus; soldPrice: number | null; soldAt: string | null };

export type AdminVehicleRow = {
  id: number;
  name: string;
  make: string;
  model: string;
  year: string;
  price: string;
  status: VehicleStatus;
  featured: boolean;
  categoryName: string;
  categorySlug: string;
  cover: ImageRef | null;
  imageCount: number;
  updatedAt: string;
};

export type AdminVehiclePage = Page<AdminVehicleRow>;

/** The inventory: every vehicle, sold ones included, newest change first; searchable and filterable by status. */
export async function listAdminVehicles(
  database: Database,
  options: { query?: string; status?: VehicleStatus | null; page?: number; perPage: number },
): Promise<AdminVehiclePage> {
  const perPage = Math.max(1, Math.min(100, options.perPage));
  const condition = searchCondition(database.dialect, searchTerms(options.query ?? ''));
  let base = database.db.selectFrom('vehicles').innerJoin('categories', 'categories.id', 'vehicles.category_id');
  if (options.status) base = base.where('vehicles.status', '=', options.status);
  if (condition) base = base.where(condition);

  const counted = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
  const total = Number(counted?.count ?? 0);
  const window = pageWindow(total, options.page ?? 1, perPage);
  const rows = await base
    .select([
      'vehicles.id',
      'vehicles.name',
      'vehicles.make',
      'vehicles.model',
      'vehicles.year',
      'vehicles.price',
      'vehicles.status',
      'vehicles.featured',
      'vehicles.updated_at',
      'categories.name as category_name',
      'categories.slug as category_slug',
    ])
    .orderBy('vehicles.updated_at', 'desc')
    .orderBy('vehicles.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();

  const ids = rows.map((row) => row.id);
  const images = await storedImagesOf(database, ids);
  const covers = new Map<number, ImageRef>();
  const counts = new Map<number, number>();
  for (const image of images) {
    if (!covers.has(image.vehicle_id)) covers.set(image.vehicle_id, toImageRef(image));
    counts.set(image.vehicle_id, (counts.get(image.vehicle_id) ?? 0) + 1);
  }
  return pageOf(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      make: row.make,
      model: row.model,
      year: row.year,
      price: row.price,
      status: row.status,
      featured: Boolean(row.featured),
      categoryName: row.category_name,
      categorySlug: row.category_slug,
      cover: covers.get(row.id) ?? null,
      imageCount: counts.get(row.id) ?? 0,
      updatedAt: row.updated_at,
    })),
    total,
    window,
  );
}

async function categorySlug(database: Database, categoryId: number): Promise<{ name: string; slug: string }> {
  const category = await database.db.selectFrom('categories').select(['name', 'slug']).where('id', '=', categoryId).executeTakeFirst();
  if (!category) throw new InvalidInputError(vehicleMessages.categoryRequired, { categoryId: vehicleMessages.categoryRequired });
  return category;
}

/** What the audit log keeps of a vehicle: its fields, without the search index. */
function auditView(vehicle: Vehicle) {
  const { images, ...fields } = vehicle;
  return { ...fields, images: images.map((image) => image.key) };
}

/**
 * Add vehicle: every image is checked by content before anything is stored, then stored, then
 * the vehicle is created with them in one transaction; a failure at any step leaves nothing
 * behind (no row, no file).
 */
export async function addVehicle(deps: Deps, input: VehicleInput, uploads: Upload[], actorEmail: string): Promise<number> {
  if (uploads.length > MAX_VEHICLE_IMAGES) throw new InvalidInputError(t('tooManyImages', { max: MAX_VEHICLE_IMAGES }));
  const category = await categorySlug(deps.database, input.categoryId);
  const images = await storeUploads(deps.storage, uploads, `vehicles/${category.slug}`, deps.clock.now());
  let id: number;
  try {
    id = await createVehicle(deps.database, input, images, deps.clock.now());
  } catch (error) {
    await discardImages(deps.storage, images);
    throw error;
  }
  const created = await getVehicleForAdmin(deps.database, id);
  await recordAudit(deps, {
    actorEmail,
    action: 'create',
    entity: 'vehicle',
    entityId: id,
    summary: `Added vehicle ${input.name.trim()}`,
    after: created ? auditView(created) : input,
  });
  return id;
}

/**
 * Vehicle edit: every field, the category and the status (sold needs its price and date; a
 * sold vehicle leaves the public listing and search). The search text is rebuilt and
 * updated_at set.
 */
export async function updateVehicle(deps: Deps, id: number, input: VehicleEdit, actorEmail: string): Promise<void> {
  const before = await getVehicleForAdmin(deps.database, id);
  if (!before) throw new NotFoundError(vehicleMessages.notFound);
  const category = await categorySlug(deps.database, input.categoryId);
  // A draft (decision 084) is published once; a car the public has seen is marked sold or deleted, not hidden again.
  if (input.status === 'draft' && before.status !== 'draft') throw new InvalidInputError(t('noBackToDraft'), { status: t('chooseStatus') });
  const sold = input.status === 'sold';
  if (sold && (input.soldPrice === null || !input.soldAt)) throw new InvalidInputError(t('soldNeedsPrice'));
  const now = new Date(deps.clock.now()).toISOString();
  await deps.database.db
    .updateTable('vehicles')
    .set({
      ...vehicleColumns(input, category.name),
      status: input.status,
      sold_price: sold ? input.soldPrice : null,
      sold_at: sold ? input.soldAt : null,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  const after = await getVehicleForAdmin(deps.database, id);
  await recordAudit(deps, {
    actorEmail,
    action: 'update',
    entity: 'vehicle',
    entityId: id,
    summary: `Updated vehicle ${input.name.trim()}`,
    before: auditView(before),
    after: after ? auditView(after) : input,
  });
  if (before.status !== input.status) {
    await recordAudit(deps, {
      actorEmail,
      action: 'status',
      entity: 'vehicle',
      entityId: id,
      summary: `Marked ${input.name.trim()} as ${input.status}`,
      before: { status: before.status, soldPrice: before.soldPrice, soldAt: before.soldAt },
      after: { status: input.status, soldPrice: sold ? input.soldPrice : null, soldAt: sold ? input.soldAt : null },
    });
  }
}

/**
 * Delete vehicle: the row and its image rows, then the image files. Wishlist entries stay: a
 * wishlist names a removed car as no longer available. Returns the name it was shown by.
 */
export async function deleteVehicle(deps: Deps, id: number, actorEmail: string): Promise<{ name: string }> {
  const before = await getVehicleForAdmin(deps.database, id);
  if (!before) throw new NotFoundError(vehicleMessages.notFound);
  await deps.database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('vehicle_images').where('vehicle_id', '=', id).execute();
    await trx.deleteFrom('vehicles').where('id', '=', id).execute();
  });
  await discardImages(deps.storage, before.images);
  await recordAudit(deps, {
    actorEmail,
    action: 'delete',
    entity: 'vehicle',
    entityId: id,
    summary: `Deleted vehicle ${before.name}`,
    before: auditView(before),
  });
  return { name: detailTitle(before) };
}
