import type { Context } from 'hono';
import type { Storage } from '../storage.ts';

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
    const file = await storage.get(key);
    if (!file) return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    return new Response(file.body, {
      headers: {
        'Content-Type': contentType,
        'Content-Length': String(file.size),
        'Cache-Control': 'public, max-age=31536000, immutable',
      },
    });
  };
}
