import type { ImageRef } from './vehicle.ts';
import { browseSharedText } from './i18n/browseShared.ts';

/**
 * The picture a link preview (WhatsApp, Facebook, X, LinkedIn, Telegram) shows for a page, with
 * what its tags say about it. Preview clients ignore WebP or a picture without a size, so every
 * share image is a JPEG whose width and height are known before it is fetched (decision 086).
 */
export type ShareImage = {
  /** A site path ('/media/…'); the meta tags make it absolute with the site's public origin. */
  path: string;
  width: number;
  height: number;
  alt: string;
  type: 'image/jpeg';
};

/** The width preview clients ask for (1200 × 630 is Facebook's and X's large card). */
export const SHARE_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;

/** The site's own card, for pages about no one car: made from the brand (server/media/site-card.ts). */
export const SITE_CARD_PATH = `/share/site-card-${SHARE_WIDTH}x${SHARE_CARD_HEIGHT}.jpg`;

export function siteShareImage(siteName: string): ShareImage {
  return { path: SITE_CARD_PATH, width: SHARE_WIDTH, height: SHARE_CARD_HEIGHT, alt: browseSharedText('siteCardAlt', { site: siteName }), type: 'image/jpeg' };
}

/** The widest WebP variant stored of a photo (VARIANT_WIDTHS in server/media/images.ts). */
export const LARGEST_WEBP_WIDTH = 1600;

/**
 * The share variant's size: the photo's own ratio (never cropped), 1200 px wide when its largest
 * WebP is the full 1600; a photo stored narrower keeps that width, so the variant can always be
 * made again from the largest WebP alone. Worked out from the stored reference, so a page can
 * name it without reading the file.
 */
export function shareVariantSize(image: Pick<ImageRef, 'width' | 'height'>): { width: number; height: number } {
  const width = image.width >= LARGEST_WEBP_WIDTH ? SHARE_WIDTH : image.width;
  return { width, height: Math.max(1, Math.round((image.height * width) / image.width)) };
}

/**
 * A photo's share variant is stored beside its WebP variants as `<key>-share-<w>x<h>.jpg`: the
 * name carries its size, so the file served under it always has exactly the size the page's
 * tags announce, however the photo was stored (server/media/images.ts makes it at upload, or
 * from the largest WebP the first time it is asked for).
 */
export function shareVariantKey(image: Pick<ImageRef, 'key' | 'width' | 'height'>): string {
  const { width, height } = shareVariantSize(image);
  return `${image.key}-share-${width}x${height}.jpg`;
}

/** `<key>-share-<w>x<h>.jpg` -> its parts, or null for any other name. */
export function parseShareVariantKey(key: string): { key: string; width: number; height: number } | null {
  const match = /^(.+)-share-([1-9]\d{0,4})x([1-9]\d{0,4})\.jpg$/.exec(key);
  return match ? { key: match[1]!, width: Number(match[2]), height: Number(match[3]) } : null;
}

export function photoShareImage(image: ImageRef, alt: string): ShareImage {
  return { path: `/media/${shareVariantKey(image)}`, ...shareVariantSize(image), alt, type: 'image/jpeg' };
}

/** A car's cover photo as its share image, or the site's card for a car without photos. */
export function coverShareImage(images: readonly ImageRef[], alt: string, siteName: string): ShareImage {
  const cover = images[0];
  return cover ? photoShareImage(cover, alt) : siteShareImage(siteName);
}
