import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../server/db/change-notices.ts';
import { decodeEntities, HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { startLocalS3, type LocalS3 } from '../support/s3rver.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Two instances of the built server on one PostgreSQL database, as behind a load balancer
 * (issue 26): what an admin changes on A reaches B's caches within a second, sessions and rate
 * limits are one for both. The caches run with long lifetimes here (tests normally keep none),
 * so only the change notices can explain B seeing a change. Runs once, on PostgreSQL
 * (vitest.config.ts leaves it out of the SQLite project's files).
 */

const PASSWORD = 'secret123';
const ADMIN = 'admin@gaadibazaar.in';
const LONG_CACHES = { PAGE_CACHE_SECONDS: '300', LISTING_TOTALS_SECONDS: '300', SETTINGS_CACHE_SECONDS: '60', TRUST_PROXY: 'true' };

let a: TestServer;
let b: TestServer;
let s3: LocalS3;

async function signInAdmin(server: TestServer): Promise<HttpClient> {
  const client = new HttpClient(server.url, { address: null });
  const response = await client.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await client.botToken('LOGIN') });
  expect(response.status, 'admin sign-in').toBe(302);
  return client;
}

/** Polls `check` every 25 ms until it holds; resolves with the milliseconds it took (throws after `limitMs`). */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

type Listing = {
  total: number;
  items: Array<{ id: number; name: string; categorySlug: string }>;
  facets: Record<string, Array<{ value: string; count: number }>>;
};

async function listing(server: TestServer): Promise<Listing> {
  const response = await fetch(`${server.url}/api/v1/vehicles?perPage=100`);
  return (await response.json()) as Listing;
}

/**
 * The fields an edit form would send as it stands: its inputs (checkboxes only when checked),
 * selects (the selected option) and textareas, from the server's HTML.
 */
function formFields(html: string): Array<[string, string]> {
  const form = /<form\b[^>]*method="post"[^>]*encType="multipart\/form-data"[\s\S]*?<\/form>/i.exec(html)?.[0] ?? html;
  const fields: Array<[string, string]> = [];
  const attribute = (tag: string, name: string) => decodeEntities(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '');
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    const type = attribute(tag, 'type') || 'text';
    if (!name || type === 'file' || type === 'submit') continue;
    if ((type === 'checkbox' || type === 'radio') && !/\schecked=""/.test(tag)) continue;
    fields.push([name, attribute(tag, 'value') || (type === 'checkbox' ? 'on' : '')]);
  }
  for (const [, open, body] of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attribute(open!, 'name');
    const option = /<option\b[^>]*selected=""[^>]*>/.exec(body!)?.[0] ?? /<option\b[^>]*>/.exec(body!)?.[0] ?? '';
    if (name) fields.push([name, attribute(option, 'value')]);
  }
  for (const [, open, body] of form.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attribute(open!, 'name');
    if (name) fields.push([name, decodeEntities(body!)]);
  }
  return fields;
}

