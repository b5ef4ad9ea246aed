import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { queuePhoneMessage } from '../../server/notify/phone-message.ts';
import { markFailed, queueWhatsApp, type WhatsAppServices } from '../../server/notify/whatsapp.ts';
import { consentOf, recordConsent } from '../../server/notify/whatsapp-consent.ts';
import { whatsappTemplate } from '../../server/notify/whatsapp-templates.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import type { OutgoingServices } from '../../server/notify/outgoing.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, readOutbox } from '../support/http-client.ts';
import { GRAPH_REFUSALS, signWebhook, startGraphStandIn, type GraphStandIn } from '../support/graph-standin.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * WhatsApp's webhook (docs/decisions/125) on both databases, against a running server and the
 * Graph API stand-in: Meta's subscription check; a POST counts only with Meta's signature of its
 * exact bytes; delivery statuses move a message forward and never back, however often and in
 * whatever order they come; a failure sends the SMS once, even delivered five times at once and
 * raced by the worker's own failure; a STOP switches the number to SMS and is answered once; and
 * the worker's retry rules (Meta's throttling is asked again, a refusal for good falls back at once).
 *
 * Messages are queued by queueWhatsApp against the server's database, as a customer event
 * would; the server's worker (polling every 50 ms) sends them to the stand-in.
 */

const { dialect, url: sharedUrl } = sharedServer();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

let numbers = 0;
/** A number of its own for each message, so the outbox and the stand-in tell them apart. */
const newPhone = () => `+9199${String(process.pid % 10_000).padStart(4, '0')}${String(++numbers).padStart(4, '0')}`;

