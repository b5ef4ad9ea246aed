import { slugify } from '../../app/lib/slug.ts';
import { open, stat } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import { LARGEST_WEBP_WIDTH, parseShareVariantKey, SHARE_WIDTH, shareVariantKey, shareVariantSize } from '../../app/lib/share-image.ts';
import { imageTooLarge, MAX_IMAGE_BYTES } from '../../app/lib/uploads.ts';
import { InvalidInputError } from '../errors.ts';
import type { Storage } from './storage.ts';

/** Widths of the WebP variants made for every image; `srcset` picks one per screen. */
export const VARIANT_WIDTHS = [400, 800, LARGEST_WEBP_WIDTH] as const;
/**
 * A phone's full-resolution 50-megapixel photo (8160 x 6120) is fine; anything larger costs
 * more than a second of CPU to decode and is refused (docs/decisions/011).
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/**
 * What the images of one request may add up to: ten 12-megapixel phone photos. A public sell
 * submission can thus cost a few seconds of one core at most, not ten decompression bombs.
 */
export const MAX_REQUEST_PIXELS = 120_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export class ImageRejectedError extends Error {}

/** An image's bytes, or the path of a file holding them (an upload streamed to disk). */
export type ImageInput = Uint8Array | string;

/** One uploaded photo: its name as the sender's device gave it (fit to show), and its bytes or the file holding them. */
export type Upload = { name: string; source: ImageInput };

// ------------------------------------------------------------------ CPU bound on image work

/**
 * Decoding and resizing run through a server-wide queue of `concurrency` slots (1 by default,
 * IMAGE_CONCURRENCY), and libvips itself uses one thread per image: however many uploads
 * arrive at once, image work takes at most that many cores and pages stay fast.
 */
sharp.concurrency(1);
let slots = 1;
let busy = 0;
const waiting: Array<() => void> = [];

export function setImageConcurrency(concurrency: number): void {
  slots = Math.max(1, Math.floor(concurrency));
  while (busy < slots && waiting.length > 0) {
    busy++;
    waiting.shift()!();
  }
}

async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (busy < slots) busy++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  }
}

/**
 * Refuses a set of images (already inspected) whose pixels together exceed what one request
 * may cost, before any of them is decoded; the message marks the form's `field`.
 */
export function checkPixelBudget(images: Array<{ width: number; height: number }>, field: string): void {
  const total = images.reduce((sum, image) => sum + image.width * image.height, 0);
  if (total > MAX_REQUEST_PIXELS) {
    const message = `These photos are too large together (${Math.round(total / 1_000_000)} megapixels; at most ${MAX_REQUEST_PIXELS / 1_000_000}). Please send fewer or smaller photos.`;
    throw new InvalidInputError(message, { [field]: message });
  }
}

/**
 * Reads only the image's header and refuses, with a message for the person uploading, anything
 * over MAX_IMAGE_BYTES, anything that is not a raster photo, and anything over 50 megapixels (before a
 * single pixel is decoded).
 */
export async function inspectImage(input: ImageInput): Promise<Metadata & { width: number; height: number }> {
  const size = typeof input === 'string' ? (await stat(input)).size : input.byteLength;
  if (size > MAX_IMAGE_BYTES) {
    throw new ImageRejectedError(imageTooLarge());
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
    throw new ImageRejectedError(`The image is too large in pixels. Please choose a photo under ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`);
  }
  // libvips decodes a PNG cut off just before its end chunk without a word; a file that did
  // not arrive whole is refused like any other damaged one.
  if (metadata.format === 'png' && !(await endsWith(input, size, PNG_END))) throw new ImageRejectedError(DAMAGED_IMAGE);
  return { ...metadata, width, height };
}

export const DAMAGED_IMAGE = 'This photo is damaged or incomplete (it may not have finished copying). Please choose it again.';
/** A PNG's last chunk: IEND, empty, with its checksum. */
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

