import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from '../../app/routes.ts';
import { HttpClient } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * A bearer token counts on /api/v1 and nowhere else (decision 074). The admin's own valid token
 * is sent to every route of the route table (app/routes.ts, walked, so a new page is covered
 * the day it is added), by GET and by a form POST (admin actions), and to better-auth's routes:
 * none answers 200, each refuses with 401 or 403. The same token works on /api/v1.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

/** Every path of the route table, parameters filled in with plausible values. */
function routePaths(entries: readonly RouteConfigEntry[], parent = ''): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    const own = entry.index ? parent : entry.path === undefined ? parent : `${parent}/${entry.path}`;
    if (entry.path !== undefined || entry.index) paths.push(own || '/');
    if (entry.children) paths.push(...routePaths(entry.children, own));
  }
  return [...new Set(paths)].map((path) =>
    path
      .replace(/:category/g, 'suv')
      .replace(/:kind/g, 'requests')
      .replace(/:side/g, 'front')
      .replace(/:[A-Za-z]+/g, '1')
      .replace(/\*$/, 'no-such-page'),
  );
}

describe.skipIf(!shared.url)(`a bearer token outside /api/v1 (${shared.dialect})`, () => {
  let server: TestServer;
  let token = '';
  let client: HttpClient;

  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: false,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true', ADMIN_EMAILS: ADMIN },
    });
    client = new HttpClient(server.url);
    const signedIn = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'x-forwarded-for': client.address! },
      body: JSON.stringify({ email: ADMIN, password: PASSWORD, botCheck: await client.botToken('LOGIN') }),
    });
    expect(signedIn.status).toBe(200);
    token = ((await signedIn.json()) as { token: string }).token;
  }, 120_000);
  afterAll(() => server?.stop());

  test('the token works on /api/v1', async () => {
    const devices = await fetch(`${server.url}/api/v1/me/devices`, { headers: { authorization: `Bearer ${token}` } });
    expect(devices.status).toBe(200);
  });

  test('every route of the route table refuses it, to GET and to a form POST, with or without the site’s Origin', async () => {
    const paths = routePaths(routes);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths).toEqual(expect.arrayContaining(['/', '/admin', '/admin-panel/vehicles', '/admin/rentals/bookings/1', '/profile', '/login']));
    const refused: string[] = [];
    for (const path of paths) {
      for (const method of ['GET', 'POST'] as const) {
        for (const origin of [server.url, null]) {
          const response = await fetch(`${server.url}${path}`, {
            method,
            redirect: 'manual',
            headers: {
              authorization: `Bearer ${token}`,
              'x-forwarded-for': client.address!,
              ...(origin ? { origin } : {}),
              ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
            },
            ...(method === 'POST' ? { body: 'intent=delete&id=1' } : {}),
          });
          await response.body?.cancel();
          if (response.status !== 401 && response.status !== 403) refused.push(`${method} ${path} (origin ${origin ? 'site' : 'none'}): ${response.status}`);
        }
      }
    }
    expect(refused, 'routes that did not refuse a bearer token').toEqual([]);
  });

  test('better-auth’s routes and the admin’s data endpoints refuse it too', async () => {
    for (const path of ['/api/auth/get-session', '/api/auth/verify-email?token=x', '/admin/leads-export/requests', '/profile/my-data']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { authorization: `Bearer ${token}` } });
      await response.body?.cancel();
      expect([401, 403], path).toContain(response.status);
    }
  });
});
