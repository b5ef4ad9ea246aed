import type { Context } from 'hono';
import { ServiceUnavailableError } from '../../errors.ts';
import { IMMUTABLE_CACHING, type Storage } from '../storage.ts';

const contentTypes: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * Serves stored files. Keys never change once written (a new upload gets a new key), so
 * browsers and CDNs may keep them for a year without asking again.
 */
export function mediaHandler(storage: Storage) {
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
    if (!file) return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    return new Response(file.body, {
      headers: {
        'Content-Type': contentType,
        'Content-Length': String(file.size),
        'Cache-Control': IMMUTABLE_CACHING,
      },
    });
  };
}
