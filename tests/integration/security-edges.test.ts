import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { freePort, startTestServer, type TestServer } from '../support/server.ts';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The smaller findings of the outside probes: CSRF trusts only SITE_ORIGIN (not an origin built
 * from the Host header the sender chooses), every response carries nosniff, the demo outbox
 * (everyone's verification links and OTPs) is shown only to the machine itself and to admins,
 * and what the pages answer a signed-in person is kept by no cache.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const PROXY_HOSTNAME = 'gaadi.example';

/** This machine's own non-loopback IPv4 address, to reach the server as another machine would. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

/** A raw request, so the Host header can be whatever a forger sends. */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

describe.skipIf(!shared.url)('security edges', () => {
  let server: TestServer;
  let external: string | null = null;

  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN, HOST: '0.0.0.0', TRUST_PROXY: 'true' },
    });
    external = externalAddress ? server.url.replace('127.0.0.1', externalAddress) : null;
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a post whose Origin matches only the Host header it sent', async () => {
    const { port } = new URL(server.url);
    const body = new URLSearchParams({ intent: 'email', email: 'forged@example.in', password: PASSWORD }).toString();
    const forged = await rawPost(`${server.url}/signup`, { host: 'evil.example', origin: 'http://evil.example' }, body);
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('did not come from our site');
    const forgedWithPort = await rawPost(`${server.url}/signup`, { host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, body);
    expect(forgedWithPort.status).toBe(403);
    // Our own origin still passes, whatever Host says.
    const own = await rawPost(`${server.url}/signup`, { host: `127.0.0.1:${port}`, origin: server.url }, body);
    expect(own.status).toBe(302);
  });

  it('sends nosniff and the other security headers on every kind of response', async () => {
    const client = new HttpClient(server.url);
    const home = await (await client.get('/')).text();
    const asset = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(home)?.[1];
    expect(asset).toBeTruthy();
    for (const path of [
      '/healthz',
      '/readyz',
      '/readyz?probe=1',
      '/media/vehicles/none.webp',
      '/media/../../etc/passwd',
      asset!,
      '/assets/missing.js',
      '/favicon.svg',
      '/robots.txt',
      '/api/v1/categories',
      '/api/v1/nothing',
      '/no-such-page',
      '/',
    ]) {
      const response = await client.get(path);
      await response.body?.cancel();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
  });

  it('answers a signed-in person private, no-store on every page about them; the shared pages stay public for everyone (decision 127)', async () => {
    const listing = (await (await fetch(`${server.url}/api/v1/vehicles`)).json()) as { items: Array<{ id: number }> };
    const car = listing.items[0]!.id;
    const person = new HttpClient(server.url);
    await signUp(person, uniqueEmail('private'));
    const personal = [
      '/profile',
      '/profile.data',
      '/wishlist',
      '/wishlist.data',
      '/compare',
      '/_root.data',
      '/rent',
      '/sell-vehicle',
      '/profile/my-data',
      '/profile/bookings/999999/pay',
      '/profile/reservations/999999/pay',
      '/hi/profile',
      '/hi/profile.data',
      '/no-such-page',
    ];
    const answers: Record<string, string | null> = {};
    for (const path of personal) {
      const response = await person.get(path);
      await response.body?.cancel();
      answers[`${path} ${response.status}`] = response.headers.get('cache-control');
    }
    expect(Object.entries(answers).filter(([, value]) => value !== 'private, no-store')).toEqual([]);
    expect(Object.keys(answers)).toEqual(expect.arrayContaining(['/profile 200', '/profile.data 200', '/wishlist.data 200']));
    // The shared pages and their data hold nobody's details, signed in or not: never private, never the person's email.
    for (const path of ['/', `/vehicle/${car}`, `/vehicle/${car}.data`]) {
      const response = await person.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).not.toBe('private, no-store');
      expect(await response.text(), path).not.toContain('@example.in');
    }
    // Files are the same for everyone, signed in or not.
    const robots = await person.get('/robots.txt');
    await robots.body?.cancel();
    expect(robots.headers.get('cache-control')).toBe('public, max-age=3600');
    // A signed-out visitor's pages as before: public and revalidated, never private.
    for (const path of ['/', '/about', `/vehicle/${car}`]) {
      const response = await new HttpClient(server.url).get(path);
      await response.body?.cancel();
      expect(response.headers.get('cache-control'), path).toBe('public, no-cache');
    }
  });

  it('shows the demo outbox to this machine and to signed-in admins only', async () => {
    const local = await new HttpClient(server.url, { address: null }).get('/dev/outbox');
    expect(local.status).toBe(200);
    await local.body?.cancel();

    // A reverse proxy on this host (TRUST_PROXY=true) connects from 127.0.0.1 for every public
    // visitor: whatever forwarding header it adds, the request is not this machine's own.
    const proxied: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.9;proto=https' },
      { 'x-real-ip': '203.0.113.9' },
      { via: '1.1 proxy' },
      { 'x-forwarded-host': 'demo.example', 'x-forwarded-proto': 'https' },
    ];
    for (const headers of proxied) {
      for (const path of ['/dev/outbox', '/dev/outbox.data']) {
        const response = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
        expect([403, 404], `${path} ${JSON.stringify(headers)}`).toContain(response.status);
        expect(await response.text(), path).not.toContain('verify-email');
      }
    }
    // A signed-in buyer behind the proxy is refused too; the admin behind it reads it.
    const proxiedBuyer = new HttpClient(server.url);
    expect((await proxiedBuyer.postForm('/signup', { intent: 'email', email: 'proxied.buyer@example.in', password: PASSWORD })).status).toBe(302);
    const asProxiedBuyer = await proxiedBuyer.get('/dev/outbox');
    expect(asProxiedBuyer.status).toBe(404);
    await asProxiedBuyer.body?.cancel();
    const proxiedAdmin = new HttpClient(server.url);
    expect((await proxiedAdmin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await proxiedAdmin.botToken('LOGIN') })).status).toBe(
      302,
    );
    const asProxiedAdmin = await proxiedAdmin.get('/dev/outbox');
    expect(asProxiedAdmin.status).toBe(200);
    expect(await asProxiedAdmin.text()).toContain('proxied.buyer@example.in');

    if (!external) return; // no second address on this machine to come from
    const outside = external;
    const outsider = new HttpClient(outside, { address: '127.0.0.1' });
    // Claiming loopback in X-Forwarded-For changes nothing: the socket's address decides.
    for (const path of ['/dev/outbox', '/dev/outbox.data']) {
      const response = await outsider.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('verify-email');
    }
    // Signed in on the site's own address, then coming from outside with the same cookies.
    const fromOutside = (client: HttpClient) => {
      const moved = new HttpClient(outside);
      for (const [name, cookie] of client.jar.cookies) moved.jar.cookies.set(name, cookie);
      return moved;
    };
    const buyer = new HttpClient(server.url);
    const signUp = await buyer.postForm('/signup', { intent: 'email', email: 'outbox.buyer@example.in', password: PASSWORD });
    expect(signUp.status).toBe(302);
    const asBuyer = await fromOutside(buyer).get('/dev/outbox');
    expect(asBuyer.status).toBe(404);
    await asBuyer.body?.cancel();

    const admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
    const asAdmin = await fromOutside(admin).get('/dev/outbox');
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toContain('outbox.buyer@example.in');
  });
});

