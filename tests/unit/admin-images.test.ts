import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkUpload, ImageUploadError, readUploadForm, storeUploads, UploadTooLargeError, uploadsFrom } from '../../server/catalog/admin-images.ts';
import type { Storage } from '../../server/media/storage.ts';

/** Storage in memory; `failOnPut` makes the nth put throw, as a full disk would. */
function memoryStorage(failOnPut?: number): Storage & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  let puts = 0;
  return {
    files,
    async put(key, body) {
      puts += 1;
      if (puts === failOnPut) throw new Error('disk full');
      files.set(key, body);
    },
    async get(key) {
      const body = files.get(key);
      return body ? { body: new Blob([body as Uint8Array<ArrayBuffer>]).stream(), size: body.byteLength } : null;
    },
    async delete(key) {
      files.delete(key);
    },
  };
}

async function jpeg(width = 1000, height = 700): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: '#2563eb' } }).jpeg().toBuffer());
}

function multipart(parts: Array<{ name: string; value: string | Blob; fileName?: string }>): FormData {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === 'string') form.append(part.name, part.value);
    else form.append(part.name, part.value, part.fileName);
  }
  return form;
}

describe('readUploadForm', () => {
  it('reads a form under the limit', async () => {
    const request = new Request('http://x/admin/add-vehicle', { method: 'POST', body: multipart([{ name: 'name', value: 'Swift' }]) });
    const form = await readUploadForm(request, 10_000);
    expect(form.get('name')).toBe('Swift');
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    const request = new Request('http://x/', { method: 'POST', body: 'x'.repeat(10), headers: { 'content-length': '999999', 'content-type': 'application/x-www-form-urlencoded' } });
    await expect(readUploadForm(request, 1000)).rejects.toBeInstanceOf(UploadTooLargeError);
  });

  it('cuts off a streamed body that passes the limit', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
        if (sent > 10 * 1024 * 1024) controller.close();
      },
    });
    const request = new Request('http://x/', { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'multipart/form-data; boundary=abc' } } as RequestInit);
    await expect(readUploadForm(request, 256 * 1024, 'Too big')).rejects.toThrow('Too big');
    expect(sent).toBeLessThan(10 * 1024 * 1024);
  });
});

describe('uploadsFrom', () => {
  it('keeps non-empty files with their base names', async () => {
    const form = multipart([
      { name: 'images', value: new Blob([new Uint8Array([1, 2, 3])]), fileName: 'C:\\fakepath\\front.jpg' },
      { name: 'images', value: new Blob([]), fileName: '' },
      { name: 'images', value: 'not a file' },
    ]);
    const uploads = await uploadsFrom(form, 'images');
    expect(uploads.map((upload) => upload.name)).toEqual(['front.jpg']);
    expect([...uploads[0]!.bytes]).toEqual([1, 2, 3]);
  });
});

describe('checkUpload', () => {
  it('accepts a photo', async () => {
    await expect(checkUpload({ name: 'a.jpg', bytes: await jpeg() })).resolves.toBeUndefined();
  });

  it('refuses by content, naming the file and the reason', async () => {
    const text = checkUpload({ name: 'notes.jpg', bytes: new TextEncoder().encode('hello') });
    await expect(text).rejects.toBeInstanceOf(ImageUploadError);
    await expect(checkUpload({ name: 'notes.jpg', bytes: new TextEncoder().encode('hello') })).rejects.toThrow(
      'Failed to upload image: notes.jpg. Please try again. This file is not an image we can read.',
    );
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(checkUpload({ name: 'logo.svg', bytes: svg })).rejects.toThrow('Only photos can be uploaded');
    await expect(checkUpload({ name: 'big.jpg', bytes: new Uint8Array(15 * 1024 * 1024 + 1) })).rejects.toThrow('larger than 15 MB');
  });
});

describe('storeUploads', () => {
  it('stores WebP variants under {prefix}/{timestamp}_{safe name}, distinct names for equal ones', async () => {
    const storage = memoryStorage();
    const photo = await jpeg(1000, 700);
    const stored = await storeUploads(storage, [
      { name: 'My Car (Front).JPG', bytes: photo },
      { name: 'my car front.png', bytes: photo },
    ], 'vehicles/suvs');
    expect(stored[0]!.key).toMatch(/^vehicles\/suvs\/\d+_my-car-front$/);
    expect(stored[1]!.key).toMatch(/^vehicles\/suvs\/\d+_my-car-front-2$/);
    expect([...storage.files.keys()].sort()).toEqual(
      stored.flatMap((image) => image.widths.map((width) => `${image.key}-${width}.webp`)).sort(),
    );
  });

  it('stores nothing when any upload is refused, even a later one', async () => {
    const storage = memoryStorage();
    await expect(storeUploads(storage, [{ name: 'good.jpg', bytes: await jpeg() }, { name: 'bad.jpg', bytes: new Uint8Array([1, 2, 3]) }], 'x')).rejects.toThrow(
      'Failed to upload image: bad.jpg.',
    );
    expect(storage.files.size).toBe(0);
  });

  it('removes what it stored when storing fails half way', async () => {
    const storage = memoryStorage(4);
    await expect(storeUploads(storage, [{ name: 'one.jpg', bytes: await jpeg() }, { name: 'two.jpg', bytes: await jpeg() }], 'x')).rejects.toThrow('disk full');
    expect(storage.files.size).toBe(0);
  });
});