describe('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    // One bucket for both, served through the apps (no CDN address): each reads what the other wrote.
    s3 = await startLocalS3();
    // One AUTH_SECRET for both, as the deployment guide asks of several instances: without it each
    // would keep its own in its data folder, and a session signed by one would not open the other.
    const env = { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, AUTH_SECRET: randomBytes(32).toString('base64url'), ...LONG_CACHES, ...s3.env() };
    a = await startTestServer({ dialect: 'postgres', seed: true, childProcess: true, env });
    b = await startTestServer({ dialect: 'postgres', seed: true, childProcess: true, databaseUrl: a.databaseUrl, env });
  }, 300_000);
  afterAll(async () => {
    // B first: A drops the database they share.
    await b?.stop();
    await a?.stop();
    await s3?.close();
  });

  it('a photo uploaded through A is served through B', async () => {
    const admin = await signInAdmin(a);
    const { items } = await listing(a);
    const car = items[1]!;
    const editPath = `/admin-panel/vehicles/edit/${encodeURIComponent(car.categorySlug)}/${car.id}`;
    type Images = { images: Array<{ key: string; widths: number[] }> };
    const imagesOf = async () => ((await (await fetch(`${a.url}/api/v1/vehicles/${car.id}`)).json()) as Images).images;
    const before = new Set((await imagesOf()).map((image) => image.key));
    const form = new FormData();
    form.set('intent', 'add-images');
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#c2410c' } })
      .jpeg()
      .toBuffer();
    form.append('images', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'new-front.jpg');
    const saved = await admin.request(editPath, { method: 'POST', body: form });
    expect(
      saved.status,
      await saved
        .clone()
        .text()
        .then((text) => text.slice(0, 300)),
    ).toBeLessThan(400);

    const images = await imagesOf();
    const added = images.find((image) => !before.has(image.key))!;
    expect(added, JSON.stringify(images)).toBeDefined();
    const url = `/media/${added.key}-${added.widths[0]}.webp`;
    expect(await s3.keys(`media/${added.key}`)).not.toHaveLength(0);
    const [fromA, fromB] = await Promise.all([fetch(`${a.url}${url}`), fetch(`${b.url}${url}`)]);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
  });

  it('a session made on A is valid on B', async () => {
    const admin = await signInAdmin(a);
    const onB = new HttpClient(b.url, { address: null });
    for (const [name, cookie] of admin.jar.cookies) onB.jar.cookies.set(name, cookie);
    const panel = await onB.get('/admin-panel');
    expect(panel.status).toBe(200);
    expect(await panel.text()).toContain('Dashboard');
  });

  it('a setting saved on A shows on B within a second, though B keeps pages and settings for minutes', async () => {
    const visitor = new HttpClient(b.url);
    expect(await (await visitor.get('/')).text()).toContain('<title>Gaadi Bazaar');
    const cached = await visitor.get('/');
    expect(cached.headers.get('x-cache')).toBe('hit');
    await cached.body?.cancel();

    const admin = await signInAdmin(a);
    const saved = await admin.postForm('/admin/settings', {
      intent: 'save',
      siteName: 'Shree Motors',
      adminEmail: ADMIN,
      itemsPerPage: '10',
      emailNotifications: 'on',
    });
    expect(saved.status).toBe(302);
    const took = await within(5_000, async () => (await (await visitor.get('/')).text()).includes('<title>Shree Motors'));
    console.info(`[instances] a setting saved on A showed on B after ${took.toFixed(0)} ms`);
    expect(took).toBeLessThan(1_000);
  });

  it('a car marked sold on A leaves B’s listing and its filter counts within a second', async () => {
    const before = await listing(b);
    // Asked twice: the second answer comes from B's kept counts.
    expect((await listing(b)).total).toBe(before.total);
    const car = before.items[0]!;
    const makeOf = (result: Listing) => result.facets.make!.map((option) => [option.value, option.count] as const);

    const admin = await signInAdmin(a);
    const editPath = `/admin-panel/vehicles/edit/${encodeURIComponent(car.categorySlug)}/${car.id}`;
    const fields = formFields(await (await admin.get(editPath)).text()).filter(([name]) => !['status', 'soldPrice', 'soldAt', 'intent'].includes(name));
    const form = new FormData();
    for (const [name, value] of [...fields, ['intent', 'save'], ['status', 'sold'], ['soldPrice', '5,00,000'], ['soldAt', '2026-11-20']])
      form.append(name!, value!);
    const saved = await admin.request(editPath, { method: 'POST', body: form });
    expect(
      saved.status,
      await saved
        .clone()
        .text()
        .then((text) => text.slice(0, 300)),
    ).toBe(302);

    const took = await within(5_000, async () => (await listing(b)).total === before.total - 1);
    console.info(`[instances] a car sold on A left B's listing after ${took.toFixed(0)} ms`);
    expect(took).toBeLessThan(1_000);
    const after = await listing(b);
    expect(after.items.map((item) => item.id)).not.toContain(car.id);
    const countsBefore = makeOf(before).reduce((sum, [, count]) => sum + count, 0);
    expect(makeOf(after).reduce((sum, [, count]) => sum + count, 0)).toBe(countsBefore - 1);
  });

  it('B hears changes again after the database cut its listening connection', async () => {
    const admin = new pg.Client({ connectionString: b.databaseUrl });
    await admin.connect();
    try {
      const cut = await admin.query<{ cut: boolean }>(
        'SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [LISTENER_APPLICATION_NAME],
      );
      // One listener per instance.
      expect(cut.rows.length).toBe(2);
      b.expectErrorLog(/change notices/);
      a.expectErrorLog(/change notices/);
      // Listening again after the first reconnect delay.
      await within(
        10_000,
        async () =>
          (await admin.query('SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [LISTENER_APPLICATION_NAME])).rows
            .length === 2,
      );
    } finally {
      await admin.end();
    }
    const visitor = new HttpClient(b.url);
    await (await visitor.get('/')).body?.cancel();
    const cached = await visitor.get('/');
    expect(cached.headers.get('x-cache')).toBe('hit');
    await cached.body?.cancel();
    const saved = await (
      await signInAdmin(a)
    ).postForm('/admin/settings', { intent: 'save', siteName: 'Sai Cars', adminEmail: ADMIN, itemsPerPage: '10', emailNotifications: 'on' });
    expect(saved.status).toBe(302);
    const took = await within(5_000, async () => (await (await visitor.get('/')).text()).includes('<title>Sai Cars'));
    expect(took).toBeLessThan(1_000);
  });

  it('rate limits are one for both: sell-form posts from one address spread over A and B are counted together', async () => {
    const address = '203.0.113.77';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const client = new HttpClient((attempt % 2 === 0 ? a : b).url, { address });
      const response = await client.postForm('/sell-vehicle', { name: '' });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    // Ten a window per address (as on one instance), wherever each one landed.
    expect(statuses.join(' ')).toBe([...Array<number>(10).fill(400), 429, 429].join(' '));
  });

  /** A person signed up through `server` whose phone is verified and licence approved (written directly: their own flows have their own tests). */
  async function readyRenter(server: TestServer, db: pg.Client): Promise<HttpClient> {
    const client = new HttpClient(server.url);
    const email = uniqueEmail('instances');
    await signUp(client, email);
    const userId = (await client.session())!.user.id;
    const now = new Date().toISOString();
    const phone = `+9197${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await db.query(
      `INSERT INTO profiles (user_id, email, name, photo_url, phone, phone_verified, created_at, last_login_at, updated_at) VALUES ($1, $2, 'Asha Verma', '', $3, 1, $4, $4, $4)
       ON CONFLICT (user_id) DO UPDATE SET name = 'Asha Verma', phone = $3, phone_verified = 1`,
      [userId, email, phone, now],
    );
    await db.query(
      `INSERT INTO driving_licences (user_id, number, date_of_birth, front_key, back_key, status, refusal_reason, reviewed_by, reviewed_at, created_at, updated_at)
       VALUES ($1, 'MH0220190012345', '1990-05-17', 'licences/x-front', 'licences/x-back', 'approved', NULL, NULL, NULL, $2, $2)`,
      [userId, now],
    );
    return client;
  }

  const postJson = (client: HttpClient, path: string, body: unknown) =>
    client.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('one car asked for at the same moment on A and on B: one test drive and one rental booking, the other told it is taken', async () => {
    const db = new pg.Client({ connectionString: a.databaseUrl });
    await db.connect();
    try {
      const [onA, onB] = [await readyRenter(a, db), await readyRenter(b, db)];
      // A test drive: the first free slot three days on, for a car for sale.
      const car = (await listing(a)).items[2]!.id;
      const day = new Date(Date.now() + 3 * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 10);
      const { slots } = (await (await fetch(`${a.url}/api/v1/test-drives/slots?vehicleId=${car}&date=${day}`)).json()) as {
        slots: Array<{ start: string; remaining: number }>;
      };
      const slot = slots.find((candidate) => candidate.remaining > 0)!.start;
      const drives = await Promise.all([onA, onB].map((client) => postJson(client, '/api/v1/test-drives', { vehicleId: car, slot, mode: 'hub' })));
      expect(
        drives.map((answer) => answer.status).sort(),
        await Promise.all(drives.map((answer) => answer.clone().text())).then((texts) => texts.join(' | ')),
      ).toEqual([201, 409]);

      // A rental: the same hours of one fleet car, a week on.
      const fleet = (await (await fetch(`${a.url}/api/v1/rentals/cars`)).json()) as { items: Array<{ id: number }> };
      const rentalDay = new Date(Date.now() + 7 * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 10);
      const booking = { carId: fleet.items[0]!.id, from: `${rentalDay}T10:00`, to: `${rentalDay}T22:00`, pickup: 'hub', payment: 'pay-at-pickup' };
      const rentals = await Promise.all([onA, onB].map((client) => postJson(client, '/api/v1/rentals/bookings', booking)));
      expect(
        rentals.map((answer) => answer.status).sort(),
        await Promise.all(rentals.map((answer) => answer.clone().text())).then((texts) => texts.join(' | ')),
      ).toEqual([201, 409]);
    } finally {
      await db.end();
    }
  });
});
