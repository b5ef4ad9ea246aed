import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionAnswerSchema, inspectionListSchema, inspectionSlotsSchema } from '../../server/http/api-answers.ts';
import { slotInstant } from '../../app/features/appointments/test-drives.ts';
import { sendDueInspectionReminders } from '../../server/inspections/inspections.ts';
import { createMailer } from '../../server/notify/mail.ts';
import { createJobSignal } from '../../server/jobs/worker.ts';
import { createLogger } from '../../server/logger.ts';
import { systemClock } from '../../server/clock.ts';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, mainText, signUp, uniqueEmail, waitForOutbox } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { verifiedPerson as verifiedPersonOn } from '../support/people.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Inspections of a seller's car (decision 081) through /api/v1, on SQLite and PostgreSQL: the
 * slots from the test drives' engine with the inspections' own hours (10 am to 6 pm) and
 * capacity (2), a verified phone required, the confirmation by mail and SMS, cancel and
 * reschedule of one's own only, ten bookings of one slot at once within its capacity, hostile
 * input answered 4xx problem+json, and one person's limits (three upcoming, three bookings an
 * hour) on the page, its data request and the API alike.
 */

const shared = sharedServer();
const PASSWORD = 'secret123';
const today = addDays(indiaDay(Date.now()), 1);
/** The server's clock: 11:30 India time tomorrow, so the notice has one answer whenever the suite runs. */
const SERVER_CLOCK_START = `${today}T11:30:00+05:30`;
const car = { make: 'Honda', model: 'City', year: 2021, fuel: 'Petrol', transmission: 'Manual', km: 40_000, owners: 1, registrationState: 'MH' };

let server: TestServer;
let database: Database;

/** Each test takes hours no other test uses, from the day after tomorrow (8 slots a day). */
let slotsTaken = 0;
function freshSlot(): string {
  const index = slotsTaken++;
  return `${addDays(today, 1 + Math.floor(index / 8))}T${String(10 + (index % 8)).padStart(2, '0')}:00`;
}

/** A signed-up person whose phone is verified (set in the database: the OTP flow has its own tests). */
function verifiedPerson(label = 'seller') {
  return verifiedPersonOn(server.url, database, { label, name: 'Rohan Mehta', password: PASSWORD });
}

async function postJson(client: HttpClient, path: string, body: unknown, raw = false) {
  const response = await client.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
}

