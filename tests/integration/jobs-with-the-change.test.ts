import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../app/features/rentals/rental-price.ts';
import type { Database } from '../../server/db/connection.ts';
import { createMailer } from '../../server/notify/mail.ts';
import { getBooking } from '../../server/rentals/bookings.ts';
import { reviewLicence } from '../../server/rentals/licences.ts';
import { cancelBooking, requestBooking, type RentalDeskServices } from '../../server/rentals/lifecycle.ts';
import { rescheduleAndConfirm } from '../../server/test-drives/booking.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { addFleetCar, addRenter, deskServices, movableClock, saveRentalSettings } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Work after a change is queued in the change's own transaction (docs/decisions/069): the jobs
 * exist exactly when the change does. The queue is made to refuse a job by a trigger on the jobs
 * table; the change that queued it must then be gone too, with the jobs and outbox rows it wrote
 * before the refused one. Once the queue accepts, the change and all its jobs are there.
 */

const { dialect } = sharedServer();
const DAY = 24 * HOUR_MS;
const DESK_EMAIL = 'desk@gaadibazaar.in';

let opened: TestDatabase;
let services: RentalDeskServices;
const startMs = Date.now();
const clock = movableClock(startMs);

/** From now on the jobs table refuses every new job named `name` (the SMTP queue write failing, say). */
async function refuseJobsNamed(database: Database, name: 'mail' | 'sms'): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`CREATE TRIGGER refuse_jobs BEFORE INSERT ON jobs WHEN NEW.name = ${sql.lit(name)} BEGIN SELECT RAISE(ABORT, 'the queue refused this job'); END`.execute(
      database.db,
    );
    return;
  }
  await sql`CREATE FUNCTION refuse_jobs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the queue refused this job'; END $$`.execute(
    database.db,
  );
  await sql`CREATE TRIGGER refuse_jobs BEFORE INSERT ON jobs FOR EACH ROW WHEN (NEW.name = ${sql.lit(name)}) EXECUTE FUNCTION refuse_jobs()`.execute(
    database.db,
  );
}

async function acceptJobs(database: Database): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`DROP TRIGGER IF EXISTS refuse_jobs`.execute(database.db);
    return;
  }
  await sql`DROP TRIGGER IF EXISTS refuse_jobs ON jobs`.execute(database.db);
  await sql`DROP FUNCTION IF EXISTS refuse_jobs()`.execute(database.db);
}

/** The queued jobs whose payload mentions `text` (a recipient), by name. */
async function jobsFor(database: Database, text: string): Promise<Array<{ name: string; payload: Record<string, string> }>> {
  const rows = await database.db.selectFrom('jobs').select(['name', 'payload']).where('name', 'in', ['mail', 'sms']).orderBy('id').execute();
  return rows
    .map((row) => ({ name: row.name, payload: JSON.parse(row.payload) as Record<string, string> }))
    .filter((job) => JSON.stringify(job.payload).includes(text));
}

async function outboxCount(database: Database, recipient: string): Promise<number> {
  return (await database.db.selectFrom('outbox_messages').select('id').where('recipient', '=', recipient.toLowerCase()).execute()).length;
}

beforeAll(async () => {
  opened = await openTestDatabase(dialect);
  const outboxOnly = deskServices(opened.database, clock);
  // An SMTP server and an SMS provider configured, so mail and SMS are queued as jobs (nothing
  // sends them here: no worker runs in this test).
  const config = {
    ...outboxOnly.config,
    mail: { ...outboxOnly.config.mail, smtpUrl: 'smtp://127.0.0.1:9' },
    sms: { provider: 'twilio' },
    contactAddress: 'MG Road, Pune',
  } as unknown as RentalDeskServices['config'];
  services = { ...outboxOnly, config, mailer: createMailer({ config, database: opened.database, logger: outboxOnly.logger, clock }) };
  await saveRentalSettings(opened.database, { emailNotifications: true, adminEmail: DESK_EMAIL });
});
afterEach(async () => acceptJobs(opened.database));
afterAll(async () => opened?.cleanup());

