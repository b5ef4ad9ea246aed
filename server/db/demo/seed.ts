import sharp from 'sharp';
import type { AppServices } from '../../../app/context.ts';
import type { ImageRef } from '../../../app/lib/vehicle.ts';
import { createCategory, createVehicle, slugify } from '../../catalog/vehicles.ts';
import { storeImage } from '../../media/images.ts';
import { drawCarSvg, type CarBody } from './car-drawing.ts';
import { demoCategories, demoVehicles } from './inventory.ts';

/** Drawn photos are 1200 px wide: enough for the 400 and 800 px variants and a sharp zoom. */
const PHOTO_WIDTH = 1200;

async function drawPhoto(services: AppServices, baseKey: string, spec: { body: CarBody; colour: string; angle: number }, plate?: string) {
  const svg = drawCarSvg({ ...spec, ...(plate ? { plate } : {}) });
  // The drawings go through the same pipeline as an admin's upload.
  const png = await sharp(Buffer.from(svg), { density: 72 * (PHOTO_WIDTH / 1600) }).png().toBuffer();
  return storeImage(services.storage, png, baseKey);
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
 * categories, each with drawn photos. Does nothing when any category exists, so a dealer's
 * real data is never touched.
 */
export async function seedDemoInventory(services: AppServices): Promise<{ categories: number; vehicles: number } | null> {
  const { database } = services;
  const existing = await database.db.selectFrom('categories').select('id').limit(1).executeTakeFirst();
  if (existing) return null;

  const stamp = Date.now();
  const categoryIds = new Map<string, number>();
  for (const category of demoCategories) {
    const slug = slugify(category.name);
    const image = await drawPhoto(services, `categories/${stamp}_${slug}`, { ...category.image, angle: 0 });
    categoryIds.set(category.name, await createCategory(database, { name: category.name, image }));
  }

  const photos = await mapLimited(demoVehicles, 2, async (vehicle, index) => {
    const slug = slugify(vehicle.category);
    const stem = slugify(`${vehicle.make} ${vehicle.model}`);
    const images: ImageRef[] = [];
    for (const spec of vehicle.images) {
      images.push(await drawPhoto(services, `vehicles/${slug}/${stamp}_${stem}-${index}-${spec.angle}`, spec, vehicle.registration));
    }
    return images;
  });

  // Inserted oldest first so the listing's newest-first order matches the inventory's order.
  for (const [index, vehicle] of [...demoVehicles.entries()].reverse()) {
    const categoryId = categoryIds.get(vehicle.category);
    if (!categoryId) throw new Error(`Demo vehicle in unknown category ${vehicle.category}`);
    await createVehicle(database, { ...vehicle, categoryId, fitnessFC: vehicle.fitnessFC }, photos[index] ?? []);
  }
  return { categories: demoCategories.length, vehicles: demoVehicles.length };
}
