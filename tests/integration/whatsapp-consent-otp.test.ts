import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  completeProfile,
  HttpClient,
  mainText,
  otpFrom,
  readOutbox,
  requestOtp,
  signUp,
  uniqueEmail,
  uniqueMobile,
  waitForOutbox,
} from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { openServerSql, type ServerSql } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { GRAPH_REFUSALS, startGraphStandIn, type GraphStandIn } from '../support/graph-standin.ts';

/**
 * Updates on WhatsApp and codes on WhatsApp (decision 126): the profile's switch (page and
 * `/api/v1/me/whatsapp`) recording the sentence agreed to, its time, source and language for the
 * verified number only; the verification form's box recorded once the number is verified;
 * consent per number; and the phone code sent on WhatsApp, under the SMS's limits, through the
 * Graph API stand-in (the `phone_code` template with its copy-code button) or, without
 * credentials, to the outbox. On SQLite and on PostgreSQL.
 */

const { dialect, url: sharedUrl } = sharedServer();

const WORDING_EN = 'Send me updates about my bookings and cars on WhatsApp at this number. I can reply STOP at any time.';
const WORDING_HI = 'मेरी बुकिंग और कारों की जानकारी मुझे इस नंबर पर WhatsApp पर भेजें। इसे कभी भी STOP लिखकर बंद किया जा सकता है।';
const NEEDS_VERIFIED = 'Verify your phone number first to get updates on WhatsApp.';
const NOT_ON_WHATSAPP = 'This number could not get the code on WhatsApp (it may not be on WhatsApp). Please choose SMS and send the code again.';
const SENT_WHATSAPP = 'We sent a 6-digit code on WhatsApp to';
const SENT_SMS = 'We sent a 6-digit code by SMS to';

type ConsentRow = { phone: string; user_id: string | null; choice: string; source: string; wording: string; language: string; created_at: string };
type MessageRow = {
  recipient: string;
  user_id: string | null;
  purpose: string;
  template: string;
  language: string;
  variables: string;
  preview: string;
  status: string;
  wamid: string | null;
  error_code: number | null;
};
type WhatsAppAnswer = {
  whatsapp: {
    phone: string;
    phoneVerified: boolean;
    optedIn: boolean;
    source: string | null;
    changedAt: string | null;
    wording: string | null;
    language: string | null;
    optInWording: string;
  };
};

async function newPerson(server: TestServer) {
  const client = new HttpClient(server.url);
  await signUp(client, uniqueEmail('whatsapp'));
  const session = await client.session();
  return { client, userId: session!.user.id, mobile: uniqueMobile() };
}

async function json<T>(response: Response): Promise<{ status: number; body: T & { detail?: string; reason?: string; fields?: Record<string, string> } }> {
  return { status: response.status, body: (await response.json()) as T & { detail?: string; reason?: string; fields?: Record<string, string> } };
}

const putWhatsApp = (client: HttpClient, body: unknown, headers: Record<string, string> = {}) =>
  client
    .request('/api/v1/me/whatsapp', { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
    .then((response) => json<WhatsAppAnswer>(response));
const getWhatsApp = (client: HttpClient) => client.request('/api/v1/me/whatsapp').then((response) => json<WhatsAppAnswer>(response));

/** Asks for a code through the app's API. */
async function apiCode(client: HttpClient, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await client.request('/api/v1/me/phone/code', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ botCheck: await client.botToken('SEND_OTP'), ...body }),
  });
  return { ...(await json<{ sent?: boolean; channel?: string; phone?: string }>(response)), retryAfter: response.headers.get('retry-after') };
}

async function pageText(client: HttpClient, path: string): Promise<string> {
  const response = await client.get(path);
  expect(response.status).toBe(200);
  return mainText(await response.text());
}

// ------------------------------------------------------------------------------------ without credentials: the outbox

