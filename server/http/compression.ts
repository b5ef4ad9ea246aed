import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

/**
 * Compression of what the server sends, with `node:zlib` in one synchronous call over the whole
 * body: the pages are tens of kilobytes, so one call costs less than a stream through
 * `CompressionStream` (which `hono/compress` uses, and which has no brotli).
 *
 * Two levels: `fast` for what is compressed once per request (uncached renders, JSON), `best`
 * for what is compressed once and sent many times (the page cache).
 */
export type Encoding = 'br' | 'gzip';

/**
 * Levels measured on the home page (42 KB of HTML), CPU per call: brotli 2 0.43 ms (7.6 KB),
 * 5 1.6 ms (6.6 KB), 9 23 ms (6.5 KB), 11 69 ms (6.0 KB); gzip 1 0.33 ms (8.2 KB), 6 0.6 ms
 * (7.3 KB). A stored page is compressed at every miss, and each new search is a miss, so the
 * page cache takes brotli 5, not more.
 */
const brotli = (quality: number, body: Uint8Array) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
  },
});

export function compressBytes(body: Uint8Array, encoding: Encoding, level: 'fast' | 'best'): Buffer {
  if (encoding === 'br') return brotliCompressSync(body, brotli(level === 'fast' ? 2 : 5, body));
  return gzipSync(body, { level: level === 'fast' ? 1 : 6 });
}

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, then gzip, else none.
 * A coding listed with q=0 is refused; `*` stands for any coding not listed.
 */
export function chooseEncoding(header: string | null | undefined): Encoding | null {
  if (!header) return null;
  // The common browser headers, without parsing.
  if (header === 'gzip, deflate, br, zstd' || header === 'gzip, deflate, br' || header === 'gzip, br' || header === 'br, gzip') return 'br';
  let br: number | null = null;
  let gzip: number | null = null;
  let any: number | null = null;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const weight = Number.isFinite(q) ? q : 0;
    if (name === 'br') br = weight;
    else if (name === 'gzip' || name === 'x-gzip') gzip = weight;
    else if (name === '*') any = weight;
  }
  const brWeight = br ?? any ?? 0;
  const gzipWeight = gzip ?? any ?? 0;
  if (brWeight > 0 && brWeight >= gzipWeight) return 'br';
  if (gzipWeight > 0) return 'gzip';
  return null;
}

const COMPRESSIBLE = /^\s*(?:text\/(?!event-stream)[^;\s]+|application\/(?:json|javascript|xml|manifest\+json|ld\+json)|image\/svg\+xml)(?:[;\s]|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
/** Below this many bytes compression saves less than it costs. */
const THRESHOLD = 1024;

/** Adds Accept-Encoding to Vary, once. */
export function varyOnEncoding(headers: Headers) {
  const vary = headers.get('vary');
  if (vary === '*' || (vary && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))) return;
  headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Puts `response` in place of the context's answer as it is. (Assigning `c.res` over an answer
 * copies the old answer's headers onto the new one and wraps its body in a stream.)
 */
export function replaceResponse(c: Context, response: Response) {
  c.res = undefined;
  c.res = response;
}

/**
 * Compresses text answers (pages, `.data` answers, JSON, XML) the server made itself, when the
 * client accepts brotli or gzip. Answers already encoded (the page cache, precompressed
 * assets) pass untouched. The body is read whole: no answer here is streamed on purpose
 * (no route defers data), and a whole body compresses in one call.
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || res.status === 204 || res.status === 206 || res.status === 304) return;
    if (res.headers.has('content-encoding') || res.headers.has('transfer-encoding')) return;
    const type = res.headers.get('content-type');
    if (!type || !COMPRESSIBLE.test(type)) return;
    const cacheControl = res.headers.get('cache-control');
    if (cacheControl && NO_TRANSFORM.test(cacheControl)) return;
    const length = res.headers.get('content-length');
    if (length && Number(length) < THRESHOLD) return;
    const headers = new Headers(res.headers);
    varyOnEncoding(headers);
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    if (!encoding) {
      replaceResponse(c, new Response(res.body, { status: res.status, statusText: res.statusText, headers }));
      return;
    }
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.byteLength < THRESHOLD) {
      replaceResponse(c, new Response(body, { status: res.status, statusText: res.statusText, headers }));
      return;
    }
    const compressed = compressBytes(body, encoding, 'fast');
    headers.set('content-encoding', encoding);
    headers.set('content-length', String(compressed.byteLength));
    const etag = headers.get('etag');
    if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
    replaceResponse(c, new Response(compressed as Uint8Array<ArrayBuffer>, { status: res.status, statusText: res.statusText, headers }));
  };
}
