import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import type { Database } from '../../server/db/connection.ts';

/**
 * Ids from the address or a form that are no ids (huge, negative, words, fractions, NUL bytes)
 * on the private rental photos and on the dashboard's "Retry now" are refused with an answer of
 * their own, never a 500; twenty presses of "Retry now" at once on one failed mail send it once.
 */
const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

const HOSTILE_IDS = [
  '99999999999999999999999',
  '9223372036854775808',
  '2147483648',
  '-1',
  '0',
  'abc',
  '1e3',
  '0x10',
  '1.5',
  ' 1',
  '%00',
  '1%00',
  '%E2%80%AE1',
  'x'.repeat(5000),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!sharedUrl)(`hostile ids and concurrent retries on ${dialect}`, () => {
  let smtp: SmtpPeer;
  let server: TestServer;
  let admin: HttpClient;
  let database: Database;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    server = await startTestServer({ dialect, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, SMTP_URL: smtp.url, JOB_POLL_MS: '100' } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('answers a rental photo address with a hostile booking or photo id 404, to a visitor and to an admin', async () => {
    const visitor = new HttpClient(server.url);
    for (const id of HOSTILE_IDS) {
      for (const path of [`/rental-photos/${id}/abc`, `/rental-photos/1/${id}`, `/rental-photos/${id}/${id}?size=thumb`]) {
        for (const client of [visitor, admin]) {
          const response = await client.get(path);
          await response.body?.cancel();
          expect(response.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
          expect(response.status, path.slice(0, 80)).toBeLessThan(500);
        }
      }
    }
  });

  it('answers "Retry now" with a hostile job id with the dashboard’s own refusal, never a 500', async () => {
    for (const id of [...HOSTILE_IDS.map(decodeURIComponentSafe), 'a\u0000b', '']) {
      const response = await admin.postForm('/admin-panel', { intent: 'retry-job', id });
      const text = await response.text();
      expect(response.status, id.slice(0, 40)).toBeLessThan(500);
      // The form's reader refuses control characters (400); anything else is the dashboard's flash.
      if (response.status === 303) expect(await (await admin.get('/admin-panel')).text()).toContain('This job was not found, or it has already gone through.');
      else expect(response.status, text.slice(0, 200)).toBe(400);
    }
    // The form is read by its schema (decision 109): a wrong intent is the dashboard's own sentence.
    const unknown = await admin.postForm('/admin-panel', { intent: 'explode', id: '1' });
    await unknown.body?.cancel();
    expect(unknown.status).toBe(303);
    expect(await (await admin.get('/admin-panel')).text()).toContain('Unknown action.');
    const audit = await database.db.selectFrom('audit_log').select('id').where('entity', '=', 'job').execute();
    expect(audit).toEqual([]);
  });

  it('twenty “Retry now” presses at once on one failed mail send it exactly once', async () => {
    const subject = `Retried once ${Date.now()}`;
    const now = Date.now();
    const { id } = await database.db
      .insertInto('jobs')
      .values({
        name: 'mail',
        payload: JSON.stringify({ to: 'buyer@example.in', subject, text: subject, messageId: `<retry-${now}@127.0.0.1>` }),
        status: 'failed',
        attempts: 10,
        max_attempts: 10,
        run_at_ms: now,
        created_at_ms: now,
        finished_at_ms: now,
        last_error: 'Mail service busy, try again later',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answers = await Promise.all(Array.from({ length: 20 }, () => admin.postForm('/admin-panel', { intent: 'retry-job', id: String(id) })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 303));
    await smtp.waitForMessage((mail) => mail.subject === subject, 20_000);
    // Time for a second copy, were a press to queue the job again after it ran.
    await sleep(1500);
    expect(smtp.messages.filter((mail) => mail.subject === subject)).toHaveLength(1);
    const job = await database.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 1 });
  });
});

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
