import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkUpload, storeUploads } from '../../server/catalog/admin-images.ts';
import { uploadsFrom } from '../../server/http/forms.ts';
import { ImageRefusedError } from '../../server/errors.ts';
import { memoryStorage } from '../support/memory-storage.ts';

async function jpeg(width = 1000, height = 700): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: '#2563eb' } })
      .jpeg()
      .toBuffer(),
  );
}

describe('uploadsFrom', () => {
  it('keeps the files of the field with their base names', () => {
    const uploads = uploadsFrom(
      {
        files: [
          { field: 'images', name: 'C:\\fakepath\\front.jpg', type: 'image/jpeg', path: '/tmp/upload-x/0', size: 3 },
          { field: 'cover', name: 'cover.jpg', type: 'image/jpeg', path: '/tmp/upload-x/1', size: 3 },
        ],
      },
      'images',
    );
    expect(uploads).toEqual([{ name: 'front.jpg', source: '/tmp/upload-x/0' }]);
  });
});

describe('checkUpload', () => {
  it('accepts a photo', async () => {
    await expect(checkUpload({ name: 'a.jpg', source: await jpeg() })).resolves.toMatchObject({ width: 1000, height: 700 });
  });

  it('refuses by content, naming the file and the reason', async () => {
    const text = checkUpload({ name: 'notes.jpg', source: new TextEncoder().encode('hello') });
    await expect(text).rejects.toBeInstanceOf(ImageRefusedError);
    await expect(checkUpload({ name: 'notes.jpg', source: new TextEncoder().encode('hello') })).rejects.toThrow(
      'Failed to upload image: notes.jpg. Please try again. This file is not an image we can read.',
    );
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(checkUpload({ name: 'logo.svg', source: svg })).rejects.toThrow('Only photos can be uploaded');
    await expect(checkUpload({ name: 'big.jpg', source: new Uint8Array(15 * 1024 * 1024 + 1) })).rejects.toThrow('larger than 15 MB');
  });
});

describe('storeUploads', () => {
  it('stores WebP variants under {prefix}/{timestamp}_{safe name}, distinct names for equal ones', async () => {
    const storage = memoryStorage();
    const photo = await jpeg(1000, 700);
    const stored = await storeUploads(
      storage,
      [
        { name: 'My Car (Front).JPG', source: photo },
        { name: 'my car front.png', source: photo },
      ],
      'vehicles/suvs',
      1_764_072_000_000,
    );
    expect(stored[0]!.key).toBe('vehicles/suvs/1764072000000_my-car-front');
    expect(stored[1]!.key).toBe('vehicles/suvs/1764072000000_my-car-front-2');
    // Each photo's WebP variants, and its JPEG share variant in its own size (decision 086).
    expect([...storage.files.keys()].sort()).toEqual(
      stored.flatMap((image) => [...image.widths.map((width) => `${image.key}-${width}.webp`), `${image.key}-share-1000x700.jpg`]).sort(),
    );
  });

  it('stores nothing when any upload is refused, even a later one', async () => {
    const storage = memoryStorage();
    await expect(
      storeUploads(
        storage,
        [
          { name: 'good.jpg', source: await jpeg() },
          { name: 'bad.jpg', source: new Uint8Array([1, 2, 3]) },
        ],
        'x',
        1_764_072_000_000,
      ),
    ).rejects.toThrow('Failed to upload image: bad.jpg.');
    expect(storage.files.size).toBe(0);
  });

  it('removes what it stored when storing fails half way', async () => {
    const storage = memoryStorage(4);
    await expect(
      storeUploads(
        storage,
        [
          { name: 'one.jpg', source: await jpeg() },
          { name: 'two.jpg', source: await jpeg() },
        ],
        'x',
        1_764_072_000_000,
      ),
    ).rejects.toThrow('disk full');
    expect(storage.files.size).toBe(0);
  });
});
