import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { verifiedPerson as verifiedPersonOn, type VerifiedPerson } from '../support/people.ts';
import { GRAPH_REFUSALS, startGraphStandIn, type GraphStandIn, type GraphTemplateRequest } from '../support/graph-standin.ts';
import type { Database } from '../../server/db/connection.ts';
import { recordConsent } from '../../server/notify/whatsapp-consent.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Customer messages on WhatsApp (issue 45, decision 123), on the real server with the Graph API's
 * stand-in, on SQLite and PostgreSQL: a person who opted in gets the event's approved template in
 * their language with its variables in order, and no SMS; one who did not gets the SMS; the team's
 * numbers get the new booking with a wa.me link to the customer; a retryable refusal is asked
 * again and sent, a permanent one is recorded and not retried, and its SMS goes once.
 */

const shared = sharedServer();
const PASSWORD = 'secret123';
const TEAM = '+919811100022';
const today = addDays(indiaDay(Date.now()), 1);

let server: TestServer;
let database: Database;
let graph: GraphStandIn;
let available: number[] = [];
let slotsTaken = 0;

/** A slot and a car no other test uses: from the day after tomorrow, within opening hours. */
function fresh(): { slot: string; vehicleId: number } {
  const index = slotsTaken++;
  const vehicleId = available[index % available.length]!;
  return { slot: `${addDays(today, 1 + Math.floor(index / 9))}T${String(10 + (index % 9)).padStart(2, '0')}:00`, vehicleId };
}

async function person(options: { optedIn: boolean; language?: 'en' | 'hi' }): Promise<VerifiedPerson> {
  const someone = await verifiedPersonOn(server.url, database, { label: 'wa', name: 'Asha Rao', password: PASSWORD });
  if (options.language) await database.db.updateTable('profiles').set({ language: options.language }).where('user_id', '=', someone.userId).execute();
  if (options.optedIn) {
    await recordConsent(database.db, {
      phone: someone.phone,
      userId: someone.userId,
      optIn: true,
      source: 'profile',
      wording: 'Send me updates on WhatsApp.',
      language: options.language ?? 'en',
      nowMs: Date.now(),
    });
  }
  return someone;
}

async function book(someone: VerifiedPerson, language: 'en' | 'hi' = 'en'): Promise<{ id: number; slot: string; vehicleTitle: string }> {
  const { slot, vehicleId } = fresh();
  const response = await someone.client.request('/api/v1/test-drives', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    body: JSON.stringify({ vehicleId, slot, mode: 'hub' }),
  });
  expect(response.status).toBe(201);
  const { testDrive } = (await response.json()) as { testDrive: { id: number; vehicleTitle: string } };
  return { id: testDrive.id, slot, vehicleTitle: testDrive.vehicleTitle };
}

