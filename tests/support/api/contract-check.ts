import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { Contract, type OpenApiDocument } from './contract.ts';

/**
 * A setup file of the integration projects: every answer of `/api/v1` that a test receives
 * through `fetch` (plain `fetch`, the HttpClient of http-client.ts, the generated client of
 * client.ts) is checked against the OpenAPI document (contract.ts). A mismatch makes that
 * `fetch` reject and fails the test at its end too (should the test have swallowed the
 * rejection). Decision 078.
 *
 * The document is the committed tests/support/api/openapi.json, which api-types.test.ts keeps
 * equal to the one the built server serves (`npm run api:types` rewrites it): read from disk, it
 * is there even for a server in maintenance or without its database.
 */

export const DOCUMENT_FILE = path.join(import.meta.dirname, 'openapi.json');

let contract: Contract | null = null;
function theContract(): Contract {
  contract ??= new Contract(JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenApiDocument);
  return contract;
}

/** The fetch of the platform, unchecked: for reading the served document itself. */
export const uncheckedFetch: typeof fetch = globalThis.fetch.bind(globalThis);

const mismatches: string[] = [];

/** The path under `/api/v1` of a request to a local test server, else null. */
function apiPath(url: URL): string | null {
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') return null;
  if (url.pathname !== '/api/v1' && !url.pathname.startsWith('/api/v1/')) return null;
  return url.pathname.slice('/api/v1'.length) || '/';
}

globalThis.fetch = async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const response = await uncheckedFetch(input, init);
  const path = apiPath(url);
  if (path === null) return response;
  const body = method === 'HEAD' ? '' : await response.clone().text();
  const problems = theContract().check({ method, path, status: response.status, contentType: response.headers.get('content-type'), body });
  if (problems.length === 0) return response;
  const message = `The answer does not match the OpenAPI document (tests/support/api/openapi.json; after a deliberate change of the API run \`npm run api:types\`):\n${problems.join('\n')}`;
  mismatches.push(message);
  throw new Error(message);
};

afterEach(() => {
  const found = mismatches.splice(0);
  if (found.length > 0) throw new Error(found.join('\n\n'));
});
