import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http-client.ts';
import { verifiedPerson as verifiedPersonOn, type VerifiedPerson } from '../support/people.ts';
import { startPushStandin, type PushDevice, type PushStandin } from '../support/push-standin.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import type { Database } from '../../server/db/connection.ts';
import { testDriveText } from '../../app/features/appointments/test-drive-texts.ts';
import { pushText } from '../../app/features/notifications/push-texts.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Notifications on the phone (issue 45, decision 124) on the real server, on SQLite and
 * PostgreSQL, against a push service of our own (tests/support/push-standin.ts) that verifies the
 * VAPID signature and decrypts each payload with the keys only the test's "device" holds:
 * switching on and off through the API, a test-drive booking arriving on the person's devices
 * (and nobody else's) in their language, a device the push service says is gone removed, a
 * failing push service tried again, and every bad subscription refused with a clear 400.
 */

const shared = sharedServer();
const PASSWORD = 'secret123';

let server: TestServer;
let database: Database;
let standin: PushStandin;
let available: number[] = [];

const today = addDays(indiaDay(Date.now()), 1);
let slotsTaken = 0;
/** Hours no other booking of this file uses, from the day after the server's "today" on. */
function freshSlot(): string {
  const index = slotsTaken++;
  const day = addDays(today, 1 + Math.floor(index / 9));
  return `${day}T${String(10 + (index % 9)).padStart(2, '0')}:00`;
}
let carsTaken = 0;
function freshCar(): number {
  const id = available[carsTaken++ % available.length];
  if (id === undefined) throw new Error('no available car');
  return id;
}

function person(label: string): Promise<VerifiedPerson> {
  return verifiedPersonOn(server.url, database, { label, name: 'Meera Iyer', password: PASSWORD });
}

function sendJson(client: HttpClient, method: 'POST' | 'DELETE', path: string, body: unknown) {
  return client.request(path, { method, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const subscribe = (client: HttpClient, device: PushDevice) => sendJson(client, 'POST', '/api/v1/me/push-subscriptions', device.subscription);

async function bookTestDrive(client: HttpClient, language: 'en' | 'hi' = 'en'): Promise<number> {
  const response = await client.request('/api/v1/test-drives', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    body: JSON.stringify({ vehicleId: freshCar(), slot: freshSlot(), mode: 'hub' }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { testDrive: { id: number } }).testDrive.id;
}

async function subscriptionsOf(userId: string) {
  return database.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not done within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!shared.url)(`notifications on the phone (${shared.dialect})`, () => {
  beforeAll(async () => {
    standin = await startPushStandin();
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: PASSWORD,
        TRUST_PROXY: 'true',
        SETTINGS_CACHE_SECONDS: '0',
        PAGE_CACHE_SECONDS: '0',
        LOG_LEVEL: 'warn',
        TEST_CLOCK_START: `${today}T11:30:00+05:30`,
        JOB_POLL_MS: '50',
        JOB_BACKOFF_MS: '200',
      },
    });
    database = openServerDatabase(server);
    const cars = await database.db.selectFrom('vehicles').select(['id', 'status']).where('purpose', '=', 'sale').orderBy('id').execute();
    available = cars.filter((car) => car.status === 'available').map((car) => car.id);
    expect(available.length).toBeGreaterThanOrEqual(8);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await standin?.close();
  });

  it("gives the site's VAPID key: made once, kept in the database, the same on every read", async () => {
    const client = new HttpClient(server.url);
    const first = await client.get('/api/v1/push/key');
    expect(first.status).toBe(200);
    const { publicKey } = (await first.json()) as { publicKey: string };
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const again = (await (await client.get('/api/v1/push/key')).json()) as { publicKey: string };
    expect(again.publicKey).toBe(publicKey);
    const kept = await database.db.selectFrom('push_keys').selectAll().execute();
    expect(kept.map((row) => row.public_key)).toEqual([publicKey]);
  });

  it('refuses switching on or off without a session (401)', async () => {
    const stranger = new HttpClient(server.url);
    const device = standin.device();
    const on = await subscribe(stranger, device);
    expect(on.status).toBe(401);
    expect(on.headers.get('content-type')).toContain('application/problem+json');
    expect((await sendJson(stranger, 'DELETE', '/api/v1/me/push-subscriptions', { endpoint: device.subscription.endpoint })).status).toBe(401);
  });

  it('refuses a bad subscription with a 400 that says what is wrong, never a 500', async () => {
    const { client } = await person('push-bad');
    const good = standin.device().subscription;
    const cases: Array<[string, unknown, string]> = [
      ['not JSON', '{"endpoint":', pushText('subscriptionInvalid')],
      ['an array', [good], pushText('subscriptionInvalid')],
      ['no keys', { endpoint: good.endpoint }, pushText('subscriptionInvalid')],
      ['no endpoint', { keys: good.keys }, pushText('endpointInvalid')],
      ['an endpoint that is no URL', { ...good, endpoint: 'not a url' }, pushText('endpointInvalid')],
      ['an ftp endpoint', { ...good, endpoint: 'ftp://push.example/x' }, pushText('endpointInvalid')],
      ['a javascript endpoint', { ...good, endpoint: 'javascript:alert(1)' }, pushText('endpointInvalid')],
      ['a p256dh of 64 bytes', { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(64, 4).toString('base64url') } }, pushText('p256dhInvalid')],
      ['a p256dh that is not base64url', { ...good, keys: { ...good.keys, p256dh: `${good.keys.p256dh.slice(0, -2)}+/` } }, pushText('p256dhInvalid')],
      ['an auth of 12 bytes', { ...good, keys: { ...good.keys, auth: Buffer.alloc(12).toString('base64url') } }, pushText('authInvalid')],
      ['an auth that is a number', { ...good, keys: { ...good.keys, auth: 16 } }, pushText('authInvalid')],
      ['an endpoint of 2000 characters', { ...good, endpoint: `${good.endpoint}?${'x'.repeat(2000)}` }, pushText('endpointInvalid')],
    ];
    for (const [what, body, detail] of cases) {
      const response = await sendJson(client, 'POST', '/api/v1/me/push-subscriptions', body);
      expect(response.status, what).toBe(400);
      expect(response.headers.get('content-type'), what).toContain('application/problem+json');
      expect(((await response.json()) as { detail: string }).detail, what).toBe(detail);
    }
    const off = await sendJson(client, 'DELETE', '/api/v1/me/push-subscriptions', { endpoint: 42 });
    expect(off.status).toBe(400);
  });

  it("sends a booked test drive to each of the person's devices, encrypted to each, signed with the site's key, and to nobody else's", async () => {
    const buyer = await person('push-buyer');
    const other = await person('push-other');
    const phone = standin.device();
    const laptop = standin.device();
    const othersPhone = standin.device();
    expect((await subscribe(buyer.client, phone)).status).toBe(200);
    // Switching the same device on again keeps one row.
    const again = await subscribe(buyer.client, phone);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ on: true, devices: 1 });
    expect((await subscribe(buyer.client, laptop)).status).toBe(200);
    expect((await subscribe(other.client, othersPhone)).status).toBe(200);
    const rows = await subscriptionsOf(buyer.userId);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.language).toBe('en');

    await bookTestDrive(buyer.client);
    const [onPhone] = await standin.waitFor(phone.id);
    const [onLaptop] = await standin.waitFor(laptop.id);
    const { publicKey } = (await (await buyer.client.get('/api/v1/push/key')).json()) as { publicKey: string };
    for (const push of [onPhone!, onLaptop!]) {
      // The site's name over the SMS's words (server/notify/phone-message.ts pushOfSms).
      expect(push.payload.title).toBe('Gaadi Bazaar');
      expect(push.payload.body.startsWith(testDriveText('smsBooked', undefined, 'en'))).toBe(true);
      expect(push.payload.url).toBe('/profile#test-drives');
      expect(push.payload.tag).toBe('/profile#test-drives');
      expect(push.vapid.publicKey).toBe(publicKey);
      expect(push.vapid.aud).toBe(standin.origin);
      expect(push.headers.urgency).toBe('normal');
      expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    }
    // Nothing for the other person's device, however long the worker runs on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(standin.forDevice(othersPhone.id)).toEqual([]);
    // Sent: the device's row says when.
    const sent = await eventually(
      () => subscriptionsOf(buyer.userId),
      (list) => list.every((row) => row.last_sent_at !== null),
    );
    expect(sent.map((row) => row.failures)).toEqual([0, 0]);
    // Demo and test keep a copy in the outbox, shown at /dev/outbox.
    const copy = await database.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('channel', '=', 'push')
      .where('recipient', '=', `user:${buyer.userId}`)
      .execute();
    expect(copy).toHaveLength(1);
    expect(copy[0]!.subject).toBe('Gaadi Bazaar');
    expect(copy[0]!.body).toContain(`${server.url}/profile#test-drives`);
    const outbox = await new HttpClient(server.url, { address: null }).get('/dev/outbox');
    expect(outbox.status).toBe(200);
    expect(await outbox.text()).toMatch(/data-channel="push"[^>]*>[\s\S]*?Push notification/);
  });

  it('writes the notification in the language the person chose', async () => {
    const buyer = await person('push-hindi');
    expect((await sendJson(buyer.client, 'POST', '/api/v1/me/language', { language: 'hi' })).status).toBe(200);
    const phone = standin.device();
    const on = await buyer.client.request('/api/v1/me/push-subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'hi' },
      body: JSON.stringify(phone.subscription),
    });
    expect(on.status).toBe(200);
    expect((await subscriptionsOf(buyer.userId))[0]!.language).toBe('hi');
    await bookTestDrive(buyer.client, 'hi');
    const [push] = await standin.waitFor(phone.id);
    expect(push!.payload.body.startsWith(testDriveText('smsBooked', undefined, 'hi'))).toBe(true);
    expect(push!.payload.url).toBe('/hi/profile#test-drives');
  });

  it('removes a device the push service says is gone (410, 404)', async () => {
    const buyer = await person('push-gone');
    const gone = standin.device();
    const missing = standin.device();
    const kept = standin.device();
    for (const device of [gone, missing, kept]) expect((await subscribe(buyer.client, device)).status).toBe(200);
    standin.answerNext(gone.id, 410);
    standin.answerNext(missing.id, 404);
    await bookTestDrive(buyer.client);
    await standin.waitFor(gone.id);
    await standin.waitFor(missing.id);
    await standin.waitFor(kept.id);
    const left = await eventually(
      () => subscriptionsOf(buyer.userId),
      (list) => list.length === 1,
    );
    expect(left.map((row) => row.endpoint)).toEqual([kept.subscription.endpoint]);
    // Gone means gone: the next notification goes to the device that is left alone, and is not retried.
    await bookTestDrive(buyer.client);
    await standin.waitFor(kept.id, 2);
    expect(standin.forDevice(gone.id)).toHaveLength(1);
    expect(standin.forDevice(missing.id)).toHaveLength(1);
  });

  it('tries a failing or busy push service again until it takes the notification (500, 429)', async () => {
    const buyer = await person('push-retry');
    const phone = standin.device();
    expect((await subscribe(buyer.client, phone)).status).toBe(200);
    standin.answerNext(phone.id, 500, 429);
    await bookTestDrive(buyer.client);
    const attempts = await standin.waitFor(phone.id, 3);
    expect(attempts.map((push) => push.answered)).toEqual([500, 429, 201]);
    expect(new Set(attempts.map((push) => push.payload.title)).size).toBe(1);
    const [row] = await eventually(
      () => subscriptionsOf(buyer.userId),
      (list) => list[0]?.last_sent_at !== null,
    );
    expect(row!.failures).toBe(0);
    const job = await database.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('name', '=', 'push')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 3 });
  });

  it("switches one device off; another person's device with the same request stays on", async () => {
    const buyer = await person('push-off');
    const other = await person('push-off-other');
    const phone = standin.device();
    const othersPhone = standin.device();
    expect((await subscribe(buyer.client, phone)).status).toBe(200);
    expect((await subscribe(other.client, othersPhone)).status).toBe(200);
    // Naming someone else's endpoint switches nothing of theirs off.
    const notMine = await sendJson(buyer.client, 'DELETE', '/api/v1/me/push-subscriptions', { endpoint: othersPhone.subscription.endpoint });
    expect(notMine.status).toBe(200);
    expect(await subscriptionsOf(other.userId)).toHaveLength(1);
    const off = await sendJson(buyer.client, 'DELETE', '/api/v1/me/push-subscriptions', { endpoint: phone.subscription.endpoint });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ on: false, devices: 0 });
    await bookTestDrive(buyer.client);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(standin.forDevice(phone.id)).toEqual([]);
  });

  it('gives a shared device to the person who switched it on last, never to both', async () => {
    const first = await person('push-shared-1');
    const second = await person('push-shared-2');
    const phone = standin.device();
    expect((await subscribe(first.client, phone)).status).toBe(200);
    expect((await subscribe(second.client, phone)).status).toBe(200);
    expect(await subscriptionsOf(first.userId)).toEqual([]);
    expect(await subscriptionsOf(second.userId)).toHaveLength(1);
  });

  it('lists the devices in the person’s data, and forgets them with the account', async () => {
    const buyer = await person('push-data');
    const phone = standin.device();
    expect(
      (
        await buyer.client.request('/api/v1/me/push-subscriptions', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
          },
          body: JSON.stringify(phone.subscription),
        })
      ).status,
    ).toBe(200);
    const data = (await (await buyer.client.get('/api/v1/me/data')).json()) as { devicesWithNotificationsOn?: Array<{ device: string }> };
    expect(data.devicesWithNotificationsOn?.map((device) => device.device)).toEqual(['Chrome on Android']);
    expect(JSON.stringify(data)).not.toContain(phone.subscription.keys.auth);
  });

  it('allows at most ten devices a person', async () => {
    const buyer = await person('push-many');
    for (let index = 0; index < 10; index++) expect((await subscribe(buyer.client, standin.device())).status).toBe(200);
    const eleventh = await subscribe(buyer.client, standin.device());
    expect(eleventh.status).toBe(409);
    expect(((await eleventh.json()) as { reason: string }).reason).toBe('too-many-devices');
  });
});
