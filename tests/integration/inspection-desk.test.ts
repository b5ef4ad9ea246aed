import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionAnswerSchema, inspectionListSchema } from '../../server/http/api-answers.ts';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText, waitForOutbox } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { verifiedPerson as verifiedPersonOn } from '../support/people.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * The desk's side of a seller's inspection (decision 084), on SQLite and PostgreSQL: the
 * schedule by day and status, confirm, record with photos, the offer (mail and SMS to the
 * seller), the seller's accept and decline (mail to the dealer), an expired offer refused by
 * the server's clock, many accepts at once giving one, the vehicle draft made once (also at
 * once) and kept out of every public read until published, the admin guard on every new page,
 * and hostile input answered 4xx.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const today = addDays(indiaDay(Date.now()), 1);
const SERVER_CLOCK_START = `${today}T11:30:00+05:30`;
const car = { make: 'Maruti Suzuki', model: 'Baleno', year: 2020, fuel: 'Petrol', transmission: 'Manual', km: 38_000, owners: 1, registrationState: 'MH' };

let server: TestServer;
let database: Database;
let admin: HttpClient;

let slotsTaken = 0;
/** Each booking its own hour, from the day after tomorrow (8 slots a day, 2 places each). */
function freshSlot(): string {
  const index = slotsTaken++;
  return `${addDays(today, 1 + Math.floor(index / 8))}T${String(10 + (index % 8)).padStart(2, '0')}:00`;
}

/** A signed-up person whose phone is verified (set in the database: the OTP flow has its own tests). */
function verifiedPerson(label = 'seller') {
  return verifiedPersonOn(server.url, database, { label, name: 'Sunita Rao', password: PASSWORD });
}

async function postJson(client: HttpClient, path: string, body: unknown = {}) {
  const response = await client.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
}

/** A desk form post (multipart, as the page sends it); the redirect's page is read for its toast. */
async function desk(id: number, fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array }> = [], client = admin) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('images', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), file.name);
  const response = await client.request(`/admin/inspections/${id}`, { method: 'POST', body: form });
  const location = response.headers.get('location');
  const html = location ? (await response.body?.cancel(), await (await client.get(location)).text()) : await response.text();
  return { status: response.status, location, text: decodeEntities(mainText(html)), html };
}

async function photo(colour: { r: number; g: number; b: number }): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
      .jpeg()
      .toBuffer(),
  );
}

async function book(person: { client: HttpClient }, mode: 'hub' | 'home' = 'home'): Promise<number> {
  const answer = await postJson(person.client, '/api/v1/inspections', { car, mode, pinCode: '400069', street: '12 Sea View, Juhu Tara Rd', slot: freshSlot() });
  expect(answer.status).toBe(201);
  return inspectionAnswerSchema.parse(answer.body).inspection.id;
}

/** Booked, recorded and offered: the state the seller answers in. */
async function offered(person: { client: HttpClient }, amount = '4,25,000'): Promise<number> {
  const id = await book(person);
  expect((await desk(id, { intent: 'record', 'item-0': 'Good', odometer: '38,400', notes: '' })).status).toBe(303);
  expect((await desk(id, { intent: 'offer', amount, validUntil: addDays(today, 5) })).status).toBe(303);
  return id;
}

async function myInspection(client: HttpClient, id: number) {
  const list = inspectionListSchema.parse(await (await client.get('/api/v1/me/inspections')).json());
  return list.inspections.find((item) => item.id === id)!;
}

async function firstCategoryId(): Promise<string> {
  const row = await database.db.selectFrom('categories').select('id').orderBy('id').executeTakeFirstOrThrow();
  return String(row.id);
}

