import { matchPattern, pathPatterns, paths } from '../../app/lib/paths.ts';
import { hasSessionCookie } from '../auth/session-cookie.ts';

/**
 * A few-seconds cache of the public catalogue pages as anonymous visitors get them. A burst of
 * visitors (a shared WhatsApp link, an ad) then costs one render per page every few seconds
 * instead of one per request. Each instance keeps its own entries, so a change shows everywhere
 * within `ttlMs`; a change made through this instance clears it at once.
 *
 * Pages carry a per-request CSP nonce: a cached page gets the new request's nonce in place of
 * the one it was rendered with (a random 22-character value cannot occur by chance).
 *
 * A page the cache took part in carries `X-Cache: hit` (served from memory) or `X-Cache: miss`
 * (rendered and stored): operators can see the cache work, and the tests prove hits with it.
 * Pages the cache never keeps (signed in, not a catalogue page, cache off) carry no such header.
 */

/** The page as bytes, cut where the nonce stood, so a hit neither re-encodes nor searches it. */
type Entry = { pieces: Buffer[]; status: number; headers: [string, string][]; expires: number };

/** Pages that are the same for every signed-out visitor. */
const CACHEABLE_PAGES: readonly string[] = [paths.home, paths.categories(), paths.about, paths.contact];

function isCacheablePath(pathname: string): boolean {
  if (CACHEABLE_PAGES.includes(pathname)) return true;
  // Ids are digits: other vehicle paths are not-found pages, and keeping those would let junk URLs fill the cache.
  const vehicle = matchPattern(pathPatterns.vehicle, pathname);
  return vehicle !== null && /^\d{1,12}$/.test(vehicle.id!);
}

export function isCacheablePageRequest(request: Request): boolean {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  if (!isCacheablePath(url.pathname)) return false;
  return !hasSessionCookie(request.headers.get('cookie') ?? '');
}

export function createPageCache(options: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, Entry>();

  return {
    clear() {
      entries.clear();
    },
    async serve(request: Request, nonce: string, render: () => Promise<Response>): Promise<Response> {
      if (options.ttlMs <= 0 || !isCacheablePageRequest(request)) return render();
      const key = new URL(request.url).pathname + new URL(request.url).search;
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expires > now) {
        const nonceBytes = Buffer.from(nonce);
        const parts = hit.pieces.flatMap((piece, index) => (index === 0 ? [piece] : [nonceBytes, piece]));
        const headers = new Headers(hit.headers);
        headers.set('x-cache', 'hit');
        return new Response(Buffer.concat(parts), { status: hit.status, headers });
      }
      const response = await render();
      const type = response.headers.get('content-type') ?? '';
      // Only whole HTML pages without cookies: never a redirect, an error or a personal answer.
      if ((response.status !== 200 && response.status !== 404) || !type.startsWith('text/html') || response.headers.has('set-cookie')) {
        return response;
      }
      const body = await response.text();
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      entries.delete(key);
      const pieces = body.split(nonce).map((piece) => Buffer.from(piece));
      entries.set(key, { pieces, status: response.status, headers: [...response.headers].filter(([name]) => name !== 'content-length'), expires: now + options.ttlMs });
      const headers = new Headers(response.headers);
      headers.set('x-cache', 'miss');
      return new Response(body, { status: response.status, headers });
    },
  };
}
