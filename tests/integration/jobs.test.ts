import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase, openTestDatabase, type TestDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { claimNext, enqueue, failingJobs } from '../../server/jobs/queue.ts';

/**
 * The job queue (docs/decisions/069) on this project's database: a job exists exactly when the
 * change that queued it committed; a mail queued with a lead survives a crash of the server in
 * the middle of sending it and reaches the SMTP peer once; a peer that refuses (for a whole
 * minute, in real time) delays mail and loses none; SIGTERM finishes the request and the job in flight.
 */
const { dialect, url: sharedUrl } = sharedServer();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** A Request a Vehicle submission as a visitor sends it; the phone number tells its mail apart (typed as it is kept, in E.164). */
async function submitLead(server: TestServer, phone: string): Promise<void> {
  const client = new HttpClient(server.url);
  const response = await client.postForm('/request-vehicle', {
    name: 'Ravi Kumar',
    phone,
    model: 'Maruti Swift VXi',
    year: '2019',
    budget: '₹5,00,000',
    description: 'White, petrol',
    botCheck: await client.botToken('REQUEST_FORM'),
  });
  expect(response.status).toBe(200);
}

const mailsFor = (smtp: SmtpPeer, phone: string) => smtp.messages.filter((mail) => mail.text.includes(phone));

