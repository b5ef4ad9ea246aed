import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The short page cache for signed-out visitors: fresh nonces, never personal, cleared by changes. */

let server: TestServer;

function nonces(response: Response, html: string) {
  const header = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  const inPage = [...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);
  return { header, inPage };
}

// Dialect-independent: runs once (vitest.config.ts leaves it out of the integration-postgres project).
describe('page cache', () => {
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
    // The second answer came from the cache, not from a second render that happens to look alike.
    expect(first.headers.get('x-cache')).toBe('miss');
    expect(second.headers.get('x-cache')).toBe('hit');
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
    const admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
    const visitor = new HttpClient(server.url);
    expect((await visitor.get('/contact')).headers.get('x-cache')).toBe('miss');
    const personalResponse = await admin.get('/contact');
    // The signed-in page bypasses the cache entirely: neither served from it nor stored in it.
    expect(personalResponse.headers.get('x-cache')).toBeNull();
    expect(await personalResponse.text()).toContain('Logout');
    const anonymousAgain = await new HttpClient(server.url).get('/contact');
    expect(anonymousAgain.headers.get('x-cache')).toBe('hit');
    expect(await anonymousAgain.text()).not.toContain('Logout');
  });

  it('keeps its pages when visitors post: a failed form, a refused admin change, a sign-in', async () => {
    const visitor = new HttpClient(server.url);
    expect((await visitor.get('/categories')).headers.get('x-cache')).toBe('miss');
    expect((await visitor.get('/categories')).headers.get('x-cache')).toBe('hit');

    const stranger = new HttpClient(server.url);
    // A lead form with nothing filled in and no bot check: refused.
    const lead = await stranger.postForm('/request-vehicle', { name: '', phone: '' });
    expect(lead.status).toBeGreaterThanOrEqual(400);
    // An admin change from someone signed out: sent to the admin login, nothing changed.
    const adminChange = await stranger.postForm('/admin/settings', { intent: 'save', siteName: 'Junk Motors', adminEmail: '', itemsPerPage: '10' });
    expect(adminChange.status).toBe(302);
    expect(adminChange.headers.get('location')).toMatch(/^\/admin-login/);
    // A sign-in with a wrong password, and a correct one: neither changes a public page.
    expect((await stranger.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'wrong-password', botCheck: await stranger.botToken('LOGIN') })).status).toBe(200);
    const admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') })).status).toBe(302);

    const after = await visitor.get('/categories');
    expect(after.headers.get('x-cache')).toBe('hit');
    expect(await after.text()).not.toContain('Junk Motors');
  });

  it('shows a change made through this instance at once', async () => {
    const visitor = new HttpClient(server.url);
    expect(await (await visitor.get('/')).text()).toContain('<title>Gaadi Bazaar');
    const cached = await visitor.get('/');
    expect(cached.headers.get('x-cache')).toBe('hit');
    expect(await cached.text()).toContain('<title>Gaadi Bazaar');
    const admin = new HttpClient(server.url);
    await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') });
    const saved = await admin.postForm('/admin/settings', {
      intent: 'save',
      siteName: 'Shree Motors',
      adminEmail: 'admin@gaadibazaar.in',
      itemsPerPage: '10',
      emailNotifications: 'on',
    });
    expect(saved.status).toBe(302);
    // Cleared by the save, so rendered afresh within the 60-second lifetime.
    const afterSave = await visitor.get('/');
    expect(afterSave.headers.get('x-cache')).toBe('miss');
    expect(await afterSave.text()).toContain('<title>Shree Motors');
  });
});
