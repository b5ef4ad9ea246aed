import createClient, { type Client } from 'openapi-fetch';
import { CookieJar, otpFrom, randomAddress, waitForOutbox, type HttpClient } from '../http-client.ts';
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

/**
 * A new person signed up through the API as the app does, with the token the sign-up answered
 * in use. `site` is the machine's own view (its address solves the bot check for this app).
 */
export async function appSignUp(
  site: HttpClient,
  email: string,
  password: string,
  name = 'Asha Verma',
): Promise<{ app: ApiClient; token: string; userId: string }> {
  const app = apiClient(site.base, { address: site.address });
  const signedUp = await app.POST('/auth/sign-up', { body: { name, email, password } });
  if (signedUp.response.status !== 201 || !signedUp.data)
    throw new Error(`app sign-up of ${email} answered ${signedUp.response.status}: ${JSON.stringify(signedUp.error)}`);
  app.useToken(signedUp.data.token);
  return { app, token: signedUp.data.token, userId: signedUp.data.user.id };
}

/** Verifies `mobile` (10 digits) for the app's person by the code texted to it, read from /dev/outbox as the person reads their SMS. */
export async function appVerifyPhone(app: ApiClient, site: HttpClient, mobile: string, name = 'Asha Verma'): Promise<void> {
  const sent = await app.POST('/me/phone/code', { body: { phone: mobile, countryCode: '+91', botCheck: await site.botToken('SEND_OTP') } });
  if (sent.response.status !== 200) throw new Error(`phone code answered ${sent.response.status}: ${JSON.stringify(sent.error)}`);
  const sms = await waitForOutbox(site, 'sms', `+91${mobile}`);
  const verified = await app.POST('/me/phone/verify', { body: { phone: mobile, countryCode: '+91', otp: otpFrom(sms.body), name } });
  if (verified.response.status !== 200) throw new Error(`phone verify answered ${verified.response.status}: ${JSON.stringify(verified.error)}`);
}