describe.skipIf(!shared.url)('security edges in production mode, behind the TLS proxy', () => {
  let server: TestServer;
  let proxy: TlsProxy;

  beforeAll(async () => {
    // As deployed (docs/deployment.md): nginx ends TLS in front, the site calls itself by the proxy's https origin.
    const port = await freePort();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: false,
      env: {
        APP_MODE: 'production',
        AUTH_SECRET: 'x'.repeat(40),
        SMTP_URL: 'smtp://127.0.0.1:9',
        SMS_PROVIDER: 'msg91',
        MSG91_AUTH_KEY: 'key',
        MSG91_TEMPLATE_ID: 'template',
        PASSWORD_HASHING: 'standard',
        BOT_CHECK_WORK: 'standard',
        ADMIN_EMAILS: ADMIN,
        SITE_ORIGIN: `https://${PROXY_HOSTNAME}:${port}`,
        TRUST_PROXY: 'true',
      },
    });
    proxy = await startTlsProxy({ hostname: PROXY_HOSTNAME, port, upstreams: [new URL(server.url).host] });
  }, 240_000);

  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  it('takes the site’s own form posts through the proxy: a page form is answered, not refused', async () => {
    const body = new URLSearchParams({ intent: 'email', email: 'nobody@example.in', password: 'wrong-password-1' }).toString();
    // A wrong password or a missing bot check is answered on the page (200); React Router's origin check answered 400.
    for (const path of ['/login', '/login.data', '/signup', '/signup.data', '/admin-login']) {
      const response = await proxy.fetch(path, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: proxy.origin, 'sec-fetch-site': 'same-origin' },
      });
      const text = await response.text();
      expect(response.status, `${path}: ${text.slice(0, 200)}`).toBeLessThan(400);
    }
  });

  it('refuses a cross-origin form post with 403 on every kind of path, never a 500', async () => {
    const body = new URLSearchParams({ intent: 'email', email: 'cross@example.in', password: PASSWORD }).toString();
    const paths = [
      '/signup',
      '/login',
      '/login.data',
      '/admin-login',
      '/request-vehicle',
      '/profile-complete',
      '/admin/settings',
      '/api/v1/test-drives',
      '/api/auth/sign-in/email',
      '/no-such-page',
      '/',
    ];
    const statuses: Record<string, number> = {};
    for (const path of paths) {
      const variants: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, {}];
      for (const headers of variants) {
        const response = await proxy.fetch(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
        const text = await response.text();
        statuses[`${path} ${JSON.stringify(headers)}`] = response.status;
        expect(text).not.toMatch(/at \S+ \(|node_modules/);
      }
    }
    // Photo uploads still being sent when the refusal is ready: heard as a 403, not a reset connection.
    for (const path of ['/sell-vehicle', '/profile/licence', '/admin/add-vehicle']) {
      const form = new FormData();
      form.set('name', 'Ravi');
      form.append('images', new File([new Uint8Array(2 * 1024 * 1024)], 'big.jpg', { type: 'image/jpeg' }));
      const response = await proxy.fetch(path, { method: 'POST', body: form, headers: { origin: 'https://evil.example' } });
      await response.body?.cancel();
      statuses[`${path} multipart`] = response.status;
    }
    // No Origin, no Sec-Fetch-Site and no cookie on /api/v1 is an app, not a browser (decision 074):
    // past the check, and refused there for want of a sign-in.
    const fromAnApp = `/api/v1/test-drives ${JSON.stringify({})}`;
    expect(statuses[fromAnApp]).toBe(401);
    expect(Object.entries(statuses).filter(([key, status]) => key !== fromAnApp && status !== 403)).toEqual([]);
  });
});