describe.skipIf(!sharedUrl)(`the job queue on ${dialect}`, () => {
  describe('enqueue', () => {
    let test: TestDatabase;
    beforeAll(async () => {
      test = await openTestDatabase(dialect);
    });
    afterAll(async () => {
      await test?.cleanup();
    });

    it('writes nothing when the transaction it was given rolls back, and a job once it commits', async () => {
      const { db } = test.database;
      await expect(
        db.transaction().execute(async (trx) => {
          await enqueue(trx, 'mail', { to: 'rolled-back@example.in' }, { nowMs: Date.now() });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await db.selectFrom('jobs').selectAll().execute()).toEqual([]);
      expect(await claimNext(test.database, { nowMs: Date.now(), leaseMs: 1000 })).toBeNull();

      await db.transaction().execute((trx) => enqueue(trx, 'mail', { to: 'kept@example.in' }, { nowMs: Date.now() }));
      // Two workers asking at once: one gets it.
      const claims = await Promise.all([
        claimNext(test.database, { nowMs: Date.now(), leaseMs: 60_000 }),
        claimNext(test.database, { nowMs: Date.now(), leaseMs: 60_000 }),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(JSON.parse(claims.find(Boolean)!.payload)).toEqual({ to: 'kept@example.in' });
      // Its lease lapses (the worker died): another worker takes it again, as a second attempt.
      const again = await claimNext(test.database, { nowMs: Date.now() + 61_000, leaseMs: 60_000 });
      expect(again?.attempts).toBe(2);
      expect((await failingJobs(test.database)).count).toBe(0);
    });
  });

  describe('a mail queued with a lead', () => {
    let smtp: SmtpPeer;
    const servers: TestServer[] = [];
    beforeAll(async () => {
      smtp = await startSmtpPeer();
    });
    afterEach(async () => {
      // The first started removes the data; the later ones on its data only stop.
      for (const server of servers.reverse()) await server.stop();
      servers.length = 0;
      smtp.mode = 'accept';
    });
    afterAll(async () => {
      await smtp?.close();
    });

    it('reaches the SMTP peer exactly once when the server is killed (SIGKILL) in the middle of sending it', async () => {
      // A short lease: the restarted server takes the dead worker's job again after 1.5 s.
      const env = { SMTP_URL: smtp.url, JOB_LEASE_MS: '1500', JOB_POLL_MS: '200' };
      const first = await startTestServer({ dialect, childProcess: true, env });
      servers.push(first);
      smtp.mode = 'hold';
      const attemptsBefore = smtp.attempts;
      await submitLead(first, '+919610000001');
      // The lead is acknowledged and the worker is in the middle of the send: the peer holds its MAIL FROM.
      await until(() => smtp.attempts > attemptsBefore, 10_000, 'the worker to start sending');
      await first.kill('SIGKILL');
      expect(mailsFor(smtp, '+919610000001')).toHaveLength(0);

      smtp.mode = 'accept';
      const second = await startTestServer({ dialect, sameDataAs: first, env });
      servers.push(second);
      const mail = await smtp.waitForMessage((message) => message.text.includes('+919610000001'), 20_000);
      expect(mail.subject).toMatch(/^New vehicle request #\d+: Maruti Swift VXi$/);
      // The job's own Message-ID, the same on every attempt (decision 069).
      expect(mail.headers['message-id']).toMatch(/^<[0-9a-f-]{36}@127\.0\.0\.1>$/);
      // Time for a second copy to arrive if the queue were to send one.
      await sleep(2000);
      expect(mailsFor(smtp, '+919610000001')).toHaveLength(1);
    });

    it('is delayed, not lost, while the SMTP peer refuses; the admin sees it failing and can retry it', async () => {
      const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
      // The next automatic try a minute away: the refused mails wait in the queue while the admin
      // looks at them, instead of being tried (and taken by the worker) between reading the
      // dashboard and pressing Retry now. The minute-long refusal below covers automatic retries.
      const server = await startTestServer({
        dialect,
        env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, SMTP_URL: smtp.url, JOB_BACKOFF_MS: '60000', JOB_POLL_MS: '100' },
      });
      servers.push(server);
      smtp.mode = 'refuse';
      const attemptsBefore = smtp.attempts;
      const phones = ['+919620000001', '+919620000002', '+919620000003'];
      for (const phone of phones) await submitLead(server, phone);
      // Each lead's mail tried once and refused (the demo admin's verification mail is queued too).
      const database = openServerDatabase(server);
      try {
        // Refused and back in the queue, each: not still being tried (a job being tried is not on the dashboard's list).
        const refused = () =>
          database.db
            .selectFrom('jobs')
            .where('name', '=', 'mail')
            .where('payload', 'like', '%+91962000000%')
            .where('status', '=', 'queued')
            .where('last_error', 'is not', null)
            .select('id')
            .execute();
        await until(async () => (await refused()).length === phones.length, 15_000, 'the first try of each refused mail');
      } finally {
        await database.close();
      }
      expect(smtp.attempts).toBeGreaterThanOrEqual(attemptsBefore + phones.length);
      expect(smtp.messages.filter((mail) => phones.some((phone) => mail.text.includes(phone)))).toHaveLength(0);
      await server.waitForOutput(/jobs: failed, will retry/);

      // The dashboard lists the failing mails with the peer's answer, and a retry button each.
      const admin = new HttpClient(server.url);
      expect((await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
      const page = await (await admin.get('/admin-panel')).text();
      expect(page).toMatch(/Jobs failing \(<!-- -->\d+<!-- -->\)|Jobs failing \(\d+\)/);
      expect(page).toContain('Mail service busy, try again later');
      const ids = [...page.matchAll(/name="id" value="(\d+)"/g)].map((match) => match[1]!);
      expect(ids.length).toBeGreaterThanOrEqual(phones.length);
      // Not for a visitor, nor from another site.
      const visitor = new HttpClient(server.url);
      expect([302, 303, 403, 404]).toContain((await visitor.postForm('/admin-panel', { intent: 'retry-job', id: ids[0]! })).status);
      const foreign = await fetch(`${server.url}/admin-panel`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `intent=retry-job&id=${ids[0]}`,
      });
      expect(foreign.status).toBe(403);

      // The peer is back: the admin sends each at once rather than wait for the next try.
      smtp.mode = 'accept';
      for (const id of ids) {
        const retried = await admin.postForm('/admin-panel', { intent: 'retry-job', id });
        expect(retried.status).toBe(303);
        expect(await (await admin.get('/admin-panel')).text()).toContain(`Job #${id} is queued again.`);
      }
      for (const phone of phones) await smtp.waitForMessage((mail) => mail.text.includes(phone), 20_000);
      await sleep(500);
      for (const phone of phones) expect(mailsFor(smtp, phone)).toHaveLength(1);
    });

    it('an SMTP peer that refuses for a whole minute delays the mails queued at its start, loses none, and sends each once after', async () => {
      // Retries 1, 2, 4 … seconds apart: the minute of refusals costs six attempts, far from the ten that give up.
      const server = await startTestServer({ dialect, env: { SMTP_URL: smtp.url, JOB_BACKOFF_MS: '1000', JOB_POLL_MS: '100' } });
      servers.push(server);
      smtp.mode = 'refuse';
      const refusalStarted = Date.now();
      const phones = ['+919650000001', '+919650000002', '+919650000003'];
      for (const phone of phones) await submitLead(server, phone);
      const ofPhones = () => smtp.messages.filter((mail) => phones.some((phone) => mail.text.includes(phone)));
      const attemptsBefore = smtp.attempts;
      while (Date.now() - refusalStarted < 60_000) {
        await sleep(1000);
        expect(ofPhones()).toHaveLength(0);
      }
      // Tried again and again through the minute, each attempt refused.
      expect(smtp.attempts - attemptsBefore).toBeGreaterThanOrEqual(phones.length * 4);
      const database = openServerDatabase(server);
      try {
        const ours = database.db.selectFrom('jobs').where('name', '=', 'mail').where('payload', 'like', '%+91965000000%');
        const waiting = await ours.select(['status', 'attempts', 'last_error']).execute();
        expect(waiting).toHaveLength(phones.length);
        for (const job of waiting) {
          expect(job.status).not.toBe('failed');
          expect(job.attempts).toBeGreaterThanOrEqual(4);
          expect(job.last_error).toContain('Mail service busy, try again later');
        }

        smtp.mode = 'accept';
        for (const phone of phones) await smtp.waitForMessage((mail) => mail.text.includes(phone), 60_000);
        // Time for any second copy to arrive.
        await sleep(2000);
        for (const phone of phones) expect(mailsFor(smtp, phone)).toHaveLength(1);
        expect((await ours.select('status').execute()).map((job) => job.status)).toEqual(phones.map(() => 'done'));
      } finally {
        await database.close();
      }
    }, 180_000);

    it('on SIGTERM: not ready at once, then the request and the mail in flight finish before the process exits', async () => {
      const server = await startTestServer({ dialect, childProcess: true, env: { SMTP_URL: smtp.url, DRAIN_DELAY_MS: '1000', LOG_LEVEL: 'info' } });
      servers.push(server);
      smtp.mode = 'hold';
      const attemptsBefore = smtp.attempts;
      await submitLead(server, '+919630000001');
      await until(() => smtp.attempts > attemptsBefore, 10_000, 'the worker to start sending');

      // A request in flight: its body arrives slowly, the rest of it after SIGTERM.
      const body = 'name=Ravi&phone=96300+00002&model=Swift&budget=5+lakh&year=2019&description=late';
      const { port } = new URL(server.url);
      const answered = new Promise<number>((resolve, reject) => {
        const slow = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/request-vehicle',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        slow.on('error', reject);
        slow.write(body.slice(0, 10));
        setTimeout(() => slow.end(body.slice(10)), 2000);
      });
      await sleep(200);
      process.kill(server.pid, 'SIGTERM');
      await sleep(300);
      const readiness = await fetch(`${server.url}/readyz`);
      expect(readiness.status).toBe(503);

      // The mail in hand is answered after the port closed; the process waits for it.
      await sleep(1500);
      smtp.mode = 'accept';
      // Answered with the form's own refusal (no bot check), not cut off.
      expect(await answered).toBeGreaterThanOrEqual(200);
      await server.waitForOutput(/"msg":"stopped"/, 10_000);
      expect(mailsFor(smtp, '+919630000001')).toHaveLength(1);
    });
  });
});
