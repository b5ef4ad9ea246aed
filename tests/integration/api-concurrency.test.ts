import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotInstant } from '../../app/features/appointments/test-drives.ts';
import { apiClient, appSignUp, appVerifyPhone, multipart, type ApiClient } from '../support/api/client.ts';
import { openServerSql, type ServerSql } from '../support/database.ts';
import { completeProfile, HttpClient, otpFrom, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCarOn } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTwilioStandIn, type TwilioStandIn } from '../support/sms-standins.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * Twenty identical requests at once on each write of the app's API that the other files do not
 * race (issue 27): the same bearer token (and, where a browser could do it, the same session
 * cookie), on SQLite and PostgreSQL, against the running server with stand-ins for Razorpay and
 * Twilio. Each gives what the site gives: one change, one refund, one mail, limits that hold.
 * No answer is a 5xx, every refusal is problem+json (the contract check reads every answer),
 * and the server logs no error.
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = 'twenty-at-once-7';
const TIMES = 20;

type Answer = { response: Response; error?: unknown };

/** Midnight India time `days` days from today, in ms. */
function indiaDay(days: number): number {
  return Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR + days * DAY;
}

/** `send`, twenty times at once. */
function twenty<T>(send: () => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: TIMES }, send));
}

/** The statuses, each checked: never a 5xx, and every refusal problem+json. */
function statusesOf(answers: Answer[]): number[] {
  return answers.map(({ response, error }) => {
    expect(response.status, JSON.stringify(error)).toBeLessThan(500);
    if (response.status >= 400) expect(response.headers.get('content-type'), String(response.status)).toContain('application/problem+json');
    return response.status;
  });
}

/** How many of `statuses` are `status`. */
const howMany = (statuses: number[], status: number) => statuses.filter((each) => each === status).length;

async function photo(red: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: red, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true })).map(String);
  } catch {
    return [];
  }
}

