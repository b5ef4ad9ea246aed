import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseShareVariantKey, shareVariantKey, shareVariantSize } from '../../app/lib/share-image.ts';
import { deleteImage, deriveShareVariant, storeImage } from '../../server/media/images.ts';
import { renderSiteCard, siteCardSvg } from '../../server/media/site-card.ts';
import { memoryStorage } from '../support/memory-storage.ts';

const photo = async (width: number, height: number) =>
  new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: '#b91c1c' } })
      .jpeg()
      .toBuffer(),
  );

async function measure(body: Uint8Array) {
  const { width, height, format, isProgressive } = await sharp(body).metadata();
  return { width, height, format, isProgressive };
}

describe('share variants', { timeout: 30_000 }, () => {
  it('are 1200 px wide in the photo own ratio, or as wide as a photo stored narrower', () => {
    expect(shareVariantSize({ width: 1600, height: 1200 })).toEqual({ width: 1200, height: 900 });
    expect(shareVariantSize({ width: 1600, height: 838 })).toEqual({ width: 1200, height: 629 });
    expect(shareVariantSize({ width: 1400, height: 1050 })).toEqual({ width: 1400, height: 1050 });
    expect(shareVariantSize({ width: 640, height: 480 })).toEqual({ width: 640, height: 480 });
    expect(shareVariantKey({ key: 'vehicles/suvs/1_front', width: 1600, height: 1200 })).toBe('vehicles/suvs/1_front-share-1200x900.jpg');
    expect(parseShareVariantKey('vehicles/suvs/1_front-share-1200x900.jpg')).toEqual({ key: 'vehicles/suvs/1_front', width: 1200, height: 900 });
    for (const other of ['vehicles/x-1600.webp', 'x-share-0x900.jpg', 'x-share-1200x900.png', '-share-1200x900.jpg', 'x-share-120000x9.jpg'])
      expect(parseShareVariantKey(other)).toBeNull();
  });

  it('are stored at upload as a progressive JPEG of exactly the announced size, and deleted with the photo', async () => {
    const storage = memoryStorage();
    const ref = await storeImage(storage, await photo(2400, 1800), 'vehicles/suvs/1_front', { shareVariant: true });
    const share = storage.files.get(shareVariantKey(ref))!;
    expect(share.type).toBe('image/jpeg');
    expect(await measure(share.body)).toEqual({ width: 1200, height: 900, format: 'jpeg', isProgressive: true });
    await deleteImage(storage, ref);
    expect(storage.files.size).toBe(0);
  });

  it("are left out unless asked for: a seller's photos are never shared", async () => {
    const storage = memoryStorage();
    const ref = await storeImage(storage, await photo(2000, 1500), 'sell/1_front');
    expect([...storage.files.keys()]).toEqual(ref.widths.map((width) => `sell/1_front-${width}.webp`));
  });

  it('are made from the largest WebP of a photo stored without one, in the size the page announces', async () => {
    for (const [width, height] of [
      [2000, 1500],
      [1400, 1000],
      [1200, 800],
      [500, 900],
    ] as const) {
      const storage = memoryStorage();
      const ref = await storeImage(storage, await photo(width, height), 'vehicles/old', { shareVariant: true });
      const key = shareVariantKey(ref);
      storage.files.delete(key);
      const made = await deriveShareVariant(storage, key);
      expect(made, `${width}x${height}`).not.toBeNull();
      expect(await measure(made!)).toMatchObject({ ...shareVariantSize(ref), format: 'jpeg' });
      expect(storage.files.get(key)?.body.byteLength).toBe(made!.byteLength);
    }
  });

  it('are not made for a size no page announces, nor for a photo that is not stored', async () => {
    const storage = memoryStorage();
    const ref = await storeImage(storage, await photo(2400, 1800), 'vehicles/a', { shareVariant: true });
    const before = storage.files.size;
    // (A name at the width of a smaller WebP, 800x600, would be made: a bounded few per photo, each once.)
    for (const key of [
      'vehicles/a-share-1200x600.jpg',
      'vehicles/a-share-600x450.jpg',
      'vehicles/a-share-1600x1200.jpg',
      'vehicles/b-share-1200x900.jpg',
      'vehicles/a-1600.webp',
    ]) {
      expect(await deriveShareVariant(storage, key), key).toBeNull();
    }
    expect(storage.files.size).toBe(before);
    expect(ref.width).toBe(1600);
  });
});

describe('the site card', () => {
  it('is a 1200 × 630 JPEG with the site name, escaped', async () => {
    expect(siteCardSvg('Raj & Sons <Motors>')).toContain('Raj &#38; Sons &#60;Motors&#62;');
    expect(await measure(await renderSiteCard('Gaadi Bazaar'))).toEqual({ width: 1200, height: 630, format: 'jpeg', isProgressive: true });
  });
});