async function endsWith(input: ImageInput, size: number, tail: Buffer): Promise<boolean> {
  if (size < tail.length) return false;
  if (typeof input !== 'string') return Buffer.from(input.subarray(size - tail.length)).equals(tail);
  const file = await open(input, 'r');
  try {
    const read = Buffer.alloc(tail.length);
    await file.read(read, 0, tail.length, size - tail.length);
    return read.equals(tail);
  } finally {
    await file.close();
  }
}

/**
 * Decodes an image whole: sharp's default `failOn: 'warning'` already stops at a truncated
 * JPEG or a broken PNG stream; such a failure is the file's fault, told to the person, never a 500.
 */
async function decodeWhole<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && /vips|read error|premature end|truncated|corrupt/i.test(error.message)) throw new ImageRejectedError(DAMAGED_IMAGE);
    throw error;
  }
}

/**
 * Checks that the bytes are a raster image by their content (not the file name), then stores
 * WebP variants without metadata: phone photos carry GPS coordinates and the owner's device.
 * Returns the stored image's reference; nothing is stored when the image is refused. With
 * `shareVariant` (photos of the public catalogue: cars and categories), also the JPEG that link
 * previews show; a seller's or a renter's photos are never shared and get none.
 */
export async function storeImage(storage: Storage, input: ImageInput, baseKey: string, options: { shareVariant?: boolean } = {}): Promise<ImageRef> {
  const metadata = await inspectImage(input);

  // EXIF orientations 5 to 8 turn the picture by 90 degrees, swapping width and height.
  const turned = (metadata.orientation ?? 1) >= 5;
  const info = turned ? { width: metadata.height, height: metadata.width } : { width: metadata.width, height: metadata.height };
  const widths: number[] = VARIANT_WIDTHS.filter((width) => width < info.width);
  widths.push(Math.min(info.width, VARIANT_WIDTHS.at(-1)!));
  const uniqueWidths = [...new Set(widths)].sort((a, b) => a - b);
  const largest = uniqueWidths.at(-1)!;
  const ref = { key: baseKey, width: largest, height: Math.round((info.height * largest) / info.width), widths: uniqueWidths };
  const share = options.shareVariant ? { key: shareVariantKey(ref), ...shareVariantSize(ref) } : null;

  const variants = await withImageSlot(() =>
    decodeWhole(async () => {
      // The photo is decoded once, to the largest variant's size (rotate() applies the EXIF
      // orientation before the metadata is dropped); the smaller variants are made from those
      // pixels, not by decoding the original again for each.
      const { data, info: raw } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width: largest, withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixels = { raw: { width: raw.width, height: raw.height, channels: raw.channels } };
      const bodies: Array<{ key: string; type: string; body: Buffer }> = [];
      for (const width of uniqueWidths) {
        bodies.push({
          key: `${baseKey}-${width}.webp`,
          type: 'image/webp',
          body: await sharp(data, pixels).resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
        });
      }
      if (share) bodies.push({ key: share.key, type: 'image/jpeg', body: await shareJpeg(sharp(data, pixels), share) });
      return bodies;
    }),
  );

  const written: string[] = [];
  try {
    for (const { key, type, body } of variants) {
      await storage.put(key, body, type);
      written.push(key);
    }
  } catch (error) {
    await Promise.allSettled(written.map((key) => storage.delete(key)));
    throw error;
  }
  return ref;
}

/**
 * The share variant link previews fetch (decision 086): a progressive JPEG (WhatsApp, Facebook
 * and LinkedIn show no WebP preview) at exactly the size its name and the page's tags announce,
 * small enough for WhatsApp's limit of about 300 kB.
 */
function shareJpeg(image: Sharp, size: { width: number; height: number }): Promise<Buffer> {
  return image
    .resize({ width: size.width, height: size.height, fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80, progressive: true, mozjpeg: true })
    .toBuffer();
}

/**
 * The share variant of a photo stored before share variants existed (the demo inventory, older
 * uploads), made from its largest WebP variant the first time it is asked for and stored under
 * its key, so every later request (on any instance, or from the bucket) is a plain read. Two
 * instances making it at once write the same bytes; a put never leaves half a file. Returns
 * null when `key` is no share variant's name or its photo is not stored, and when the size in
 * the name is not in the photo's ratio at the width of one of its WebP variants (1200 from the
 * 1600): a stranger can make at most a few files per photo, each once, never a size of their own.
 */
