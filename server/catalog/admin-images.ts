import { imageTooLarge, MAX_IMAGE_MB } from '../../app/lib/uploads.ts';
import { MAX_VEHICLE_IMAGES } from '../../app/lib/vehicle-schema.ts';
import type { AdminImage, ImageRef } from '../../app/lib/vehicle.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { recordAudit } from '../audit/audit.ts';
import { ImageRefusedError, InvalidInputError, NotFoundError } from '../errors.ts';
import { checkPixelBudget, deleteImage, ImageRejectedError, inspectImage, safeFileStem, storeImage, type Upload } from '../media/images.ts';
import type { Storage } from '../media/storage.ts';
import { toImageRef } from './rows.ts';
import { imageRows, storedImagesOf } from './vehicles.ts';
import type { Clock } from '../clock.ts';
import { adminVehiclesText as t } from '../../app/features/admin/admin-vehicles-texts.ts';

export { MAX_VEHICLE_IMAGES };

/** An admin's photo refused before anything was stored; the message names the file and the reason. */
export function imageUploadRefused(fileName: string, reason: string): ImageRefusedError {
  return new ImageRefusedError(fileName, t('imageUploadRefused', { file: fileName, reason }).trim());
}

/** The message for a photo refused while the form was read (over the size limit), as for any refused photo. */
export function refusedWhileReading(error: { fileName?: string | undefined; message: string }): string {
  return imageUploadRefused(error.fileName || 'image', error.message).message;
}

/**
 * What the admin upload forms say when an upload is refused while it is read (server/http/forms.ts);
 * each message is read when it is asked for, in the language of the request being answered.
 */
export const uploadMessages = {
  get tooLarge() {
    return t('uploadTooLarge', { max: MAX_VEHICLE_IMAGES, mb: MAX_IMAGE_MB });
  },
  get tooManyFiles() {
    return t('tooManyImages', { max: MAX_VEHICLE_IMAGES });
  },
  get fileTooLarge() {
    return imageTooLarge();
  },
};

/** The same for the category forms (one image each). */
export const categoryUploadMessages = {
  get tooLarge() {
    return imageTooLarge();
  },
  get tooManyFiles() {
    return t('chooseOneImage');
  },
  get fileTooLarge() {
    return imageTooLarge();
  },
};

/**
 * Checks an upload by its content, reading only the header: size, a raster format we accept,
 * and the pixel count (a 30000 x 30000 picture is refused here with a message that says so,
 * before anything is decoded or stored). storeImage checks again as it stores.
 */
export async function checkUpload(upload: Upload): Promise<{ width: number; height: number }> {
  try {
    return await inspectImage(upload.source);
  } catch (error) {
    if (error instanceof ImageRejectedError) throw imageUploadRefused(upload.name, error.message);
    throw error;
  }
}

/**
 * Stores uploads under `${prefix}/{timestamp}_{safe file name}` (the pipeline adds
 * `-{width}.webp`). All are checked before the first is stored, and if one still fails while
 * storing, the ones already stored are deleted again: either every image is stored or none.
 */
export async function storeUploads(storage: Storage, uploads: Upload[], prefix: string, nowMs: number): Promise<ImageRef[]> {
  const sizes: Array<{ width: number; height: number }> = [];
  for (const upload of uploads) sizes.push(await checkUpload(upload));
  checkPixelBudget(sizes, 'images');
  const stamp = nowMs;
  const used = new Set<string>();
  const stored: ImageRef[] = [];
  try {
    for (const upload of uploads) {
      let stem = safeFileStem(upload.name);
      for (let n = 2; used.has(stem); n++) stem = `${safeFileStem(upload.name)}-${n}`;
      used.add(stem);
      try {
        // Catalogue photos are shared in link previews: with their JPEG share variant (decision 086).
        stored.push(await storeImage(storage, upload.source, `${prefix}/${stamp}_${stem}`, { shareVariant: true }));
      } catch (error) {
        if (error instanceof ImageRejectedError) throw imageUploadRefused(upload.name, error.message);
        throw error;
      }
    }
  } catch (error) {
    await discardImages(storage, stored);
    throw error;
  }
  return stored;
}

/** Deletes stored images' files, never failing the caller: a leftover file is only logged by it. */
export async function discardImages(storage: Storage, images: ImageRef[]): Promise<void> {
  await Promise.allSettled(images.map((image) => deleteImage(storage, image)));
}

// ------------------------------------------------------------------ the edit page's images

type Deps = { database: Database; storage: Storage; clock: Clock };

/** A vehicle's images in order, with the ids the edit page acts on. */
export async function listVehicleImages(database: Database, vehicleId: number): Promise<AdminImage[]> {
  const rows = await storedImagesOf(database, [vehicleId]);
  return rows.map((row) => ({ ...toImageRef(row), id: row.id, position: row.position }));
}

