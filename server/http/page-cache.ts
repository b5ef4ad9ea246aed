import { createHash } from 'node:crypto';
import { languageOfPath } from '../../app/lib/i18n/language.ts';
import { visitorLanguage } from './language-choice.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { hasFlashCookie, isSharedPageRequest, pageCacheKey } from './shared-pages.ts';
import type { Clock } from '../clock.ts';
import { chooseEncoding, compressBytes, type Encoding } from './compression.ts';
import { securityHeaderList, type SecurityOptions } from './security.ts';

export { pageCacheKey };

/**
 * A few-seconds cache of the shared pages (shared-pages.ts): the public catalogue pages, the same for every visitor signed in or not (decision 127). A burst of
 * visitors (a shared WhatsApp link, an ad) then costs one render per page every few seconds
 * instead of one per request. Each instance keeps its own entries, so a change shows everywhere
 * within `ttlMs`; a change made through this instance clears it at once.
 *
 * A page is compressed once when it is stored (brotli; gzip at the first client wanting it) and every hit sends those bytes
 * as they are: from the server's request listener before any routing (`answer`), so a hit costs
 * about what a bare `node:http` server sending the same bytes costs.
 * The per-request CSP nonce would change the bytes of every answer, so a stored page carries
 * none: its inline scripts are allowed by their SHA-256 hashes, computed when it is stored
 * (docs/decisions/027-compressed-page-cache.md). Pages rendered for one request keep the nonce.
 *
 * Entries are keyed by the page's address without tracking parameters (`?utm_source=…`), and
 * only pages asked with parameters they declare are kept (pageCacheKey). The cache is bounded
 * by the bytes it holds; the least recently used page leaves first.
 *
 * A page the cache took part in carries `X-Cache: hit` (served from memory) or `X-Cache: miss`
 * (rendered and stored): operators can see the cache work, and the tests prove hits with it.
 * Pages the cache never keeps (personal pages, a flash message waiting, cache off) carry no such header.
 */

type Entry = {
  status: number;
  /** The page's own headers (type, caching), without length, encoding and Vary. */
  headers: [string, string][];
  /** The CSP sources of its inline scripts: their hashes. */
  scriptSources: string;
  br: Buffer;
  /** Made at the first client taking gzip but not brotli (every current browser takes brotli). */
  gzip: Buffer | null;
  /** Every header of a hit but the length, flattened for `writeHead`. */
  raw: string[];
  bytes: number;
  expires: number;
};

export function isCacheablePageRequest(request: Request): boolean {
  if (request.method !== 'GET') return false;
  // Credentials of any kind (a bearer token, which pages refuse) are the app's to judge.
  if (request.headers.has('authorization')) return false;
  return isSharedPageRequest(request);
}

