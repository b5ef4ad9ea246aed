import { randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { storeImage } from '../../server/media/images.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { runRetentionPurge } from '../../server/privacy/retention.ts';
import { saveRentalTerms } from '../../server/rentals/fleet.ts';
import { quoteRental } from '../../app/features/rentals/rental-price.ts';
import { swiftTerms } from '../support/rentals.ts';
import { completeProfile, HttpClient, logIn, mainText, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { googleIdentity, startOidcProvider, type OidcProvider } from '../support/oidc.ts';
import { vehicleRow } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { SESSION_COOKIE_NAME as SESSION_COOKIE } from '../../server/auth/session-cookie.ts';
import { systemClock } from '../../server/clock.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * The DPDP rights end to end against the real server, on SQLite and on PostgreSQL: download
 * my data (only one's own), delete my account (every row goes, leads erased as the privacy
 * page says, the last admin refused), the admin erasing one lead (audit-logged without the
 * data), and the retention purge run directly on the server's database.
 */

const { dialect, url: sharedUrl } = sharedServer();
const PASSWORD = 'masala-dosa-42';
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
const SECOND_ADMIN = 'second.admin@gaadibazaar.in';

let server: TestServer;
let oidc: OidcProvider;
let database: Database;
let vehicleId: number;

type Person = { client: HttpClient; email: string; id: string; mobile: string };

async function person(label: string, options: { verifiedPhone?: boolean; email?: string } = {}): Promise<Person> {
  const client = new HttpClient(server.url);
  const email = options.email ?? uniqueEmail(label);
  await signUp(client, email, PASSWORD);
  const mobile = uniqueMobile();
  if (options.verifiedPhone !== false) await completeProfile(client, `${label} Test`, mobile);
  const session = await client.session();
  return { client, email, id: session!.user.id, mobile };
}

async function insertVehicle(): Promise<number> {
  const now = new Date().toISOString();
  const slug = `privacy-${randomBytes(3).toString('hex')}`;
  const category = await database.db
    .insertInto('categories')
    .values({ name: slug, slug, image_key: null, image_width: null, image_height: null, image_widths: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const vehicle = await database.db
    .insertInto('vehicles')
    .values(
      vehicleRow({
        category_id: category.id,
        name: 'Tata Nexon XZ+',
        make: 'Tata',
        model: 'Nexon',
        variant: 'XZ+',
        year: '2022',
        price: '850000',
        price_rupees: 850000,
        odometer: 21000,
        search_text: 'tata nexon',
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return vehicle.id;
}

async function insertRequest(name: string, phone: string, createdAt = new Date()): Promise<number> {
  const at = createdAt.toISOString();
  const row = await database.db
    .insertInto('vehicle_requests')
    .values({
      name,
      phone,
      model: 'Maruti Swift',
      year: '2019',
      budget: '5 lakh',
      description: `Call ${name}`,
      status: 'new',
      notes: '',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A sell submission with one real stored photo (files under the server's media directory). */
async function insertSell(name: string, phone: string, createdAt = new Date()): Promise<{ id: number; key: string }> {
  const at = createdAt.toISOString();
  const storage = createLocalStorage(path.join(server.dataDir, 'media'));
  const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#0f766e' } })
    .jpeg()
    .toBuffer();
  const image = await storeImage(storage, new Uint8Array(bytes), `sell_vehicles/${Date.now()}_${randomBytes(6).toString('hex')}`);
  const row = await database.db
    .insertInto('sell_submissions')
    .values({
      name,
      phone,
      vehicle: 'Hyundai i20',
      year: '2018',
      price: '4,50,000',
      description: '',
      status: 'new',
      notes: `Spoke to ${name}`,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await database.db
    .insertInto('sell_submission_images')
    .values({
      submission_id: row.id,
      position: 0,
      key: image.key,
      width: image.width,
      height: image.height,
      variant_widths: image.widths.join(','),
      created_at: at,
    })
    .execute();
  return { id: row.id, key: image.key };
}

async function mediaFilesFor(key: string): Promise<string[]> {
  const stem = key.split('/')[1]!;
  try {
    return (await readdir(path.join(server.dataDir, 'media', 'sell_vehicles'))).filter((file) => file.startsWith(stem));
  } catch {
    return [];
  }
}

async function countWhere(table: 'user' | 'session' | 'account' | 'verification', column: 'id' | 'userId' | 'value', value: string): Promise<number> {
  const row = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(column as never, '=', value as never)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

async function ourRows(userId: string) {
  const [profiles, wishlist, otps] = await Promise.all([
    database.db.selectFrom('profiles').select('user_id').where('user_id', '=', userId).execute(),
    database.db.selectFrom('wishlist_entries').select('user_id').where('user_id', '=', userId).execute(),
    database.db.selectFrom('phone_otps').select('user_id').where('user_id', '=', userId).execute(),
  ]);
  return { profiles: profiles.length, wishlist: wishlist.length, otps: otps.length };
}

async function download(client: HttpClient) {
  const response = await client.get('/profile/my-data');
  return { response, text: response.status === 200 ? await response.text() : '' };
}

async function addToWishlist(client: HttpClient, id: number) {
  const response = await client.postForm(`/vehicle/${id}`, { intent: 'wishlist', wishlisted: 'true' });
  expect(response.status).toBeLessThan(400);
  await response.body?.cancel();
}

/** What the retention purge needs, over the server's own database and media. */
function purgeDeps() {
  return {
    database,
    clock: systemClock,
    storage: createLocalStorage(path.join(server.dataDir, 'media')),
    privateStorage: createLocalStorage(path.join(server.dataDir, 'private')),
    logger: { warn: () => {}, info: () => {}, error: () => {} },
  };
}

async function signInAdmin(): Promise<HttpClient> {
  const client = new HttpClient(server.url);
  const response = await client.postForm('/admin-login', { ...ADMIN, botCheck: await client.botToken('LOGIN') });
  expect(response.status).toBe(302);
  return client;
}

describe.skipIf(!sharedUrl)(`privacy rights (${dialect})`, () => {
  beforeAll(async () => {
    oidc = await startOidcProvider();
    server = await startTestServer({
      dialect,
      seed: false,
      env: {
        ...oidc.env,
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: ADMIN.password,
        ADMIN_EMAILS: [ADMIN.email, SECOND_ADMIN].join(','),
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'info',
      },
    });
    database = openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
    vehicleId = await insertVehicle();
    // For the server's own first scheduled run, shortly after start (the last test).
    await database.db
      .insertInto('outbox_messages')
      .values({
        channel: 'email',
        recipient: 'scheduled@example.in',
        subject: 'privacy-scheduled-outbox',
        body: '',
        created_at: new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString(),
      })
      .execute();
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await oidc?.stop();
  });

  describe('download my data', () => {
    test('holds the profile, the wishlist and the person’s own leads, and nothing of anyone else', async () => {
      const asha = await person('asha');
      const bharat = await person('bharat');
      await addToWishlist(asha.client, vehicleId);
      // Asha typed her number three ways on the public forms; Bharat once; a stranger's number ends like Asha's.
      const ashaRequest = await insertRequest('Asha Test', `+91 ${asha.mobile.slice(0, 5)} ${asha.mobile.slice(5)}`);
      const ashaRequestTrunk = await insertRequest('Asha Test', `0${asha.mobile}`);
      const ashaSell = await insertSell('Asha Test', asha.mobile);
      await insertRequest('Bharat Test', bharat.mobile);
      await insertRequest('Stranger Test', `8${asha.mobile}`);

      const { response, text } = await download(asha.client);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      const data = JSON.parse(text);
      expect(data.account).toMatchObject({ id: asha.id, email: asha.email, signInMethods: ['password'] });
      expect(data.profile).toMatchObject({ email: asha.email, name: 'asha Test', phone: `+91${asha.mobile}`, phoneVerified: true });
      expect(data.wishlist).toEqual([expect.objectContaining({ vehicleId, title: 'Tata Nexon', available: true })]);
      expect(data.vehicleRequests.map((lead: { id: number }) => lead.id).sort()).toEqual([ashaRequest, ashaRequestTrunk].sort());
      expect(data.sellSubmissions).toEqual([
        expect.objectContaining({ id: ashaSell.id, name: 'Asha Test', photos: [expect.stringContaining(`/media/${ashaSell.key}-`)] }),
      ]);
      for (const other of [bharat.email, bharat.mobile, 'Bharat Test', 'Stranger Test', PASSWORD]) expect(text).not.toContain(other);
      // Never a password hash or a session token.
      expect(text).not.toMatch(/"password"\s*:|"token"\s*:/);

      // The Android API answers the same JSON.
      const api = await asha.client.get('/api/v1/me/data');
      expect(api.status).toBe(200);
      expect(api.headers.get('cache-control')).toBe('no-store');
      const apiData = await api.json();
      expect({ ...apiData, exportedAt: null }).toEqual({ ...data, exportedAt: null });

      // Bharat gets his own, never Asha's.
      const bharats = await download(bharat.client);
      expect(JSON.parse(bharats.text).account.email).toBe(bharat.email);
      expect(bharats.text).not.toContain(asha.email);
      expect(bharats.text).not.toContain('Asha Test');
    });

    test('holds the person’s reservations and inspections with the details given for them, and nobody else’s', async () => {
      const dev = await person('dev');
      const esha = await person('esha');
      const now = new Date().toISOString();
      const reservation = (rowOf: { id: string; email: string }, title: string) => ({
        user_id: rowOf.id,
        vehicle_id: vehicleId,
        vehicle_title: title,
        name: `${title} buyer`,
        phone: '+919812345678',
        email: rowOf.email,
        amount_paise: 500_000,
        hold_hours: 72,
        status: 'cancelled' as const,
        pay_by_ms: Date.now(),
        amount_refunded_paise: 500_000,
        created_at: now,
        updated_at: now,
      });
      const inspection = (rowOf: { id: string; email: string }, model: string, hour: number) => ({
        user_id: rowOf.id,
        car: JSON.stringify({ make: 'Honda', model, year: 2020 }),
        estimate: JSON.stringify({ low: 500_000, high: 560_000 }),
        mode: 'home' as const,
        pin_code: '400001',
        name: `${model} seller`,
        phone: '+919812345679',
        email: rowOf.email,
        slot_start_ms: Date.UTC(2030, 0, 1, hour),
        seat: 0,
        status: 'cancelled' as const,
        created_at: now,
        updated_at: now,
      });
      await database.db
        .insertInto('car_reservations')
        .values([reservation(dev, 'Dev Reserved Car'), reservation(esha, 'Esha Reserved Car')])
        .execute();
      await database.db
        .insertInto('inspections')
        .values([inspection(dev, 'DevCity', 4), inspection(esha, 'EshaCity', 5)])
        .execute();

      const { text } = await download(dev.client);
      const data = JSON.parse(text);
      expect(data.reservations).toEqual([
        expect.objectContaining({
          vehicleTitle: 'Dev Reserved Car',
          name: 'Dev Reserved Car buyer',
          email: dev.email,
          status: 'cancelled',
          amount: 5000,
          amountRefunded: 5000,
        }),
      ]);
      expect(data.inspections).toEqual([
        expect.objectContaining({
          car: { make: 'Honda', model: 'DevCity', year: 2020 },
          estimate: { low: 500_000, high: 560_000 },
          mode: 'home',
          pinCode: '400001',
          name: 'DevCity seller',
          email: dev.email,
          slotStart: '2030-01-01T09:30',
          status: 'cancelled',
        }),
      ]);
      for (const other of ['Esha Reserved Car', 'EshaCity', esha.email]) expect(text).not.toContain(other);
    });

    test('a signed-out visitor is sent to /login, and the API answers 401', async () => {
      const visitor = new HttpClient(server.url);
      const page = await visitor.get('/profile/my-data');
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('/login?redirectTo=%2Fprofile%2Fmy-data');
      const api = await visitor.get('/api/v1/me/data');
      expect(api.status).toBe(401);
      expect(await api.json()).toMatchObject({ status: 401, detail: 'Please sign in first.' });
    });

    test('an unverified phone number claims no leads', async () => {
      const chetan = await person('chetan', { verifiedPhone: false });
      const mobile = uniqueMobile();
      await insertRequest('Someone Else', mobile);
      // Typed but never verified: the number is not proven to be Chetan's.
      await database.db
        .updateTable('profiles')
        .set({ phone: `+91${mobile}`, phone_verified: 0 })
        .where('user_id', '=', chetan.id)
        .execute();
      const data = JSON.parse((await download(chetan.client)).text);
      expect(data.vehicleRequests).toEqual([]);
      expect(data.sellSubmissions).toEqual([]);
    });
  });

  describe('delete my account', () => {
    test('the confirmation page asks for the password; a wrong one deletes nothing', async () => {
      const dev = await person('dev');
      const page = await dev.client.get('/profile/delete');
      expect(page.status).toBe(200);
      const text = mainText(await page.text());
      expect(text).toContain('Delete my account');
      expect(text).toContain('This cannot be undone');
      expect(text).toContain('Your password');

      for (const [password, message] of [
        ['', 'Please enter your password to confirm.'],
        ['not-my-password', 'That password is not right.'],
      ] as const) {
        const response = await dev.client.postForm('/profile/delete', { password });
        expect(response.status).toBe(400);
        expect(mainText(await response.text())).toContain(message);
      }
      // Typing DELETE is not enough for a password account.
      expect((await dev.client.postForm('/profile/delete', { confirm: 'DELETE' })).status).toBe(400);
      expect(await countWhere('user', 'id', dev.id)).toBe(1);
      expect((await dev.client.session())?.user.id).toBe(dev.id);
    });

    test('malformed bodies, a NUL byte and twenty identical deletes at once: never a 5xx, and the account goes once', async () => {
      const gita = await person('gita');
      const hostile: RequestInit[] = [
        { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'no boundary' },
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"password":' },
        { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<password/>' },
        // Inside the password, not at its end: scrypt's HMAC pads the key with zero bytes, so a
        // trailing NUL is the same password to every scrypt implementation.
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `password=${encodeURIComponent(`${PASSWORD.slice(0, 3)}\u0000${PASSWORD.slice(3)}`)}`,
        },
      ];
      for (const path of ['/profile/delete', '/api/v1/me/delete']) {
        for (const init of hostile) {
          const response = await gita.client.request(path, init);
          expect(response.status, `${path} ${String(init.body)}`).toBeLessThan(500);
          await response.body?.cancel();
        }
      }
      expect(await countWhere('user', 'id', gita.id)).toBe(1);

      const answers = await Promise.all(Array.from({ length: 20 }, () => gita.client.postForm('/profile/delete', { password: PASSWORD })));
      for (const answer of answers) await answer.body?.cancel();
      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
      expect(answers.some((answer) => answer.headers.get('location') === '/profile/delete?done=1')).toBe(true);
      expect(await countWhere('user', 'id', gita.id)).toBe(0);
      expect(await countWhere('session', 'userId', gita.id)).toBe(0);
    });

    test('removes every row of the person, erases their leads with photos, signs them out; signing in again fails', async () => {
      const esha = await person('esha');
      const other = await person('farhan');
      await addToWishlist(esha.client, vehicleId);
      await addToWishlist(other.client, vehicleId);
      const eshaRequest = await insertRequest('Esha Test', esha.mobile);
      const eshaSell = await insertSell('Esha Test', `+91-${esha.mobile}`);
      const otherRequest = await insertRequest('Farhan Test', other.mobile);
      expect(await mediaFilesFor(eshaSell.key)).not.toEqual([]);
      // A pending password-reset token names the person by id.
      await database.db
        .insertInto('verification')
        .values({
          id: randomUUID(),
          identifier: `reset-password:${randomBytes(8).toString('hex')}`,
          value: esha.id,
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        } as never)
        .execute();
      // A second signed-in device.
      const phone = new HttpClient(server.url);
      expect((await logIn(phone, esha.email, PASSWORD)).status).toBe(302);
      expect(await countWhere('session', 'userId', esha.id)).toBe(2);
      expect(await ourRows(esha.id)).toEqual({ profiles: 1, wishlist: 1, otps: 1 });

      const confirmPage = mainText(await (await esha.client.get('/profile/delete')).text());
      expect(confirmPage).toContain('The 2 requests and sell offers you sent from your verified phone number are erased too');

      const response = await esha.client.postForm('/profile/delete', { password: PASSWORD });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/profile/delete?done=1');
      expect(
        response.headers
          .getSetCookie()
          .some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=;`) || (cookie.startsWith(`${SESSION_COOKIE}=`) && /;.*Max-Age=0/i.test(cookie))),
      ).toBe(true);

      for (const [table, column] of [
        ['user', 'id'],
        ['session', 'userId'],
        ['account', 'userId'],
        ['verification', 'value'],
      ] as const) {
        expect(await countWhere(table, column, esha.id), table).toBe(0);
      }
      expect(await ourRows(esha.id)).toEqual({ profiles: 0, wishlist: 0, otps: 0 });
      expect(await database.db.selectFrom('vehicle_requests').select('id').where('id', '=', eshaRequest).execute()).toEqual([]);
      expect(await database.db.selectFrom('sell_submissions').select('id').where('id', '=', eshaSell.id).execute()).toEqual([]);
      expect(await database.db.selectFrom('sell_submission_images').select('id').where('submission_id', '=', eshaSell.id).execute()).toEqual([]);
      expect(await mediaFilesFor(eshaSell.key)).toEqual([]);
      // Everyone else's data stays.
      expect(await database.db.selectFrom('vehicle_requests').select('id').where('id', '=', otherRequest).execute()).toHaveLength(1);
      expect(await ourRows(other.id)).toMatchObject({ profiles: 1, wishlist: 1 });

      // Both devices are signed out, and the page says so.
      expect(await phone.session()).toBeNull();
      const done = await esha.client.get('/profile/delete?done=1');
      expect(done.status).toBe(200);
      expect(mainText(await done.text())).toContain('Your account and your data have been deleted. You are signed out.');
      expect((await esha.client.get('/profile/my-data')).status).toBe(302);

      const again = await logIn(new HttpClient(server.url), esha.email, PASSWORD);
      expect(again.status).toBe(200); // the login form again, with the message
      expect(mainText(await again.text())).toContain('Invalid email or password');
    });

    test('a Google-only account has no password to give: it types DELETE', async () => {
      const visitor = new HttpClient(server.url);
      const email = uniqueEmail('kiran');
      oidc.identity = googleIdentity(email, 'Kiran Google');
      const start = await visitor.postForm('/signup', { intent: 'google' });
      expect(start.status).toBe(302);
      const landed = await visitor.follow(start, { from: '/signup' });
      await landed.response.body?.cancel();
      const userId = (await visitor.session())!.user.id;
      expect(JSON.parse((await download(visitor)).text).account.signInMethods).toEqual(['google']);

      const page = mainText(await (await visitor.get('/profile/delete')).text());
      expect(page).toContain('Type DELETE to confirm');
      expect(page).not.toContain('Your password');
      for (const confirm of ['', 'delete', 'DELETE ME']) {
        const refused = await visitor.postForm('/profile/delete', { confirm });
        expect(refused.status).toBe(400);
        expect(mainText(await refused.text())).toContain('Please type DELETE (in capital letters) to confirm.');
      }
      expect(await countWhere('user', 'id', userId)).toBe(1);

      const deleted = await visitor.postForm('/profile/delete', { confirm: 'DELETE' });
      expect(deleted.status).toBe(302);
      expect(await countWhere('user', 'id', userId)).toBe(0);
      expect(await countWhere('account', 'userId', userId)).toBe(0);
      expect(await visitor.session()).toBeNull();
    });

    test('the Android API deletes with the password too', async () => {
      const gita = await person('gita', { verifiedPhone: false });
      const signedOut = await new HttpClient(server.url).request('/api/v1/me/delete', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(signedOut.status).toBe(401);
      const wrong = await gita.client.request('/api/v1/me/delete', {
        method: 'POST',
        body: JSON.stringify({ password: 'nope-nope' }),
        headers: { 'content-type': 'application/json' },
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ reason: 'wrong-password' });
      const garbage = await gita.client.request('/api/v1/me/delete', { method: 'POST', body: 'null', headers: { 'content-type': 'application/json' } });
      expect(garbage.status).toBe(400);
      // A POST from another site is refused by the Origin check before anything else.
      const foreign = await gita.client.request('/api/v1/me/delete', {
        method: 'POST',
        body: JSON.stringify({ password: PASSWORD }),
        headers: { 'content-type': 'application/json' },
        origin: 'https://evil.example',
      });
      expect(foreign.status).toBe(403);
      expect(await countWhere('user', 'id', gita.id)).toBe(1);

      const deleted = await gita.client.request('/api/v1/me/delete', {
        method: 'POST',
        body: JSON.stringify({ password: PASSWORD }),
        headers: { 'content-type': 'application/json' },
      });
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toEqual({ deleted: true, leadsErased: 0 });
      expect(await countWhere('user', 'id', gita.id)).toBe(0);
      expect(await countWhere('account', 'userId', gita.id)).toBe(0);
    });

    test('the last admin cannot delete itself; an admin who is not the last can', async () => {
      const admin = await signInAdmin();
      const page = mainText(await (await admin.get('/profile/delete')).text());
      expect(page).toContain('You are the only admin, so this account cannot be deleted');
      const refused = await admin.postForm('/profile/delete', { password: ADMIN.password });
      expect(refused.status).toBe(409);
      expect(mainText(await refused.text())).toContain('You are the only admin');
      expect(await database.db.selectFrom('admins').select('email').where('email', '=', ADMIN.email).execute()).toHaveLength(1);
      expect((await admin.session())?.user.email).toBe(ADMIN.email);

      // A second admin (allow-listed, verified, with a record) may go, and its record goes too.
      // Allow-listed addresses are created by an admin, never by public sign-up (decision 010).
      const created = await admin.postForm('/admin/register-admin', { email: SECOND_ADMIN, password: PASSWORD });
      expect(created.status).toBe(200);
      await created.body?.cancel();
      const second = new HttpClient(server.url);
      await logIn(second, SECOND_ADMIN, PASSWORD);
      const secondId = (await second.session())!.user.id;
      await database.db
        .updateTable('user')
        .set({ emailVerified: dialect === 'postgres' ? true : 1 })
        .where('id', '=', secondId)
        .execute();
      const gone = await second.postForm('/profile/delete', { password: PASSWORD });
      expect(gone.status).toBe(302);
      expect(await database.db.selectFrom('admins').select('email').where('email', '=', SECOND_ADMIN).execute()).toEqual([]);
      expect(await countWhere('user', 'id', secondId)).toBe(0);
    });
  });

  describe('an admin erases one lead on request', () => {
    test('the lead and its photos go; the audit entry holds only its number and kind; non-admins are refused', async () => {
      const request = await insertRequest('Hema Erase', '91234 56780');
      const sell = await insertSell('Hema Erase', '91234 56780');
      const member = await person('ishaan', { verifiedPhone: false });
      expect((await member.client.postForm('/admin/requested-vehicles', { intent: 'delete', id: String(request) })).status).toBe(403);
      expect((await new HttpClient(server.url).postForm('/admin-panel/selling-vehicles', { intent: 'delete', id: String(sell.id) })).status).toBe(302);
      expect(await database.db.selectFrom('vehicle_requests').select('id').where('id', '=', request).execute()).toHaveLength(1);

      const admin = await signInAdmin();
      // A status change first, so there is an earlier audit entry holding the notes.
      expect(
        (await admin.postForm('/admin/requested-vehicles', { intent: 'update', id: String(request), status: 'contacted', notes: 'Hema wants white' })).status,
      ).toBe(200);
      const listed = await admin.get('/admin/requested-vehicles?q=Hema');
      expect(await listed.text()).toContain('Delete');
      expect((await admin.postForm('/admin/requested-vehicles', { intent: 'delete', id: String(request) })).status).toBe(200);
      expect((await admin.postForm('/admin/selling-vehicles', { intent: 'delete', id: String(sell.id) })).status).toBe(200);

      expect(await database.db.selectFrom('vehicle_requests').select('id').where('id', '=', request).execute()).toEqual([]);
      expect(await database.db.selectFrom('sell_submissions').select('id').where('id', '=', sell.id).execute()).toEqual([]);
      expect(await mediaFilesFor(sell.key)).toEqual([]);
      const entries = await database.db
        .selectFrom('audit_log')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb('entity', '=', 'vehicle_request'), eb('entity_id', '=', String(request))]),
            eb.and([eb('entity', '=', 'sell_submission'), eb('entity_id', '=', String(sell.id))]),
          ]),
        )
        .execute();
      expect(
        entries
          .filter((entry) => entry.action === 'delete')
          .map((entry) => entry.summary)
          .sort(),
      ).toEqual([`Deleted sell submission #${sell.id}`, `Deleted vehicle request #${request}`]);
      const logged = JSON.stringify(entries);
      for (const detail of ['Hema', '91234', 'white', 'Maruti', 'i20']) expect(logged).not.toContain(detail);
    });
  });

  describe('rental bookings and driving licences', () => {
    const HOUR = 3_600_000;
    let carId: number;
    let renters = 0;

    async function licencePhoto(red: number): Promise<Blob> {
      const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: red, g: 80, b: 60 } } })
        .jpeg()
        .toBuffer();
      return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
    }

    /** A renter with a verified phone, a licence on file (through the API) and one booking requested. */
    async function renter(label: string, number: string): Promise<Person & { bookingId: number }> {
      const renter = await person(label);
      const form = new FormData();
      form.append('number', number);
      form.append('dateOfBirth', '1991-06-15');
      form.append('front', await licencePhoto(210), 'front.jpg');
      form.append('back', await licencePhoto(30), 'back.jpg');
      expect((await renter.client.request('/api/v1/me/licence', { method: 'POST', body: form })).status).toBe(201);
      // Each renter's two days of the one car lie three days after the last one's.
      const start = Math.ceil(Date.now() / HOUR) * HOUR + (10 + 3 * renters++) * 24 * HOUR;
      const booked = await renter.client.request('/api/v1/rentals/bookings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ carId, from: indiaDateTimeParam(start), to: indiaDateTimeParam(start + 26 * HOUR), pickup: 'hub' }),
      });
      const answer = (await booked.json()) as { booking: { id: number } };
      expect(booked.status, JSON.stringify(answer)).toBe(201);
      return { ...renter, bookingId: answer.booking.id };
    }

    async function licenceKeys(userId: string): Promise<string[]> {
      const row = await database.db.selectFrom('driving_licences').select(['front_key', 'back_key']).where('user_id', '=', userId).executeTakeFirst();
      return row ? [row.front_key, row.back_key] : [];
    }

    beforeAll(async () => {
      carId = await insertVehicle();
      await saveRentalTerms({ database, clock: { now: () => Date.now() } }, { vehicleId: carId, terms: swiftTerms });
    });

    test('the download holds the person’s bookings and licence record, and says the photos exist without their bytes', async () => {
      const ela = await renter('ela', 'KA0320190011111');
      const other = await renter('farid', 'KA0320190022222');
      const { text } = await download(ela.client);
      const data = JSON.parse(text);
      expect(data.drivingLicence).toMatchObject({
        number: 'KA0320190011111',
        dateOfBirth: '1991-06-15',
        status: 'pending',
        photos: { front: 'on file', back: 'on file', note: expect.stringContaining('not part of this file') },
      });
      expect(data.rentalBookings).toEqual([
        expect.objectContaining({
          id: ela.bookingId,
          vehicleId: carId,
          car: 'Tata Nexon XZ+',
          status: 'requested',
          pickup: 'hub',
          pinCode: null,
          from: expect.stringMatching(/\+05:30$/),
        }),
      ]);
      // A 26-hour booking on the Swift's terms: one day at ₹1,800 and two hours at ₹150, 18% GST (the default), the deposit apart.
      const quote = quoteRental(swiftTerms, { fromMs: 0, toMs: 26 * HOUR }, { gstPercent: 18, protectionPerDay: 250, deliveryFee: 500 });
      expect(quote).toMatchObject({ hours: 26, rent: 2100, gst: 378, deposit: 5000, total: 2478 });
      expect(data.rentalBookings[0].quote).toMatchObject({ hours: quote.hours, rent: quote.rent, deposit: quote.deposit, total: quote.total, payableNow: 0 });
      // Neither the storage keys nor the bytes of the photos; nothing of the other renter.
      for (const key of await licenceKeys(ela.id)) expect(text).not.toContain(key.split('/').pop()!);
      expect(text).not.toMatch(/base64|webp/i);
      expect(text.length).toBeLessThan(20_000);
      expect(text).not.toContain('KA0320190022222');
      expect(text).not.toContain(`"id":${other.bookingId},`);
    });

    test('deleting the account is refused while a booking is in progress, then removes the licence and its photos and keeps the booking without the person', async () => {
      const gita = await renter('gita', 'KA0320190033333');
      const admin = await signInAdmin();
      const approved = await admin.postForm('/admin/rentals/licences', { intent: 'approve', userId: gita.id });
      expect(approved.status).toBeLessThan(400);
      const keys = await licenceKeys(gita.id);
      expect(keys).toHaveLength(2);
      const privateFiles = async () => (await readdir(path.join(server.dataDir, 'private'), { recursive: true })).map(String);
      for (const key of keys) expect((await privateFiles()).some((file) => file.includes(key.split('/').pop()!))).toBe(true);

      // The booking still holds the car: the person cancels or finishes it first.
      const refused = await gita.client.postForm('/profile/delete', { password: PASSWORD });
      expect(refused.status).toBe(409);
      expect(mainText(await refused.text())).toContain('You have a rental booking in progress.');
      const api = await gita.client.request('/api/v1/me/delete', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(api.status).toBe(409);
      expect(await api.json()).toMatchObject({ reason: 'rental-open' });
      expect(await licenceKeys(gita.id)).toHaveLength(2);

      // The rental ran its course (the desk's steps are tested elsewhere): delivered to her PIN code, closed, paid, a desk note naming her.
      await database.db
        .updateTable('rental_bookings')
        .set({
          status: 'closed',
          pickup: 'delivery',
          pin_code: '560001',
          delivery_address: '12 MG Road, Bengaluru',
          amount_paid_paise: 730_000,
          deposit_refund_paise: 500_000,
          note: 'gita Test asked for a child seat',
        })
        .where('id', '=', gita.bookingId)
        .execute();
      const deleted = await gita.client.postForm('/profile/delete', { password: PASSWORD });
      expect(deleted.status).toBe(302);

      expect(await licenceKeys(gita.id)).toEqual([]);
      for (const key of keys) expect((await privateFiles()).some((file) => file.includes(key.split('/').pop()!))).toBe(false);
      const booking = await database.db.selectFrom('rental_bookings').selectAll().where('id', '=', gita.bookingId).executeTakeFirstOrThrow();
      expect(booking).toMatchObject({ user_id: null, pin_code: '', delivery_address: '', note: '', status: 'closed', vehicle_id: carId });
      expect(Number(booking.amount_paid_paise)).toBe(730_000);
      expect(Number(booking.deposit_refund_paise)).toBe(500_000);
      // The licence review stays in the staff log without the licence number.
      const audit = await database.db
        .selectFrom('audit_log')
        .select(['summary', 'before', 'after'])
        .where('entity', '=', 'driving-licence')
        .where('entity_id', '=', gita.id)
        .execute();
      expect(audit.length).toBeGreaterThan(0);
      for (const entry of audit) {
        expect(entry.summary).not.toContain('KA0320190033333');
        expect(entry).toMatchObject({ before: null, after: null });
      }
      // The desk still sees the booking, now without a customer.
      const desk = await admin.get(`/admin/rentals/bookings/${gita.bookingId}`);
      expect(desk.status).toBe(200);
      const deskText = mainText(await desk.text());
      expect(deskText).toContain('Account deleted');
      expect(deskText).not.toContain('gita Test');
      expect(deskText).not.toContain(gita.email);
    });
  });

  describe('retention purge', () => {
    test('the server runs the purge by itself shortly after start, with no page opened', async () => {
      const scheduled = async () =>
        (await database.db.selectFrom('outbox_messages').select('id').where('subject', '=', 'privacy-scheduled-outbox').execute()).length;
      const deadline = Date.now() + 30_000;
      while ((await scheduled()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await scheduled()).toBe(0);
      expect(server.output()).toContain('retention: purged rows past their period');
      expect(server.output()).not.toContain('retention: purge failed');
    });

    test('removes finished rental bookings 8 years after their return, never an open one', async () => {
      const HOUR = 3_600_000;
      const carId = await insertVehicle();
      const old = Date.now() - (8 * 365 + 10) * 24 * HOUR;
      const row = (status: 'closed' | 'returned', vehicle: number) => ({
        kind: 'booking' as const,
        vehicle_id: vehicle,
        user_id: null,
        status,
        starts_ms: old - 48 * HOUR,
        ends_ms: old,
        held_until_ms: old + 2 * HOUR,
        created_at: new Date(old - 72 * HOUR).toISOString(),
        updated_at: new Date(old).toISOString(),
      });
      const closed = await database.db.insertInto('rental_bookings').values(row('closed', carId)).returning('id').executeTakeFirstOrThrow();
      // Returned but the deposit never settled: still open, so kept however old.
      const returned = await database.db.insertInto('rental_bookings').values(row('returned', carId)).returning('id').executeTakeFirstOrThrow();
      const report = await runRetentionPurge(purgeDeps());
      expect(report.rentalBookings).toBeGreaterThanOrEqual(1);
      const left = (await database.db.selectFrom('rental_bookings').select('id').where('id', 'in', [closed.id, returned.id]).execute()).map((r) => r.id);
      expect(left).toEqual([returned.id]);
    });

    test('removes test drives 12 months after their slot and reservations 8 years after they ended, never a live one', async () => {
      const day = 24 * 60 * 60 * 1000;
      const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
      const owner = await person('kabir', { verifiedPhone: false });
      const carId = await insertVehicle();
      const drive = (slotStart: string) => ({
        vehicle_id: carId,
        vehicle_title: 'Retention car',
        user_id: owner.id,
        mode: 'hub' as const,
        pin_code: '',
        name: 'Kabir',
        phone: '+919800000001',
        email: owner.email,
        slot_start_ms: Date.parse(slotStart),
        seat: 0,
        status: 'booked' as const,
        reminded_at: null,
        created_at: slotStart,
        updated_at: slotStart,
      });
      const oldDrive = await database.db
        .insertInto('test_drives')
        .values(drive(ago(13 * 31 * day)))
        .returning('id')
        .executeTakeFirstOrThrow();
      const recentDrive = await database.db
        .insertInto('test_drives')
        .values(drive(ago(11 * 30 * day)))
        .returning('id')
        .executeTakeFirstOrThrow();
      const reservation = (status: 'cancelled' | 'active', endedAt: string | null) => ({
        user_id: owner.id,
        vehicle_id: null,
        vehicle_title: 'Retention car',
        name: 'Kabir',
        phone: '+919800000001',
        email: owner.email,
        amount_paise: 500_000,
        hold_hours: 72,
        status,
        pay_by_ms: 0,
        amount_refunded_paise: 0,
        ended_at: endedAt,
        created_at: ago(9 * 366 * day),
        updated_at: ago(9 * 366 * day),
      });
      const oldReservation = await database.db
        .insertInto('car_reservations')
        .values(reservation('cancelled', ago((8 * 365 + 10) * day)))
        .returning('id')
        .executeTakeFirstOrThrow();
      const recentReservation = await database.db
        .insertInto('car_reservations')
        .values(reservation('cancelled', ago(7 * 365 * day)))
        .returning('id')
        .executeTakeFirstOrThrow();
      // Live, so no end: kept however old (a car without a vehicle row cannot clash with another live one).
      const live = await database.db.insertInto('car_reservations').values(reservation('active', null)).returning('id').executeTakeFirstOrThrow();

      const report = await runRetentionPurge(purgeDeps());
      expect(report.testDrives).toBeGreaterThanOrEqual(1);
      expect(report.reservations).toBeGreaterThanOrEqual(1);
      expect(
        (await database.db.selectFrom('test_drives').select('id').where('id', 'in', [oldDrive.id, recentDrive.id]).execute()).map((row) => row.id),
      ).toEqual([recentDrive.id]);
      expect(
        (
          await database.db
            .selectFrom('car_reservations')
            .select('id')
            .where('id', 'in', [oldReservation.id, recentReservation.id, live.id])
            .orderBy('id')
            .execute()
        ).map((row) => row.id),
      ).toEqual([recentReservation.id, live.id]);
    });

    test('deletes what is past its period and keeps the rest', async () => {
      const now = new Date();
      const ago = (ms: number) => new Date(now.getTime() - ms);
      const day = 24 * 60 * 60 * 1000;
      const oldRequest = await insertRequest('Old Lead', '90000 00001', ago(13 * 31 * day));
      const freshRequest = await insertRequest('Fresh Lead', '90000 00002', ago(11 * 30 * day));
      const oldSell = await insertSell('Old Seller', '90000 00003', ago(400 * day));

      const kept = await person('jaya', { verifiedPhone: false });
      const iso = (date: Date) => date.toISOString();
      await database.db
        .insertInto('phone_otps')
        .values([
          // Retired when the live one was sent (one live code per person, migration 028).
          {
            user_id: kept.id,
            phone: '+919000000004',
            code_hash: 'expired',
            attempts: 0,
            expires_at: iso(ago(60_000)),
            used_at: iso(ago(60_000)),
            created_at: iso(ago(11 * 60_000)),
          },
          {
            user_id: kept.id,
            phone: '+919000000004',
            code_hash: 'live',
            attempts: 0,
            expires_at: iso(new Date(now.getTime() + 9 * 60_000)),
            used_at: null,
            created_at: iso(ago(60_000)),
          },
        ])
        .execute();
      await database.db
        .insertInto('rate_limit_hits')
        .values([
          { key: `privacy-old:${randomBytes(4).toString('hex')}`, window_start: now.getTime() - 2 * day, count: 3 },
          { key: `privacy-new:${randomBytes(4).toString('hex')}`, window_start: now.getTime() - 60_000, count: 1 },
        ])
        .execute();
      const expiredSession = randomUUID();
      await database.db
        .insertInto('session')
        .values({
          id: expiredSession,
          userId: kept.id,
          token: randomBytes(16).toString('hex'),
          expiresAt: iso(ago(day)),
          createdAt: iso(ago(31 * day)),
          updatedAt: iso(ago(31 * day)),
        } as never)
        .execute();
      const expiredToken = randomUUID();
      const liveToken = randomUUID();
      await database.db
        .insertInto('verification')
        .values([
          {
            id: expiredToken,
            identifier: 'reset-password:old',
            value: kept.id,
            expiresAt: iso(ago(60_000)),
            createdAt: iso(ago(3_600_000)),
            updatedAt: iso(ago(3_600_000)),
          },
          {
            id: liveToken,
            identifier: 'reset-password:new',
            value: kept.id,
            expiresAt: iso(new Date(now.getTime() + 3_600_000)),
            createdAt: iso(now),
            updatedAt: iso(now),
          },
        ] as never)
        .execute();
      const audit = (createdAt: Date, summary: string) => ({
        actor_email: ADMIN.email,
        action: 'update',
        entity: 'setting',
        entity_id: 'x',
        summary,
        before: null,
        after: null,
        created_at: iso(createdAt),
      });
      await database.db
        .insertInto('audit_log')
        .values([audit(ago(25 * 31 * day), 'privacy-old-audit'), audit(ago(23 * 30 * day), 'privacy-new-audit')])
        .execute();
      await database.db
        .insertInto('outbox_messages')
        .values([
          { channel: 'email', recipient: 'old@example.in', subject: 'privacy-old-outbox', body: '', created_at: iso(ago(8 * day)) },
          { channel: 'email', recipient: 'new@example.in', subject: 'privacy-new-outbox', body: '', created_at: iso(ago(6 * day)) },
        ])
        .execute();

      const report = await runRetentionPurge(purgeDeps(), now);
      expect(report.leads).toBeGreaterThanOrEqual(2);
      expect(report.phoneOtps).toBeGreaterThanOrEqual(1);
      expect(report.rateLimitCounters).toBeGreaterThanOrEqual(1);
      expect(report.sessions).toBeGreaterThanOrEqual(1);
      expect(report.verifications).toBeGreaterThanOrEqual(1);
      expect(report.auditEntries).toBeGreaterThanOrEqual(1);
      expect(report.outboxMessages).toBeGreaterThanOrEqual(1);

      const ids = async (table: 'vehicle_requests' | 'sell_submissions', id: number) =>
        (await database.db.selectFrom(table).select('id').where('id', '=', id).execute()).length;
      expect(await ids('vehicle_requests', oldRequest)).toBe(0);
      expect(await ids('vehicle_requests', freshRequest)).toBe(1);
      expect(await ids('sell_submissions', oldSell.id)).toBe(0);
      expect(await database.db.selectFrom('sell_submission_images').select('id').where('submission_id', '=', oldSell.id).execute()).toEqual([]);
      expect(await mediaFilesFor(oldSell.key)).toEqual([]);
      expect((await database.db.selectFrom('phone_otps').select('code_hash').where('user_id', '=', kept.id).execute()).map((row) => row.code_hash)).toEqual([
        'live',
      ]);
      expect(
        (await database.db.selectFrom('rate_limit_hits').select('key').where('key', 'like', 'privacy-%').execute()).map((row) => row.key.split(':')[0]),
      ).toEqual(['privacy-new']);
      expect(await countWhere('session', 'userId', kept.id)).toBe(1); // the live session of signing up
      expect((await database.db.selectFrom('session').select('id').where('id', '=', expiredSession).execute()).length).toBe(0);
      expect((await database.db.selectFrom('verification').select('id').where('value', '=', kept.id).execute()).map((row) => row.id)).toEqual([liveToken]);
      expect(
        (await database.db.selectFrom('audit_log').select('summary').where('summary', 'like', 'privacy-%-audit').execute()).map((row) => row.summary),
      ).toEqual(['privacy-new-audit']);
      expect(
        (await database.db.selectFrom('outbox_messages').select('subject').where('subject', 'like', 'privacy-%-outbox').execute()).map((row) => row.subject),
      ).toEqual(['privacy-new-outbox']);
      // The signed-in person is still signed in.
      expect((await kept.client.session())?.user.id).toBe(kept.id);
    });
  });
});
