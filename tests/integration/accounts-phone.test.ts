import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient, logIn, mainText, otpFrom, readOutbox, requestOtp, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { openServerSql, type ServerSql } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startMsg91StandIn, startTwilioStandIn, type Msg91StandIn, type TwilioStandIn } from '../support/sms-standins.ts';

/**
 * Phone verification on /profile-complete (SPEC 2 Complete profile, SPEC 4 Phone
 * verification, SPEC 5 the order of its messages, SPEC 8 Phone verification, SPEC 9 a 6-digit
 * code): every message, the code's limits (5 wrong tries, 10 minutes, stored only as a hash),
 * and the SMS providers' refusals through the MSG91 and Twilio adapters talking to local
 * stand-ins over HTTP. On SQLite and on PostgreSQL.
 */

const { dialect, url: sharedUrl } = sharedServer();

const MESSAGES = {
  phoneRequired: 'Please enter a phone number',
  phoneInvalid: 'Please enter a valid phone number',
  requestOtpFirst: 'Please request OTP first',
  otpRequired: 'Please enter the OTP sent to your phone',
  nameRequired: 'Please enter your name',
  wrongOtp: 'Invalid OTP. Please try again.',
  invalidCredential: "Authentication configuration error. Check the backend provider's API key, authorized domains and phone auth provider.",
  quotaExceeded: 'SMS quota exceeded for this project. Try again later.',
  botCheckFailed: 'reCAPTCHA verification failed',
} as const;
const ALL_MESSAGES = Object.values(MESSAGES);
const SENT = 'We sent a 6-digit code by SMS to';
const PASSWORD = 'masala-dosa-2024';

// ------------------------------------------------------------------------------------ helpers