export async function deriveShareVariant(storage: Storage, key: string): Promise<Buffer | null> {
  const wanted = parseShareVariantKey(key);
  if (!wanted || wanted.width >= LARGEST_WEBP_WIDTH) return null;
  // A 1200 px variant comes from a 1600 px WebP (or a photo exactly 1200 wide); any other width
  // is a photo stored that narrow, whose largest WebP has that very width.
  const sources = wanted.width === SHARE_WIDTH ? [LARGEST_WEBP_WIDTH, SHARE_WIDTH] : [wanted.width];
  for (const width of sources) {
    const file = await storage.get(`${wanted.key}-${width}.webp`);
    if (!file) continue;
    const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
    const body = await withImageSlot(async () => {
      const source = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS });
      const { width: sourceWidth = 0, height: sourceHeight = 0 } = await source.metadata();
      // The name must be the share variant of this very photo (its ratio, within rounding).
      const expected = shareVariantSize({ width: sourceWidth, height: sourceHeight });
      if (expected.width !== wanted.width || Math.abs(expected.height - wanted.height) > 1) return null;
      return shareJpeg(source, wanted);
    });
    if (!body) return null;
    await storage.put(key, body, 'image/jpeg');
    return body;
  }
  return null;
}

/**
 * One private photo (a driving licence side): checked like every upload (bytes, format, pixels),
 * turned upright and stored as a single WebP without metadata at most `width` pixels wide under
 * `key`. Private photos get no variants: they are only ever shown whole, to their owner and the
 * admins, never through `srcset` on a public page.
 */
export async function storeSinglePhoto(storage: Storage, input: ImageInput, key: string, width = VARIANT_WIDTHS.at(-1)!): Promise<void> {
  await inspectImage(input);
  const body = await withImageSlot(() =>
    decodeWhole(() =>
      sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer(),
    ),
  );
  await storage.put(key, body, 'image/webp');
}

/**
 * As storeSinglePhoto, plus a small copy under `thumbKey` made from the stored photo (the
 * original is decoded once): for pages that list many private photos, where the full one is
 * opened only when tapped.
 */
export async function storeSinglePhotoWithThumb(storage: Storage, input: ImageInput, key: string, thumbKey: string, thumbWidth = 320): Promise<void> {
  await inspectImage(input);
  const { body, thumb } = await withImageSlot(() =>
    decodeWhole(async () => {
      const body = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width: VARIANT_WIDTHS.at(-1)!, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      const thumb = await sharp(body).resize({ width: thumbWidth, withoutEnlargement: true }).webp({ quality: 70 }).toBuffer();
      return { body, thumb };
    }),
  );
  await storage.put(key, body, 'image/webp');
  try {
    await storage.put(thumbKey, thumb, 'image/webp');
  } catch (error) {
    await storage.delete(key).catch(() => {});
    throw error;
  }
}

/**
 * Deletes a photo's files: its WebP variants and, for a photo with a size (a seller's photos have
 * no share variant and their rows keep none), its share variant, made at upload or on demand;
 * deleting one that was never made is harmless.
 */
export async function deleteImage(storage: Storage, image: Pick<ImageRef, 'key' | 'widths'> & Partial<Pick<ImageRef, 'width' | 'height'>>): Promise<void> {
  const share = image.width && image.height ? [shareVariantKey({ key: image.key, width: image.width, height: image.height })] : [];
  await Promise.all([...image.widths.map((width) => `${image.key}-${width}.webp`), ...share].map((key) => storage.delete(key)));
}

/** 'My Car (front).JPG' -> 'my-car-front'; keeps keys URL- and filesystem-safe. */
export function safeFileStem(fileName: string): string {
  return slugify(fileName.replace(/\.[^.]*$/, ''), 'image');
}
