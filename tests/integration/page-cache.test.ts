import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/** The short page cache for signed-out visitors: fresh nonces, never personal, cleared by changes. */

const shared = sharedServer();
let server: TestServer;

function nonces(response: Response, html: string) {
  const header = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  const inPage = [...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);
  return { header, inPage };
}

// Dialect-independent: runs once, in the SQLite project.
describe.skipIf(!shared.url || shared.dialect !== 'sqlite')('page cache', () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: 'sqlite',
      seed: false,
      env: { APP_MODE: 'demo', SEED_DEMO: 'false', PAGE_CACHE_SECONDS: '60', DEMO_ADMIN_PASSWORD: 'secret123', TRUST_PROXY: 'true' },
    });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('serves a cached page with the new request’s nonce everywhere', async () => {
    const visitor = new HttpClient(server.url);
    const first = await visitor.get('/about');
    const firstHtml = await first.text();
    const second = await visitor.get('/about');
    const secondHtml = await second.text();
    const a = nonces(first, firstHtml);
    const b = nonces(second, secondHtml);
    expect(a.header).toBeTruthy();
    expect(b.header).toBeTruthy();
    expect(b.header).not.toBe(a.header);
    expect(a.inPage.length).toBeGreaterThan(0);
    expect(new Set(a.inPage)).toEqual(new Set([a.header]));
    expect(new Set(b.inPage)).toEqual(new Set([b.header]));
    expect(secondHtml.replaceAll(b.header!, a.header!)).toBe(firstHtml);
  });

  it('never serves a signed-in person the anonymous page, nor caches theirs', async () => {
    const visitor = new HttpClient(server.url);
    await (await visitor.get('/contact')).text();
    const admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
    const personal = await (await admin.get('/contact')).text();
    expect(personal).toContain('Logout');
    expect(await (await new HttpClient(server.url).get('/contact')).text()).not.toContain('Logout');
  });

  it('shows a change made through this instance at once', async () => {
    const visitor = new HttpClient(server.url);
    expect(await (await visitor.get('/')).text()).toContain('<title>Gaadi Bazaar');
    const admin = new HttpClient(server.url);
    await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') });
    const saved = await admin.postForm('/admin/settings', {
      intent: 'save',
      siteName: 'Shree Motors',
      adminEmail: 'admin@gaadibazaar.in',
      itemsPerPage: '10',
      emailNotifications: 'on',
    });
    expect([200, 302]).toContain(saved.status);
    expect(await (await visitor.get('/')).text()).toContain('<title>Shree Motors');
  });
});