describe.skipIf(!sharedUrl)(`whatsapp: consent and codes, outbox (${dialect})`, () => {
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

  const consents = (phone: string) => sql.all<ConsentRow>('SELECT * FROM whatsapp_consents WHERE phone = ? ORDER BY id', [phone]);

  test('an unverified phone cannot be switched on: the API says why (422, reason phone), the page says so instead of a switch', async () => {
    const { client, mobile } = await newPerson(server);
    expect((await getWhatsApp(new HttpClient(server.url))).status).toBe(401);
    const read = await getWhatsApp(client);
    expect(read).toMatchObject({
      status: 200,
      body: { whatsapp: { phone: '', phoneVerified: false, optedIn: false, source: null, optInWording: WORDING_EN } },
    });
    for (const optedIn of [true, false]) {
      const refused = await putWhatsApp(client, { optedIn });
      expect(refused).toMatchObject({ status: 422, body: { detail: NEEDS_VERIFIED, reason: 'phone' } });
    }
    const profile = await pageText(client, '/profile');
    expect(profile).toContain('Updates on WhatsApp');
    expect(profile).toContain(NEEDS_VERIFIED);
    const form = await client.postForm('/profile', { intent: 'whatsapp', optedIn: 'true' });
    expect(form.status).toBe(422);
    expect(mainText(await form.text())).toContain(NEEDS_VERIFIED);
    // A code asked for, not yet verified: still nothing to consent for.
    await requestOtp(client, mobile);
    expect((await putWhatsApp(client, { optedIn: true })).status).toBe(422);
    expect(await consents(`+91${mobile}`)).toEqual([]);
  });

  test('the API switches on and off: the sentence, its language, the time and source recorded, append-only; a bad choice is 400', async () => {
    const { client, userId, mobile } = await newPerson(server);
    await completeProfile(client, 'Asha Verma', mobile);
    const phone = `+91${mobile}`;

    const bad = await putWhatsApp(client, { optedIn: 'maybe' });
    expect(bad).toMatchObject({
      status: 400,
      body: { detail: 'Please say whether WhatsApp updates should be on or off.', fields: { optedIn: expect.any(String) } },
    });
    expect((await putWhatsApp(client, {})).status).toBe(400);

    const before = Date.now();
    const on = await putWhatsApp(client, { optedIn: true });
    expect(on.status).toBe(200);
    expect(on.body.whatsapp).toMatchObject({ phone, phoneVerified: true, optedIn: true, source: 'profile', wording: WORDING_EN, language: 'en' });
    expect(on.body.whatsapp.changedAt).toMatch(/\+05:30$/);
    expect(Date.parse(on.body.whatsapp.changedAt!)).toBeGreaterThanOrEqual(before - 1000);
    // Asked again: nothing new is recorded.
    expect((await putWhatsApp(client, { optedIn: true })).status).toBe(200);
    // Off in Hindi: the Hindi sentence is what the person saw.
    const off = await putWhatsApp(client, { optedIn: false }, { 'accept-language': 'hi' });
    expect(off.body.whatsapp).toMatchObject({ optedIn: false, source: 'profile', wording: WORDING_HI, language: 'hi', optInWording: WORDING_HI });
    const rows = await consents(phone);
    expect(rows.map(({ choice, source, wording, language, user_id }) => ({ choice, source, wording, language, user_id }))).toEqual([
      { choice: 'in', source: 'profile', wording: WORDING_EN, language: 'en', user_id: userId },
      { choice: 'out', source: 'profile', wording: WORDING_HI, language: 'hi', user_id: userId },
    ]);
    expect(Date.parse(rows[0]!.created_at)).toBeGreaterThanOrEqual(before - 1000);
    // A form body works as well.
    const form = await client.request('/api/v1/me/whatsapp', {
      method: 'PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'optedIn=true',
    });
    expect(form.status).toBe(200);
    expect((await getWhatsApp(client)).body.whatsapp.optedIn).toBe(true);
    // From another site: the cross-site check refuses it, nothing recorded.
    const forged = await client.request('/api/v1/me/whatsapp', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ optedIn: false }),
      origin: 'https://evil.example',
    });
    expect(forged.status).toBe(403);
    expect(await consents(phone)).toHaveLength(3);
  });

  test('the profile page’s switch works as a plain form: the wording under it, "On since", "Off since", and a STOP reply shown as such', async () => {
    const { client, mobile, userId } = await newPerson(server);
    await completeProfile(client, 'Ravi Kumar', mobile);
    const phone = `+91${mobile}`;
    const opened = await client.get('/profile');
    const html = await opened.text();
    expect(html).toMatch(/role="switch"[^>]*aria-checked="false"|aria-checked="false"[^>]*role="switch"/);
    expect(mainText(html)).toContain(WORDING_EN);

    const on = await client.postForm('/profile', { intent: 'whatsapp', optedIn: 'true' });
    expect(on.status).toBe(200);
    const onText = mainText(await on.text());
    expect(onText).toContain(`WhatsApp updates are on for ${phone}.`);
    expect(onText).toMatch(/On since \d{1,2} \w{3} \d{4}/);
    expect((await consents(phone)).at(-1)).toMatchObject({ choice: 'in', source: 'profile', wording: WORDING_EN, user_id: userId });

    const off = await client.postForm('/profile', { intent: 'whatsapp', optedIn: 'false' });
    const offText = mainText(await off.text());
    expect(offText).toContain('WhatsApp updates are off. Updates come by SMS.');
    expect(offText).toMatch(/Off since \d{1,2} \w{3} \d{4}/);
    // Without its choice: said beside the switch, nothing recorded.
    const missing = await client.postForm('/profile', { intent: 'whatsapp' });
    expect(missing.status).toBe(400);
    expect(mainText(await missing.text())).toContain('Please say whether WhatsApp updates should be on or off.');
    // From another site: refused.
    expect((await client.postForm('/profile', { intent: 'whatsapp', optedIn: 'true' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await consents(phone)).toHaveLength(2);

    // A STOP replied on WhatsApp (the webhook's row): the page says so.
    await sql.all('INSERT INTO whatsapp_consents (phone, user_id, choice, source, wording, language, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      phone,
      null,
      'out',
      'reply',
      'STOP',
      'en',
      new Date().toISOString(),
    ]);
    expect(await pageText(client, '/profile')).toMatch(/Off: you replied STOP on \d{1,2} \w{3} \d{4}/);
    // In Hindi.
    const hindi = await pageText(client, '/hi/profile');
    expect(hindi).toContain('WhatsApp पर जानकारी');
    expect(hindi).toContain(WORDING_HI);
    expect(hindi).toContain('आपने');
  });

  test('consent belongs to the number: a new verified number starts off, the old one keeps its history', async () => {
    const { client, mobile } = await newPerson(server);
    await completeProfile(client, 'Meera Shah', mobile);
    expect((await putWhatsApp(client, { optedIn: true })).body.whatsapp.optedIn).toBe(true);
    const other = uniqueMobile();
    await completeProfile(client, 'Meera Shah', other);
    const read = await getWhatsApp(client);
    expect(read.body.whatsapp).toMatchObject({ phone: `+91${other}`, phoneVerified: true, optedIn: false, source: null, changedAt: null, wording: null });
    expect(await consents(`+91${other}`)).toEqual([]);
    expect((await consents(`+91${mobile}`)).map((row) => row.choice)).toEqual(['in']);
    expect(await pageText(client, '/profile')).not.toContain('On since');
  });

  test('the verification form’s box, never pre-ticked, is recorded (source form) only once the number is verified; unticked records nothing', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const page = await client.get('/profile-complete');
    const html = await page.text();
    expect(mainText(html)).toContain(WORDING_EN);
    const box = /<input[^>]*name="whatsappOptIn"[^>]*>/.exec(html)?.[0];
    expect(box).toBeDefined();
    expect(box).not.toMatch(/checked/);

    const sent = await requestOtp(client, mobile, 'Kiran', { whatsappOptIn: 'on' });
    expect(sent.status).toBe(200);
    // Kept ticked by the person's own choice through the page's answer, and nothing recorded yet.
    expect(await sent.text()).toMatch(/<input[^>]*name="whatsappOptIn"[^>]*checked/);
    expect(await consents(`+91${mobile}`)).toEqual([]);
    const code = otpFrom((await waitForOutbox(client, 'sms', `+91${mobile}`)).body);
    const wrong = await client.postForm('/profile-complete', {
      intent: 'verify',
      name: 'Kiran',
      countryCode: '+91',
      phone: mobile,
      otp: String((Number(code) + 1) % 1_000_000).padStart(6, '0'),
      whatsappOptIn: 'on',
    });
    expect(wrong.status).toBe(200);
    expect(await consents(`+91${mobile}`)).toEqual([]);
    const verified = await client.postForm('/hi/profile-complete', {
      intent: 'verify',
      name: 'Kiran',
      countryCode: '+91',
      phone: mobile,
      otp: code,
      whatsappOptIn: 'on',
    });
    expect(verified.status).toBe(302);
    expect(await consents(`+91${mobile}`)).toEqual([
      expect.objectContaining({ choice: 'in', source: 'form', wording: WORDING_HI, language: 'hi', user_id: userId }),
    ]);
    expect((await getWhatsApp(client)).body.whatsapp).toMatchObject({ optedIn: true, source: 'form' });

    // Unticked: nothing.
    const second = await newPerson(server);
    await completeProfile(second.client, 'Imran', second.mobile);
    expect(await consents(`+91${second.mobile}`)).toEqual([]);
    // The API's verify takes the box as well.
    const third = await newPerson(server);
    expect((await apiCode(third.client, { phone: third.mobile })).status).toBe(200);
    const thirdCode = otpFrom((await waitForOutbox(third.client, 'sms', `+91${third.mobile}`)).body);
    const apiVerified = await third.client.request('/api/v1/me/phone/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: third.mobile, otp: thirdCode, name: 'Sunita', whatsappOptIn: true }),
    });
    expect(apiVerified.status).toBe(200);
    expect(await consents(`+91${third.mobile}`)).toEqual([expect.objectContaining({ choice: 'in', source: 'form', wording: WORDING_EN, language: 'en' })]);
  });

  test('a code by WhatsApp without credentials: the outbox shows it, the page says WhatsApp, it verifies; it is no opt-in', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const form = await pageText(client, '/profile-complete');
    expect(form).toContain('Send the code by');
    const sent = await requestOtp(client, mobile, '', { channel: 'whatsapp' });
    expect(sent.status).toBe(200);
    expect(mainText(await sent.text())).toContain(`${SENT_WHATSAPP} +91${mobile}.`);
    const message = await waitForOutbox(client, 'whatsapp', `+91${mobile}`);
    expect(message.subject).toBe('phone_code');
    const code = otpFrom(message.body);
    expect(message.body).toContain(`${code} is your verification code.`);
    expect((await readOutbox(client)).some((entry) => entry.channel === 'sms' && entry.recipient === `+91${mobile}`)).toBe(false);
    // Opened again while the code waits: still says WhatsApp, with WhatsApp chosen.
    const reopened = await client.get('/profile-complete');
    const reopenedHtml = await reopened.text();
    expect(mainText(reopenedHtml)).toContain(`${SENT_WHATSAPP} +91${mobile}.`);
    expect(reopenedHtml).toMatch(/<input(?=[^>]*value="whatsapp")(?=[^>]*checked)[^>]*>/);
    expect(await sql.all<{ channel: string }>('SELECT channel FROM phone_otps WHERE user_id = ?', [userId])).toEqual([{ channel: 'whatsapp' }]);

    const verified = await client.postForm('/profile-complete', { intent: 'verify', name: 'Lata', countryCode: '+91', phone: mobile, otp: code });
    expect(verified.status).toBe(302);
    expect(await consents(`+91${mobile}`), 'a code on WhatsApp is not an opt-in').toEqual([]);
    // No credentials: nothing for the Graph API, no message row.
    expect(await sql.all('SELECT id FROM whatsapp_messages WHERE recipient = ?', [`+91${mobile}`])).toEqual([]);
  });

  test('SMS and WhatsApp share the limits: Resend’s wait after either, and the per-number count; an unknown channel is 400', async () => {
    const { client, mobile } = await newPerson(server);
    const unknown = await apiCode(client, { phone: mobile, channel: 'pigeon' });
    expect(unknown).toMatchObject({ status: 400, body: { detail: 'Please choose SMS or WhatsApp.', fields: { channel: 'Please choose SMS or WhatsApp.' } } });

    const bySms = await apiCode(client, { phone: mobile });
    expect(bySms).toMatchObject({ status: 200, body: { sent: true, channel: 'sms', phone: `+91${mobile}` } });
    const byWhatsApp = await apiCode(client, { phone: mobile, channel: 'whatsapp' });
    expect(byWhatsApp.status).toBe(429);
    expect(Number(byWhatsApp.retryAfter)).toBeGreaterThan(100);
    const page = await requestOtp(client, mobile, '', { channel: 'whatsapp' });
    expect(page.status).toBe(429);
    expect(mainText(await page.text())).toMatch(/Please wait 0[12]:\d\d before asking for another OTP\./);
    expect((await readOutbox(client)).some((entry) => entry.channel === 'whatsapp' && entry.recipient === `+91${mobile}`)).toBe(false);

    // Five codes to one number from five accounts, SMS and WhatsApp mixed: the sixth is refused either way.
    const shared = uniqueMobile();
    const statuses: number[] = [];
    for (let account = 0; account < 6; account++) {
      const person = await newPerson(server);
      statuses.push((await apiCode(person.client, { phone: shared, channel: account % 2 === 0 ? 'sms' : 'whatsapp' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

// ------------------------------------------------------------------------------------ through the Graph API

describe.skipIf(!sharedUrl)(`whatsapp: codes through the Graph API (${dialect})`, () => {
  let server: TestServer;
  let sql: ServerSql;
  let graph: GraphStandIn;

  beforeAll(async () => {
    graph = await startGraphStandIn();
    server = await startTestServer({ dialect, seed: false, env: { TRUST_PROXY: 'true', ...graph.env } });
    sql = await openServerSql(server);
  });
  afterAll(async () => {
    await sql?.close();
    await server?.stop();
    await graph?.close();
  });

  const messages = (phone: string) => sql.all<MessageRow>('SELECT * FROM whatsapp_messages WHERE recipient = ? ORDER BY id', [phone]);

  test('the phone_code template in the page’s language, the code in its body and copy-code button; it verifies; the row keeps no code', async () => {
    const { client, mobile, userId } = await newPerson(server);
    const form = await pageText(client, '/hi/profile-complete');
    expect(form).toContain('कोड भेजें');
    const sent = await client.postForm('/hi/profile-complete', {
      intent: 'send',
      name: '',
      countryCode: '+91',
      phone: mobile,
      channel: 'whatsapp',
      botCheck: await client.botToken('SEND_OTP'),
    });
    expect(sent.status).toBe(200);
    expect(mainText(await sent.text())).toContain(`हमने +91${mobile} पर WhatsApp से 6 अंकों का कोड भेजा है।`);
    const received = graph.received.filter((request) => request.to === `91${mobile}`);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ template: 'phone_code', language: 'hi' });
    const code = request!.parameters[0]!;
    expect(code).toMatch(/^\d{6}$/);
    expect(request!.parameters).toEqual([code]);
    expect(request!.button).toBe(code);

    const rows = await messages(`+91${mobile}`);
    expect(rows).toEqual([
      expect.objectContaining({
        user_id: userId,
        purpose: 'code',
        template: 'phone_code',
        language: 'hi',
        status: 'sent',
        wamid: request!.wamid,
        variables: '["******"]',
      }),
    ]);
    for (const [column, value] of Object.entries(rows[0]!)) expect(String(value), column).not.toContain(code);

    const verified = await client.postForm('/profile-complete', { intent: 'verify', name: 'Pooja', countryCode: '+91', phone: mobile, otp: code });
    expect(verified.status).toBe(302);
    expect(await sql.all('SELECT id FROM whatsapp_consents WHERE phone = ?', [`+91${mobile}`])).toEqual([]);
  });

  test('WhatsApp refuses (not a WhatsApp number, 131026): the clear message suggesting SMS, the code withdrawn; SMS then works', async () => {
    const { client, mobile, userId } = await newPerson(server);
    graph.refuseNext(GRAPH_REFUSALS.undeliverable);
    const page = await requestOtp(client, mobile, '', { channel: 'whatsapp' });
    expect(page.status).toBe(200);
    const text = mainText(await page.text());
    expect(text).toContain(NOT_ON_WHATSAPP);
    expect(text).not.toContain(SENT_WHATSAPP);
    const otps = await sql.all<{ used_at: string | null }>('SELECT used_at FROM phone_otps WHERE user_id = ?', [userId]);
    expect(otps).toHaveLength(1);
    expect(otps[0]!.used_at, 'the code is withdrawn').not.toBeNull();
    const verify = await client.postForm('/profile-complete', { intent: 'verify', name: 'Tara', countryCode: '+91', phone: mobile, otp: '123456' });
    expect(mainText(await verify.text())).toContain('Please request OTP first');
    expect(await messages(`+91${mobile}`)).toEqual([
      expect.objectContaining({ purpose: 'code', status: 'failed', error_code: 131026, variables: '["******"]', wamid: null }),
    ]);

    // By SMS right away: no Resend wait for a code that never went.
    const bySms = await requestOtp(client, mobile, '', { channel: 'sms' });
    expect(mainText(await bySms.text())).toContain(`${SENT_SMS} +91${mobile}.`);

    // The API says the same, with its reason.
    const other = await newPerson(server);
    graph.refuseNext(GRAPH_REFUSALS.undeliverable);
    const refused = await apiCode(other.client, { phone: other.mobile, channel: 'whatsapp' });
    expect(refused).toMatchObject({ status: 502, body: { detail: NOT_ON_WHATSAPP, reason: 'not-on-whatsapp' } });
    // Meta's own trouble: asked to try again or choose SMS.
    graph.refuseNext(GRAPH_REFUSALS.unavailable);
    const third = await newPerson(server);
    const trouble = await apiCode(third.client, { phone: third.mobile, channel: 'whatsapp' });
    expect(trouble).toMatchObject({
      status: 502,
      body: { detail: 'WhatsApp did not take the code just now. Please try again, or choose SMS.', reason: 'whatsapp-failed' },
    });
  });
});
