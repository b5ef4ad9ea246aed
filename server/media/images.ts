import sharp, { type Metadata } from 'sharp';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import type { Storage } from './storage.ts';

/** Widths of the WebP variants made for every image; `srcset` picks one per screen. */
export const VARIANT_WIDTHS = [400, 800, 1600] as const;
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
/** A 50-megapixel phone photo is fine; a decompression bomb is not. */
const MAX_INPUT_PIXELS = 60_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export class ImageRejectedError extends Error {}

/**
 * Reads only the image's header and refuses, with a message for the person uploading, anything
 * over 15 MB, anything that is not a raster photo, and anything over 60 megapixels (before a
 * single pixel is decoded).
 */
export async function inspectImage(input: Uint8Array): Promise<Metadata & { width: number; height: number }> {
  if (input.byteLength > MAX_UPLOAD_BYTES) {
    throw new ImageRejectedError('The image is larger than 15 MB. Please choose a smaller photo.');
  }
  let metadata: Metadata;
  try {
    // The header alone: the pixel limit is checked below with its own message.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError('This file is not an image we can read. Please choose a JPEG, PNG or WebP photo.');
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    throw new ImageRejectedError('Only photos can be uploaded (JPEG, PNG, WebP, HEIC, AVIF or GIF).');
  }
  const { width, height } = metadata;
  if (!width || !height || width * height > MAX_INPUT_PIXELS) {
    throw new ImageRejectedError('The image is too large in pixels. Please choose a photo under 60 megapixels.');
  }
  return { ...metadata, width, height };
}

/**
 * Checks that the bytes are a raster image by their content (not the file name), then stores
 * WebP variants without metadata: phone photos carry GPS coordinates and the owner's device.
 * Returns the stored image's reference; nothing is stored when the image is refused.
 */
export async function storeImage(storage: Storage, input: Uint8Array, baseKey: string): Promise<ImageRef> {
  const metadata = await inspectImage(input);

  // rotate() applies the EXIF orientation before the metadata is dropped.
  const upright = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  // EXIF orientations 5 to 8 turn the picture by 90 degrees, swapping width and height.
  const turned = (metadata.orientation ?? 1) >= 5;
  const info = turned ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  const widths: number[] = VARIANT_WIDTHS.filter((width) => width < info.width);
  widths.push(Math.min(info.width, VARIANT_WIDTHS.at(-1)!));
  const uniqueWidths = [...new Set(widths)].sort((a, b) => a - b);

  const written: string[] = [];
  try {
    for (const width of uniqueWidths) {
      const body = await upright.clone().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
      const key = `${baseKey}-${width}.webp`;
      await storage.put(key, body, 'image/webp');
      written.push(key);
    }
  } catch (error) {
    await Promise.allSettled(written.map((key) => storage.delete(key)));
    throw error;
  }
  const largest = uniqueWidths.at(-1)!;
  return {
    key: baseKey,
    width: largest,
    height: Math.round((info.height * largest) / info.width),
    widths: uniqueWidths,
  };
}

export async function deleteImage(storage: Storage, image: Pick<ImageRef, 'key' | 'widths'>): Promise<void> {
  await Promise.all(image.widths.map((width) => storage.delete(`${image.key}-${width}.webp`)));
}

/** 'My Car (front).JPG' -> 'my-car-front'; keeps keys URL- and filesystem-safe. */
export function safeFileStem(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, '');
  const safe = stem
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return safe || 'image';
}
