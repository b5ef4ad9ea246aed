import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { cleanLine } from '../../app/lib/input.ts';
import { categoryMessages, MAX_CATEGORY_NAME } from '../../app/lib/category-rules.ts';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/connection.ts';
import type { CategoryTable, DB } from '../db/schema.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import type { Storage } from '../media/storage.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import type { Upload } from '../media/images.ts';
import { discardImages, storeUploads } from './admin-images.ts';
import { toImageRef } from './rows.ts';
import { buildSearchText, SEARCHED_COLUMNS, searchedFieldsOf } from './search.ts';
import { categorySlug } from './vehicles.ts';
import type { Clock } from '../clock.ts';
import { adminVehiclesText as t } from '../../app/features/admin/admin-vehicles-texts.ts';

/** Category administration (SPEC 2 Admin add category / manage categories; 5; 8). */

export { categoryMessages, MAX_CATEGORY_NAME };

export type AdminCategory = {
  id: number;
  name: string;
  slug: string;
  image: ImageRef | null;
  /** Every vehicle in it, sold ones included: a category with any cannot be deleted. */
  vehicleCount: number;
  updatedAt: string;
};

type Deps = { database: Database; storage: Storage; clock: Clock };
type Executor = Kysely<DB> | Transaction<DB>;

/** A category as the admin screens read it (all but its creation time). */
type CategoryRow = Omit<Selectable<CategoryTable>, 'created_at'>;

function imageOf(row: CategoryRow): ImageRef | null {
  return row.image_key && row.image_width && row.image_height && row.image_widths
    ? toImageRef({ key: row.image_key, width: row.image_width, height: row.image_height, variant_widths: row.image_widths })
    : null;
}

function snapshot(row: CategoryRow) {
  return { name: row.name, slug: row.slug, image: row.image_key };
}

export async function listAdminCategories(database: Database): Promise<AdminCategory[]> {
  const rows = await database.db
    .selectFrom('categories')
    .select(['id', 'name', 'slug', 'image_key', 'image_width', 'image_height', 'image_widths', 'updated_at'])
    .select((eb) =>
      eb
        .selectFrom('vehicles')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .whereRef('vehicles.category_id', '=', 'categories.id')
        .as('vehicle_count'),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    image: imageOf(row),
    vehicleCount: Number(row.vehicle_count ?? 0),
    updatedAt: row.updated_at,
  }));
}

/** Just the choices for a vehicle's category field. */
export async function categoryChoices(database: Database): Promise<Array<{ id: number; name: string }>> {
  return database.db.selectFrom('categories').select(['id', 'name']).orderBy('name').execute();
}

/** A name that cannot be used, taken ones included: the name field is what the admin changes. */
function nameRefused(message: string): InvalidInputError {
  return new InvalidInputError(message, { name: message });
}

function cleanName(name: string): string {
  const trimmed = cleanLine(name).replace(/\s+/g, ' ');
  if (!trimmed) throw nameRefused(categoryMessages.nameRequired);
  if (trimmed.length > MAX_CATEGORY_NAME) throw nameRefused(t('categoryNameTooLong', { max: MAX_CATEGORY_NAME }));
  return trimmed;
}

async function assertNameFree(db: Executor, name: string, exceptId?: number) {
  let query = db
    .selectFrom('categories')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw nameRefused(t('categoryExists', { name }));
}

