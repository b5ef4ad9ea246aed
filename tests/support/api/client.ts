import createClient, { type Client } from 'openapi-fetch';
import { CookieJar, randomAddress } from '../http-client.ts';
import type { components, paths } from './schema.d.ts';

/**
 * The Android app's view of `/api/v1` in tests: openapi-fetch typed by the committed
 * schema.d.ts, which openapi-typescript generates from the served document (decision 078). A
 * path, parameter, body or answer the document does not have fails the typecheck; every answer
 * also passes the contract check (contract-check.ts), since the client calls the global fetch.
 *
 * It signs in as an app does: with a bearer token once `useToken` has one (and then sends no
 * Origin, which only cookie-less bearer requests may omit), else with a session cookie of its
 * own jar and the site's Origin on writes, as the site's own scripts do.
 */

export type Schemas = components['schemas'];

export type ApiClient = Client<paths> & {
  /** The session cookies, when signed in as the site is. */
  readonly jar: CookieJar;
  /** Sends `Authorization: Bearer <token>` from now on (null: back to the cookies). */
  useToken(token: string | null): void;
  readonly token: string | null;
};

export function apiClient(siteUrl: string, options: { jar?: CookieJar; address?: string | null } = {}): ApiClient {
  const site = new URL(siteUrl);
  const jar = options.jar ?? new CookieJar();
  const address = options.address === undefined ? randomAddress() : options.address;
  let token: string | null = null;
  // The global fetch at call time: the contract check's.
  const client = createClient<paths>({ baseUrl: new URL('/api/v1', site).href, fetch: (request) => globalThis.fetch(request) });
  client.use({
    onRequest({ request }) {
      if (address) request.headers.set('x-forwarded-for', address);
      if (token) {
        request.headers.set('authorization', `Bearer ${token}`);
        return request;
      }
      const cookie = jar.header();
      if (cookie) request.headers.set('cookie', cookie);
      if (request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('origin', site.origin);
      return request;
    },
    onResponse({ response }) {
      if (!token) jar.store(response);
    },
  });
  return Object.assign(client, {
    jar,
    useToken(next: string | null) {
      token = next;
    },
    get token() {
      return token;
    },
  });
}

/** The bodySerializer of a multipart operation: each key a field, each Blob a file (an array repeats the key). */
export function multipart(body: Record<string, string | number | Blob | ReadonlyArray<string | Blob>>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item instanceof Blob) form.append(name, item, item instanceof File ? item.name : `${name}.jpg`);
      else form.append(name, String(item));
    }
  }
  return form;
}