describe.skipIf(!shared.url)(`twenty identical requests at once on the API's writes (${shared.dialect})`, () => {
  let server: TestServer;
  let razorpay: RazorpayStandin;
  let twilio: TwilioStandIn;
  let sql: ServerSql;

  beforeAll(async () => {
    [razorpay, twilio] = await Promise.all([startRazorpayStandin(), startTwilioStandIn()]);
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        TRUST_PROXY: 'true',
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: razorpay.url,
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: twilio.from,
        TWILIO_API_URL: twilio.url,
      },
    });
    sql = await openServerSql(server);
  }, 180_000);

  afterAll(async () => {
    await sql?.close();
    await server?.stop();
    await Promise.all([razorpay?.close(), twilio?.close()]);
  });

  async function count(table: string, where: string, params: unknown[] = []): Promise<number> {
    const [row] = await sql.all<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${table} WHERE ${where}`, params);
    return Number(row?.count ?? 0);
  }

  /** A person signed up through the app, its token in use; `site` is their machine (its address solves the bot check). */
  async function person(label: string) {
    const site = new HttpClient(server.url);
    const email = uniqueEmail(label);
    return { site, email, ...(await appSignUp(site, email, PASSWORD)) };
  }

  /** A person whose phone is verified (what booking needs). */
  async function personWithPhone(label: string) {
    const someone = await person(label);
    const mobile = uniqueMobile();
    await appVerifyPhone(someone.app, someone.site, mobile);
    return { ...someone, mobile };
  }

  /** Subjects of the mails queued to `email`. */
  const mailsTo = async (email: string) =>
    (
      await sql.all<{ subject: string }>("SELECT subject FROM outbox_messages WHERE channel = 'email' AND recipient = ? ORDER BY id", [email.toLowerCase()])
    ).map((row) => row.subject);

  describe('the account', () => {
    it('profile: twenty renames by token and twenty by cookie all answer the new name; one profile row', async () => {
      const { app, userId } = await person('rename');
      const answers = await twenty(() => app.POST('/me/profile', { body: { name: 'Asha Rao' } }));
      expect(statusesOf(answers)).toEqual(Array<number>(TIMES).fill(200));
      for (const { data } of answers) expect(data?.profile.name).toBe('Asha Rao');

      // A browser's session on a profile never read yet: the row is made once.
      const browser = new HttpClient(server.url);
      await signUp(browser, uniqueEmail('rename-cookie'));
      const cookieUser = (await browser.session())!.user.id;
      await sql.run('DELETE FROM profiles WHERE user_id = ?', [cookieUser]);
      const byCookie = await twenty(() =>
        browser.request('/api/v1/me/profile', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Ravi Kumar' }),
        }),
      );
      expect(statusesOf(byCookie.map((response) => ({ response })))).toEqual(Array<number>(TIMES).fill(200));
      for (const id of [userId, cookieUser]) expect(await count('profiles', 'user_id = ?', [id])).toBe(1);
      expect((await sql.all<{ name: string }>('SELECT name FROM profiles WHERE user_id = ?', [cookieUser]))[0]?.name).toBe('Ravi Kumar');
    });

    it('phone code: twenty identical sends (one bot-check solution) text one code; twenty with their own solutions stay within the hourly limit', async () => {
      const { app, site, userId } = await person('otp-send');
      const mobile = uniqueMobile();
      const botCheck = await site.botToken('SEND_OTP');
      const statuses = statusesOf(await twenty(() => app.POST('/me/phone/code', { body: { phone: mobile, countryCode: '+91', botCheck } })));
      expect(howMany(statuses, 200), statuses.join()).toBe(1);
      expect(
        statuses.every((status) => [200, 403, 429].includes(status)),
        statuses.join(),
      ).toBe(true);
      expect(twilio.messages.filter((message) => message.to === `+91${mobile}`)).toHaveLength(1);
      expect(await count('phone_otps', 'user_id = ? AND used_at IS NULL', [userId])).toBe(1);

      // An app retrying with a fresh solution each time: the Resend wait (SPEC 4) lets one through.
      const other = await person('otp-send-fresh');
      const otherMobile = uniqueMobile();
      const solutions = await Promise.all(Array.from({ length: TIMES }, () => other.site.botToken('SEND_OTP')));
      const fresh = statusesOf(
        await Promise.all(
          solutions.map((solution) => other.app.POST('/me/phone/code', { body: { phone: otherMobile, countryCode: '+91', botCheck: solution } })),
        ),
      );
      expect(howMany(fresh, 200), fresh.join()).toBe(1);
      expect(
        fresh.every((status) => [200, 429].includes(status)),
        fresh.join(),
      ).toBe(true);
      expect(twilio.messages.filter((message) => message.to === `+91${otherMobile}`)).toHaveLength(1);
      expect(await count('phone_otps', 'user_id = ?', [other.userId])).toBe(1);
    });

    it('phone verify: the right code twenty times at once verifies once; a wrong one twenty times burns the code’s five tries and no more', async () => {
      const { app, site, userId } = await person('otp-verify');
      const mobile = uniqueMobile();
      expect(
        (await app.POST('/me/phone/code', { body: { phone: mobile, countryCode: '+91', botCheck: await site.botToken('SEND_OTP') } })).response.status,
      ).toBe(200);
      const code = otpFrom((await waitForOutbox(site, 'sms', `+91${mobile}`)).body);
      const answers = await twenty(() => app.POST('/me/phone/verify', { body: { phone: mobile, countryCode: '+91', otp: code, name: 'Vikram Sethi' } }));
      const statuses = statusesOf(answers);
      expect(howMany(statuses, 200), statuses.join()).toBe(1);
      expect(
        statuses.every((status) => [200, 400, 429].includes(status)),
        statuses.join(),
      ).toBe(true);
      const profile = (await app.GET('/me/profile')).data!.profile;
      expect(profile).toMatchObject({ phone: `+91${mobile}`, phoneVerified: true, name: 'Vikram Sethi' });
      // The right code is no wrong guess: nothing is left counted against the person.
      const [failures] = await sql.all<{ count: number }>('SELECT count FROM rate_limit_hits WHERE key = ?', [`otp-failures-user:${userId}`]);
      expect(Number(failures?.count ?? 0)).toBe(0);

      const guesser = await person('otp-guess');
      const guessed = uniqueMobile();
      expect(
        (await guesser.app.POST('/me/phone/code', { body: { phone: guessed, countryCode: '+91', botCheck: await guesser.site.botToken('SEND_OTP') } })).response
          .status,
      ).toBe(200);
      const right = otpFrom((await waitForOutbox(guesser.site, 'sms', `+91${guessed}`)).body);
      const wrong = right === '000000' ? '111111' : '000000';
      const guesses = statusesOf(
        await twenty(() => guesser.app.POST('/me/phone/verify', { body: { phone: guessed, countryCode: '+91', otp: wrong, name: 'Mallory' } })),
      );
      expect(
        guesses.every((status) => [400, 429].includes(status)),
        guesses.join(),
      ).toBe(true);
      const [otp] = await sql.all<{ attempts: number }>('SELECT attempts FROM phone_otps WHERE user_id = ?', [guesser.userId]);
      expect(Number(otp!.attempts)).toBe(5);
      const [counted] = await sql.all<{ count: number }>('SELECT count FROM rate_limit_hits WHERE key = ?', [`otp-failures-user:${guesser.userId}`]);
      expect(Number(counted!.count)).toBeLessThanOrEqual(10);
      // The code is spent: even the right one is refused now, and the phone stays unverified.
      expect((await guesser.app.POST('/me/phone/verify', { body: { phone: guessed, countryCode: '+91', otp: right, name: 'Mallory' } })).response.status).toBe(
        400,
      );
      expect((await guesser.app.GET('/me/profile')).data!.profile.phoneVerified).toBe(false);
    });

    it('verify-email: the link’s token twenty times at once verifies the address and signs in once', async () => {
      const site = new HttpClient(server.url);
      const email = uniqueEmail('verify-twenty');
      const { userId } = await appSignUp(site, email, PASSWORD);
      const link = (await waitForOutbox(site, 'email', email)).links.find((href) => href.includes('verify-email'))!;
      const token = new URL(link).searchParams.get('token')!;
      const phone = apiClient(server.url, { address: site.address });
      const answers = await twenty(() => phone.POST('/auth/verify-email', { body: { token } }));
      expect(statusesOf(answers)).toEqual(Array<number>(TIMES).fill(200));
      const issued = answers.filter(({ data }) => data?.token);
      expect(issued).toHaveLength(1);
      expect(await count('"user"', 'id = ? AND "emailVerified" = ?', [userId, shared.dialect === 'postgres' ? true : 1])).toBe(1);
      // The sign-up's session and the one verification made: no more.
      expect(await count('session', '"userId" = ?', [userId])).toBe(2);
      phone.useToken(issued[0]!.data!.token!);
      const devices = await phone.GET('/me/devices');
      expect(devices.data?.items).toHaveLength(2);
    });

    it('licence: twenty uploads at once leave one licence, pending, and only its two photos', async () => {
      const { app, userId } = await person('licence');
      const [front, back] = await Promise.all([photo(200), photo(40)]);
      const answers = await twenty(() =>
        app.POST('/me/licence', { body: { number: 'KA0120150009876', dateOfBirth: '1990-04-12', front, back }, bodySerializer: multipart }),
      );
      const statuses = statusesOf(answers);
      expect(
        statuses.every((status) => status === 201 || status === 429),
        statuses.join(),
      ).toBe(true);
      expect(howMany(statuses, 201)).toBeGreaterThan(0);
      const rows = await sql.all<{ status: string; front_key: string; back_key: string }>(
        'SELECT status, front_key, back_key FROM driving_licences WHERE user_id = ?',
        [userId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('pending');
      // Every replaced upload's photos were removed: of this person's, only the licence on file's are stored.
      const others = await sql.all<{ front_key: string; back_key: string }>('SELECT front_key, back_key FROM driving_licences WHERE user_id <> ?', [userId]);
      const othersKeys = new Set(others.flatMap((row) => [row.front_key, row.back_key]));
      const stored = (await filesUnder(path.join(server.dataDir, 'private'))).filter((file) => file.endsWith('.webp') && !othersKeys.has(file));
      expect(stored.sort()).toEqual([rows[0]!.front_key, rows[0]!.back_key].sort());
    });

    it('device revoke: twenty at once sign that device out once; its token is refused, the caller’s kept', async () => {
      const { app, site, email } = await person('revoke');
      // The same person signed in on a second phone.
      const second = apiClient(server.url, { address: site.address });
      const signedIn = await second.POST('/auth/sign-in', { body: { email, password: PASSWORD, botCheck: await site.botToken('LOGIN') } });
      second.useToken(signedIn.data!.token);
      const other = (await app.GET('/me/devices')).data!.items.find((device) => !device.current)!;
      const answers = await twenty(() => app.DELETE('/me/devices/{id}', { params: { path: { id: other.id } } }));
      const statuses = statusesOf(answers);
      expect(howMany(statuses, 200)).toBeGreaterThanOrEqual(1);
      expect(
        statuses.every((status) => status === 200 || status === 404),
        statuses.join(),
      ).toBe(true);
      expect((await second.GET('/me/devices')).response.status).toBe(401);
      expect((await app.GET('/me/devices')).data?.items).toHaveLength(1);
    });

    it('sign-out: twenty at once with one token, and twenty with one cookie; each is refused afterwards', async () => {
      const { app, userId } = await person('sign-out');
      const statuses = statusesOf(await twenty(() => app.POST('/auth/sign-out')));
      expect(howMany(statuses, 200)).toBeGreaterThanOrEqual(1);
      expect(
        statuses.every((status) => status === 200 || status === 401),
        statuses.join(),
      ).toBe(true);
      expect((await app.GET('/me/profile')).response.status).toBe(401);
      expect(await count('session', '"userId" = ?', [userId])).toBe(0);

      const browser = new HttpClient(server.url);
      await signUp(browser, uniqueEmail('sign-out-cookie'));
      const cookie = browser.jar.header();
      const byCookie = await twenty(() => browser.request('/api/v1/auth/sign-out', { method: 'POST', headers: { cookie } }));
      const cookieStatuses = statusesOf(byCookie.map((response) => ({ response })));
      expect(howMany(cookieStatuses, 200)).toBeGreaterThanOrEqual(1);
      expect(
        cookieStatuses.every((status) => status === 200 || status === 401),
        cookieStatuses.join(),
      ).toBe(true);
      expect((await fetch(`${server.url}/api/v1/me/profile`, { headers: { cookie } })).status).toBe(401);
    });

    it('delete account: twenty at once delete it once; no row of the person is left and the token is refused', async () => {
      const { app, site, userId, email } = await personWithPhone('delete');
      const vehicles = (await app.GET('/vehicles', { params: { query: { perPage: '2' } } })).data!.items;
      for (const car of vehicles) expect((await app.POST('/me/wishlist', { body: { vehicleId: car.id } })).response.status).toBe(200);
      expect(
        (
          await app.POST('/me/licence', {
            body: { number: 'MH0220190012345', dateOfBirth: '1991-06-15', front: await photo(120), back: await photo(10) },
            bodySerializer: multipart,
          })
        ).response.status,
      ).toBe(201);
      const [licence] = await sql.all<{ front_key: string; back_key: string }>('SELECT front_key, back_key FROM driving_licences WHERE user_id = ?', [userId]);

      const statuses = statusesOf(await twenty(() => app.POST('/me/delete', { body: { password: PASSWORD } })));
      expect(howMany(statuses, 200), statuses.join()).toBeGreaterThanOrEqual(1);
      expect(
        statuses.every((status) => [200, 400, 401, 429].includes(status)),
        statuses.join(),
      ).toBe(true);
      expect((await app.GET('/me/profile')).response.status).toBe(401);
      for (const [table, column] of [
        ['profiles', 'user_id'],
        ['wishlist_entries', 'user_id'],
        ['phone_otps', 'user_id'],
        ['driving_licences', 'user_id'],
        ['session', '"userId"'],
        ['account', '"userId"'],
        ['"user"', 'id'],
      ] as const) {
        expect(await count(table, `${column} = ?`, [userId]), table).toBe(0);
      }
      expect(await count('outbox_messages', 'recipient = ?', [email.toLowerCase()])).toBe(0);
      const stored = await filesUnder(path.join(server.dataDir, 'private'));
      for (const key of [licence!.front_key, licence!.back_key])
        expect(
          stored.some((file) => file.endsWith(path.basename(key))),
          key,
        ).toBe(false);
      // Signing in again finds no account.
      const again = await apiClient(server.url, { address: site.address }).POST('/auth/sign-in', {
        body: { email, password: PASSWORD, botCheck: await site.botToken('LOGIN') },
      });
      expect(again.response.status).toBe(401);
    });
  });

  describe('bookings', () => {
    it('rental booking cancel: twenty at once cancel it once, with one refund and one mail', async () => {
      const carId = await addFleetCarOn(server, 'Twenty Swift');
      const { app, email } = await personWithPhone('rental-cancel');
      expect(
        (
          await app.POST('/me/licence', {
            body: { number: 'KA0320170054321', dateOfBirth: '1991-06-15', front: await photo(90), back: await photo(30) },
            bodySerializer: multipart,
          })
        ).response.status,
      ).toBe(201);
      const from = indiaDateTimeParam(indiaDay(12) + 10 * HOUR);
      const to = indiaDateTimeParam(indiaDay(13) + 10 * HOUR);
      const booked = await app.POST('/rentals/bookings', { body: { carId, from, to, pickup: 'hub', payment: 'razorpay' } });
      expect(booked.response.status, JSON.stringify(booked.error)).toBe(201);
      const id = booked.data!.booking.id;
      const paid = razorpay.pay(booked.data!.payment!.orderId);
      expect((await app.POST('/me/bookings/{id}/payment', { params: { path: { id } }, body: paid })).response.status).toBe(200);

      const answers = await twenty(() => app.POST('/me/bookings/{id}/cancel', { params: { path: { id } } }));
      const statuses = statusesOf(answers);
      expect(howMany(statuses, 200), statuses.join()).toBe(1);
      expect(howMany(statuses, 409), statuses.join()).toBe(TIMES - 1);
      const cancelled = answers.find(({ data }) => data)!.data!;
      expect(cancelled.booking.status).toBe('cancelled');
      // Twelve days ahead: free cancellation, everything paid comes back, once.
      expect(cancelled.refund.refund).toBe(booked.data!.payment!.amountRupees);
      expect(await count('payment_ledger', "entry = 'refund' AND owner_kind = 'rental-booking' AND owner_id = ?", [id])).toBe(1);
      expect(razorpay.refunds.filter((refund) => refund.payment_id === paid.razorpay_payment_id).map((refund) => refund.amount)).toEqual([
        booked.data!.payment!.amountPaise,
      ]);
      expect((await mailsTo(email)).filter((subject) => /cancel/i.test(subject))).toHaveLength(1);
    });

    /** A car for sale that can be test-driven, and the free slots of a day four days ahead. */
    async function testDriveSlots(app: ApiClient) {
      const car = (await app.GET('/vehicles', { params: { query: { perPage: '10' } } })).data!.items.find((item) => item.status === 'available')!;
      const date = new Date(indiaDay(4) + 5.5 * HOUR).toISOString().slice(0, 10);
      const free = async () => (await app.GET('/test-drives/slots', { params: { query: { vehicleId: car.id, date } } })).data!.slots;
      return { vehicleId: car.id, free };
    }

    it('test drive reschedule: twenty at once leave it in one slot, one seat taken there, one mail', async () => {
      const { app, email } = await personWithPhone('drive-move');
      const { vehicleId, free } = await testDriveSlots(app);
      const before = (await free()).filter((slot) => slot.remaining > 1);
      const [first, target] = [before[0]!, before[2]!];
      const booked = await app.POST('/test-drives', { body: { vehicleId, slot: first.start, mode: 'hub' } });
      expect(booked.response.status, JSON.stringify(booked.error)).toBe(201);
      const id = booked.data!.testDrive.id;
      const seatsBefore = await count('test_drives', "slot_start_ms = ? AND status <> 'cancelled'", [slotInstant(target.start).getTime()]);

      const moves = await twenty(() => app.POST('/me/test-drives/{id}/reschedule', { params: { path: { id } }, body: { slot: target.start } }));
      const statuses = statusesOf(moves);
      expect(howMany(statuses, 200), statuses.join()).toBeGreaterThanOrEqual(1);
      // Twenty changes an hour per person: the booking took one of them.
      expect(
        statuses.every((status) => [200, 409, 429].includes(status)),
        statuses.join(),
      ).toBe(true);
      for (const { data } of moves) if (data) expect(data.testDrive.slot).toBe(target.start);
      // The car is this person's in the new slot and free again in the old one.
      const after = await free();
      expect(after.find((slot) => slot.start === target.start)!.remaining).toBe(0);
      expect(after.find((slot) => slot.start === first.start)!.remaining).toBe(first.remaining);
      const [row] = await sql.all<{ slot_start_ms: number | string; status: string }>('SELECT slot_start_ms, status FROM test_drives WHERE id = ?', [id]);
      expect({ ...row, slot_start_ms: Number(row!.slot_start_ms) }).toEqual({ slot_start_ms: slotInstant(target.start).getTime(), status: 'booked' });
      // One seat taken there: the slot's bookings (every car's) grew by one, each on a seat of its own.
      const seats = await sql.all<{ seat: number }>("SELECT seat FROM test_drives WHERE slot_start_ms = ? AND status <> 'cancelled'", [
        Number(row!.slot_start_ms),
      ]);
      expect(seats).toHaveLength(seatsBefore + 1);
      expect(new Set(seats.map((seat) => seat.seat)).size).toBe(seats.length);
      expect((await mailsTo(email)).filter((subject) => /^Your test drive has a new time/.test(subject))).toHaveLength(1);
    });

    it('test drive cancel: twenty at once by token, and twenty by a browser’s cookie, cancel each once', async () => {
      const { app } = await personWithPhone('drive-cancel');
      const { vehicleId, free } = await testDriveSlots(app);
      const slots = (await free()).filter((slot) => slot.remaining > 0);
      const booked = await app.POST('/test-drives', { body: { vehicleId, slot: slots[1]!.start, mode: 'hub' } });
      expect(booked.response.status, JSON.stringify(booked.error)).toBe(201);
      const id = booked.data!.testDrive.id;
      const answers = await twenty(() => app.POST('/me/test-drives/{id}/cancel', { params: { path: { id } } }));
      const statuses = statusesOf(answers);
      expect(howMany(statuses, 200), statuses.join()).toBe(1);
      // The booking took one of the twenty changes an hour: one of these may meet the limit.
      expect(howMany(statuses, 429), statuses.join()).toBeLessThanOrEqual(1);
      expect(howMany(statuses, 409) + howMany(statuses, 429), statuses.join()).toBe(TIMES - 1);
      expect(answers.find(({ data }) => data)!.data!.testDrive.status).toBe('cancelled');

      const browser = new HttpClient(server.url);
      await signUp(browser, uniqueEmail('drive-cookie'));
      await completeProfile(browser, 'Meera Iyer', uniqueMobile());
      const booking = await browser.request('/api/v1/test-drives', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ vehicleId, slot: slots[3]!.start, mode: 'hub' }),
      });
      expect(booking.status, await booking.clone().text()).toBe(201);
      const cookieDrive = ((await booking.json()) as { testDrive: { id: number } }).testDrive.id;
      const byCookie = statusesOf(
        (await twenty(() => browser.request(`/api/v1/me/test-drives/${cookieDrive}/cancel`, { method: 'POST' }))).map((response) => ({ response })),
      );
      expect(howMany(byCookie, 200), byCookie.join()).toBe(1);
      expect(howMany(byCookie, 409) + howMany(byCookie, 429), byCookie.join()).toBe(TIMES - 1);
      for (const drive of [id, cookieDrive])
        expect((await sql.all<{ status: string }>('SELECT status FROM test_drives WHERE id = ?', [drive]))[0]!.status).toBe('cancelled');
    });

    it('reservation cancel: twenty at once cancel it once, with one refund of the token and one mail', async () => {
      const { app, email } = await personWithPhone('reserve-cancel');
      const [car] = await sql.all<{ id: number }>("SELECT id FROM vehicles WHERE purpose = 'sale' AND status = 'available' ORDER BY id DESC LIMIT 1");
      const started = await app.POST('/vehicles/{id}/reservation', { params: { path: { id: Number(car!.id) } } });
      expect(started.response.status, JSON.stringify(started.error)).toBe(201);
      const id = started.data!.reservation.id;
      const paid = razorpay.pay(started.data!.payment.orderId);
      expect((await app.POST('/me/reservations/{id}/payment', { params: { path: { id } }, body: paid })).response.status).toBe(200);

      const answers = await twenty(() => app.POST('/me/reservations/{id}/cancel', { params: { path: { id } } }));
      const statuses = statusesOf(answers);
      expect(howMany(statuses, 200), statuses.join()).toBe(1);
      expect(howMany(statuses, 409), statuses.join()).toBe(TIMES - 1);
      expect(answers.find(({ data }) => data)!.data).toMatchObject({ reservation: { status: 'cancelled' }, refund: 5000 });
      expect(await count('payment_ledger', "entry = 'refund' AND owner_kind = 'reservation' AND owner_id = ?", [id])).toBe(1);
      expect(razorpay.refunds.filter((refund) => refund.payment_id === paid.razorpay_payment_id).map((refund) => refund.amount)).toEqual([500_000]);
      expect((await mailsTo(email)).filter((subject) => /cancel/i.test(subject))).toHaveLength(1);
      expect((await sql.all<{ status: string }>('SELECT status FROM vehicles WHERE id = ?', [car!.id]))[0]!.status).toBe('available');
    });
  });
});