describe(`jobs queued with their change on ${dialect}`, () => {
  it('a rental booking exists exactly when the admin’s new-booking mail is queued; a cancellation exactly when the renter’s mail and SMS are', async () => {
    const { database } = opened;
    const carId = await addFleetCar(services, 'Atomic Swift');
    const renter = await addRenter(database);
    const fromMs = Math.ceil((startMs + 4 * DAY) / DAY) * DAY + 4.5 * HOUR_MS;
    const input = { userId: renter.userId, vehicleId: carId, fromMs, toMs: fromMs + 30 * HOUR_MS, pickup: 'hub' as const };
    const bookingsOfCar = async () =>
      (await database.db.selectFrom('rental_bookings').select(['id', 'status']).where('vehicle_id', '=', carId).execute()).length;

    await refuseJobsNamed(database, 'mail');
    await expect(requestBooking(services, input)).rejects.toThrow('the queue refused this job');
    expect(await bookingsOfCar()).toBe(0);
    expect(await outboxCount(database, DESK_EMAIL)).toBe(0);
    await acceptJobs(database);

    const booking = await requestBooking(services, input);
    expect(await bookingsOfCar()).toBe(1);
    const deskMails = await jobsFor(database, `New booking #${booking.id}:`);
    expect(deskMails).toHaveLength(1);
    expect(deskMails[0]).toMatchObject({ name: 'mail', payload: { to: DESK_EMAIL, subject: `New booking #${booking.id}: Atomic Swift` } });

    // The renter's mail is written, then the SMS is refused: the cancellation and the mail go together.
    await refuseJobsNamed(database, 'sms');
    await expect(cancelBooking(services, { userId: renter.userId, bookingId: booking.id })).rejects.toThrow('the queue refused this job');
    expect((await getBooking(database, booking.id))?.status).toBe('requested');
    expect(await jobsFor(database, renter.email)).toEqual([]);
    expect(await jobsFor(database, renter.phone)).toEqual([]);
    expect(await outboxCount(database, renter.email)).toBe(0);
    await acceptJobs(database);

    const { booking: cancelled } = await cancelBooking(services, { userId: renter.userId, bookingId: booking.id });
    expect(cancelled.status).toBe('cancelled');
    expect((await jobsFor(database, renter.email)).map((job) => [job.name, job.payload.subject])).toEqual([
      ['mail', `Cancelled: Atomic Swift (booking #${booking.id})`],
    ]);
    expect((await jobsFor(database, renter.phone)).map((job) => job.name)).toEqual(['sms']);
  });

  it('a test drive moves exactly when its “new time” mail and SMS are queued', async () => {
    const { database } = opened;
    const person = await addRenter(database, { licence: null });
    const day = addDays(indiaDay(clock.now()), 3);
    const from = `${day}T10:00`;
    const to = `${day}T12:00`;
    const slotStart = (slot: string) => Date.parse(`${slot}:00+05:30`);
    const now = new Date(clock.now()).toISOString();
    const { id } = await database.db
      .insertInto('test_drives')
      .values({
        user_id: person.userId,
        vehicle_id: null,
        vehicle_title: 'Hyundai Creta SX 2021',
        mode: 'hub',
        pin_code: '',
        name: 'Asha Verma',
        phone: person.phone,
        email: person.email,
        slot_start_ms: slotStart(from),
        seat: 0,
        status: 'booked',
        reminded_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const slotOf = async () =>
      (await database.db.selectFrom('test_drives').select('slot_start_ms').where('id', '=', id).executeTakeFirstOrThrow()).slot_start_ms;

    await refuseJobsNamed(database, 'sms');
    await expect(rescheduleAndConfirm(services, { id, userId: person.userId, slot: to })).rejects.toThrow('the queue refused this job');
    expect(await slotOf()).toBe(slotStart(from));
    expect(await jobsFor(database, person.email)).toEqual([]);
    expect(await outboxCount(database, person.email)).toBe(0);
    await acceptJobs(database);

    const moved = await rescheduleAndConfirm(services, { id, userId: person.userId, slot: to });
    expect(moved.slot).toBe(to);
    expect(await slotOf()).toBe(slotStart(to));
    const mails = await jobsFor(database, person.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.payload.subject).toMatch(/^Your test drive has a new time: Hyundai Creta SX 2021, /);
    expect((await jobsFor(database, person.phone)).map((job) => job.name)).toEqual(['sms']);
  });

  it('a licence review stands exactly when the customer’s mail is queued', async () => {
    const { database } = opened;
    const person = await addRenter(database, { licence: 'pending' });
    // better-auth makes this table in the app; the review reads the customer's email from it.
    await sql`create table if not exists "user" (id text primary key, email text not null, name text not null default '')`.execute(database.db);
    await sql`insert into "user" (id, email, name) values (${person.userId}, ${person.email}, 'Asha Verma')`.execute(database.db);
    const status = async () =>
      (await database.db.selectFrom('driving_licences').select('status').where('user_id', '=', person.userId).executeTakeFirstOrThrow()).status;

    await refuseJobsNamed(database, 'mail');
    await expect(reviewLicence(services, { userId: person.userId, adminEmail: 'admin@gaadibazaar.in', decision: 'approve' })).rejects.toThrow(
      'the queue refused this job',
    );
    expect(await status()).toBe('pending');
    expect(
      await database.db.selectFrom('audit_log').select('id').where('entity', '=', 'driving-licence').where('entity_id', '=', person.userId).execute(),
    ).toEqual([]);
    await acceptJobs(database);

    await reviewLicence(services, { userId: person.userId, adminEmail: 'admin@gaadibazaar.in', decision: 'approve' });
    expect(await status()).toBe('approved');
    expect((await jobsFor(database, person.email)).map((job) => job.payload.subject)).toEqual(['Your driving licence is approved']);
  });
});
