import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  profileAnswerSchema,
  sellOfferSentSchema,
  vehicleListSchema,
  vehicleRequestSentSchema,
  wishlistChangeSchema,
  wishlistPageSchema,
} from '../../server/http/api-answers.ts';
import { HttpClient, otpFrom, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { openServerSql, type ServerSql } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The buyer's actions through /api/v1 against the running server, on SQLite and PostgreSQL:
 * the profile, the wishlist, Request a Vehicle and Sell Your Vehicle. Each answer parses with
 * the schema the OpenAPI document is made from; every refusal is problem+json 4xx; twenty
 * identical requests at once give what the site gives (one wishlist row, the leads' limits);
 * the dealer's mail of a lead reaches the SMTP peer once.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

let server: TestServer;
let smtp: SmtpPeer;
let sql: ServerSql;

const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string().min(1),
  fields: z.record(z.string(), z.string()).optional(),
  reason: z.string().optional(),
});

/** The body of `response`, checked: its status, JSON, and that `schema` reads it whole. */
async function answerOf<Schema extends z.ZodType>(response: Response, status: number, schema: Schema): Promise<z.output<Schema>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(text);
  const parsed = schema.safeParse(body);
  expect(parsed.success ? null : parsed.error.issues.slice(0, 3), text.slice(0, 300)).toBeNull();
  expect(parsed.data).toEqual(body);
  return parsed.data as z.output<Schema>;
}

/** A refusal: problem+json with this status, never a 5xx. */
async function problemOf(response: Response, status: number): Promise<z.output<typeof problemSchema>> {
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(status);
  expect(response.headers.get('content-type'), text.slice(0, 300)).toBe('application/problem+json');
  const body = problemSchema.parse(JSON.parse(text));
  expect(body.status).toBe(status);
  return body;
}

function api(client: HttpClient, path: string, init: RequestInit & { origin?: string | null } = {}) {
  return client.request(`/api/v1${path}`, init);
}