describe.skipIf(!shared.url)(`inspections (${shared.dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: { APP_MODE: 'demo', TRUST_PROXY: 'true', SETTINGS_CACHE_SECONDS: '0', LOG_LEVEL: 'warn', TEST_CLOCK_START: SERVER_CLOCK_START },
    });
    database = openServerDatabase(server);
  }, 240_000);
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('offers one-hour slots from 10 am to 6 pm with two places each, today only with the notice', async () => {
    const client = new HttpClient(server.url);
    const date = addDays(today, 3);
    const answer = inspectionSlotsSchema.parse(await (await client.get(`/api/v1/inspections/slots?date=${date}`)).json());
    expect(answer.slots.map((slot) => slot.start)).toEqual(['10', '11', '12', '13', '14', '15', '16', '17'].map((hour) => `${date}T${hour}:00`));
    expect(answer.slots.every((slot) => slot.remaining === 2)).toBe(true);
    const now = inspectionSlotsSchema.parse(await (await client.get(`/api/v1/inspections/slots?date=${today}`)).json());
    expect(now.slots.map((slot) => slot.start)).toEqual(['14', '15', '16', '17'].map((hour) => `${today}T${hour}:00`));
  });

  it('books with a verified phone, keeps the car and its estimate, confirms by mail and SMS', async () => {
    const person = await verifiedPerson();
    const slot = freshSlot();
    const answer = await postJson(person.client, '/api/v1/inspections', {
      car,
      mode: 'home',
      pinCode: '400069',
      street: '12 Sea View, Juhu Tara Rd',
      landmark: 'Juhu Circle',
      slot,
    });
    expect(answer.status).toBe(201);
    const { inspection } = inspectionAnswerSchema.parse(answer.body);
    expect(inspection).toMatchObject({
      car,
      mode: 'home',
      pinCode: '400069',
      street: '12 Sea View, Juhu Tara Rd',
      landmark: 'Juhu Circle',
      slot,
      status: 'booked',
      estimate: { kind: 'range' },
    });
    const mail = await waitForOutbox(person.client, 'email', person.email, (entry) => entry.subject.includes('inspection is booked'));
    expect(mail.body).toContain('2021 Honda City');
    await waitForOutbox(person.client, 'sms', person.phone, (entry) => entry.body.includes('Car inspection is booked'));
    // The same lead on the desk's Selling Vehicles, with the car and its estimate.
    const lead = await database.db.selectFrom('sell_submissions').selectAll().where('inspection_id', '=', inspection.id).execute();
    expect(lead).toHaveLength(1);
    expect(lead[0]).toMatchObject({ name: 'Rohan Mehta', phone: person.phone, vehicle: 'Honda City', year: '2021', price: '', status: 'new' });
    expect(lead[0]!.description).toMatch(
      new RegExp(`^Inspection #${inspection.id} booked for .+, at the seller's home: 12 Sea View, Juhu Tara Rd \\(near Juhu Circle\\), 400069\\.$`),
    );
    expect(JSON.parse(lead[0]!.car!)).toEqual({ ...car, variant: '', unlisted: false });
    expect(JSON.parse(lead[0]!.estimate!)).toMatchObject({ kind: 'range' });
    const list = inspectionListSchema.parse(await (await person.client.get('/api/v1/me/inspections')).json());
    expect(list.inspections.map((item) => [item.id, item.changeable])).toEqual([[inspection.id, true]]);
  });

  it('refuses without a session (401), without a verified phone (422), and a PIN code not served (400)', async () => {
    const slot = freshSlot();
    const anonymous = await postJson(new HttpClient(server.url), '/api/v1/inspections', { car, mode: 'hub', slot });
    expect(anonymous.status).toBe(401);
    expect(anonymous.type).toContain('application/problem+json');
    const unverified = new HttpClient(server.url);
    await signUp(unverified, uniqueEmail('unverified'), PASSWORD);
    const refused = await postJson(unverified, '/api/v1/inspections', { car, mode: 'hub', slot });
    expect(refused).toMatchObject({ status: 422, body: { reason: 'phone' } });
    const person = await verifiedPerson();
    const far = await postJson(person.client, '/api/v1/inspections', { car, mode: 'home', pinCode: '110001', street: '4 Janpath', slot });
    expect(far).toMatchObject({ status: 400, body: { fields: { pinCode: expect.stringContaining("We don't visit 110001 yet. Please come to our hub at ") } } });
    const late = await postJson(person.client, '/api/v1/inspections', { car, mode: 'hub', slot: `${addDays(today, 2)}T18:00` });
    expect(late).toMatchObject({ status: 400, body: { fields: { slot: expect.stringContaining('Inspections run') } } });
  });

  it('ten bookings of one slot at once: exactly its capacity of two, the rest 409', async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => verifiedPerson('crowd')));
    const slot = freshSlot();
    const answers = await Promise.all(people.map((person) => postJson(person.client, '/api/v1/inspections', { car, mode: 'hub', slot })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((item) => item.status === 409)) expect(answer.type).toContain('application/problem+json');
    const left = inspectionSlotsSchema.parse(await (await people[0]!.client.get(`/api/v1/inspections/slots?date=${slot.slice(0, 10)}`)).json());
    expect(left.slots.find((entry) => entry.start === slot)?.remaining).toBe(0);
  });

  it('the last seat of a slot, asked for by ten people at once: exactly one booking takes it', async () => {
    const slot = freshSlot();
    const early = await verifiedPerson('early');
    expect((await postJson(early.client, '/api/v1/inspections', { car, mode: 'hub', slot })).status).toBe(201);
    const people = await Promise.all(Array.from({ length: 10 }, () => verifiedPerson('last-seat')));
    const answers = await Promise.all(
      people.map((person) => postJson(person.client, '/api/v1/inspections', { car, mode: 'home', pinCode: '400069', street: '12 Sea View', slot })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const answer of answers.filter((item) => item.status === 409))
      expect(answer.body).toMatchObject({ detail: 'That time is fully booked. Please choose another time.' });
    const rows = await database.db
      .selectFrom('inspections')
      .select('seat')
      .where('slot_start_ms', '=', slotInstant(slot).getTime())
      .where('status', '<>', 'cancelled')
      .execute();
    expect(rows.map((row) => row.seat).sort()).toEqual([0, 1]);
  });

  it('reschedules and cancels one’s own only; someone else’s is 404', async () => {
    const [owner, stranger] = [await verifiedPerson(), await verifiedPerson()];
    const booked = inspectionAnswerSchema.parse((await postJson(owner.client, '/api/v1/inspections', { car, mode: 'hub', slot: freshSlot() })).body).inspection;
    const id = booked.id;
    expect((await postJson(stranger.client, `/api/v1/me/inspections/${id}/cancel`, {})).status).toBe(404);
    expect((await postJson(stranger.client, `/api/v1/me/inspections/${id}/reschedule`, { slot: freshSlot() })).status).toBe(404);
    const newSlot = freshSlot();
    const moved = await postJson(owner.client, `/api/v1/me/inspections/${id}/reschedule`, { slot: newSlot });
    expect(moved.status).toBe(200);
    expect(inspectionAnswerSchema.parse(moved.body).inspection.slot).toBe(newSlot);
    await waitForOutbox(owner.client, 'email', owner.email, (entry) => entry.subject.includes('has a new time'));
    const cancelled = await postJson(owner.client, `/api/v1/me/inspections/${id}/cancel`, {});
    expect(inspectionAnswerSchema.parse(cancelled.body).inspection.status).toBe('cancelled');
    expect((await postJson(owner.client, `/api/v1/me/inspections/${id}/cancel`, {})).status).toBe(409);
  });

  it('hostile input answers 4xx problem+json, never 5xx', async () => {
    const person = await verifiedPerson();
    const bodies: Array<[unknown, boolean?]> = [
      ['{"car":', true],
      ['[]', true],
      [{}],
      [{ car: 'Honda City', mode: 'hub', slot: freshSlot() }],
      [{ car: { ...car, km: 1e308 }, mode: 'hub', slot: freshSlot() }],
      [{ car, mode: 'boat', slot: freshSlot() }],
      [{ car, mode: 'hub', slot: '2026-13-45T99:00' }],
      [{ car, mode: 'hub', slot: { $gt: '' } }],
    ];
    for (const [body, raw] of bodies) {
      const answer = await postJson(person.client, '/api/v1/inspections', body, raw);
      expect(answer.status, String(raw ? body : JSON.stringify(body)).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.type, `${answer.status} ${String(raw ? body : JSON.stringify(body)).slice(0, 60)}`).toContain('application/problem+json');
    }
    // Past the JSON body limit: refused by the edge before the route (413, in the edge's own words).
    const huge = await postJson(person.client, '/api/v1/inspections', { car, mode: 'home', pinCode: 'x'.repeat(100_000), slot: freshSlot() });
    expect(huge.status).toBe(413);
    for (const id of ['0', '-1', '99999999999999999999', 'abc', '1.5', '%00']) {
      const answer = await postJson(person.client, `/api/v1/me/inspections/${id}/cancel`, {});
      expect(answer.status, id).toBe(404);
    }
    for (const query of ['', 'date=', 'date=2026-02-30', 'date[]=x', `date=${'9'.repeat(5000)}`]) {
      const response = await person.client.get(`/api/v1/inspections/slots?${query}`);
      expect(response.status, query.slice(0, 30)).toBe(400);
    }
    expect((await person.client.get('/api/v1/me/inspections')).status).toBe(200);
    expect((await new HttpClient(server.url).get('/api/v1/me/inspections')).status).toBe(401);
  });

  it('books from the page, lists it on the profile, cancels it there', async () => {
    const person = await verifiedPerson('page');
    const query = new URLSearchParams(Object.entries(car).map(([key, value]) => [key, String(value)]));
    const date = addDays(today, 4);
    const page = await person.client.get(`/sell-vehicle/inspection?${query}&date=${date}`);
    expect(page.status).toBe(200);
    const html = mainText(await page.text());
    expect(html).toContain('Book the inspection');
    expect(html).toContain('2021 Honda City');
    const booked = await person.client.postForm('/sell-vehicle/inspection', { ...Object.fromEntries(query), mode: 'hub', pinCode: '', slot: `${date}T12:00` });
    expect(booked.status).toBe(302);
    expect(booked.headers.get('location')).toContain('/profile?inspection=booked');
    const profile = mainText(await (await person.client.get('/profile')).text());
    expect(profile).toContain('My car inspections');
    const [row] = await database.db.selectFrom('inspections').select('id').where('email', '=', person.email).execute();
    const cancelled = await person.client.postForm('/sell-vehicle/inspection', { intent: 'cancel', id: String(row!.id) });
    expect(cancelled.headers.get('location')).toContain('/profile?inspection=cancelled');
    const stranger = await verifiedPerson('stranger');
    const refused = await stranger.client.postForm('/sell-vehicle/inspection', { intent: 'cancel', id: String(row!.id) });
    expect(refused.status).toBe(404);
    expect((await new HttpClient(server.url).get(`/sell-vehicle/inspection?${query}`)).status).toBe(302);
  });

  it('reminds once by mail and SMS two hours before, however often the job runs; a moved inspection is reminded again', async () => {
    const person = await verifiedPerson('remind');
    const slot = freshSlot();
    const { inspection } = inspectionAnswerSchema.parse((await postJson(person.client, '/api/v1/inspections', { car, mode: 'hub', slot })).body);
    const logger = createLogger('warn', 'json');
    const config = {
      siteName: 'Gaadi Bazaar',
      siteOrigin: server.url,
      contactAddress: 'Andheri East, Mumbai',
      outboxEnabled: true,
      mode: 'test' as const,
      mail: { smtpUrl: undefined, from: 'test@example.in' },
      sms: { provider: 'outbox' as const },
    };
    const deps = {
      database,
      logger,
      config: config as never,
      mailer: createMailer({ config: config as never, database, logger, clock: systemClock }),
      clock: systemClock,
      jobs: createJobSignal(),
    };
    const start = slotInstant(slot).getTime();
    const reminders = async () =>
      (
        await database.db
          .selectFrom('outbox_messages')
          .select(['channel', 'body'])
          .where('recipient', 'in', [person.email, person.phone])
          .where('body', 'like', '%Reminder: your car inspection is soon%')
          .execute()
      )
        .map((row) => row.channel)
        .sort();
    // Three hours before: not yet.
    expect(await sendDueInspectionReminders(deps, start - 3 * 3600_000)).toBe(0);
    // 90 minutes before, by two runs at once, then again: one reminder, by mail and SMS.
    const runs = await Promise.all([sendDueInspectionReminders(deps, start - 90 * 60_000), sendDueInspectionReminders(deps, start - 90 * 60_000)]);
    expect(runs.reduce((sum, sent) => sum + sent, 0)).toBe(1);
    expect(await sendDueInspectionReminders(deps, start - 30 * 60_000)).toBe(0);
    expect(await reminders()).toEqual(['email', 'sms']);
    // Moved to another hour: reminded before that one.
    const moved = freshSlot();
    expect((await postJson(person.client, `/api/v1/me/inspections/${inspection.id}/reschedule`, { slot: moved })).status).toBe(200);
    const row = await database.db.selectFrom('inspections').select('reminded_at').where('id', '=', inspection.id).executeTakeFirstOrThrow();
    expect(row.reminded_at).toBeNull();
    expect(await sendDueInspectionReminders(deps, slotInstant(moved).getTime() - 60 * 60_000)).toBe(1);
  });

  it('holds a person to three upcoming inspections and three bookings an hour, on the page, its data request and the API alike', async () => {
    const person = await verifiedPerson('many');
    const carFields = Object.fromEntries(Object.entries(car).map(([key, value]) => [key, String(value)]));
    const fromPage = (slot: string, path = '/sell-vehicle/inspection') => person.client.postForm(path, { ...carFields, mode: 'hub', pinCode: '', slot });
    const fromApi = async (slot: string) => postJson(person.client, '/api/v1/inspections', { car, mode: 'hub', slot });
    expect((await fromApi(freshSlot())).status).toBe(201);
    const second = await fromApi(freshSlot());
    expect(second.status).toBe(201);
    expect((await fromPage(freshSlot())).status).toBe(302);

    // A fourth, while three are still to come: refused on every path, saying why, in the page's language.
    const page = await fromPage(freshSlot());
    expect(page.status).toBe(409);
    expect(mainText(await page.text())).toContain('You already have 3 upcoming inspections, the most one person can hold.');
    const hindi = await fromPage(freshSlot(), '/hi/sell-vehicle/inspection');
    expect(hindi.status).toBe(409);
    expect(mainText(await hindi.text())).toContain('आपके पहले से 3 आने वाले इंस्पेक्शन बुक हैं');
    const data = await fromPage(freshSlot(), '/sell-vehicle/inspection.data');
    expect(data.status).toBe(409);
    expect(await data.text()).toContain('You already have 3 upcoming inspections');
    const api = await fromApi(freshSlot());
    expect(api).toMatchObject({
      status: 409,
      type: expect.stringContaining('application/problem+json'),
      body: { detail: expect.stringContaining('You already have 3 upcoming inspections') },
    });
    const held = await database.db.selectFrom('inspections').select('id').where('email', '=', person.email).where('status', '<>', 'cancelled').execute();
    expect(held).toHaveLength(3);

    // One cancelled makes room, but a fourth booking within the hour is one too many: 429 with Retry-After.
    const { inspection } = inspectionAnswerSchema.parse(second.body);
    expect((await postJson(person.client, `/api/v1/me/inspections/${inspection.id}/cancel`, {})).status).toBe(200);
    const hourly = await fromPage(freshSlot());
    expect(hourly.status).toBe(429);
    expect(Number(hourly.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(mainText(await hourly.text())).toContain('You have booked 3 inspections within the hour.');
    const hourlyApi = await fromApi(freshSlot());
    expect(hourlyApi).toMatchObject({ status: 429, body: { detail: expect.stringContaining('You have booked 3 inspections within the hour.') } });
    expect(
      await database.db.selectFrom('inspections').select('id').where('email', '=', person.email).where('status', '<>', 'cancelled').execute(),
    ).toHaveLength(2);
    // Moving one that is booked is no new booking.
    const [kept] = held.filter((row) => row.id !== inspection.id);
    expect((await postJson(person.client, `/api/v1/me/inspections/${kept!.id}/reschedule`, { slot: freshSlot() })).status).toBe(200);
  });
});