describe.skipIf(!shared.url)(`inspection desk (${shared.dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: PASSWORD,
        TRUST_PROXY: 'true',
        ADMIN_EMAILS: ADMIN,
        SETTINGS_CACHE_SECONDS: '0',
        PAGE_CACHE_SECONDS: '0',
        LOG_LEVEL: 'warn',
        TEST_CLOCK_START: SERVER_CLOCK_START,
      },
    });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
  }, 240_000);
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('schedules by day and status, confirms, records with photos, and offers: the seller is told by mail and SMS and sees the offer', async () => {
    const seller = await verifiedPerson();
    const id = await book(seller);
    const { slot } = await myInspection(seller.client, id);
    const day = slot.slice(0, 10);

    const schedule = mainText(await (await admin.get(`/admin/inspections?date=${day}`)).text());
    expect(schedule).toContain('2020 Maruti Suzuki Baleno');
    expect(schedule).toContain(`Open inspection #${id}`);
    expect(mainText(await (await admin.get(`/admin/inspections?date=${day}&status=done`)).text())).not.toContain(`Open inspection #${id}`);

    // An offer before the record is refused with what to do.
    const early = await desk(id, { intent: 'offer', amount: '400000', validUntil: addDays(today, 5) });
    expect(early.status).toBe(409);
    expect(early.text).toContain('Please record the inspection before making an offer.');

    expect((await desk(id, { intent: 'confirm' })).text).toContain('Inspection confirmed.');
    expect((await desk(id, { intent: 'confirm' })).status).toBe(409);

    const recorded = await desk(
      id,
      { intent: 'record', 'item-0': 'Excellent', 'item-3': 'Needs Attention', odometer: '38,412', notes: 'Rear bumper scuffed.\nService book complete.' },
      [
        { name: 'front.jpg', bytes: await photo({ r: 200, g: 30, b: 30 }) },
        { name: 'side.jpg', bytes: await photo({ r: 30, g: 30, b: 200 }) },
      ],
    );
    expect(recorded.status).toBe(303);
    expect(recorded.text).toContain('Inspection recorded.');
    const row = await database.db.selectFrom('inspections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('done');
    expect(JSON.parse(row.condition!)).toEqual({ Engine: 'Excellent', Brakes: 'Needs Attention' });
    expect(Number(row.odometer)).toBe(38_412);
    const photos = JSON.parse(row.photos!) as Array<{ key: string; widths: number[] }>;
    expect(photos).toHaveLength(2);
    const served = await admin.get(`/media/${photos[0]!.key}-${photos[0]!.widths[0]}.webp`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');

    const offer = await desk(id, { intent: 'offer', amount: '4,50,000', validUntil: addDays(today, 7) });
    expect(offer.status).toBe(303);
    expect(offer.text).toContain('Offer of ₹4,50,000 sent to the seller.');
    const mail = await waitForOutbox(seller.client, 'email', seller.email, (entry) => entry.subject.includes('Our offer for your 2020 Maruti Suzuki Baleno'));
    expect(mail.body).toContain('₹4,50,000');
    await waitForOutbox(seller.client, 'sms', seller.phone, (entry) => entry.body.includes('₹4,50,000'));

    const mine = await myInspection(seller.client, id);
    expect(mine.offer).toMatchObject({ rupees: 450_000, validUntil: addDays(today, 7), state: 'open', answeredAt: null });
    expect(mine.offer!.madeAt).toMatch(/\+05:30$/);
    const profile = mainText(await (await seller.client.get('/profile')).text());
    expect(profile).toContain('₹4,50,000');
    expect(profile).toContain('Accept offer');

    // Dashboard: the day's inspections are today's work on their day.
    const audit = mainText(await (await admin.get('/admin/audit-log')).text());
    expect(audit).toContain(`Offered ₹4,50,000 for inspection #${id}`);
    expect(audit).toContain(`Recorded inspection #${id}`);
  });

  it('shows today’s inspections on the dashboard', async () => {
    const seller = await verifiedPerson();
    const id = await book(seller);
    // Moved to today (the server's clock is 11:30 today): the dashboard counts it.
    const todaySlot = Date.parse(`${today}T16:00:00+05:30`);
    await database.db.updateTable('inspections').set({ slot_start_ms: todaySlot, seat: 1 }).where('id', '=', id).execute();
    const dashboard = mainText(await (await admin.get('/admin-panel')).text());
    expect(dashboard).toMatch(/[1-9]\d*\s*Inspections today/);
  });

  it('the seller accepts once: the dealer is told; ten accepts at once give one acceptance', async () => {
    const seller = await verifiedPerson();
    const id = await offered(seller);
    const answers = await Promise.all(Array.from({ length: 10 }, () => postJson(seller.client, `/api/v1/me/inspections/${id}/offer/accept`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.type).toContain('application/problem+json');
    const accepted = inspectionAnswerSchema.parse(answers.find((answer) => answer.status === 200)!.body).inspection;
    expect(accepted.offer).toMatchObject({ state: 'accepted' });
    expect(accepted.offer!.answeredAt).toMatch(/\+05:30$/);
    await waitForOutbox(seller.client, 'email', ADMIN, (entry) => entry.subject === `Offer accepted #${id}: 2020 Maruti Suzuki Baleno`);
    // Declining after accepting is refused.
    expect((await postJson(seller.client, `/api/v1/me/inspections/${id}/offer/decline`)).status).toBe(409);
  });

  it('on the profile the seller reads the report, confirms the amount before accepting, and the lead moves with the offer', async () => {
    const seller = await verifiedPerson();
    const id = await offered(seller, '4,50,000');
    const lead = async () => database.db.selectFrom('sell_submissions').select(['status', 'notes']).where('inspection_id', '=', id).executeTakeFirstOrThrow();
    // The offer made: the lead is contacted, its notes say so.
    expect(await lead()).toMatchObject({ status: 'contacted', notes: expect.stringContaining('Offer of ₹4,50,000 made on') });
    // What the offer rests on: the recorded items, the odometer and the notes, on the profile and in the API.
    const mine = await myInspection(seller.client, id);
    expect(mine.report).toMatchObject({ odometer: expect.any(Number), condition: expect.arrayContaining([{ item: 'Engine', status: expect.any(String) }]) });
    const profile = mainText(await (await seller.client.get('/profile')).text());
    expect(profile).toContain('Inspection report');
    // "Accept offer" asks first; a post without the confirmation asks too, and changes nothing.
    const asked = await seller.client.postForm('/sell-vehicle/inspection', { intent: 'accept-offer', id: String(id) });
    expect(asked.status).toBe(302);
    expect(asked.headers.get('location')).toBe(`/profile?confirmOffer=${id}#inspections`);
    expect((await myInspection(seller.client, id)).offer?.state).toBe('open');
    const confirming = mainText(await (await seller.client.get(`/profile?confirmOffer=${id}`)).text());
    expect(confirming).toContain('Sell your 2020 Maruti Suzuki Baleno to us for ₹4,50,000?');
    expect(confirming).toContain('Yes, accept ₹4,50,000');
    const accepted = await seller.client.postForm('/sell-vehicle/inspection', { intent: 'accept-offer', id: String(id), confirm: 'yes' });
    expect(accepted.headers.get('location')).toContain('inspection=offer-accepted');
    expect((await myInspection(seller.client, id)).offer?.state).toBe('accepted');
    // The seller answered: the lead is closed, with the answer in its notes.
    expect(await lead()).toMatchObject({ status: 'closed', notes: expect.stringContaining('The seller accepted the offer of ₹4,50,000') });
  });

  it('the seller declines from the profile page; the dealer is told', async () => {
    const seller = await verifiedPerson();
    const id = await offered(seller);
    const declined = await seller.client.postForm('/sell-vehicle/inspection', { intent: 'decline-offer', id: String(id) });
    expect(declined.status).toBe(302);
    expect(declined.headers.get('location')).toContain('inspection=offer-declined');
    expect((await myInspection(seller.client, id)).offer?.state).toBe('declined');
    await waitForOutbox(seller.client, 'email', ADMIN, (entry) => entry.subject.startsWith(`Offer declined #${id}`));
    // A declined offer cannot be replaced by the desk, nor become a draft.
    expect((await desk(id, { intent: 'offer', amount: '500000', validUntil: addDays(today, 5) })).status).toBe(409);
    expect((await desk(id, { intent: 'draft', categoryId: await firstCategoryId() })).status).toBe(409);
  });

  it('an offer past its last day (India time, the server’s clock) cannot be accepted', async () => {
    const seller = await verifiedPerson();
    const id = await offered(seller);
    await database.db
      .updateTable('inspections')
      .set({ offer_valid_until: addDays(today, -1) })
      .where('id', '=', id)
      .execute();
    expect((await myInspection(seller.client, id)).offer?.state).toBe('expired');
    const refused = await postJson(seller.client, `/api/v1/me/inspections/${id}/offer/accept`);
    expect(refused.status).toBe(409);
    expect(refused.type).toContain('application/problem+json');
    expect(String(refused.body?.detail)).toContain('This offer expired on');
    // The profile's form says so too, and nothing changed.
    const page = await seller.client.postForm('/sell-vehicle/inspection', { intent: 'accept-offer', id: String(id), confirm: 'yes' });
    expect(page.status).toBe(302);
    expect(mainText(await (await seller.client.get(page.headers.get('location')!)).text())).toContain('This offer expired on');
    const row = await database.db.selectFrom('inspections').select('offer_status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.offer_status).toBe('open');
  });

  it('someone else’s inspection is 404 on accept and decline; a missing offer is 409', async () => {
    const [owner, stranger] = [await verifiedPerson(), await verifiedPerson('stranger')];
    const id = await offered(owner);
    for (const answer of ['accept', 'decline']) {
      const refused = await postJson(stranger.client, `/api/v1/me/inspections/${id}/offer/${answer}`);
      expect(refused.status).toBe(404);
      expect(refused.type).toContain('application/problem+json');
    }
    expect((await postJson(new HttpClient(server.url), `/api/v1/me/inspections/${id}/offer/accept`)).status).toBe(401);
    const bare = await book(owner);
    expect((await postJson(owner.client, `/api/v1/me/inspections/${bare}/offer/accept`)).status).toBe(409);
    expect((await myInspection(owner.client, id)).offer?.state).toBe('open');
  });

  it('an accepted offer becomes one vehicle draft (also when asked twice at once), not public until published', async () => {
    const seller = await verifiedPerson();
    const id = await book(seller);
    await desk(id, { intent: 'record', 'item-0': 'Good', 'item-9': 'Fair', odometer: '41,000', notes: 'Clean car.' }, [
      { name: 'front.jpg', bytes: await photo({ r: 20, g: 160, b: 40 }) },
    ]);
    await desk(id, { intent: 'offer', amount: '3,90,000', validUntil: addDays(today, 3) });
    expect((await desk(id, { intent: 'draft', categoryId: await firstCategoryId() })).status).toBe(409);
    expect((await postJson(seller.client, `/api/v1/me/inspections/${id}/offer/accept`)).status).toBe(200);

    const before = (await (await admin.get('/api/v1/vehicles?perPage=1')).json()) as { total: number };
    const category = await firstCategoryId();
    const tries = await Promise.all(Array.from({ length: 4 }, () => desk(id, { intent: 'draft', categoryId: category })));
    expect(tries.every((answer) => answer.status === 303)).toBe(true);
    const drafts = await database.db
      .selectFrom('vehicles')
      .selectAll()
      .where('status', '=', 'draft')
      .where('make', '=', 'Maruti Suzuki')
      .where('odometer', '=', 41_000)
      .execute();
    expect(drafts).toHaveLength(1);
    const draft = drafts[0]!;
    expect(draft).toMatchObject({
      model: 'Baleno',
      year: '2020',
      fuel_type: 'Petrol',
      transmission: 'Manual',
      owners: '1',
      price: '',
      price_rupees: null,
      description: 'Clean car.',
    });
    expect(JSON.parse(draft.inspection!)).toEqual({ Engine: 'Good', 'Body and paint': 'Fair' });
    const images = await database.db.selectFrom('vehicle_images').select('key').where('vehicle_id', '=', draft.id).execute();
    expect(images).toHaveLength(1);
    const inspectionRow = await database.db.selectFrom('inspections').select(['draft_vehicle_id', 'photos']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(inspectionRow.draft_vehicle_id)).toBe(draft.id);
    // The draft's photo is its own copy: deleting the vehicle later never takes the inspection's.
    expect(images[0]!.key).not.toBe((JSON.parse(inspectionRow.photos!) as Array<{ key: string }>)[0]!.key);
    expect((await admin.get(`/media/${images[0]!.key}-400.webp`)).status).toBe(200);

    // Not public: listing and its count, search, the vehicle page and API, the sitemap, compare.
    const visitor = new HttpClient(server.url);
    const after = (await (await visitor.get('/api/v1/vehicles?perPage=1')).json()) as { total: number };
    expect(after.total).toBe(before.total);
    const searched = (await (await visitor.get('/api/v1/vehicles?q=baleno&perPage=50')).json()) as { items: Array<{ id: number }> };
    expect(searched.items.map((item) => item.id)).not.toContain(draft.id);
    expect((await visitor.get(`/vehicle/${draft.id}`)).status).toBe(404);
    expect((await visitor.get(`/api/v1/vehicles/${draft.id}`)).status).toBe(404);
    expect(await (await visitor.get('/sitemap.xml')).text()).not.toContain(`/vehicle/${draft.id}<`);
    expect(mainText(await (await visitor.get(`/compare?ids=${draft.id}`)).text())).not.toContain('Clean car.');
    expect((await seller.client.postForm(`/vehicle/${draft.id}`, { intent: 'wishlist', wishlisted: 'true' })).status).toBe(404);

    // The inventory shows it with its badge; the inspection page links it.
    const inventory = mainText(await (await admin.get('/admin-panel/vehicles?status=draft')).text());
    expect(inventory).toContain('Draft');
    expect(inventory).toContain('Maruti Suzuki Baleno');
    expect(mainText(await (await admin.get(`/admin/inspections/${id}`)).text())).toContain(`vehicle #${draft.id}`);
    const audit = mainText(await (await admin.get('/admin/audit-log')).text());
    expect(audit.split(`Created vehicle draft #${draft.id} from inspection #${id}`).length - 1).toBe(1);

    // Published (status Available, with a price): public from then on.
    await database.db.updateTable('vehicles').set({ status: 'available', price: '5,25,000', price_rupees: 525_000 }).where('id', '=', draft.id).execute();
    expect((await visitor.get(`/vehicle/${draft.id}`)).status).toBe(200);
    const published = (await (await visitor.get('/api/v1/vehicles?perPage=1')).json()) as { total: number };
    expect(published.total).toBe(before.total + 1);
  });

  it('every new admin page refuses a buyer’s session (403), a signed-out visitor (to sign-in) and a bearer token', async () => {
    const seller = await verifiedPerson('buyer');
    const id = await book(seller);
    const signedOut = new HttpClient(server.url);
    for (const path of ['/admin/inspections', `/admin/inspections/${id}`]) {
      expect((await seller.client.get(path)).status).toBe(403);
      const away = await signedOut.get(path);
      expect(away.status).toBe(302);
      expect(away.headers.get('location')).toMatch(/^\/admin-login/);
    }
    for (const intent of ['confirm', 'no_show', 'record', 'offer', 'draft']) {
      expect((await desk(id, { intent, amount: '1', validUntil: today, categoryId: '1' }, [], seller.client)).status).toBe(403);
    }
    const signedIn = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'x-forwarded-for': admin.address! },
      body: JSON.stringify({ email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') }),
    });
    const { token } = (await signedIn.json()) as { token: string };
    for (const path of ['/admin/inspections', `/admin/inspections/${id}`]) {
      const read = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { authorization: `Bearer ${token}` } });
      expect([302, 401, 403]).toContain(read.status);
      const write = await fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `Bearer ${token}`, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'intent=confirm',
      });
      expect([302, 401, 403]).toContain(write.status);
    }
    // A cross-site form post from the admin's own browser is refused (CSRF).
    const crossSite = await admin.request(`/admin/inspections/${id}`, {
      method: 'POST',
      origin: 'https://evil.example',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=confirm',
    });
    expect(crossSite.status).toBe(403);
    expect((await database.db.selectFrom('inspections').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('booked');
  });

  it('hostile input: the new API endpoints and the desk forms answer 4xx, never 5xx', async () => {
    const seller = await verifiedPerson();
    const id = await offered(seller);
    for (const raw of ['abc', '0', '-1', '99999999999999999999', '1.5', '%00', '%E2%80%8B', 'x'.repeat(3000)]) {
      for (const answer of ['accept', 'decline']) {
        const response = await postJson(seller.client, `/api/v1/me/inspections/${raw}/offer/${answer}`, '{"junk":');
        expect(response.status, `${raw} ${answer}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${raw} ${answer}`).toBeLessThan(500);
      }
    }
    const forms: Array<Record<string, string>> = [
      { intent: 'offer', amount: '9'.repeat(40), validUntil: addDays(today, 3) },
      { intent: 'offer', amount: '-5000', validUntil: addDays(today, 3) },
      { intent: 'offer', amount: '400000', validUntil: '2026-02-31' },
      { intent: 'offer', amount: '400000', validUntil: addDays(today, 90) },
      { intent: 'offer', amount: '400000', validUntil: addDays(today, -2) },
      { intent: 'record', odometer: '12e9', notes: '' },
      { intent: 'record', 'item-0': 'Superb', notes: '' },
      { intent: 'record', notes: 'x'.repeat(5000) },
      { intent: 'record', notes: 'bad\u0000byte' },
      { intent: 'draft', categoryId: '99999999' },
      { intent: 'unknown' },
      { intent: 'x'.repeat(10_000) },
    ];
    for (const fields of forms) {
      const answer = await desk(id, fields);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBeLessThan(500);
    }
    // The record form is read by its schema (decision 109): each wrong field told beside it, what was typed kept.
    const wrong = await desk(id, { intent: 'record', 'item-0': 'Superb', odometer: '12e9', notes: 'Typed notes kept' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toMatch(/id="item-0-error"[^>]*>Please choose a status for [^<]+ from the list\./);
    expect(wrong.html).toMatch(/id="odometer-error"[^>]*>Please enter the odometer reading in km/);
    expect(wrong.html).toContain('value="12e9"');
    expect(wrong.html).toContain('Typed notes kept</textarea>');
    for (const raw of ['abc', '0', '99999999999']) {
      expect((await admin.get(`/admin/inspections/${raw}`)).status).toBe(404);
      const posted = await admin.postForm(`/admin/inspections/${raw}`, { intent: 'confirm' });
      expect(posted.status).toBeGreaterThanOrEqual(400);
      expect(posted.status).toBeLessThan(500);
    }
    // A photo that is not one is refused by its content with its name, and nothing is kept.
    const refused = await desk(id, { intent: 'record', notes: '' }, [{ name: 'notes.jpg', bytes: new TextEncoder().encode('not an image at all') }]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('notes.jpg');
    expect((await myInspection(seller.client, id)).offer?.rupees).toBe(425_000);
  });
});