async function vehicleFolder(database: Database, vehicleId: number): Promise<string> {
  const row = await database.db
    .selectFrom('vehicles')
    .innerJoin('categories', 'categories.id', 'vehicles.category_id')
    .select('categories.slug')
    .where('vehicles.id', '=', vehicleId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(t('vehicleNotFound'));
  return `vehicles/${row.slug}`;
}

/** Adds photos after the existing ones; at most MAX_VEHICLE_IMAGES in all. */
export async function addVehicleImages(deps: Deps, vehicleId: number, uploads: Upload[], actorEmail: string): Promise<AdminImage[]> {
  if (uploads.length === 0) throw new InvalidInputError(t('chooseAtLeastOne'), { images: t('chooseAtLeastOne') });
  const folder = await vehicleFolder(deps.database, vehicleId);
  const existing = await listVehicleImages(deps.database, vehicleId);
  const room = MAX_VEHICLE_IMAGES - existing.length;
  if (uploads.length > room) {
    throw new InvalidInputError(
      room <= 0 ? t('tooManyImagesRemoveOne', { max: MAX_VEHICLE_IMAGES }) : t('tooManyImagesRoom', { max: MAX_VEHICLE_IMAGES, room }),
    );
  }
  const stored = await storeUploads(deps.storage, uploads, folder, deps.clock.now());
  const now = new Date(deps.clock.now()).toISOString();
  try {
    await deps.database.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('vehicle_images')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('vehicle_id', '=', vehicleId)
        .executeTakeFirst();
      const start = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
      await trx
        .insertInto('vehicle_images')
        .values(imageRows(vehicleId, stored, start, now))
        .execute();
      await trx.updateTable('vehicles').set({ updated_at: now }).where('id', '=', vehicleId).execute();
    });
  } catch (error) {
    await discardImages(deps.storage, stored);
    throw error;
  }
  await recordAudit(deps, {
    actorEmail,
    action: 'create',
    entity: 'vehicle_image',
    entityId: vehicleId,
    summary: `Added ${stored.length} image${stored.length === 1 ? '' : 's'} to vehicle ${vehicleId}`,
    after: stored.map((image) => image.key),
  });
  return listVehicleImages(deps.database, vehicleId);
}

/** Numbers a vehicle's photos in the order given (writing only those that moved) and marks the vehicle changed. */
async function saveImageOrder(trx: Transaction<DB>, vehicleId: number, order: AdminImage[], nowMs: number): Promise<void> {
  for (const [position, image] of order.entries()) {
    if (image.position !== position) await trx.updateTable('vehicle_images').set({ position }).where('id', '=', image.id).execute();
  }
  await trx
    .updateTable('vehicles')
    .set({ updated_at: new Date(nowMs).toISOString() })
    .where('id', '=', vehicleId)
    .execute();
}

/** Removes one photo: its row, then its files; the rest close up so the first stays the cover. */
export async function removeVehicleImage(deps: Deps, vehicleId: number, imageId: number, actorEmail: string): Promise<AdminImage[]> {
  const images = await listVehicleImages(deps.database, vehicleId);
  const image = images.find((candidate) => candidate.id === imageId);
  if (!image) throw new NotFoundError(t('imageGone'));
  await deps.database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('vehicle_images').where('id', '=', imageId).where('vehicle_id', '=', vehicleId).execute();
    await saveImageOrder(
      trx,
      vehicleId,
      images.filter((candidate) => candidate.id !== imageId),
      deps.clock.now(),
    );
  });
  // The photo is gone from the vehicle either way; storage that does not answer only leaves a file behind.
  await discardImages(deps.storage, [image]);
  await recordAudit(deps, {
    actorEmail,
    action: 'delete',
    entity: 'vehicle_image',
    entityId: vehicleId,
    summary: `Removed an image from vehicle ${vehicleId}`,
    before: image.key,
  });
  return listVehicleImages(deps.database, vehicleId);
}

/** Moves a photo one place earlier or later; the first photo is the cover. */
export async function moveVehicleImage(deps: Deps, vehicleId: number, imageId: number, direction: 'left' | 'right', actorEmail: string): Promise<AdminImage[]> {
  const images = await listVehicleImages(deps.database, vehicleId);
  const index = images.findIndex((candidate) => candidate.id === imageId);
  if (index === -1) throw new NotFoundError(t('imageGone'));
  const target = direction === 'left' ? index - 1 : index + 1;
  if (target < 0 || target >= images.length) return images;
  const order = [...images];
  [order[index], order[target]] = [order[target]!, order[index]!];
  await deps.database.db.transaction().execute((trx) => saveImageOrder(trx, vehicleId, order, deps.clock.now()));
  await recordAudit(deps, {
    actorEmail,
    action: 'update',
    entity: 'vehicle_image',
    entityId: vehicleId,
    summary: `Reordered the images of vehicle ${vehicleId}`,
    before: images.map((image) => image.key),
    after: order.map((image) => image.key),
  });
  return listVehicleImages(deps.database, vehicleId);
}
