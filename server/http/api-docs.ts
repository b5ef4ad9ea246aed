import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';
import type { SecurityVariables } from './security.ts';
import { escapeHtml } from '../html.ts';
import { chooseEncoding, compressBytes, type Encoding } from './compression.ts';

/**
 * The API's reference page, `/api/docs` (decision 075): Scalar's API reference reading
 * /api/v1/openapi.json, served by the app from its own copy of Scalar's browser bundle
 * (`@scalar/api-reference`), so the page loads nothing from anywhere else and the site's CSP
 * holds: the bundle is our origin's script, the call that starts it carries the request's nonce.
 */

const BUNDLE_FILE = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
// Its package.json is not among the package's exports: read beside the bundle (dist/browser/).
const SCALAR_VERSION = (JSON.parse(readFileSync(path.join(path.dirname(BUNDLE_FILE), '../../package.json'), 'utf8')) as { version: string }).version;
/** Versioned, so the bundle can be cached for a year and an upgrade is a new address. */
export const SCALAR_SCRIPT_PATH = `/api/docs/scalar-${SCALAR_VERSION}.js`;

/** The bundle (3.5 MB) read and compressed once per process, at its first request. */
const bundles = new Map<Encoding | 'identity', Buffer>();
function bundle(encoding: Encoding | null): Buffer {
  const key = encoding ?? 'identity';
  let body = bundles.get(key);
  if (!body) {
    const plain = bundles.get('identity') ?? readFileSync(BUNDLE_FILE);
    bundles.set('identity', plain);
    body = encoding ? compressBytes(plain, encoding, 'best') : plain;
    bundles.set(key, body);
  }
  return body;
}

/**
 * What Scalar is told: the document, and nothing that reaches outside. No hosted fonts (the
 * system's are used), no request proxy and no "try it" client (it would send requests with
 * the reader's cookie), no telemetry, no AI agent, no links to Scalar's services.
 */
const scalarConfiguration = {
  // A slug of its own: without one Scalar files the options under no name and ignores them.
  slug: 'app-api-v1',
  title: 'Gaadi Bazaar app API',
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  proxyUrl: '',
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  documentDownloadType: 'json',
};

/** The mount point is not `#api-reference`: the bundle mounts there by itself, without these options. */
function page(nonce: string): string {
  const configuration = JSON.stringify(scalarConfiguration).replaceAll('<', '\\u003c');
  return `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Gaadi Bazaar app API reference</title><meta name="robots" content="noindex"><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head><body><div id="reference"></div><script src="${escapeHtml(SCALAR_SCRIPT_PATH)}"></script><script nonce="${escapeHtml(nonce)}">Scalar.createApiReference('#reference', ${configuration});</script></body></html>`;
}

/** Mounts `GET /api/docs` (with the request's CSP nonce) and the bundle it loads. */
export function apiDocs(app: Hono<{ Variables: SecurityVariables }>) {
  app.get('/api/docs', (c) => {
    // This page only: the bundle's zod compiles its parsers with `new Function` and probes for
    // it at start, a violation report on every visit under the site's policy. 'unsafe-eval'
    // lets that run here; scripts still need the nonce or our origin, so nothing injected runs
    // (decision 075). The page shows the public document and holds no one's data.
    c.set('scriptSources', `'nonce-${c.get('nonce')}' 'unsafe-eval'`);
    return c.html(page(c.get('nonce')), 200, { 'Cache-Control': 'no-cache' });
  });
  app.get(SCALAR_SCRIPT_PATH, (c) => {
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    const headers: Record<string, string> = {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
    };
    if (encoding) headers['Content-Encoding'] = encoding;
    return c.body(new Uint8Array(bundle(encoding)), 200, headers);
  });
}
