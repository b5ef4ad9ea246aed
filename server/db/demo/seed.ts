import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { AppServices } from '../../services.ts';
import type { ImageRef } from '../../../app/lib/vehicle.ts';
import { categorySlug, createCategory, createVehicle } from '../../catalog/vehicles.ts';
import { slugify } from '../../../app/lib/slug.ts';
import { storeImage } from '../../media/images.ts';
import { saveRentalTerms } from '../../rentals/fleet.ts';
import { drawCarSvg, type CarBody } from './car-drawing.ts';
import { demoCategories, demoFitnessCertificate, demoInsuranceValidity, demoVehicles } from './inventory.ts';
import { demoRentalTerms } from './rental-fleet.ts';
import { indiaDay } from '../../../app/lib/india-time.ts';

/** Drawn photos are 1200 px wide: enough for the 400 and 800 px variants and a sharp zoom. */
const PHOTO_WIDTH = 1200;

/** Several test servers seed at once: a reader must never see half a cached file. */
async function writeAtomically(file: string, body: string | Buffer) {
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, body);
  await rename(temporary, file);
}

type PhotoSpec = { body: CarBody; model?: string; colour: string; angle: number };

/**
 * Draws a demo photo and stores it through the same pipeline as an admin's upload. With a
 * cache directory (DEMO_IMAGE_CACHE, used by the test suite, which seeds many databases) the
 * finished WebP variants of an identical drawing are copied instead of drawn again.
 */
async function drawPhoto(services: AppServices, baseKey: string, spec: PhotoSpec, plate: string | undefined, cacheDir: string | undefined): Promise<ImageRef> {
  const svg = drawCarSvg({ ...spec, ...(plate ? { plate } : {}) });
  const cached = cacheDir ? path.join(cacheDir, createHash('sha256').update(`${PHOTO_WIDTH}\n${svg}`).digest('hex')) : null;
  if (cached) {
    try {
      const ref = JSON.parse(await readFile(`${cached}.json`, 'utf8')) as ImageRef;
      for (const width of ref.widths) {
        await services.storage.put(`${baseKey}-${width}.webp`, await readFile(`${cached}-${width}.webp`), 'image/webp');
      }
      return { ...ref, key: baseKey };
    } catch {
      // Not cached yet (or incomplete): draw it.
    }
  }
  const png = await sharp(Buffer.from(svg), { density: 72 * (PHOTO_WIDTH / 1600) })
    .png()
    .toBuffer();
  const ref = await storeImage(services.storage, png, baseKey, { shareVariant: true });
  if (cached) {
    await mkdir(path.dirname(cached), { recursive: true });
    for (const width of ref.widths) {
      const file = await services.storage.get(`${baseKey}-${width}.webp`);
      if (file) await writeAtomically(`${cached}-${width}.webp`, Buffer.from(await new Response(file.body).arrayBuffer()));
    }
    await writeAtomically(`${cached}.json`, JSON.stringify(ref));
  }
  return ref;
}

/** Runs `task` over `items` with at most `limit` at a time (image encoding is CPU-bound). */
async function mapLimited<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Fills an empty database with the demo inventory: realistic Indian used cars in six
 * categories, each with drawn photos; the "Rental Cars" category is the rental fleet. Does nothing when any category exists, so a dealer's
 * real data is never touched.
 */
export async function seedDemoInventory(
  services: AppServices,
  imageCacheDir?: string,
  /** Told after each car's photos are ready: drawing them all takes half a minute the first time. */
  onProgress?: (carsDone: number, carsTotal: number) => void,
): Promise<{ categories: number; vehicles: number } | null> {
  const { database } = services;
  const existing = await database.db.selectFrom('categories').select('id').limit(1).executeTakeFirst();
  if (existing) return null;

  const stamp = services.clock.now();
  const categoryIds = new Map<string, number>();
  for (const category of demoCategories) {
    const slug = categorySlug(category.name);
    const image = await drawPhoto(services, `categories/${stamp}_${slug}`, { ...category.image, angle: 0 }, undefined, imageCacheDir);
    categoryIds.set(category.name, await createCategory(database, { name: category.name, image }, services.clock.now()));
  }

  let carsDone = 0;
  const photos = await mapLimited(demoVehicles, 2, async (vehicle, index) => {
    const slug = categorySlug(vehicle.category);
    const stem = slugify(`${vehicle.make} ${vehicle.model}`, 'car');
    const images: ImageRef[] = [];
    for (const spec of vehicle.images) {
      images.push(await drawPhoto(services, `vehicles/${slug}/${stamp}_${stem}-${index}-${spec.angle}`, spec, vehicle.registration, imageCacheDir));
    }
    onProgress?.(++carsDone, demoVehicles.length);
    return images;
  });

  // Inserted oldest first so the listing's newest-first order matches the inventory's order.
  const seedDay = indiaDay(services.clock.now());
  for (const [index, vehicle] of [...demoVehicles.entries()].reverse()) {
    const categoryId = categoryIds.get(vehicle.category);
    if (!categoryId) throw new Error(`Demo vehicle in unknown category ${vehicle.category}`);
    const insuranceValidity = demoInsuranceValidity(vehicle, seedDay);
    const fitnessFC = demoFitnessCertificate(vehicle, seedDay);
    const id = await createVehicle(database, { ...vehicle, categoryId, fitnessFC, insuranceValidity }, photos[index] ?? [], services.clock.now());
    // The "Rental Cars" are the self-drive fleet, not sale stock: they get their terms here.
    const terms = demoRentalTerms[vehicle.name];
    if (terms) await saveRentalTerms(services, { vehicleId: id, terms });
  }
  return { categories: demoCategories.length, vehicles: demoVehicles.length };
}