type OtpRow = {
  id: number;
  user_id: string;
  phone: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

/** A signed-up person on their way to /profile-complete. */
async function newPerson(server: TestServer) {
  const client = new HttpClient(server.url);
  const email = uniqueEmail('phone');
  await signUp(client, email, PASSWORD);
  const session = await client.session();
  return { client, email, userId: session!.user.id, mobile: uniqueMobile() };
}

/**
 * Posts the /profile-complete form and returns the page's text (the action answers 200 with the
 * page, 400 with it when the form's schema refuses, 429 with the page and Retry-After when a
 * limit refuses, or redirects).
 */
async function post(
  client: HttpClient,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; text: string; retryAfter: string | null }> {
  const response = await client.postForm('/profile-complete', fields);
  const text = [200, 400, 429].includes(response.status) ? mainText(await response.text()) : '';
  return { status: response.status, location: response.headers.get('location'), text, retryAfter: response.headers.get('retry-after') };
}

/** The same person (the same cookies) coming from another address. */
function fromElsewhere(client: HttpClient): HttpClient {
  const moved = new HttpClient(client.base);
  for (const [name, cookie] of client.jar.cookies) moved.jar.cookies.set(name, cookie);
  return moved;
}

/** The one spec message a page shows (exactly one of them, so the order of the checks is visible). */
function shownMessages(text: string): string[] {
  return ALL_MESSAGES.filter((message) => text.includes(message));
}

function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

async function profileText(client: HttpClient): Promise<string> {
  const response = await client.get('/profile');
  expect(response.status).toBe(200);
  return mainText(await response.text());
}

// ------------------------------------------------------------------------------------ outbox provider

describe.skipIf(!sharedUrl)(`accounts: phone verification (${dialect})`, () => {
  let server: TestServer;
  let sql: ServerSql;

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: false, env: { TRUST_PROXY: 'true', AUTH_SECRET: randomBytes(32).toString('hex') } });
    sql = await openServerSql(server);
  });
  afterAll(async () => {
    await sql?.close();
    await server?.stop();
  });

  const otpRows = (userId: string) => sql.all<OtpRow>('SELECT * FROM phone_otps WHERE user_id = ? ORDER BY id', [userId]);

  test('signed out, /profile-complete sends to /login and a POST sends no SMS', async () => {
    const visitor = new HttpClient(server.url);
    const page = await visitor.get('/profile-complete');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/^\/login(\?|$)/);

    const mobile = uniqueMobile();
    const response = await visitor.postForm('/profile-complete', {
      intent: 'send',
      name: 'Nobody',
      countryCode: '+91',
      phone: mobile,
      botCheck: await visitor.botToken('SEND_OTP'),
    });
    expect(response.status, 'the action refuses (the page then sends to /login)').toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/login(\?|$)/);
    expect((await readOutbox(visitor)).some((entry) => entry.recipient === `+91${mobile}`)).toBe(false);
  });

  test('every validation message, in the spec order, then a wrong code, then the right one saves name and phone', async () => {
    const { client, mobile } = await newPerson(server);
    const phone = { countryCode: '+91', phone: mobile };

    // The page opens with +91 and an empty form, and a Send OTP button.
    const opened = await client.get('/profile-complete');
    const openedHtml = await opened.text();
    expect(openedHtml).toMatch(/id="countryCode"[^>]*value="\+91"|value="\+91"[^>]*id="countryCode"/);
    expect(mainText(openedHtml)).toContain('Send OTP');

    // 0. The step pressed is read by its schema (decision 109): an unknown one is refused, no SMS.
    const unknownStep = await post(client, { intent: 'explode', ...phone });
    expect(unknownStep.status).toBe(400);
    expect(unknownStep.text).toContain('Please check what you entered.');

    // 1. Phone required, before anything else is looked at (nothing else is filled in either).
    for (const intent of ['send', 'verify']) {
      const page = await post(client, { intent, name: '', countryCode: '+91', phone: '   ', otp: '' });
      expect(shownMessages(page.text), `${intent} with no phone`).toEqual([MESSAGES.phoneRequired]);
    }
    // 2. At least 10 digits.
    for (const bad of ['12345', '98765-4321', 'abcdefghij', '+91 98765']) {
      const page = await post(client, { intent: 'send', name: '', countryCode: '+91', phone: bad, otp: '' });
      expect(shownMessages(page.text), `phone ${JSON.stringify(bad)}`).toEqual([MESSAGES.phoneInvalid]);
    }
    const invalidOnVerify = await post(client, { intent: 'verify', name: '', countryCode: '+91', phone: '12345', otp: '' });
    expect(shownMessages(invalidOnVerify.text)).toEqual([MESSAGES.phoneInvalid]);
    // 3. Verifying before any OTP was sent (OTP and name are missing too).
    const early = await post(client, { intent: 'verify', name: '', ...phone, otp: '' });
    expect(shownMessages(early.text)).toEqual([MESSAGES.requestOtpFirst]);
    const earlyWithCode = await post(client, { intent: 'verify', name: 'Asha', ...phone, otp: '123456' });
    expect(shownMessages(earlyWithCode.text)).toEqual([MESSAGES.requestOtpFirst]);
    expect(await otpRows((await client.session())!.user.id)).toEqual([]);

    // Send the OTP: the page now says so and offers the OTP field, Verify and a Resend that is counting down.
    const sent = await requestOtp(client, mobile);
    expect(sent.status).toBe(200);
    const sentHtml = await sent.text();
    const sentText = mainText(sentHtml);
    expect(sentText).toContain(`${SENT} +91${mobile}.`);
    expect(shownMessages(sentText)).toEqual([]);
    expect(sentHtml).toMatch(/placeholder="Enter 6-digit code"/);
    expect(sentText).toContain('Verify and Save');
    expect(sentText).toMatch(/Resend OTP in 0[12]:\d\d/);
    expect(sentHtml, 'Resend is disabled during the countdown').toMatch(/<button[^>]*value="send"[^>]*disabled=""|<button[^>]*disabled=""[^>]*value="send"/);
    const sms = await waitForOutbox(client, 'sms', `+91${mobile}`);
    const code = otpFrom(sms.body);
    expect(code).toMatch(/^\d{6}$/);

    // The page reloaded keeps the number and the pending code.
    const reloaded = mainText(await (await client.get('/profile-complete')).text());
    expect(reloaded).toContain(`${SENT} +91${mobile}.`);

    // 4. OTP required (name missing as well).
    const noCode = await post(client, { intent: 'verify', name: '', ...phone, otp: '  ' });
    expect(shownMessages(noCode.text)).toEqual([MESSAGES.otpRequired]);
    // 5. Name required.
    const noName = await post(client, { intent: 'verify', name: '   ', ...phone, otp: code });
    expect(shownMessages(noName.text)).toEqual([MESSAGES.nameRequired]);
    // A wrong code.
    const wrong = await post(client, { intent: 'verify', name: 'Asha Verma', ...phone, otp: otherCode(code) });
    expect(shownMessages(wrong.text)).toEqual([MESSAGES.wrongOtp]);
    expect(await profileText(client)).toContain('Not set');

    // The right code: saved, and on to /.
    const right = await post(client, { intent: 'verify', name: '  Asha Verma ', ...phone, otp: code });
    expect(right.status).toBe(302);
    expect(right.location).toBe('/');
    const profile = await profileText(client);
    expect(profile).toContain('Asha Verma');
    expect(profile).toContain(`+91${mobile}`);
    expect(profile).toContain('Verified');
    expect(profile).not.toContain('Not set');

    // A code works once.
    const again = await post(client, { intent: 'verify', name: 'Asha Verma', ...phone, otp: code });
    expect(again.status).toBe(200);
    expect(shownMessages(again.text)).toEqual([MESSAGES.requestOtpFirst]);

    // Complete now: the next login goes to / (SPEC 4).
    const session = await client.session();
    const later = new HttpClient(server.url);
    const login = await logIn(later, session!.user.email, PASSWORD);
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/');
  });

  test('a name of only emoji, digits or punctuation is refused; a name in any script is saved', async () => {
    const { client, mobile } = await newPerson(server);
    const phone = { countryCode: '+91', phone: mobile };
    await requestOtp(client, mobile);
    const code = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    for (const name of ['😀😀', '...', '-- !! --', '12345', '🚗 🚙']) {
      const page = await post(client, { intent: 'verify', name, ...phone, otp: code });
      // The form's refusal (400), the message beside the name as well.
      expect(page.status, name).toBe(400);
      expect(page.text, name).toContain('Please enter your name in letters');
    }
    expect(await profileText(client)).toContain('Not set');
    const saved = await post(client, { intent: 'verify', name: 'अनिल 😀', ...phone, otp: code });
    expect(saved.status).toBe(302);
    expect(await profileText(client)).toContain('अनिल');
  });

  test('sending an OTP needs a solved bot check', async () => {
    const { client, mobile } = await newPerson(server);
    for (const botCheck of ['', 'forged', await client.botToken('LOGIN')]) {
      const page = await post(client, { intent: 'send', name: '', countryCode: '+91', phone: mobile, botCheck });
      expect(shownMessages(page.text)).toEqual([MESSAGES.botCheckFailed]);
    }
    expect((await readOutbox(client)).some((entry) => entry.recipient === `+91${mobile}`)).toBe(false);
  });

  test('the app API asks for and checks a code with the page’s schema and messages: /api/v1/me/phone/code and /verify', async () => {
    const { client, mobile } = await newPerson(server);
    const api = async (path: string, body: unknown, asker: HttpClient = client) => {
      const response = await asker.request(`/api/v1/me/phone/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: (await response.json()) as {
          detail?: string;
          fields?: Record<string, string>;
          reason?: string;
          sent?: boolean;
          phone?: string;
          profile?: unknown;
        },
      };
    };
    const stranger = new HttpClient(server.url);
    expect((await api('code', { phone: mobile }, stranger)).status).toBe(401);
    expect((await api('verify', { phone: mobile, otp: '123456', name: 'Asha' }, stranger)).status).toBe(401);

    // The schema's refusals: 400, the page's sentence, the field named.
    for (const [body, message, field] of [
      [{}, MESSAGES.phoneRequired, 'phone'],
      ['[1, 2]', MESSAGES.phoneRequired, 'phone'],
      [{ phone: '   ' }, MESSAGES.phoneRequired, 'phone'],
      [{ phone: 98765 }, MESSAGES.phoneRequired, 'phone'],
      [{ phone: '98765' }, MESSAGES.phoneInvalid, 'phone'],
      [{ phone: '9'.repeat(16) }, MESSAGES.phoneInvalid, 'phone'],
      [{ phone: mobile, countryCode: '+9999' }, MESSAGES.phoneInvalid, 'countryCode'],
    ] as const) {
      const answer = await api('code', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.detail, JSON.stringify(body)).toBe(message);
      expect(answer.body.fields?.[field], JSON.stringify(body)).toBe(message);
    }
    expect((await api('code', '{"phone":')).status).toBe(400);
    // Without a solved bot check: 403, and no SMS.
    const unchecked = await api('code', { phone: mobile, botCheck: 'forged' });
    expect(unchecked).toMatchObject({ status: 403, body: { detail: MESSAGES.botCheckFailed, reason: 'bot-check' } });
    expect((await readOutbox(client)).some((entry) => entry.recipient === `+91${mobile}`)).toBe(false);

    const sent = await api('code', { countryCode: '+91', phone: ` ${mobile.slice(0, 5)} ${mobile.slice(5)} `, botCheck: await client.botToken('SEND_OTP') });
    expect(sent).toMatchObject({ status: 200, body: { sent: true, phone: `+91${mobile}` } });
    const code = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    // Resend waits 120 seconds here too.
    const again = await api('code', { phone: mobile, botCheck: await client.botToken('SEND_OTP') });
    expect(again.status).toBe(429);
    expect(Number(again.retryAfter)).toBeGreaterThan(0);

    for (const [body, message, field] of [
      [{ phone: mobile, name: 'Asha' }, MESSAGES.otpRequired, 'otp'],
      [{ phone: mobile, otp: code }, MESSAGES.nameRequired, 'name'],
      [{ phone: mobile, otp: code, name: '12345' }, 'Please enter your name in letters (in any script).', 'name'],
      [{ phone: mobile, otp: code, name: 'A'.repeat(101) }, 'Please keep your name to 100 characters.', 'name'],
    ] as const) {
      const answer = await api('verify', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ detail: message, fields: { [field]: message } });
    }
    const wrong = await api('verify', { phone: mobile, otp: otherCode(code), name: 'Asha Rao' });
    expect(wrong).toMatchObject({ status: 400, body: { detail: MESSAGES.wrongOtp, reason: 'wrong-code' } });
    const verified = await api('verify', { countryCode: '+91', phone: mobile, otp: code, name: ' Asha Rao ' });
    expect(verified).toMatchObject({ status: 200, body: { profile: { name: 'Asha Rao', phone: `+91${mobile}`, phoneVerified: true } } });
    // The page sees the same profile.
    expect(await profileText(client)).toContain('Asha Rao');
    // Used: the code is asked for afresh.
    expect((await api('verify', { phone: mobile, otp: code, name: 'Asha Rao' })).body).toMatchObject({
      detail: MESSAGES.requestOtpFirst,
      reason: 'not-requested',
    });
  });

  test('a code stops working after 5 wrong tries; a new code then works', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const phone = { countryCode: '+91', phone: mobile };
    await requestOtp(client, mobile);
    const code = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);

    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await post(client, { intent: 'verify', name: 'Ravi', ...phone, otp: String((Number(code) + attempt) % 1_000_000).padStart(6, '0') });
      expect(shownMessages(wrong.text), `wrong try ${attempt}`).toEqual([MESSAGES.wrongOtp]);
    }
    const rows = await otpRows(userId);
    expect(rows.at(-1)!.attempts).toBe(5);

    // The right code is now refused, and the person is told to ask for a new one.
    const tooLate = await post(client, { intent: 'verify', name: 'Ravi', ...phone, otp: code });
    expect(tooLate.status).toBe(200);
    expect(tooLate.text).toMatch(/request (a new )?OTP/i);
    expect(await profileText(client)).toContain('Not set');

    // A fresh code works.
    await requestOtp(client, mobile);
    // The newest SMS comes first (the send is complete when the page answers).
    const freshCode = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    const ok = await post(client, { intent: 'verify', name: 'Ravi', ...phone, otp: freshCode });
    expect(ok.status).toBe(302);
    expect(await profileText(client)).toContain('Verified');
  });

  test('the code is stored only as a keyed hash, and an expired code (10 minutes) is refused', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const phone = { countryCode: '+91', phone: mobile };
    await requestOtp(client, mobile);
    const code = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);

    const [row, ...more] = await otpRows(userId);
    expect(more).toEqual([]);
    expect(row!.phone).toBe(`+91${mobile}`);
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const [column, value] of Object.entries(row!)) expect(String(value), `column ${column}`).not.toContain(code);
    // Not a plain hash of the code either (a million codes would be guessed from it at once).
    for (const plain of [code, `${userId}${code}`, `+91${mobile}${code}`]) {
      expect(row!.code_hash).not.toBe(createHash('sha256').update(plain).digest('hex'));
    }
    // Valid for 10 minutes.
    const lifetime = Date.parse(row!.expires_at) - Date.parse(row!.created_at);
    expect(lifetime).toBe(10 * 60 * 1000);

    // Ten minutes later (moved back in the database rather than waited for).
    await sql.all('UPDATE phone_otps SET expires_at = ?, created_at = ? WHERE id = ?', [
      new Date(Date.now() - 1000).toISOString(),
      new Date(Date.now() - 601_000).toISOString(),
      row!.id,
    ]);
    const expired = await post(client, { intent: 'verify', name: 'Meera', ...phone, otp: code });
    expect(expired.status).toBe(200);
    expect(expired.text).toMatch(/expired|request (a new )?OTP/i);
    expect(await profileText(client)).toContain('Not set');
    // The page no longer offers the OTP field: the person sends a new one.
    const page = mainText(await (await client.get('/profile-complete')).text());
    expect(page).toContain('Send OTP');
    expect(page).not.toContain(SENT);
  });

  test('a new code replaces the earlier one, and a code is bound to the number it was sent to', async () => {
    const { client, mobile, userId } = await newPerson(server);
    await requestOtp(client, mobile);
    const first = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);

    // Resend waits 120 seconds on the server too.
    const tooSoon = await post(client, { intent: 'send', name: 'Kiran', countryCode: '+91', phone: mobile, botCheck: await client.botToken('SEND_OTP') });
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.retryAfter)).toBeGreaterThan(100);
    expect(Number(tooSoon.retryAfter)).toBeLessThanOrEqual(120);
    expect(tooSoon.text).toMatch(/Please wait 0[12]:\d\d before asking for another OTP\./);
    // The same through the page's script (React Router's data request).
    const scripted = await client.postForm('/profile-complete.data', {
      intent: 'send',
      name: 'Kiran',
      countryCode: '+91',
      phone: mobile,
      botCheck: await client.botToken('SEND_OTP'),
    });
    expect(scripted.status).toBe(429);
    expect(Number(scripted.headers.get('retry-after'))).toBeGreaterThan(100);
    expect(await scripted.text()).toContain('before asking for another OTP');
    expect(await otpRows(userId)).toHaveLength(1);
    await sql.all('UPDATE phone_otps SET created_at = ? WHERE user_id = ?', [new Date(Date.now() - 121_000).toISOString(), userId]);

    await requestOtp(client, mobile);
    const second = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    const rows = await otpRows(userId);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.used_at, 'the first code was withdrawn').not.toBeNull();
    expect(rows[1]!.used_at).toBeNull();

    if (first !== second) {
      const old = await post(client, { intent: 'verify', name: 'Kiran', countryCode: '+91', phone: mobile, otp: first });
      expect(shownMessages(old.text)).toEqual([MESSAGES.wrongOtp]);
    }
    const otherNumber = await post(client, { intent: 'verify', name: 'Kiran', countryCode: '+91', phone: uniqueMobile(), otp: second });
    expect(otherNumber.status).toBe(200);
    expect(shownMessages(otherNumber.text).length).toBe(1);
    expect(await profileText(client)).toContain('Not set');

    const ok = await post(client, { intent: 'verify', name: 'Kiran', countryCode: '+91', phone: mobile, otp: second });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe('/');
  });

  // ---------------------------------------------------------------------------------- limits

  /** A code's sending moved 121 s back, so Resend is open again without waiting. */
  const openResend = (userId: string) =>
    sql.all('UPDATE phone_otps SET created_at = ? WHERE user_id = ?', [new Date(Date.now() - 121_000).toISOString(), userId]);
  /** The limit windows on `fragment` moved an hour back: what the owner finds when the window has ended. */
  const endWindows = (fragment: string) => sql.all('UPDATE rate_limit_hits SET window_start = ? WHERE key LIKE ?', [Date.now() - 3_600_001, `%${fragment}%`]);

  test('six accounts asking for codes to one number: five SMS, then 429 with Retry-After, per number', async () => {
    const mobile = uniqueMobile();
    const answers: Array<{ status: number; retryAfter: string | null; text: string }> = [];
    for (let account = 0; account < 6; account++) {
      const { client } = await newPerson(server);
      const response = await requestOtp(client, mobile, '');
      answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), text: mainText(await response.text()) });
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = answers[5]!;
    expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
    expect(refused.text).toMatch(/Too many OTP requests\. Please try again in \d+ minutes?\./);
    const sms = (await readOutbox(new HttpClient(server.url))).filter((entry) => entry.channel === 'sms' && entry.recipient === `+91${mobile}`);
    expect(sms).toHaveLength(5);
    // Another number is not affected.
    const { client: other } = await newPerson(server);
    expect((await requestOtp(other, uniqueMobile(), '')).status).toBe(200);
  });

  test('wrong codes from many addresses: 10 an hour on one account, then 429 even for the right code; after the window the owner verifies', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const phone = { countryCode: '+91', phone: mobile };
    const statuses: number[] = [];
    for (let code = 0; code < 2; code++) {
      if (code > 0) await openResend(userId);
      await requestOtp(client, mobile);
      const right = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
      for (let attempt = 1; attempt <= 5; attempt++) {
        // Every guess from an address of its own: the count is the account's, not the address's.
        const guess = await post(fromElsewhere(client), {
          intent: 'verify',
          name: 'Ravi',
          ...phone,
          otp: otherCode(String((Number(right) + attempt) % 1_000_000)),
        });
        statuses.push(guess.status);
        expect(shownMessages(guess.text), `guess ${code}.${attempt}`).toEqual([MESSAGES.wrongOtp]);
      }
    }
    expect(statuses).toEqual(Array(10).fill(200));

    await openResend(userId);
    await requestOtp(client, mobile);
    const fresh = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    const refused = await post(fromElsewhere(client), { intent: 'verify', name: 'Ravi', ...phone, otp: fresh });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
    expect(refused.text).toMatch(/Too many wrong codes\. Please try again in \d+ minutes?\./);
    expect(await profileText(client)).toContain('Not set');

    // The lock is a window, never for good: an hour later the same code (still valid here) verifies.
    await endWindows(userId);
    await endWindows(`+91${mobile}`);
    const ok = await post(client, { intent: 'verify', name: 'Ravi', ...phone, otp: fresh });
    expect(ok.status).toBe(302);
    expect(await profileText(client)).toContain('Verified');
  });

  test('wrong codes for one number from several accounts count together: 10 an hour, then 429 for every account on that number', async () => {
    const mobile = uniqueMobile();
    const phone = { countryCode: '+91', phone: mobile };
    for (const _account of [1, 2]) {
      const { client } = await newPerson(server);
      await requestOtp(client, mobile);
      const right = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
      for (let attempt = 1; attempt <= 5; attempt++) {
        const guess = await post(client, { intent: 'verify', name: 'Ravi', ...phone, otp: otherCode(String((Number(right) + attempt) % 1_000_000)) });
        expect(guess.status).toBe(200);
      }
    }
    const owner = await newPerson(server);
    await requestOtp(owner.client, mobile);
    const code = otpFrom((await waitForOutbox(owner.client, 'sms', `+91${mobile}`)).body);
    const refused = await post(owner.client, { intent: 'verify', name: 'Ravi', ...phone, otp: code });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // The owner's own number on another account is untouched, and the number opens again after the window.
    await endWindows(`+91${mobile}`);
    const ok = await post(owner.client, { intent: 'verify', name: 'Ravi', ...phone, otp: code });
    expect(ok.status).toBe(302);
  });

  test('parallel guesses on one code cannot pass its five tries', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const phone = { countryCode: '+91', phone: mobile };
    await requestOtp(client, mobile);
    const right = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, attempt) =>
        post(fromElsewhere(client), { intent: 'verify', name: 'Ravi', ...phone, otp: otherCode(String((Number(right) + attempt) % 1_000_000)) }),
      ),
    );
    expect(guesses.every((guess) => guess.status === 200)).toBe(true);
    expect(guesses.filter((guess) => shownMessages(guess.text).includes(MESSAGES.wrongOtp))).toHaveLength(5);
    expect((await otpRows(userId)).at(-1)!.attempts).toBe(5);
  });
});

// ------------------------------------------------------------------------------------ MSG91

describe.skipIf(!sharedUrl)(`accounts: phone verification through MSG91 (${dialect})`, () => {
  let server: TestServer;
  let msg91: Msg91StandIn;

  beforeAll(async () => {
    msg91 = await startMsg91StandIn();
    server = await startTestServer({
      dialect,
      seed: false,
      env: { TRUST_PROXY: 'true', SMS_PROVIDER: 'msg91', MSG91_AUTH_KEY: msg91.authKey, MSG91_TEMPLATE_ID: msg91.templateId, MSG91_API_URL: msg91.url },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await msg91?.close();
  });

  test('the code goes to MSG91 (template, number without +) and verifies', async () => {
    msg91.setMode('ok');
    const { client, mobile } = await newPerson(server);
    const sent = await post(client, { intent: 'send', name: '', countryCode: '+91', phone: mobile, botCheck: await client.botToken('SEND_OTP') });
    expect(sent.text).toContain(`${SENT} +91${mobile}.`);
    const received = msg91.messages.find((message) => message.mobiles === `91${mobile}`);
    expect(received).toMatchObject({ templateId: msg91.templateId, authKey: msg91.authKey });
    expect(received!.otp).toMatch(/^\d{6}$/);
    const verified = await post(client, { intent: 'verify', name: 'Sunita', countryCode: '+91', phone: mobile, otp: received!.otp });
    expect(verified.status).toBe(302);
    expect(verified.location).toBe('/');
  });

  test.each([
    ['an invalid (revoked) auth key', 'invalid-credential', MESSAGES.invalidCredential],
    ['a key refused from this server (IP not whitelisted)', 'ip-not-whitelisted', MESSAGES.invalidCredential],
    ['no SMS balance left', 'insufficient-balance', MESSAGES.quotaExceeded],
  ] as const)('%s: the spec message, and no code is left waiting', async (_label, mode, message) => {
    msg91.setMode(mode);
    try {
      const { client, mobile } = await newPerson(server);
      const before = msg91.messages.length;
      const page = await post(client, { intent: 'send', name: '', countryCode: '+91', phone: mobile, botCheck: await client.botToken('SEND_OTP') });
      expect(page.status).toBe(200);
      expect(shownMessages(page.text)).toEqual([message]);
      expect(page.text).not.toContain(SENT);
      expect(msg91.messages.length).toBe(before);
      const verify = await post(client, { intent: 'verify', name: 'Sunita', countryCode: '+91', phone: mobile, otp: '123456' });
      expect(shownMessages(verify.text)).toEqual([MESSAGES.requestOtpFirst]);
    } finally {
      msg91.setMode('ok');
    }
  });
});

// ------------------------------------------------------------------------------------ Twilio

describe.skipIf(!sharedUrl)(`accounts: phone verification through Twilio (${dialect})`, () => {
  let server: TestServer;
  let twilio: TwilioStandIn;

  beforeAll(async () => {
    twilio = await startTwilioStandIn();
    server = await startTestServer({
      dialect,
      seed: false,
      env: {
        TRUST_PROXY: 'true',
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: twilio.from,
        TWILIO_API_URL: twilio.url,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await twilio?.close();
  });

  test('the code goes to Twilio as a text to +91… and verifies', async () => {
    twilio.setMode('ok');
    const { client, mobile } = await newPerson(server);
    const sent = await post(client, { intent: 'send', name: '', countryCode: '+91', phone: mobile, botCheck: await client.botToken('SEND_OTP') });
    expect(sent.text).toContain(`${SENT} +91${mobile}.`);
    const received = twilio.messages.find((message) => message.to === `+91${mobile}`);
    expect(received?.from).toBe(twilio.from);
    const code = otpFrom(received!.body);
    const verified = await post(client, { intent: 'verify', name: 'Imran', countryCode: '+91', phone: mobile, otp: code });
    expect(verified.status).toBe(302);
    expect(verified.location).toBe('/');
  });

  test.each([
    ['wrong Account SID or Auth Token (20003)', 'invalid-credential', MESSAGES.invalidCredential],
    ['too many requests (20429)', 'too-many-requests', MESSAGES.quotaExceeded],
    ['the sending number’s queue is full (21611)', 'queue-full', MESSAGES.quotaExceeded],
  ] as const)('%s: the spec message, and no code is left waiting', async (_label, mode, message) => {
    twilio.setMode(mode);
    try {
      const { client, mobile } = await newPerson(server);
      const page = await post(client, { intent: 'send', name: '', countryCode: '+91', phone: mobile, botCheck: await client.botToken('SEND_OTP') });
      expect(page.status).toBe(200);
      expect(shownMessages(page.text)).toEqual([message]);
      expect(page.text).not.toContain(SENT);
      expect(twilio.messages.some((sms) => sms.to === `+91${mobile}`)).toBe(false);
      const verify = await post(client, { intent: 'verify', name: 'Imran', countryCode: '+91', phone: mobile, otp: '123456' });
      expect(shownMessages(verify.text)).toEqual([MESSAGES.requestOtpFirst]);
    } finally {
      twilio.setMode('ok');
    }
  });
});