/** The name's slug, or the slug with -2, -3 … when another category holds it. */
async function uniqueSlug(db: Executor, name: string, exceptId?: number): Promise<string> {
  const base = categorySlug(name);
  let query = db
    .selectFrom('categories')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const taken = new Set((await query.execute()).map((row) => row.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The columns' own unique rules (migration 001), named by PostgreSQL as `<table>_<column>_key`. */
const CATEGORY_UNIQUE_RULES = { name: { constraint: 'categories_name_key', column: 'name' }, slug: { constraint: 'categories_slug_key', column: 'slug' } };

/** Whether a category's name or slug was taken meanwhile (another admin saved the same name at once). */
function isUniqueViolation(error: unknown): boolean {
  return brokenUniqueRule(error, 'categories', CATEGORY_UNIQUE_RULES) !== null;
}

async function storeCategoryImage(storage: Storage, image: Upload | null | undefined, nowMs: number): Promise<ImageRef | null> {
  if (!image) return null;
  const [stored] = await storeUploads(storage, [image], 'categories', nowMs);
  return stored ?? null;
}

/** Add category: the name (trimmed, not blank, unique regardless of case) and an optional image. */
export async function addCategory(deps: Deps, input: { name: string; image?: Upload | null }, actorEmail: string): Promise<number> {
  const name = cleanName(input.name);
  await assertNameFree(deps.database.db, name);
  const image = await storeCategoryImage(deps.storage, input.image, deps.clock.now());
  const now = new Date(deps.clock.now()).toISOString();
  let id: number;
  try {
    const row = await deps.database.db
      .insertInto('categories')
      .values({
        name,
        slug: await uniqueSlug(deps.database.db, name),
        image_key: image?.key ?? null,
        image_width: image?.width ?? null,
        image_height: image?.height ?? null,
        image_widths: image ? image.widths.join(',') : null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = row.id;
  } catch (error) {
    if (image) await discardImages(deps.storage, [image]);
    if (isUniqueViolation(error)) throw nameRefused(t('categoryExists', { name }));
    throw error;
  }
  await recordAudit(deps, {
    actorEmail,
    action: 'create',
    entity: 'category',
    entityId: id,
    summary: `Added category ${name}`,
    after: { name, image: image?.key ?? null },
  });
  return id;
}

async function findCategory(db: Executor, id: number): Promise<CategoryRow | undefined> {
  return db
    .selectFrom('categories')
    .select(['id', 'name', 'slug', 'image_key', 'image_width', 'image_height', 'image_widths', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Edit category: rename (the slug follows, kept unique, and every vehicle in it is found by the
 * new name at once) and/or replace the image (the old image's files are deleted).
 */
export async function updateCategory(
  deps: Deps,
  id: number,
  input: { name: string; image?: Upload | null; removeImage?: boolean },
  actorEmail: string,
): Promise<void> {
  const name = cleanName(input.name);
  const before = await findCategory(deps.database.db, id);
  if (!before) throw new NotFoundError(categoryMessages.notFound);
  await assertNameFree(deps.database.db, name, id);
  const image = await storeCategoryImage(deps.storage, input.image, deps.clock.now());
  const replacesImage = Boolean(image) || Boolean(input.removeImage);
  const now = new Date(deps.clock.now()).toISOString();
  let slug = before.slug;
  try {
    await deps.database.db.transaction().execute(async (trx) => {
      slug = name === before.name ? before.slug : await uniqueSlug(trx, name, id);
      await trx
        .updateTable('categories')
        .set({
          name,
          slug,
          updated_at: now,
          ...(replacesImage
            ? {
                image_key: image?.key ?? null,
                image_width: image?.width ?? null,
                image_height: image?.height ?? null,
                image_widths: image ? image.widths.join(',') : null,
              }
            : {}),
        })
        .where('id', '=', id)
        .execute();
      if (name !== before.name) await rebuildSearchText(trx, id, name);
    });
  } catch (error) {
    if (image) await discardImages(deps.storage, [image]);
    if (isUniqueViolation(error)) throw nameRefused(t('categoryExists', { name }));
    throw error;
  }
  const oldImage = imageOf(before);
  if (replacesImage && oldImage) await discardImages(deps.storage, [oldImage]);
  await recordAudit(deps, {
    actorEmail,
    action: 'update',
    entity: 'category',
    entityId: id,
    summary: name === before.name ? `Updated category ${name}` : `Renamed category ${before.name} to ${name}`,
    before: snapshot(before),
    after: { name, slug, image: replacesImage ? (image?.key ?? null) : before.image_key },
  });
}

/** Search covers the category's name, so each of its vehicles is re-indexed under the new one. */
async function rebuildSearchText(trx: Transaction<DB>, categoryId: number, categoryName: string) {
  const vehicles = await trx
    .selectFrom('vehicles')
    .select(['id', ...SEARCHED_COLUMNS])
    .where('category_id', '=', categoryId)
    .execute();
  for (const vehicle of vehicles) {
    await trx
      .updateTable('vehicles')
      .set({ search_text: buildSearchText(searchedFieldsOf(vehicle, categoryName)) })
      .where('id', '=', vehicle.id)
      .execute();
  }
}

/** Delete category: refused while any vehicle (sold ones too) is in it; its image files go too. */
export async function deleteCategory(deps: Deps, id: number, actorEmail: string): Promise<{ name: string }> {
  const before = await findCategory(deps.database.db, id);
  if (!before) throw new NotFoundError(categoryMessages.notFound);
  const counted = await deps.database.db
    .selectFrom('vehicles')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('category_id', '=', id)
    .executeTakeFirst();
  const count = Number(counted?.count ?? 0);
  if (count > 0) {
    throw new ConflictError(t('categoryStillHas', { name: before.name, count }));
  }
  try {
    await deps.database.db.deleteFrom('categories').where('id', '=', id).execute();
  } catch (error) {
    // A vehicle added at the same moment: the foreign key refuses the delete.
    if (/FOREIGN KEY|foreign key|23503/i.test(String((error as { code?: string }).code ?? '') + String(error))) {
      throw new ConflictError(t('categoryHasVehicles', { name: before.name }));
    }
    throw error;
  }
  const image = imageOf(before);
  if (image) await discardImages(deps.storage, [image]);
  await recordAudit(deps, {
    actorEmail,
    action: 'delete',
    entity: 'category',
    entityId: id,
    summary: `Deleted category ${before.name}`,
    before: snapshot(before),
  });
  return { name: before.name };
}
