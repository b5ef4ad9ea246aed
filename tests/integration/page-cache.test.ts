import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, rawGet as rawGetFrom, type RawAnswer } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The short page cache of the shared pages, the same for every visitor signed in or not (decision 127): stored compressed once and sent as stored, its
 * inline scripts allowed by hash; never personal; keyed by what changes the page; cleared by changes.
 */

let server: TestServer;

/** GET over node:http: only the headers given, and the bytes exactly as they came. */
const rawGet = (path: string, headers: Record<string, string> = {}) => rawGetFrom(server.url, path, headers);

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  return answer.body.toString();
}

function scriptSources(csp: string): string[] {
  return (/script-src ([^;]*)/.exec(csp)?.[1] ?? '').split(' ');
}

/** The CSP hash source of every inline script of a page. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter((match) => !/\ssrc=/.test(` ${match[1]}`))
    .map((match) => `'sha256-${createHash('sha256').update(match[2]!).digest('base64')}'`);
}

function nonces(response: Response, html: string) {
  const header = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  const inPage = [...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]);
  return { header, inPage };
}

// Dialect-independent: runs once (vitest.config.ts leaves it out of the integration-postgres project).
describe('page cache', () => {
  beforeAll(async () => {
    // One of the few tests of the built server as a process of its own (`node server.js`).
    server = await startTestServer({
      dialect: 'sqlite',
      seed: false,
      childProcess: true,
      env: { APP_MODE: 'demo', SEED_DEMO: 'false', PAGE_CACHE_SECONDS: '60', DEMO_ADMIN_PASSWORD: 'secret123', TRUST_PROXY: 'true' },
    });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('sends a stored page as the same bytes, its inline scripts allowed by their hashes instead of a nonce', async () => {
    const browser = { 'accept-encoding': 'gzip, deflate, br' };
    const first = await rawGet('/about', browser);
    const second = await rawGet('/about', browser);
    // The second answer came from the cache, not from a second render that happens to look alike.
    expect(first.headers['x-cache']).toBe('miss');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body.equals(first.body)).toBe(true);
    const csp = String(second.headers['content-security-policy']);
    expect(csp).toBe(String(first.headers['content-security-policy']));
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'(unsafe-inline|nonce-)/);
    const html = decoded(second);
    // No nonce is left in the page, and every inline script is named by its hash.
    expect(html).not.toMatch(/\snonce=/);
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(scriptSources(csp)).toContain(hash);
    // The other protective headers come along too.
    expect(second.headers['x-frame-options']).toBe('DENY');
    expect(second.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers brotli to a client taking br, gzip to one taking only gzip, and plain HTML to one taking neither', async () => {
    await rawGet('/?q=encodings');
    const br = await rawGet('/?q=encodings', { 'accept-encoding': 'br' });
    const gzip = await rawGet('/?q=encodings', { 'accept-encoding': 'gzip' });
    const plain = await rawGet('/?q=encodings');
    const refused = await rawGet('/?q=encodings', { 'accept-encoding': 'br;q=0, gzip' });
    expect([br, gzip, plain, refused].map((answer) => answer.headers['x-cache'])).toEqual(['hit', 'hit', 'hit', 'hit']);
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBe('gzip');
    for (const answer of [br, gzip, plain]) {
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    }
    expect(decoded(br)).toBe(plain.body.toString());
    expect(decoded(gzip)).toBe(plain.body.toString());
    expect(plain.body.toString()).toContain('</html>');
  });

  it('keys a page by its address without tracking parameters, and keeps no page asked with a parameter it does not read', async () => {
    const browser = { 'accept-encoding': 'gzip, br' };
    const home = await rawGet('/', browser);
    // A shared link's tracking parameters change nothing: the same stored page.
    const tracked = await rawGet('/?utm_source=whatsapp&fbclid=IwAR0', browser);
    expect(tracked.headers['x-cache']).toBe('hit');
    expect(tracked.body.equals(home.body)).toBe(true);
    // A parameter the page does not declare: rendered for this request, never stored nor served from the store.
    const stray = await rawGet('/?x=1', browser);
    expect(stray.headers['x-cache']).toBeUndefined();
    expect((await rawGet('/?x=1', browser)).headers['x-cache']).toBeUndefined();
    // A search is another page, under its own address; tracking on it is still the same page.
    const search = await rawGet('/?q=swift', browser);
    expect(search.headers['x-cache']).toBe('miss');
    expect(decoded(search)).toContain('swift');
    expect((await rawGet('/?utm_medium=social&q=swift', browser)).headers['x-cache']).toBe('hit');
    expect((await rawGet('/?q=swift&page=2', browser)).headers['x-cache']).toBe('miss');
    // A car's calculator values are part of its address.
    const car = ((await (await fetch(`${server.url}/api/v1/vehicles?perPage=1`)).json()) as { items: Array<{ id: number }> }).items[0];
    if (car) {
      await rawGet(`/vehicle/${car.id}`, browser);
      expect((await rawGet(`/vehicle/${car.id}?dp=100000`, browser)).headers['x-cache']).toBe('miss');
    }
  });

  it('serves a signed-in person the shared page, rendered for nobody (decision 127); a personal page is never stored', async () => {
    const admin = new HttpClient(server.url);
    expect(
      (await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') })).status,
    ).toBe(302);
    const visitor = new HttpClient(server.url);
    const anonymous = await visitor.get('/contact');
    expect(anonymous.headers.get('x-cache')).toBe('miss');
    const signedIn = await admin.get('/contact');
    // The same stored page: the person is filled in by the browser (GET /api/v1/me/summary).
    expect(signedIn.headers.get('x-cache')).toBe('hit');
    const html = await signedIn.text();
    expect(html).toBe(await anonymous.text());
    expect(html).not.toContain('Logout');
    // A personal page is rendered for its request, keeping that request's nonce, and never stored.
    const personalResponse = await admin.get('/profile');
    expect(personalResponse.headers.get('x-cache')).toBeNull();
    const personalHtml = await personalResponse.text();
    expect(personalHtml).toContain('Logout');
    const personal = nonces(personalResponse, personalHtml);
    expect(personal.header).toBeTruthy();
    expect(new Set(personal.inPage)).toEqual(new Set([personal.header]));
  });

  it('never answers a request carrying a bearer token from the cache: the app refuses it there, stored page or not', async () => {
    const visitor = new HttpClient(server.url);
    await visitor.get('/about');
    expect((await visitor.get('/about')).headers.get('x-cache')).toBe('hit');
    for (const authorization of ['Bearer not-a-real-token', 'Basic YTpi', '']) {
      const response = await fetch(`${server.url}/about`, { headers: { authorization, 'accept-encoding': 'gzip, br' } });
      await response.body?.cancel();
      expect(response.headers.get('x-cache'), authorization).toBeNull();
      if (authorization.startsWith('Bearer')) expect(response.status).toBe(401);
    }
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
    expect(
      (await stranger.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'wrong-password', botCheck: await stranger.botToken('LOGIN') }))
        .status,
    ).toBe(200);
    const admin = new HttpClient(server.url);
    expect(
      (await admin.postForm('/admin-login', { email: 'admin@gaadibazaar.in', password: 'secret123', botCheck: await admin.botToken('LOGIN') })).status,
    ).toBe(302);

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
