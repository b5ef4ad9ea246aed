import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, logIn } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The admin guard, walked as five people: signed out, an ordinary user, an allow-listed user
 * whose email is not verified, an allow-listed verified user without an admin record, and an
 * admin. Only the admin gets through, on every admin page, its data endpoint and its actions.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const UNVERIFIED = 'manager@gaadibazaar.in';
const NO_RECORD = 'owner@gaadibazaar.in';
const PASSWORD = 'secret123';

let server: TestServer;
const people: Record<string, HttpClient> = {};
let adminPaths: string[] = [];
/** Admin screens that only show something (their route modules have no action). */
const PATHS_WITHOUT_ACTION = new Set(['/admin', '/admin/statistics', '/admin/audit-log', '/admin/sales']);

async function signUp(client: HttpClient, email: string) {
  const response = await client.postForm('/signup', { intent: 'email', email, password: PASSWORD });
  expect(response.status, `sign-up of ${email}`).toBe(302);
}

/** The newest verification link mailed to `email`, from the demo outbox. */
async function verificationLink(client: HttpClient, email: string): Promise<string> {
  // Read on this machine itself (no X-Forwarded-For): the demo shows it to nobody else but the admin.
  const html = await (await new HttpClient(client.base, { address: null }).get('/dev/outbox')).text();
  const item = html.split('<li').find((part) => part.includes(email) && part.includes('verify-email'));
  const link = item && /href="([^"]*verify-email[^"]*)"/.exec(item)?.[1];
  if (!link) throw new Error(`no verification mail for ${email}`);
  return link.replace(/&amp;/g, '&');
}

