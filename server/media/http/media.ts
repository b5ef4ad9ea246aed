import type { Context } from 'hono';
import { ServiceUnavailableError } from '../../errors.ts';
import { deriveShareVariant } from '../images.ts';
import { IMMUTABLE_CACHING, type Storage } from '../storage.ts';

const contentTypes: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * Serves stored files. Keys never change once written (a new upload gets a new key), so
 * browsers and CDNs may keep them for a year without asking again. A photo's share variant
 * that is not stored yet (a photo older than share variants) is made from its WebP here, once.
 */
export function mediaHandler(storage: Storage, logger: { warn: (context: object, message: string) => void }) {
  return async (c: Context) => {
    let key: string;
    try {
      key = decodeURIComponent(c.req.path.replace(/^\/media\//, ''));
    } catch {
      return c.text('Not found', 404);
    }
    const extension = key.split('.').pop()?.toLowerCase() ?? '';
    const contentType = contentTypes[extension];
    if (!contentType) return c.text('Not found', 404);
    let file: Awaited<ReturnType<Storage['get']>>;
    try {
      file = await storage.get(key);
    } catch (error) {
      // The bucket did not answer: say so, and let no cache keep the refusal.
      if (error instanceof ServiceUnavailableError) return c.text(error.message, 503, { 'Cache-Control': 'no-store', 'Retry-After': '30' });
      throw error;
    }
    if (!file) {
      let made: Buffer | null;
      try {
        made = await deriveShareVariant(storage, key);
      } catch (error) {
        if (error instanceof ServiceUnavailableError) return c.text(error.message, 503, { 'Cache-Control': 'no-store', 'Retry-After': '30' });
        // A damaged stored WebP: no preview image, as for a photo that is not there.
        logger.warn({ err: error, key }, 'share variant could not be made');
        made = null;
      }
      if (!made) return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
      return new Response(new Uint8Array(made), {
        headers: { 'Content-Type': contentType, 'Content-Length': String(made.byteLength), 'Cache-Control': IMMUTABLE_CACHING },
      });
    }
    return new Response(file.body, {
      headers: {
        'Content-Type': contentType,
        'Content-Length': String(file.size),
        'Cache-Control': IMMUTABLE_CACHING,
      },
    });
  };
}