async function until<T>(read: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const receivedBy = (phone: string, template: string) => () =>
  graph.received.find((request: GraphTemplateRequest) => request.to === phone.slice(1) && request.template === template);

async function smsTo(phone: string) {
  return database.db.selectFrom('outbox_messages').select(['body']).where('channel', '=', 'sms').where('recipient', '=', phone).execute();
}

async function messageRow(phone: string) {
  return database.db.selectFrom('whatsapp_messages').selectAll().where('recipient', '=', phone).orderBy('id', 'desc').executeTakeFirst();
}

describe.skipIf(!shared.url)(`customer messages on WhatsApp (${shared.dialect})`, () => {
  beforeAll(async () => {
    graph = await startGraphStandIn();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        // Each client comes from an address of its own (X-Forwarded-For): the sign-up limit counts per address.
        TRUST_PROXY: 'true',
        DEMO_ADMIN_PASSWORD: PASSWORD,
        SETTINGS_CACHE_SECONDS: '0',
        PAGE_CACHE_SECONDS: '0',
        LOG_LEVEL: 'warn',
        TEST_CLOCK_START: `${today}T09:30:00+05:30`,
        // A retry comes back in a quarter of a second, not thirty.
        JOB_BACKOFF_MS: '250',
        JOB_POLL_MS: '100',
        ...graph.env,
      },
    });
    database = openServerDatabase(server);
    const cars = await database.db.selectFrom('vehicles').select('id').where('purpose', '=', 'sale').where('status', '=', 'available').orderBy('id').execute();
    available = cars.map((car) => car.id);
    await database.db
      .insertInto('settings')
      .values({ key: 'whatsappTeamNumbers', value: JSON.stringify(TEAM), updated_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: JSON.stringify(TEAM) }))
      .execute();
  }, 240_000);

  beforeEach(() => graph.reset());

  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await graph?.close();
  });

  it('sends a person who opted in the booking as the test_drive_booked template, in English, with its variables in order, and no SMS', async () => {
    const someone = await person({ optedIn: true });
    const booked = await book(someone);
    const request = await until(receivedBy(someone.phone, 'test_drive_booked'), 'the template');
    expect(request.language).toBe('en');
    const [car, when, where, link] = request.parameters;
    expect(car).toBe(booked.vehicleTitle.replace(/\s+/g, ' ').trim());
    expect(when).toMatch(/\d{1,2}:00 (am|pm)/i);
    expect(where).toMatch(/hub/i);
    expect(link).toBe(`${server.url}/profile#test-drives`);
    expect(await smsTo(someone.phone)).toEqual([]);
    const row = await until(async () => ((await messageRow(someone.phone))?.status === 'sent' ? messageRow(someone.phone) : undefined), 'sent');
    expect(row).toMatchObject({ template: 'test_drive_booked', language: 'en', purpose: 'customer', user_id: someone.userId, wamid: request.wamid });
    expect(row?.preview).toContain('Your test drive is booked');
  });

  it('writes the template in Hindi for a Hindi request, and the moved booking as test_drive_moved', async () => {
    const someone = await person({ optedIn: true, language: 'hi' });
    const booked = await book(someone, 'hi');
    const request = await until(receivedBy(someone.phone, 'test_drive_booked'), 'the Hindi template');
    expect(request.language).toBe('hi');
    expect(request.parameters[3]).toBe(`${server.url}/profile#test-drives`);
    const later = fresh().slot;
    const moved = await someone.client.request(`/api/v1/me/test-drives/${booked.id}/reschedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'hi' },
      body: JSON.stringify({ slot: later }),
    });
    expect(moved.status).toBe(200);
    const movedRequest = await until(receivedBy(someone.phone, 'test_drive_moved'), 'the moved template');
    expect(movedRequest.language).toBe('hi');
    expect(await smsTo(someone.phone)).toEqual([]);
  });

  it('texts a person who never opted in, and sends nothing to WhatsApp for them', async () => {
    const someone = await person({ optedIn: false });
    await book(someone);
    const sms = await until(async () => (await smsTo(someone.phone))[0], 'the SMS');
    expect(sms.body).toMatch(/Test drive booked/);
    await until(() => graph.received.find((request) => request.template === 'team_alert'), 'the team alert');
    expect(graph.received.filter((request) => request.to === someone.phone.slice(1))).toEqual([]);
  });

  it("tells the team's number of the booking with a wa.me link to the customer and the desk's page", async () => {
    const someone = await person({ optedIn: false });
    const booked = await book(someone);
    const alert = await until(
      () => graph.received.find((request) => request.template === 'team_alert' && request.parameters[0] === `test drive #${booked.id}`),
      'the team alert',
    );
    expect(alert.to).toBe(TEAM.slice(1));
    expect(alert.language).toBe('en');
    expect(alert.parameters[1]).toBe(`Asha Rao, ${someone.phone}`);
    expect(alert.parameters[3]).toBe(`https://wa.me/${someone.phone.slice(1)}`);
    expect(alert.parameters[4]).toBe(`${server.url}/admin/test-drives`);
  });

  it('asks again after a retryable refusal (rate limit, Meta unavailable) and sends it, with no SMS', async () => {
    const someone = await person({ optedIn: true });
    graph.refuseNext(GRAPH_REFUSALS.rateLimited, GRAPH_REFUSALS.unavailable);
    await book(someone);
    await until(receivedBy(someone.phone, 'test_drive_booked'), 'the template after two refusals', 20_000);
    const row = await until(async () => ((await messageRow(someone.phone))?.status === 'sent' ? messageRow(someone.phone) : undefined), 'sent');
    expect(row?.fell_back_at).toBeNull();
    expect(await smsTo(someone.phone)).toEqual([]);
  });

  it('records a permanent refusal (not a WhatsApp number) at once, never asks again, and sends the SMS once instead', async () => {
    const someone = await person({ optedIn: true });
    graph.refuseNext(GRAPH_REFUSALS.undeliverable);
    await book(someone);
    const row = await until(async () => ((await messageRow(someone.phone))?.status === 'failed' ? messageRow(someone.phone) : undefined), 'failed');
    expect(row).toMatchObject({ error_code: 131026, wamid: null });
    expect(row?.fell_back_at).not.toBeNull();
    const sms = await until(async () => (await smsTo(someone.phone))[0], 'the SMS instead');
    expect(sms.body).toMatch(/Test drive booked/);
    // Another second: nothing more is asked of Meta and no second SMS is sent.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(graph.received.filter((request) => request.to === someone.phone.slice(1))).toEqual([]);
    expect(await smsTo(someone.phone)).toHaveLength(1);
    const job = await database.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('name', '=', 'whatsapp')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 1 });
  });

  it('an opted-out number is texted again', async () => {
    const someone = await person({ optedIn: true });
    await recordConsent(database.db, { phone: someone.phone, userId: null, optIn: false, source: 'reply', wording: 'STOP', language: 'en', nowMs: Date.now() });
    await book(someone);
    await until(async () => (await smsTo(someone.phone))[0], 'the SMS');
    expect(graph.received.filter((request) => request.to === someone.phone.slice(1))).toEqual([]);
  });
});