describe.skipIf(!shared.url)('admin guard', () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true', ADMIN_EMAILS: [ADMIN, UNVERIFIED, NO_RECORD].join(',') },
    });
    people.signedOut = new HttpClient(server.url);

    people.ordinaryUser = new HttpClient(server.url);
    await signUp(people.ordinaryUser, 'buyer@example.in');

    people.admin = new HttpClient(server.url);
    const signIn = await people.admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await people.admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);

    // Allow-listed addresses cannot sign up publicly (docs/decisions/010): the admin creates
    // them, and the person signs in on /login before verifying.
    for (const email of [UNVERIFIED, NO_RECORD]) {
      const created = await people.admin.postForm('/admin/register-admin', { email, password: PASSWORD });
      expect(created.status, `register-admin ${email}`).toBe(200);
      await created.body?.cancel();
    }
    people.unverifiedAllowListed = new HttpClient(server.url);
    await logIn(people.unverifiedAllowListed, UNVERIFIED, PASSWORD);
    expect((await people.unverifiedAllowListed.session())?.user.emailVerified).toBe(false);

    people.verifiedWithoutAdminRecord = new HttpClient(server.url);
    const verified = await people.verifiedWithoutAdminRecord.follow(
      await people.verifiedWithoutAdminRecord.get(await verificationLink(people.signedOut, NO_RECORD)),
    );
    await verified.response.body?.cancel();
    expect((await people.verifiedWithoutAdminRecord.session())?.user.emailVerified).toBe(true);
    // An allow-listed, verified account whose admin record is gone (as after an admin was
    // removed by hand): no page removes one, so the record is deleted in the database.
    const database = openServerDatabase(server);
    await database.db.deleteFrom('admins').where('email', '=', NO_RECORD).execute();
    await database.close();

    const vehicle = (await (await people.signedOut.get('/api/v1/vehicles/1')).json()) as { id: number; categorySlug: string };
    adminPaths = [
      '/admin',
      '/admin-panel',
      '/admin-panel/vehicles',
      '/admin-panel/vehicles/add',
      `/admin-panel/vehicles/edit/${encodeURIComponent(vehicle.categorySlug)}/${vehicle.id}`,
      '/admin-panel/categories',
      '/admin-panel/selling-vehicles',
      '/admin/add-category',
      '/admin/add-vehicle',
      '/admin/register-admin',
      '/admin/statistics',
      '/admin/selling-vehicles',
      '/admin/settings',
      '/admin/car-models',
      '/admin/requested-vehicles',
      '/admin/manage-categories',
      '/admin/manage-vehicles',
      '/admin/audit-log',
      '/admin/test-drives',
      '/admin/rentals',
      '/admin/rentals/licences',
      '/admin/sales',
      '/admin/sales/new',
    ];
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('sends a signed-out visitor to the admin login, page and data alike', async () => {
    for (const path of adminPaths) {
      const page = await people.signedOut!.get(path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get('location'), path).toMatch(/^\/admin-login/);
      const data = await people.signedOut!.get(`${path}.data`);
      // A data request gets React Router's redirect for the client to follow (202), never data.
      expect(data.status, `${path}.data`).toBe(202);
      expect(await data.text(), `${path}.data`).not.toMatch(/gaadibazaar\.in|vehicleCount|priceRupees/);
    }
  });

  for (const person of ['ordinaryUser', 'unverifiedAllowListed', 'verifiedWithoutAdminRecord']) {
    it(`answers ${person} with 403 Access Denied everywhere`, async () => {
      const client = people[person]!;
      for (const path of adminPaths) {
        const page = await client.get(path);
        expect(page.status, `${person} ${path}`).toBe(403);
        const html = await page.text();
        expect(html, path).toContain('Access Denied');
        expect(html, path).toContain('You don&#x27;t have permission to access the admin panel.');
        const data = await client.get(`${path}.data`);
        expect(data.status, `${person} ${path}.data`).toBe(403);
        await data.body?.cancel();
      }
    });
  }

  it('refuses every admin action to everyone but the admin, and nothing changes', async () => {
    const before = await (await people.signedOut!.get('/api/v1/vehicles?perPage=100')).json();
    const categoriesBefore = await (await people.signedOut!.get('/api/v1/categories')).json();
    const attempts: Record<string, string>[] = [
      { intent: 'delete', id: '1', vehicleId: '1', categoryId: '1' },
      { intent: 'save', name: 'Hacked', siteName: 'Hacked', itemsPerPage: '5', maintenanceMode: 'on' },
      { intent: 'status', status: 'sold', id: '1' },
      { email: 'owner@gaadibazaar.in', password: 'another1' },
    ];
    for (const person of ['signedOut', 'ordinaryUser', 'unverifiedAllowListed', 'verifiedWithoutAdminRecord']) {
      for (const path of adminPaths) {
        for (const fields of attempts) {
          const response = await people[person]!.postForm(path, fields);
          // Screens without a form answer 405 to every POST (nothing runs); the others send the
          // signed-out to sign in and refuse the signed-in who are not admins.
          const expected = PATHS_WITHOUT_ACTION.has(path) ? 405 : person === 'signedOut' ? 302 : 403;
          expect(response.status, `${person} POST ${path} ${fields.intent ?? 'form'}`).toBe(expected);
          if (expected === 302) expect(response.headers.get('location'), path).toMatch(/^\/admin-login/);
          await response.body?.cancel();
        }
      }
    }
    expect(await (await people.signedOut!.get('/api/v1/vehicles?perPage=100')).json()).toEqual(before);
    expect(await (await people.signedOut!.get('/api/v1/categories')).json()).toEqual(categoriesBefore);
    const home = await (await people.signedOut!.get('/')).text();
    expect(home).not.toContain('Hacked');
    // Four people, four forms, every admin page: several hundred requests on a busy machine.
  }, 180_000);

  it('lets the admin in everywhere', async () => {
    for (const path of adminPaths) {
      const page = await people.admin!.get(path);
      if (path === '/admin') {
        expect(page.status).toBe(302);
        expect(page.headers.get('location')).toBe('/admin-panel');
        continue;
      }
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).not.toContain('Access Denied');
    }
  });
});