function postJson(client: HttpClient, path: string, body: unknown, headers: Record<string, string> = {}) {
  return api(client, path, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function count(table: string, where = '1 = 1', params: unknown[] = []): Promise<number> {
  const [row] = await sql.all<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${table} WHERE ${where}`, params);
  return Number(row?.count ?? 0);
}

async function signedIn(label: string): Promise<HttpClient> {
  const client = new HttpClient(server.url);
  await signUp(client, uniqueEmail(label));
  return client;
}

async function photo(color = '#1d4ed8'): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 900, height: 600, channels: 3, background: color } })
      .jpeg({ quality: 80 })
      .toBuffer(),
  );
}

type Upload = { name: string; bytes: Uint8Array; type: string };

function sellForm(fields: Record<string, string>, uploads: Upload[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  for (const upload of uploads) form.append('images', new File([new Uint8Array(upload.bytes)], upload.name, { type: upload.type }));
  return form;
}

/** How a lead's phone is kept and mailed (decision 096): the Indian mobile in E.164, however it was typed. */
const kept = (typed: string) => `+91${typed.replace(/\D/g, '').slice(-10)}`;

/** The mail to the dealer about a lead with this phone (as kept): it arrives, and it is the only one once the queue is idle. */
async function expectOneLeadMail(phone: string, subject: RegExp) {
  const mail = await smtp.waitForMessage((message) => message.text.includes(phone), 15_000);
  expect(mail.envelopeTo).toEqual([ADMIN.email]);
  expect(mail.subject).toMatch(subject);
  // Nothing left to send: a second copy would have been sent by now.
  await expect.poll(async () => count('jobs', "status IN ('queued', 'running')"), { timeout: 15_000 }).toBe(0);
  expect(smtp.messages.filter((message) => message.text.includes(phone))).toHaveLength(1);
}

const goodRequest = {
  name: 'Ravi Kumar',
  phone: '98765 43210',
  model: 'Maruti Swift VXi',
  year: '2019',
  budget: '₹5,00,000',
  description: 'White, petrol, single owner',
};
const goodSell = {
  name: 'Sunita Sharma',
  phone: '+91 99887 76655',
  vehicle: 'Hyundai i20 Asta',
  year: '2018',
  price: '4,50,000',
  description: 'Single owner, 42,000 km',
};

describe.skipIf(!sharedUrl)(`the buyer's API (${dialect})`, () => {
  let vehicleIds: number[];

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    server = await startTestServer({
      dialect,
      seed: true,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, SMTP_URL: smtp.url, TRUST_PROXY: 'true', SETTINGS_CACHE_SECONDS: '0' },
    });
    sql = await openServerSql(server);
    const listing = await answerOf(await fetch(`${server.url}/api/v1/vehicles?perPage=5`), 200, vehicleListSchema);
    vehicleIds = listing.items.map((item) => item.id);
    expect(vehicleIds.length).toBeGreaterThanOrEqual(3);
  }, 120_000);

  afterAll(async () => {
    await sql?.close();
    await server?.stop();
    await smtp?.close();
  });

  test('the document describes every new operation', async () => {
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags: string[] }>> };
    expect(Object.keys(document.paths['/me/profile'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/me/language'] ?? {})).toEqual(['post']);
    expect(Object.keys(document.paths['/me/wishlist'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/me/wishlist/{vehicleId}'] ?? {})).toEqual(['delete']);
    expect(document.paths['/vehicle-requests']?.post?.tags).toEqual(['Leads']);
    expect(document.paths['/sell-offers']?.post?.tags).toEqual(['Leads']);
  });

  describe('profile', () => {
    test('read, made from the account, and renamed by the profile form’s rule', async () => {
      const person = await signedIn('api-profile');
      const first = await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema);
      expect(first.profile).toMatchObject({ phone: '', phoneVerified: false, complete: false, emailVerified: false });
      expect(first.profile.email).toMatch(/^api-profile\./);
      expect(first.profile.createdAt).toMatch(/\+05:30$/);

      const renamed = await answerOf(await postJson(person, '/me/profile', { name: '  Asha Rao  ' }), 200, profileAnswerSchema);
      expect(renamed.profile.name).toBe('Asha Rao');
      expect(renamed.profile.updatedAt).toMatch(/\+05:30$/);
      expect((await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema)).profile.name).toBe('Asha Rao');
      // A form works too, as on the other account operations.
      const form = await person.postForm('/api/v1/me/profile', { name: 'आशा राव' });
      expect((await answerOf(form, 200, profileAnswerSchema)).profile.name).toBe('आशा राव');
    });

    test('complete once the phone is verified through /me/phone/code and /verify; the rename leaves the phone alone', async () => {
      const person = await signedIn('api-profile-phone');
      const mobile = uniqueMobile();
      expect((await postJson(person, '/me/phone/code', { phone: mobile, botCheck: await person.botToken('SEND_OTP') })).status).toBe(200);
      const sms = await waitForOutbox(person, 'sms', `+91${mobile}`);
      expect((await postJson(person, '/me/phone/verify', { phone: mobile, otp: otpFrom(sms.body), name: 'Vikram Sethi' })).status).toBe(200);
      const verified = await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema);
      expect(verified.profile).toMatchObject({ name: 'Vikram Sethi', phone: `+91${mobile}`, phoneVerified: true, complete: true });
      // A phone sent with the name is not the API's to change: only the name moves.
      const renamed = await answerOf(
        await postJson(person, '/me/profile', { name: 'Vikram S.', phone: '9000000000', phoneVerified: false }),
        200,
        profileAnswerSchema,
      );
      expect(renamed.profile).toMatchObject({ name: 'Vikram S.', phone: `+91${mobile}`, phoneVerified: true, complete: true });
    });

    test('the language choice: kept in the profile, refused in the asker’s language, twenty at once alike', async () => {
      const person = await signedIn('api-language');
      expect((await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema)).profile.language).toBeNull();
      const chosen = await answerOf(await postJson(person, '/me/language', { language: 'hi' }), 200, profileAnswerSchema);
      expect(chosen.profile.language).toBe('hi');
      expect((await answerOf(await person.postForm('/api/v1/me/language', { language: 'en' }), 200, profileAnswerSchema)).profile.language).toBe('en');

      for (const body of [{ language: 'fr' }, {}, { language: ['hi'] }, { language: 42 }, { language: 'hi\u0000' }, '{"language": "h']) {
        const refused = await postJson(person, '/me/language', body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        await problemOf(refused, 400);
      }
      const inHindi = await problemOf(await postJson(person, '/me/language', { language: 'fr' }, { 'accept-language': 'hi' }), 400);
      expect(inHindi.fields?.language).toBe('अंग्रेज़ी या हिन्दी चुनें।');
      expect((await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema)).profile.language).toBe('en');

      // No session, and another person's choice is never touched.
      await problemOf(await postJson(new HttpClient(server.url), '/me/language', { language: 'hi' }), 401);
      const other = await signedIn('api-language-other');
      await postJson(other, '/me/language', { language: 'hi' });
      expect((await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema)).profile.language).toBe('en');

      // Twenty identical choices at once (a new account, no profile row yet): one answer for all.
      const fresh = await signedIn('api-language-burst');
      const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(fresh, '/me/language', { language: 'hi' })));
      for (const answer of answers) expect((await answerOf(answer, 200, profileAnswerSchema)).profile.language).toBe('hi');
      const freshId = (await fresh.session())!.user.id;
      expect(await count('profiles', 'user_id = ? AND language = ?', [freshId, 'hi'])).toBe(1);
    });

    test('refusals: each by the schema’s message, never stored', async () => {
      const person = await signedIn('api-profile-bad');
      await postJson(person, '/me/profile', { name: 'Kept Name' });
      const cases: Array<[unknown, string]> = [
        [{ name: '' }, 'Please enter your name'],
        [{}, 'Please enter your name'],
        [{ name: 42 }, 'Please enter your name'],
        [{ name: ['Asha'] }, 'Please enter your name'],
        [{ name: '12345' }, 'letter'],
        [{ name: 'n'.repeat(101) }, '100'],
      ];
      for (const [body, message] of cases) {
        const refused = await problemOf(await postJson(person, '/me/profile', body), 400);
        expect(refused.fields?.name, JSON.stringify(body)).toContain(message);
      }
      expect((await problemOf(await postJson(person, '/me/profile', '{"name": "Asha'), 400)).detail).toBeTruthy();
      // A NUL is refused at the API's edge (decision 061), in a form by the form reader.
      const nul = await postJson(person, '/me/profile', { name: 'Asha\u0000Rao' });
      expect(nul.status).toBe(400);
      await problemOf(await person.postForm('/api/v1/me/profile', { name: 'Asha\u0000Rao' }), 400);
      expect((await answerOf(await api(person, '/me/profile'), 200, profileAnswerSchema)).profile.name).toBe('Kept Name');
    });

    test('without a session, or with a forged one, 401', async () => {
      const stranger = new HttpClient(server.url);
      await problemOf(await api(stranger, '/me/profile'), 401);
      await problemOf(await postJson(stranger, '/me/profile', { name: 'Mallory' }), 401);
      await problemOf(await api(stranger, '/me/profile', { headers: { cookie: 'better-auth.session_token=forged.signature' } }), 401);
      await problemOf(await api(stranger, '/me/profile', { headers: { authorization: 'Bearer forged-token' } }), 401);
    });
  });

  describe('wishlist', () => {
    test('add, page through, remove; each car a /vehicles card', async () => {
      const person = await signedIn('api-wishlist');
      expect(await answerOf(await api(person, '/me/wishlist'), 200, wishlistPageSchema)).toEqual({ items: [], page: 1, perPage: 20, total: 0 });
      for (const id of vehicleIds.slice(0, 3)) {
        expect(await answerOf(await postJson(person, '/me/wishlist', { vehicleId: id }), 200, wishlistChangeSchema)).toEqual({
          vehicleId: id,
          wishlisted: true,
          message: 'Added to wishlist!',
        });
      }
      // A form's text id is a car too.
      await answerOf(await person.postForm('/api/v1/me/wishlist', { vehicleId: String(vehicleIds[0]) }), 200, wishlistChangeSchema);

      const first = await answerOf(await api(person, '/me/wishlist?perPage=2'), 200, wishlistPageSchema);
      expect(first).toMatchObject({ page: 1, perPage: 2, total: 3 });
      const second = await answerOf(await api(person, '/me/wishlist?perPage=2&page=2'), 200, wishlistPageSchema);
      expect(second.items).toHaveLength(1);
      const ids = [...first.items, ...second.items].map((item) => item.vehicleId);
      expect(new Set(ids)).toEqual(new Set(vehicleIds.slice(0, 3)));
      for (const item of first.items) {
        expect(item.vehicle?.id).toBe(item.vehicleId);
        expect(item.addedAt).toMatch(/\+05:30$/);
      }
      expect((await answerOf(await api(person, '/me/wishlist?perPage=100000'), 200, wishlistPageSchema)).perPage).toBe(50);
      expect((await answerOf(await api(person, '/me/wishlist?page=99'), 200, wishlistPageSchema)).items).toEqual([]);

      const removed = await answerOf(await api(person, `/me/wishlist/${vehicleIds[1]}`, { method: 'DELETE' }), 200, wishlistChangeSchema);
      expect(removed).toEqual({ vehicleId: vehicleIds[1], wishlisted: false, message: 'Removed from wishlist' });
      await answerOf(await api(person, `/me/wishlist/${vehicleIds[1]}`, { method: 'DELETE' }), 200, wishlistChangeSchema);
      expect((await answerOf(await api(person, '/me/wishlist'), 200, wishlistPageSchema)).total).toBe(2);
      // Another person's list is their own.
      const other = await signedIn('api-wishlist-other');
      expect((await answerOf(await api(other, '/me/wishlist'), 200, wishlistPageSchema)).total).toBe(0);
    });

    test('a car that has left the site stays listed with its title and no card, as the wishlist page shows it', async () => {
      const person = await signedIn('api-wishlist-gone');
      const user = (await person.session())!.user.id;
      await postJson(person, '/me/wishlist', { vehicleId: vehicleIds[0] });
      // A car deleted by the dealer: its entry keeps the title it had (no foreign key holds it).
      await sql.run('INSERT INTO wishlist_entries (user_id, vehicle_id, title, created_at) VALUES (?, ?, ?, ?)', [
        user,
        2_000_000_000,
        'Tata Nano',
        '2026-01-05T04:30:00.000Z',
      ]);
      const page = await answerOf(await api(person, '/me/wishlist'), 200, wishlistPageSchema);
      expect(page.total).toBe(2);
      expect(page.items.find((item) => item.vehicleId === 2_000_000_000)).toEqual({
        vehicleId: 2_000_000_000,
        title: 'Tata Nano',
        addedAt: '2026-01-05T10:00:00+05:30',
        vehicle: null,
      });
      expect(page.items.find((item) => item.vehicleId === vehicleIds[0])?.vehicle?.id).toBe(vehicleIds[0]);
      // Gone from the site, it can still be taken off the list.
      await answerOf(await api(person, '/me/wishlist/2000000000', { method: 'DELETE' }), 200, wishlistChangeSchema);
      expect((await answerOf(await api(person, '/me/wishlist'), 200, wishlistPageSchema)).total).toBe(1);
    });

    test('twenty identical adds at once make one row', async () => {
      const person = await signedIn('api-wishlist-race');
      const id = vehicleIds[2]!;
      const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(person, '/me/wishlist', { vehicleId: id })));
      for (const answer of answers) expect((await answerOf(answer, 200, wishlistChangeSchema)).wishlisted).toBe(true);
      const user = (await person.session())!.user.id;
      expect(await count('wishlist_entries', 'user_id = ? AND vehicle_id = ?', [user, id])).toBe(1);
      expect((await answerOf(await api(person, '/me/wishlist'), 200, wishlistPageSchema)).total).toBe(1);
      // Twenty removals at once leave none, and each answers the same.
      const removals = await Promise.all(Array.from({ length: 20 }, () => api(person, `/me/wishlist/${id}`, { method: 'DELETE' })));
      for (const answer of removals) expect((await answerOf(answer, 200, wishlistChangeSchema)).wishlisted).toBe(false);
      expect(await count('wishlist_entries', 'user_id = ?', [user])).toBe(0);
    });

    test('hostile input: problem+json 4xx, nothing stored', async () => {
      const person = await signedIn('api-wishlist-bad');
      const bodies: unknown[] = [
        {},
        { vehicleId: 'abc' },
        { vehicleId: -1 },
        { vehicleId: 0 },
        { vehicleId: 1.5 },
        { vehicleId: 99_999_999_999 },
        { vehicleId: 1e300 },
        { vehicleId: '1e3' },
        { vehicleId: null },
        { vehicleId: [1] },
        { vehicleId: { id: 1 } },
        [],
        'null',
        '"x"',
        '{"vehicleId":',
        '{'.repeat(5000),
      ];
      for (const body of bodies) {
        const refused = await problemOf(await postJson(person, '/me/wishlist', body), 400);
        expect(refused.detail, JSON.stringify(body).slice(0, 40)).toBeTruthy();
      }
      await problemOf(await postJson(person, '/me/wishlist', { vehicleId: 2_147_483_647 }), 404);
      await problemOf(await person.postForm('/api/v1/me/wishlist', { vehicleId: `${vehicleIds[0]}\u0000` }), 400);
      expect((await postJson(person, '/me/wishlist', { vehicleId: `${vehicleIds[0]}\u0000` })).status).toBe(400);
      await problemOf(await api(person, '/me/wishlist', { method: 'POST', body: 'x'.repeat(100), headers: { 'content-type': 'text/plain' } }), 400);
      // Over the body limit: refused by the edge before the route reads it.
      expect((await postJson(person, '/me/wishlist', JSON.stringify({ vehicleId: vehicleIds[0], pad: 'x'.repeat(200_000) }))).status).toBe(413);
      for (const path of ['abc', '99999999999999999999', '-1', '0', '1.5', '%00', '1e3'])
        await problemOf(await api(person, `/me/wishlist/${path}`, { method: 'DELETE' }), 404);
      for (const query of ['page=abc', 'page=0', 'perPage=-5', 'page=1e3', 'perPage=%00']) await problemOf(await api(person, `/me/wishlist?${query}`), 400);
      expect((await answerOf(await api(person, '/me/wishlist'), 200, wishlistPageSchema)).total).toBe(0);

      const stranger = new HttpClient(server.url);
      await problemOf(await api(stranger, '/me/wishlist'), 401);
      await problemOf(await postJson(stranger, '/me/wishlist', { vehicleId: vehicleIds[0] }), 401);
      await problemOf(await api(stranger, `/me/wishlist/${vehicleIds[0]}`, { method: 'DELETE' }), 401);
      await problemOf(await postJson(stranger, '/me/wishlist', { vehicleId: vehicleIds[0] }, { authorization: 'Bearer forged' }), 401);
      // No Origin from another site: refused before the route runs.
      const crossSite = await api(person, '/me/wishlist', {
        method: 'POST',
        body: JSON.stringify({ vehicleId: vehicleIds[0] }),
        headers: { 'content-type': 'application/json' },
        origin: 'https://evil.example',
      });
      expect(crossSite.status).toBe(403);
    });
  });

  describe('request a vehicle', () => {
    test('JSON with the bot check: 201, stored, the dealer mailed once through the queue', async () => {
      const visitor = new HttpClient(server.url);
      const phone = '96100 00001';
      const sent = await answerOf(
        await postJson(visitor, '/vehicle-requests', { ...goodRequest, phone, botCheck: await visitor.botToken('REQUEST_FORM') }),
        201,
        vehicleRequestSentSchema,
      );
      expect(sent).toEqual({ sent: true, message: 'Your request has been submitted successfully!' });
      const rows = await sql.all<{ name: string; model: string; budget: string }>('SELECT name, model, budget FROM vehicle_requests WHERE phone = ?', [
        kept(phone),
      ]);
      expect(rows).toEqual([{ name: 'Ravi Kumar', model: 'Maruti Swift VXi', budget: '₹5,00,000' }]);
      await expectOneLeadMail(kept(phone), /^New vehicle request #\d+: Maruti Swift VXi$/);
    });

    test('the page’s messages per field, the bot check, hostile input: problem+json, nothing stored', async () => {
      const before = await count('vehicle_requests');
      const visitor = new HttpClient(server.url);
      const empty = await problemOf(await postJson(visitor, '/vehicle-requests', {}), 400);
      expect(empty.fields).toEqual({
        name: 'Please enter your name',
        phone: 'Please enter a phone number',
        model: 'Please enter the vehicle model you are looking for',
        budget: 'Please enter your budget',
      });
      expect((await problemOf(await postJson(visitor, '/vehicle-requests', { ...goodRequest, phone: '98765 4321' }), 400)).fields).toEqual({
        phone: 'Please enter a valid phone number',
      });
      expect(
        (await problemOf(await postJson(visitor, '/vehicle-requests', { ...goodRequest, description: 'd'.repeat(10_000) }), 400)).fields?.description,
      ).toBe('Description must be at most 1000 characters');
      expect((await problemOf(await postJson(visitor, '/vehicle-requests', { ...goodRequest, name: 7, budget: true }), 400)).fields).toMatchObject({
        name: 'Please enter your name',
        budget: 'Please enter your budget',
      });
      // Without the bot check, a forged one, or one for another form: 403.
      for (const botCheck of [undefined, 'forged', await visitor.botToken('SELL_FORM')]) {
        const refused = await problemOf(await postJson(visitor, '/vehicle-requests', { ...goodRequest, ...(botCheck ? { botCheck } : {}) }), 403);
        expect(refused.detail).toBe('We could not confirm that this was sent by a person. Please try again.');
      }
      await problemOf(await postJson(new HttpClient(server.url), '/vehicle-requests', '{"name":'), 400);
      await problemOf(await new HttpClient(server.url).postForm('/api/v1/vehicle-requests', { ...goodRequest, name: 'Ravi\u0000' }), 400);
      expect((await postJson(new HttpClient(server.url), '/vehicle-requests', { ...goodRequest, name: 'Ravi\u0000' })).status).toBe(400);
      await problemOf(
        await api(new HttpClient(server.url), '/vehicle-requests', { method: 'POST', body: 'name=x', headers: { 'content-type': 'text/plain' } }),
        400,
      );
      expect(
        (await postJson(new HttpClient(server.url), '/vehicle-requests', JSON.stringify({ ...goodRequest, description: 'x'.repeat(400_000) }))).status,
      ).toBe(413);
      expect(await count('vehicle_requests')).toBe(before);
    });

    test('twenty at once from one network: the limit of ten an hour holds; one solution is spent once', async () => {
      const network = new HttpClient(server.url);
      const tokens = await Promise.all(Array.from({ length: 20 }, () => network.botToken('REQUEST_FORM')));
      const answers = await Promise.all(
        tokens.map((botCheck, index) => postJson(network, '/vehicle-requests', { ...goodRequest, phone: `96200 ${String(index).padStart(5, '0')}`, botCheck })),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      for (const answer of answers.filter((one) => one.status !== 201)) {
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        expect((await problemOf(answer, 429)).detail).toMatch(/^Too many submissions from your network\. Please try again in \d+ minutes?\.$/);
      }
      expect(await count('vehicle_requests', "phone LIKE '+9196200%'")).toBe(10);

      // Twenty identical posts (one solution) from another network: one lead, the rest refused by the spent check.
      const other = new HttpClient(server.url);
      const botCheck = await other.botToken('REQUEST_FORM');
      const same = await Promise.all(
        Array.from({ length: 20 }, () => postJson(other, '/vehicle-requests', { ...goodRequest, phone: '96300 00001', botCheck })),
      );
      expect(same.filter((answer) => answer.status === 201)).toHaveLength(1);
      for (const answer of same.filter((one) => one.status !== 201)) expect([403, 429]).toContain((await problemOf(answer, answer.status)).status);
      expect(await count('vehicle_requests', 'phone = ?', [kept('96300 00001')])).toBe(1);
    });
  });

  describe('sell your vehicle', () => {
    test('multipart with two photos: 201, stored with its photos, the chat, the dealer mailed once', async () => {
      const visitor = new HttpClient(server.url);
      const phone = '+91 96400 00001';
      const form = sellForm({ ...goodSell, phone, botCheck: await visitor.botToken('SELL_FORM') }, [
        { name: 'front.jpg', bytes: await photo(), type: 'image/jpeg' },
        { name: 'back.jpg', bytes: await photo('#15803d'), type: 'image/jpeg' },
      ]);
      const sent = await answerOf(await api(visitor, '/sell-offers', { method: 'POST', body: form }), 201, sellOfferSentSchema);
      expect(sent.imagesFailed).toBe(false);
      expect(sent.imageUrls).toHaveLength(2);
      expect(sent.chatUrl).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
      expect(decodeURIComponent(sent.chatUrl)).toContain('Hyundai i20 Asta');
      const [row] = await sql.all<{ id: number }>('SELECT id FROM sell_submissions WHERE phone = ?', [kept(phone)]);
      expect(await count('sell_submission_images', 'submission_id = ?', [row!.id])).toBe(2);
      for (const url of sent.imageUrls) expect((await fetch(new URL(new URL(url).pathname, server.url))).status).toBe(200);
      await expectOneLeadMail(kept(phone), /^New car offered for sale #\d+: Hyundai i20 Asta$/);
    });

    test('photos under the site’s limits: a fake photo, too many, too large; malformed bodies: problem+json, nothing stored', async () => {
      const before = await count('sell_submissions');
      const post = async (fields: Record<string, string>, uploads: Upload[]) => {
        const visitor = new HttpClient(server.url);
        return api(visitor, '/sell-offers', { method: 'POST', body: sellForm({ ...fields, botCheck: await visitor.botToken('SELL_FORM') }, uploads) });
      };
      const fake = await problemOf(
        await post(goodSell, [{ name: 'car.jpg', bytes: new TextEncoder().encode('<html>not a photo</html>'), type: 'image/jpeg' }]),
        400,
      );
      expect(fake.fields?.images).toBeTruthy();
      const good = await photo();
      const tooMany = await problemOf(
        await post(
          goodSell,
          Array.from({ length: 11 }, (_, index) => ({ name: `${index}.jpg`, bytes: good, type: 'image/jpeg' })),
        ),
        400,
      );
      expect(tooMany.fields?.images).toBe('You can send at most 10 photos.');
      const huge = await problemOf(await post(goodSell, [{ name: 'huge.jpg', bytes: new Uint8Array(16 * 1024 * 1024), type: 'image/jpeg' }]), 400);
      expect(huge.fields?.images).toMatch(/^“huge\.jpg”: The image is larger than 15 MB/);
      const invalid = await problemOf(await post({ ...goodSell, year: '1800', price: '' }, [{ name: 'a.jpg', bytes: good, type: 'image/jpeg' }]), 400);
      expect(invalid.fields).toEqual({ year: 'Please enter a valid year, for example 2018', price: 'Please enter your expected price' });
      await problemOf(await post({ ...goodSell, name: 'Sunita\u0000' }, []), 400);

      const visitor = new HttpClient(server.url);
      await problemOf(await api(visitor, '/sell-offers', { method: 'POST', body: '--x\r\ngarbage', headers: { 'content-type': 'multipart/form-data' } }), 400);
      await problemOf(
        await api(visitor, '/sell-offers', {
          method: 'POST',
          body: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nSunita',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
        }),
        400,
      );
      await problemOf(await postJson(visitor, '/sell-offers', { ...goodSell }), 400);
      // No bot check: 403, the photos never stored.
      await problemOf(
        await api(visitor, '/sell-offers', { method: 'POST', body: sellForm(goodSell, [{ name: 'a.jpg', bytes: good, type: 'image/jpeg' }]) }),
        403,
      );
      expect(await count('sell_submissions')).toBe(before);
    });

    test('twenty identical offers at once: one saved, the rest refused', async () => {
      const visitor = new HttpClient(server.url);
      const botCheck = await visitor.botToken('SELL_FORM');
      const bytes = await photo('#9333ea');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          api(visitor, '/sell-offers', {
            method: 'POST',
            body: sellForm({ ...goodSell, phone: '96500 00001', botCheck }, [{ name: 'a.jpg', bytes, type: 'image/jpeg' }]),
          }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      for (const answer of answers.filter((one) => one.status !== 201)) expect([403, 429]).toContain((await problemOf(answer, answer.status)).status);
      expect(await count('sell_submissions', 'phone = ?', [kept('96500 00001')])).toBe(1);
    });
  });
});