/** Inline scripts of a page (`<script>` without src) as CSP hash sources. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(` ${match[1]}`)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

export type PageCache = ReturnType<typeof createPageCache>;

/** `onLookup` hears whether each lookup of a cacheable page was a hit or a miss (/metrics, decision 111). */
export function createPageCache(options: {
  ttlMs: number;
  maxBytes: number;
  clock: Clock;
  security: SecurityOptions;
  onLookup?: (outcome: 'hit' | 'miss') => void;
}) {
  const entries = new Map<string, Entry>();
  /** Pages being rendered to be stored, by key. */
  const filling = new Map<string, Promise<Entry | null>>();
  let heldBytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    heldBytes -= entry.bytes;
  }

  /** The fresh entry under `key`, moved to the most recently used end; expired entries leave. */
  function lookup(key: string): Entry | null {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expires <= options.clock.now()) {
      remove(key);
      return null;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function store(key: string, entry: Entry) {
    remove(key);
    if (entry.bytes > options.maxBytes) return;
    while (heldBytes + entry.bytes > options.maxBytes && entries.size > 0) remove(entries.keys().next().value!);
    entries.set(key, entry);
    heldBytes += entry.bytes;
  }

  function makeEntry(status: number, headers: [string, string][], html: string, hashes: string[]): Entry {
    const br = compressBytes(Buffer.from(html), 'br', 'best');
    const scriptSources = hashes.join(' ');
    const raw = [...headers, ...securityHeaderList(options.security, scriptSources), ['Vary', 'Accept-Encoding'], ['X-Cache', 'hit']].flat();
    return { status, headers, scriptSources, br, gzip: null, raw, bytes: br.byteLength + 2048, expires: options.clock.now() + options.ttlMs };
  }

  /** The entry's bytes in `encoding`, making (and counting) the gzip copy at its first use. */
  function bytesOf(entry: Entry, encoding: Encoding): Buffer {
    if (encoding === 'br') return entry.br;
    if (!entry.gzip) {
      entry.gzip = compressBytes(brotliDecompressSync(entry.br), 'gzip', 'best');
      entry.bytes += entry.gzip.byteLength;
      heldBytes += entry.gzip.byteLength;
    }
    return entry.gzip;
  }

  /** The stored page as a Response for `acceptEncoding` (decompressed for a client that takes neither coding). */
  function respond(entry: Entry, acceptEncoding: string | null, cache: 'hit' | 'miss'): Response {
    const headers = new Headers(entry.headers);
    headers.set('vary', 'Accept-Encoding');
    headers.set('x-cache', cache);
    const encoding = chooseEncoding(acceptEncoding);
    const body = encoding ? bytesOf(entry, encoding) : brotliDecompressSync(entry.br);
    if (encoding) headers.set('content-encoding', encoding);
    headers.set('content-length', String(body.byteLength));
    return new Response(body as Uint8Array<ArrayBuffer>, { status: entry.status, headers });
  }

  return {
    clear() {
      entries.clear();
      heldBytes = 0;
    },

    /** Bytes held, for the benchmark's and the tests' view of the bound. */
    get heldBytes() {
      return heldBytes;
    },

    /**
     * Answers a request straight from the cache at the `node:http` level, before any routing:
     * a GET without a body (whatever the session cookie: the page is rendered for nobody) for a stored, fresh page, from a client taking brotli or
     * gzip. Returns false (having written nothing) for everything else.
     */
    answer(request: IncomingMessage, response: ServerResponse): boolean {
      if (options.ttlMs <= 0 || request.method !== 'GET' || entries.size === 0) return false;
      const headers = request.headers;
      if (headers['transfer-encoding'] || (headers['content-length'] && headers['content-length'] !== '0')) return false;
      const encoding = chooseEncoding(headers['accept-encoding']);
      if (!encoding) return false;
      // A flash message belongs to one person: its page is rendered for that request (shared-pages.ts).
      if (headers.cookie && hasFlashCookie(headers.cookie)) return false;
      // A bearer token outside /api/v1 is refused by the app (decision 074), whatever is stored.
      if (headers.authorization !== undefined) return false;
      let key: string | null;
      try {
        key = pageCacheKey(new URL(request.url ?? '/', 'http://localhost'));
      } catch {
        return false;
      }
      // An English address for a visitor who reads Hindi is sent to the Hindi page by the app.
      if (key !== null && languageOfPath(key.split('?')[0]!) === 'en' && visitorLanguage(headers.cookie, headers['accept-language']) === 'hi') return false;
      const entry = key === null ? null : lookup(key);
      if (!entry) return false;
      const body = bytesOf(entry, encoding);
      options.onLookup?.('hit');
      response.writeHead(entry.status, [...entry.raw, 'Content-Encoding', encoding, 'Content-Length', String(body.byteLength)]);
      response.end(body);
      return true;
    },

    /**
     * The page for `request`: from the cache when stored and fresh, else rendered (and stored
     * when it is a whole HTML page without cookies). `allowScripts` receives the CSP sources of a
     * cached page's inline scripts, which then replace the nonce in the response's policy.
     */
    async serve(request: Request, nonce: string, render: () => Promise<Response>, allowScripts: (sources: string) => void): Promise<Response> {
      if (options.ttlMs <= 0 || !isCacheablePageRequest(request)) return render();
      const key = pageCacheKey(new URL(request.url))!;
      const acceptEncoding = request.headers.get('accept-encoding');
      const hit = lookup(key);
      if (hit) {
        options.onLookup?.('hit');
        allowScripts(hit.scriptSources);
        return respond(hit, acceptEncoding, 'hit');
      }
      // A page being rendered for another visitor: wait for it instead of rendering it again
      // (when a popular page expires, every visitor of that moment would render it).
      const inFlight = filling.get(key);
      if (inFlight) {
        const filled = await inFlight;
        if (filled) {
          options.onLookup?.('hit');
          allowScripts(filled.scriptSources);
          return respond(filled, acceptEncoding, 'hit');
        }
        return render();
      }
      let settle: (entry: Entry | null) => void = () => {};
      filling.set(key, new Promise((resolve) => (settle = resolve)));
      let entry: Entry | null = null;
      options.onLookup?.('miss');
      try {
        const response = await render();
        const type = response.headers.get('content-type') ?? '';
        // Only whole HTML pages without cookies: never a redirect, an error or a personal answer.
        if ((response.status !== 200 && response.status !== 404) || !type.startsWith('text/html') || response.headers.has('set-cookie')) {
          return response;
        }
        const rendered = await response.text();
        // The nonce leaves the page: its scripts are allowed by their hashes instead.
        const html = rendered.replaceAll(` nonce="${nonce}"`, '');
        if (html.includes(nonce)) {
          // The nonce stands somewhere else too: keep this answer to this request, as rendered.
          return new Response(rendered, { status: response.status, headers: response.headers });
        }
        const headers = [...response.headers].filter(([name]) => !['content-length', 'content-encoding', 'vary'].includes(name));
        entry = makeEntry(response.status, headers, html, inlineScriptHashes(html));
        store(key, entry);
        allowScripts(entry.scriptSources);
        return respond(entry, acceptEncoding, 'miss');
      } finally {
        filling.delete(key);
        settle(entry);
      }
    },
  };
}