describe.skipIf(!sharedUrl)(`WhatsApp's webhook (${dialect})`, () => {
  let graph: GraphStandIn;
  let server: TestServer;
  let database: Database;
  let services: WhatsAppServices & OutgoingServices;

  beforeAll(async () => {
    graph = await startGraphStandIn();
    server = await startTestServer({
      dialect,
      seed: true,
      // Demo mode for its admin (the desk's page); the outbox keeps every SMS as in test mode.
      env: { ...graph.env, APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, JOB_POLL_MS: '50', JOB_BACKOFF_MS: '50' },
    });
    database = openServerDatabase(server);
    // The services a customer event hands queueWhatsApp, as the server has them (test mode: the outbox keeps every SMS).
    services = {
      config: {
        outboxEnabled: true,
        whatsapp: {
          phoneNumberId: graph.phoneNumberId,
          accessToken: graph.accessToken,
          appSecret: graph.appSecret,
          verifyToken: graph.verifyToken,
          graphUrl: graph.url,
          graphVersion: graph.version,
        },
        sms: { provider: 'outbox' },
      },
      clock: { now: () => Date.now() },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    } as unknown as WhatsAppServices & OutgoingServices;
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await graph?.close();
  });

  const webhookUrl = (query: Record<string, string>) => `${server.url}/webhooks/whatsapp?${new URLSearchParams(query)}`;

  const messageTo = (phone: string) => database.db.selectFrom('whatsapp_messages').selectAll().where('recipient', '=', phone).executeTakeFirstOrThrow();

  const smsTo = async (phone: string) =>
    (await database.db.selectFrom('outbox_messages').select('body').where('channel', '=', 'sms').where('recipient', '=', phone).execute()).map(
      (row) => row.body,
    );

  /** Queues a test-drive confirmation to `phone` on WhatsApp, with its SMS fallback. */
  async function queueTo(phone: string, language: 'en' | 'hi' = 'en'): Promise<number> {
    const message = whatsappTemplate('test_drive_booked', {
      car: 'Maruti Swift VXi',
      when: 'Sat 6 Dec, 11:00',
      where: 'Andheri showroom',
      link: 'https://x.in/t/1',
    });
    const id = await database.db
      .transaction()
      .execute((trx) => queueWhatsApp(trx, services, { to: phone, userId: null, purpose: 'customer', language, message, smsFallback: `SMS for ${phone}` }));
    expect(id).not.toBeNull();
    return id!;
  }

  /** Queues a message and waits until the worker has sent it: its wamid. */
  async function sentTo(phone: string, language: 'en' | 'hi' = 'en'): Promise<string> {
    await queueTo(phone, language);
    const row = await until(async () => {
      const current = await messageTo(phone);
      return current.status === 'sent' ? current : null;
    }, `the message to ${phone} to be sent`);
    expect(graph.received.find((request) => request.to === phone.slice(1))?.wamid).toBe(row.wamid);
    return row.wamid!;
  }

  it('lists the WhatsApp message on /dev/outbox as WhatsApp, with its template and the text the person reads', async () => {
    const phone = newPhone();
    await sentTo(phone);
    const entries = await readOutbox(new HttpClient(server.url));
    const entry = entries.find((candidate) => candidate.recipient === phone);
    expect(entry).toMatchObject({ channel: 'whatsapp', subject: 'test_drive_booked' });
    expect(entry?.body).toContain('Your test drive is booked: Maruti Swift VXi');
  });

  describe("Meta's subscription check (GET)", () => {
    it('answers the challenge to the right verify token, as plain text', async () => {
      const response = await fetch(webhookUrl({ 'hub.mode': 'subscribe', 'hub.verify_token': graph.verifyToken, 'hub.challenge': '1158201444' }));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('1158201444');
    });

    it('refuses a wrong token or mode (403), and a challenge that is not letters and digits (400)', async () => {
      const wrong = await fetch(webhookUrl({ 'hub.mode': 'subscribe', 'hub.verify_token': `${graph.verifyToken}x`, 'hub.challenge': 'challenge7531' }));
      expect(wrong.status).toBe(403);
      expect(await wrong.text()).not.toContain('challenge7531');
      expect((await fetch(webhookUrl({ 'hub.mode': 'unsubscribe', 'hub.verify_token': graph.verifyToken, 'hub.challenge': '42' }))).status).toBe(403);
      expect((await fetch(webhookUrl({ 'hub.challenge': '42' }))).status).toBe(403);
      const script = await fetch(webhookUrl({ 'hub.mode': 'subscribe', 'hub.verify_token': graph.verifyToken, 'hub.challenge': '<script>' }));
      expect(script.status).toBe(400);
    });

    it('is not there on a site without WhatsApp (404)', async () => {
      const response = await fetch(`${sharedUrl}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`);
      expect(response.status).toBe(404);
      const post = await fetch(`${sharedUrl}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(404);
    });
  });

  describe('statuses', () => {
    it('takes only a body signed by Meta: unsigned, wrongly signed and signed for another body are 401 and change nothing', async () => {
      const phone = newPhone();
      const wamid = await sentTo(phone);
      const body = graph.statusBody(wamid, 'delivered', { to: phone.slice(1) });
      const raw = JSON.stringify(body);
      const refused = [
        await graph.deliver(server.url, body, { signature: null }),
        await graph.deliver(server.url, body, { signature: 'sha256=' + '0'.repeat(64) }),
        await graph.deliver(server.url, body, { signature: signWebhook(graph.appSecret, `${raw} `) }),
        await graph.deliver(server.url, body, { signature: signWebhook('another-secret', raw) }),
        await graph.deliver(server.url, body, { signature: 'sha256=abc' }),
      ];
      expect(refused.map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);
      expect((await refused[0]!.json()) as { status: number }).toMatchObject({ status: 401 });
      expect((await messageTo(phone)).status).toBe('sent');
      expect((await messageTo(phone)).delivered_at).toBeNull();
    });

    it('moves a message to delivered, then read; a replay, and "delivered" after "read", change nothing', async () => {
      const phone = newPhone();
      const wamid = await sentTo(phone);
      const delivered = graph.statusBody(wamid, 'delivered', { to: phone.slice(1) });
      expect((await graph.deliver(server.url, delivered)).status).toBe(200);
      const afterDelivered = await messageTo(phone);
      expect(afterDelivered.status).toBe('delivered');
      expect(afterDelivered.delivered_at).not.toBeNull();

      expect((await graph.deliver(server.url, delivered)).status).toBe(200);
      expect(await messageTo(phone)).toEqual(afterDelivered);

      expect((await graph.deliver(server.url, graph.statusBody(wamid, 'read', { to: phone.slice(1) }))).status).toBe(200);
      const afterRead = await messageTo(phone);
      expect(afterRead.status).toBe('read');
      expect(afterRead.read_at).not.toBeNull();

      // Out of order and replayed: Meta's "delivered" and "sent" arriving after "read".
      expect((await graph.deliver(server.url, delivered)).status).toBe(200);
      expect((await graph.deliver(server.url, graph.statusBody(wamid, 'sent', { to: phone.slice(1) }))).status).toBe(200);
      expect(await messageTo(phone)).toEqual(afterRead);
      expect(await smsTo(phone)).toEqual([]);
    });

    it('takes "read" before "delivered" as read, and the late "delivered" changes nothing', async () => {
      const phone = newPhone();
      const wamid = await sentTo(phone);
      expect((await graph.deliver(server.url, graph.statusBody(wamid, 'read'))).status).toBe(200);
      const read = await messageTo(phone);
      expect(read.status).toBe('read');
      expect((await graph.deliver(server.url, graph.statusBody(wamid, 'delivered'))).status).toBe(200);
      expect(await messageTo(phone)).toEqual(read);
    });

    it('answers 200 to a status of a message it does not know, and changes nothing', async () => {
      const response = await graph.deliver(server.url, graph.statusBody('wamid.NOT-OURS', 'delivered'));
      expect(response.status).toBe(200);
      expect(await database.db.selectFrom('whatsapp_messages').select('id').where('wamid', '=', 'wamid.NOT-OURS').execute()).toEqual([]);
    });

    it('keeps a failure with Meta\'s reason and sends the SMS once, though Meta delivers "failed" five times at once', async () => {
      const phone = newPhone();
      const wamid = await sentTo(phone);
      const failed = graph.statusBody(wamid, 'failed', { to: phone.slice(1), errorCode: 131026 });
      const answers = await Promise.all(Array.from({ length: 5 }, () => graph.deliver(server.url, failed)));
      expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      const row = await messageTo(phone);
      expect(row.status).toBe('failed');
      expect(row.error_code).toBe(131026);
      expect(row.error_text).toContain('Message undeliverable');
      expect(row.failed_at).not.toBeNull();
      expect(row.fell_back_at).not.toBeNull();
      expect(await smsTo(phone)).toEqual([`SMS for ${phone}`]);
      // Later statuses of a failed message change nothing either.
      expect((await graph.deliver(server.url, graph.statusBody(wamid, 'read'))).status).toBe(200);
      expect(await messageTo(phone)).toEqual(row);
      expect(await smsTo(phone)).toHaveLength(1);
    });

    it("sends one SMS when the worker's own failure races five webhook failures", async () => {
      const phone = newPhone();
      const wamid = await sentTo(phone);
      const failed = graph.statusBody(wamid, 'failed', { to: phone.slice(1) });
      const { id } = await messageTo(phone);
      const [worker, ...answers] = await Promise.all([
        database.db.transaction().execute((trx) => markFailed(trx, services, id, { code: 131026, text: 'WhatsApp refused (131026): Message undeliverable' })),
        ...Array.from({ length: 5 }, () => graph.deliver(server.url, failed)),
      ]);
      expect(worker).toBeUndefined();
      expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await messageTo(phone)).status).toBe('failed');
      expect(await smsTo(phone)).toEqual([`SMS for ${phone}`]);
    });
  });

  describe('bodies that are not a notification', () => {
    it('answers 400 to a signed body that is not JSON or not an event, 413 to a huge one, never 500', async () => {
      const notJson = await graph.deliver(server.url, null, { raw: '{"object": "whatsapp_business_account", "entry": [' });
      expect(notJson.status).toBe(400);
      expect(notJson.headers.get('content-type')).toMatch(/problem\+json/);
      for (const shape of [{ hello: 'world' }, { object: 'whatsapp_business_account', entry: 'x' }, [], 42, { object: 'x', entry: [{ changes: [{}] }] }]) {
        expect((await graph.deliver(server.url, shape)).status).toBe(400);
      }
      const binary = await graph.deliver(server.url, null, { raw: '\u0000\uffff' });
      expect(binary.status).toBe(400);
      // Another object, another field, items of shapes it does not read: acknowledged, ignored.
      const other = await graph.deliver(server.url, {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              { field: 'message_template_status_update', value: { event: 'APPROVED' } },
              { field: 'messages', value: { statuses: [{ x: 1 }], messages: [{ from: 'me' }] } },
            ],
          },
        ],
      });
      expect(other.status).toBe(200);
      expect((await graph.deliver(server.url, { object: 'page', entry: [] })).status).toBe(200);

      const huge = JSON.stringify({ object: 'whatsapp_business_account', entry: [], padding: 'x'.repeat(1_100_000) });
      expect((await graph.deliver(server.url, null, { raw: huge })).status).toBe(413);
      expect(server.output()).not.toMatch(/unhandled error/);
    });
  });

  describe('STOP', () => {
    it('opts the number out with their words, answers once in their language, and the next event goes by SMS', async () => {
      const phone = newPhone();
      await recordConsent(database.db, {
        phone,
        userId: null,
        optIn: true,
        source: 'form',
        wording: 'Send me updates on WhatsApp',
        language: 'hi',
        nowMs: Date.now(),
      });
      await sentTo(phone, 'hi');

      const stop = graph.inboundTextBody(phone.slice(1), 'STOP');
      expect((await graph.deliver(server.url, stop)).status).toBe(200);
      const consent = await consentOf(database.db, phone);
      expect(consent).toMatchObject({ optedIn: false, source: 'reply' });
      const stored = await database.db
        .selectFrom('whatsapp_consents')
        .select(['wording', 'language'])
        .where('phone', '=', phone)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ wording: 'STOP', language: 'hi' });
      // The answer, by the job queue, in the language of the last message they read.
      const answer = await until(async () => graph.receivedTexts.find((text) => text.to === phone.slice(1)), 'the answer to STOP');
      expect(answer.body).toBe(whatsappText('stopReply', undefined, 'hi'));

      // Replayed (and typed again): nothing more is recorded or answered.
      expect((await graph.deliver(server.url, stop)).status).toBe(200);
      expect((await graph.deliver(server.url, graph.inboundTextBody(phone.slice(1), 'stop'))).status).toBe(200);
      await sleep(300);
      expect(await database.db.selectFrom('whatsapp_consents').select('id').where('phone', '=', phone).execute()).toHaveLength(2);
      expect(graph.receivedTexts.filter((text) => text.to === phone.slice(1))).toHaveLength(1);

      const way = await database.db.transaction().execute((trx) =>
        queuePhoneMessage(trx, services, {
          userId: null,
          phone,
          language: 'hi',
          sms: `Next SMS for ${phone}`,
          whatsapp: whatsappTemplate('licence_approved', { link: 'https://x.in/p' }),
          push: null,
        }),
      );
      expect(way).toBe('sms');
      expect(await smsTo(phone)).toEqual([`Next SMS for ${phone}`]);
    });

    it('knows STOP in its other words, and a text that only mentions stopping is no opt-out', async () => {
      for (const words of ['Stop promotions', 'UNSUBSCRIBE', 'रोकें', 'बंद करें', ' stop. ']) {
        const phone = newPhone();
        await recordConsent(database.db, { phone, userId: null, optIn: true, source: 'profile', wording: 'yes', language: 'en', nowMs: Date.now() });
        expect((await graph.deliver(server.url, graph.inboundTextBody(phone.slice(1), words))).status).toBe(200);
        expect((await consentOf(database.db, phone))?.optedIn, words).toBe(false);
      }
      const phone = newPhone();
      await recordConsent(database.db, { phone, userId: null, optIn: true, source: 'profile', wording: 'yes', language: 'en', nowMs: Date.now() });
      expect((await graph.deliver(server.url, graph.inboundTextBody(phone.slice(1), 'Please stop the car at gate 2'))).status).toBe(200);
      expect((await consentOf(database.db, phone))?.optedIn).toBe(true);
    });
  });

  describe("the worker's retry rules", () => {
    it("asks again after Meta's throttling and sends: no SMS", async () => {
      const phone = newPhone();
      graph.refuseNext(GRAPH_REFUSALS.rateLimited);
      await sentTo(phone);
      const job = await database.db
        .selectFrom('jobs')
        .select(['attempts', 'status'])
        .where('name', '=', 'whatsapp')
        .where('payload', '=', JSON.stringify({ messageId: (await messageTo(phone)).id }))
        .executeTakeFirstOrThrow();
      expect(job.attempts).toBe(2);
      expect(await smsTo(phone)).toEqual([]);
    });

    it('gives up at once on a number Meta cannot deliver to, and sends the SMS once', async () => {
      const phone = newPhone();
      graph.refuseNext(GRAPH_REFUSALS.undeliverable);
      await queueTo(phone);
      const row = await until(async () => {
        const current = await messageTo(phone);
        return current.status === 'failed' ? current : null;
      }, 'the message to fail');
      expect(row.error_code).toBe(131026);
      expect(row.wamid).toBeNull();
      const job = await database.db
        .selectFrom('jobs')
        .select(['attempts'])
        .where('name', '=', 'whatsapp')
        .where('payload', '=', JSON.stringify({ messageId: row.id }))
        .executeTakeFirstOrThrow();
      expect(job.attempts).toBe(1);
      await sleep(300);
      expect(await smsTo(phone)).toEqual([`SMS for ${phone}`]);
    });
  });

  describe("the desk's list", () => {
    it('is for admins only', async () => {
      const response = await new HttpClient(server.url).get('/admin/whatsapp');
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toMatch(/^\/admin-login/);
    });

    it('shows each message newest first with its status, the reason of a failure and the SMS sent instead, by status, in Hindi too', async () => {
      const admin = new HttpClient(server.url);
      const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
      expect(signedIn.status).toBe(302);

      const read = newPhone();
      const readWamid = await sentTo(read);
      await graph.deliver(server.url, graph.statusBody(readWamid, 'read'));
      const failed = newPhone();
      const failedWamid = await sentTo(failed);
      await graph.deliver(server.url, graph.statusBody(failedWamid, 'failed'));

      const all = await admin.get('/admin/whatsapp');
      expect(all.status).toBe(200);
      const html = await all.text();
      expect(html).toContain(`href="https://wa.me/${read.slice(1)}"`);
      expect(html).toContain('Your test drive is booked: Maruti Swift VXi');
      expect(html).toContain('test_drive_booked');
      expect(html).toMatch(/Read · /);
      // Newest first: the failed one was queued last.
      expect(html.indexOf(failed)).toBeLessThan(html.indexOf(read));

      const onlyFailed = await (await admin.get('/admin/whatsapp?status=failed')).text();
      expect(onlyFailed).toContain(failed);
      expect(onlyFailed).not.toContain(read);
      expect(onlyFailed).toContain('Meta&#x27;s reason: 131026 · Message undeliverable');
      expect(onlyFailed).toMatch(/SMS sent instead · /);

      const hindi = await (await admin.get('/hi/admin/whatsapp?status=failed')).text();
      expect(hindi).toContain('नहीं पहुँचा');
      expect(hindi).toContain('इसकी जगह SMS भेजा गया');

      // An unknown status is no filter; a page past the end shows the last.
      expect((await admin.get('/admin/whatsapp?status=lost&page=999')).status).toBe(200);

      // The dashboard's line, where WhatsApp is connected, leads to the failures.
      const dashboard = await (await admin.get('/admin-panel')).text();
      expect(dashboard).toMatch(/WhatsApp in the last 24 hours — messages: \d+, read: \d+, failed: [1-9]\d*\./);
      expect(dashboard).toContain('href="/admin/whatsapp?status=failed"');
    });
  });

  it('answers 429 to an address that keeps sending refused calls, while signed calls still go through', async () => {
    const body = graph.statusBody('wamid.NOT-OURS', 'delivered');
    const statuses: number[] = [];
    for (let index = 0; index < 32; index++) statuses.push((await graph.deliver(server.url, body, { signature: null })).status);
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(429);
    expect((await graph.deliver(server.url, body)).status).toBe(200);
  });
});
