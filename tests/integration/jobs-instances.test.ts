import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient } from '../support/http-client.ts';
import { postgresAvailable, startTestServer, testModeEnv, type TestServer } from '../support/server.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { enqueue } from '../../server/jobs/queue.ts';
import { RECURRING_JOBS } from '../../server/jobs/registry.ts';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import { createBooking } from '../../server/rentals/bookings.ts';
import { addFleetCarOn, addRenter, rentalServices } from '../support/rentals.ts';

/**
 * Several instances on one PostgreSQL database (docs/decisions/069, 070): two workers share the
 * queue and send each of 200 mails once; three instances share the schedules and run each
 * recurring job once per period, each due reminder reaching the SMTP peer once. Runs once (in the SQLite project, vitest.config.ts), on
 * PostgreSQL servers of its own: several instances need PostgreSQL.
 */
const postgresReachable = await postgresAvailable();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no mail job is queued or running: every mail the test caused has been sent or has failed for good. */
async function mailJobsSettled(database: Database): Promise<void> {
  await expect
    .poll(
      async () => (await database.db.selectFrom('jobs').select('id').where('name', '=', 'mail').where('status', 'in', ['queued', 'running']).execute()).length,
      { timeout: 30_000 },
    )
    .toBe(0);
}

describe.skipIf(!postgresReachable)('several instances on one PostgreSQL database', () => {
  let smtp: SmtpPeer;
  beforeAll(async () => {
    smtp = await startSmtpPeer();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it("an instance with WORKER=off queues a lead's mail and `npm run worker` sends it", async () => {
    const server = await startTestServer({ dialect: 'postgres', childProcess: true, env: { SMTP_URL: smtp.url, WORKER: 'off' } });
    const client = new HttpClient(server.url);
    const phone = '+919640000001';
    const fields = { name: 'Ravi Kumar', phone, model: 'Maruti Swift VXi', year: '2019', budget: '₹5,00,000', description: '' };
    expect((await client.postForm('/request-vehicle', { ...fields, botCheck: await client.botToken('REQUEST_FORM') })).status).toBe(200);
    // Queued with the lead, and nobody to send it: the job waits, untouched, for a worker.
    const queued = openServerDatabase(server);
    try {
      const jobs = await queued.db.selectFrom('jobs').select(['status', 'attempts']).where('name', '=', 'mail').execute();
      expect(jobs.length).toBeGreaterThan(0);
      expect(jobs.every((job) => job.status === 'queued' && job.attempts === 0)).toBe(true);
    } finally {
      await queued.close();
    }
    expect(smtp.messages.filter((mail) => mail.text.includes(phone))).toHaveLength(0);
    const worker = spawn(process.execPath, ['worker.js'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...testModeEnv(0, server.dataDir, false), DATABASE_URL: server.databaseUrl!, SMTP_URL: smtp.url, LOG_FORMAT: 'json' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    try {
      await smtp.waitForMessage((mail) => mail.text.includes(phone), 30_000);
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      await server.stop();
    }
  });

  it('two workers send 200 queued mails, each exactly once', async () => {
    const env = { SMTP_URL: smtp.url, JOB_POLL_MS: '100', LOG_LEVEL: 'info' };
    const first = await startTestServer({ dialect: 'postgres', childProcess: true, env });
    const second = await startTestServer({ dialect: 'postgres', sameDataAs: first, env });
    const database = openServerDatabase(first);
    try {
      const subjects = Array.from({ length: 200 }, (_, index) => `Bulk mail ${index + 1}`);
      // Queued as the app queues them, in one transaction: both workers find them on their next look.
      await database.db.transaction().execute(async (trx) => {
        for (const [index, subject] of subjects.entries()) {
          await enqueue(trx, 'mail', { to: 'buyer@example.in', subject, text: subject, messageId: `<bulk-${index}@127.0.0.1>` }, { nowMs: Date.now() });
        }
      });
      const deadline = Date.now() + 60_000;
      while (new Set(smtp.messages.map((mail) => mail.subject)).size < subjects.length && Date.now() < deadline) await sleep(100);
      // Every mail job finished: nothing is left that could send a second copy.
      await mailJobsSettled(database);
      expect(await database.db.selectFrom('jobs').select('id').where('name', '=', 'mail').execute()).toHaveLength(subjects.length);
      const received = smtp.messages.filter((mail) => mail.subject.startsWith('Bulk mail '));
      const counts = new Map<string, number>();
      for (const mail of received) counts.set(mail.subject, (counts.get(mail.subject) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual([...subjects].sort());
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      // Both workers took part.
      const sentBy = (server: TestServer) =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('"msg":"mail sent"')).length;
      expect(sentBy(first)).toBeGreaterThan(0);
      expect(sentBy(second)).toBeGreaterThan(0);
      expect(sentBy(first) + sentBy(second)).toBe(200);
      const left = await database.db.selectFrom('jobs').select('status').where('name', '=', 'mail').where('status', '!=', 'done').execute();
      expect(left).toEqual([]);
    } finally {
      await database.close();
      await second.stop();
      await first.stop();
    }
  });

  it('three instances run each recurring job once per period, and each due reminder and old job is dealt with once', async () => {
    const periodMs = 2000;
    const env = { SCHEDULE_PERIOD_MS: String(periodMs), JOB_POLL_MS: '100', SMTP_URL: smtp.url };
    const first = await startTestServer({ dialect: 'postgres', childProcess: true, env: { ...env, WORKER: 'off' } });
    const database = openServerDatabase(first);
    // What the schedules find due, in place before the three instances run: a test drive in half
    // an hour, a confirmed rental pickup tomorrow, and a mail job done long before the outbox's period.
    const person = await addRenter(database);
    const nowMs = Date.now();
    const isoNow = new Date(nowMs).toISOString();
    await database.db
      .insertInto('test_drives')
      .values({
        user_id: person.userId,
        vehicle_id: null,
        vehicle_title: 'Reminder Creta',
        mode: 'hub',
        pin_code: '',
        name: 'Asha Verma',
        phone: person.phone,
        email: person.email,
        slot_start_ms: nowMs + 30 * 60_000,
        seat: 0,
        status: 'booked',
        reminded_at: null,
        created_at: isoNow,
        updated_at: isoNow,
      })
      .execute();
    const carId = await addFleetCarOn(first, 'Reminder Swift');
    const pickupMs = Math.ceil((nowMs + 20 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const rental = await createBooking(rentalServices(database, { now: () => Date.now() }), {
      userId: person.userId,
      vehicleId: carId,
      fromMs: pickupMs,
      toMs: pickupMs + 30 * HOUR_MS,
      pickup: 'hub',
    });
    await database.db.updateTable('rental_bookings').set({ status: 'confirmed', hold_expires_ms: null }).where('id', '=', rental.id).execute();
    const longAgo = nowMs - 400 * 24 * HOUR_MS;
    const { id: oldJob } = await database.db
      .insertInto('jobs')
      .values({
        name: 'mail',
        payload: '{}',
        status: 'done',
        attempts: 1,
        max_attempts: 10,
        run_at_ms: longAgo,
        created_at_ms: longAgo,
        finished_at_ms: longAgo,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The first instance's worker was off while the fixtures were made: restarted with it on, with two more.
    await first.stopKeepingData();
    const instances = [await startTestServer({ dialect: 'postgres', sameDataAs: first, env })];
    instances.push(
      await startTestServer({ dialect: 'postgres', sameDataAs: first, env }),
      await startTestServer({ dialect: 'postgres', sameDataAs: first, env }),
    );
    try {
      const from = Date.now();
      // Two whole periods with all three running, and a little more.
      await sleep(2 * periodMs + 700);
      const to = Date.now();
      const names = RECURRING_JOBS.map((job) => job.name);
      const runs = await database.db.selectFrom('jobs').select(['name', 'status', 'created_at_ms', 'last_error']).where('name', 'in', names).execute();
      for (const name of names) {
        const ofName = runs.filter((run) => run.name === name);
        // Never two runs in one period, over the whole life of the instances.
        const periods = ofName.map((run) => Math.floor(run.created_at_ms / periodMs));
        expect(new Set(periods).size, `${name}: one run per period`).toBe(periods.length);
        // At least one run in each of the two periods wholly inside the window, and all ran.
        const inWindow = ofName.filter((run) => run.created_at_ms >= from && run.created_at_ms <= to);
        expect(inWindow.length, `${name}: runs while the three instances ran`).toBeGreaterThanOrEqual(2);
        expect(inWindow.length).toBeLessThanOrEqual(3);
        await expect
          .poll(
            async () =>
              (
                await database.db
                  .selectFrom('jobs')
                  .select('status')
                  .where('name', '=', name)
                  .where('status', 'in', ['queued', 'failed'])
                  .where('created_at_ms', '<=', to)
                  .execute()
              ).length,
          )
          .toBe(0);
      }
      // Each reminder reached the SMTP peer once, however many instances ran the reminder jobs.
      // The rental's says "Today, …" or "Tomorrow, …" by the hour this runs: matched on the rest.
      const reminders = [`Your test drive is in an hour: Reminder Creta`, `: your Reminder Swift (booking #${rental.id})`];
      for (const subject of reminders) await smtp.waitForMessage((mail) => mail.to.includes(person.email) && mail.subject.includes(subject), 20_000);
      // Each reminder was queued once (the database's count, not a wait for a copy that never comes), and sent.
      await mailJobsSettled(database);
      const reminderJobs = (await database.db.selectFrom('jobs').select('payload').where('name', '=', 'mail').execute()).filter((job) =>
        String(job.payload).includes(person.email),
      );
      expect(reminderJobs).toHaveLength(reminders.length);
      for (const subject of reminders)
        expect(
          smtp.messages.filter((mail) => mail.to.includes(person.email) && mail.subject.includes(subject)),
          subject,
        ).toHaveLength(1);
      // The purge ran: the long-done job is gone.
      expect(await database.db.selectFrom('jobs').select('id').where('id', '=', oldJob).execute()).toEqual([]);
    } finally {
      await database.close();
      for (const instance of instances) await instance.stopKeepingData();
      await first.stop();
    }
  });
});
