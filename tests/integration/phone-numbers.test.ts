import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient, mainText, otpFrom, readOutbox, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { openServerSql, type ServerSql } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * One number, one canonical form (decision 096), on SQLite and on PostgreSQL. An outside probe
 * had a number's five codes an hour, then texted it again as '+9109399999378' ('09399999378'
 * with the code 91) and '+91919399999378' ('+91 9399999378'): the limit counted the typed
 * string. Every phone the site takes — the profile's code on the page, its data request and
 * /api/v1, and the leads — is now a valid Indian mobile in E.164 before a limit, the database
 * or an SMS sees it; a country code other than India's, or a number that is no Indian mobile,
 * is the form's 400 on its field, never the SMS provider's 502.
 */

const { dialect, url: sharedUrl } = sharedServer();

const PHONE_INVALID = 'Please enter a valid phone number';
const SENT = 'We sent a 6-digit code by SMS to';
const TOO_MANY_SENDS = /Too many OTP requests\. Please try again in \d+ minutes?\./;
const REQUEST_SENT = 'Your request has been submitted successfully!';
const PASSWORD = 'masala-dosa-2024';

type Answer = { status: number; retryAfter: string | null; text: string; html: string };
type Problem = { status: number; retryAfter: string | null; body: { detail?: string; fields?: Record<string, string>; sent?: boolean; phone?: string } };

describe.skipIf(!sharedUrl)(`phone numbers: one canonical form (${dialect})`, () => {
  let server: TestServer;
  let sql: ServerSql;

  beforeAll(async () => {
    // Every simulated person has an address of their own (X-Forwarded-For), so only the
    // per-number limit is shared between them.
    server = await startTestServer({ dialect, seed: false, env: { TRUST_PROXY: 'true', AUTH_SECRET: randomBytes(32).toString('hex') } });
    sql = await openServerSql(server);
  });
  afterAll(async () => {
    await sql?.close();
    await server?.stop();
  });

  /** A signed-up person, from an address of their own. */
  async function newPerson() {
    const client = new HttpClient(server.url);
    await signUp(client, uniqueEmail('canonical'), PASSWORD);
    return { client, userId: (await client.session())!.user.id };
  }

  /** Send OTP on /profile-complete (the page, or its data request), the bot check solved. */
  async function pageSend(client: HttpClient, fields: { countryCode: string; phone: string }, path = '/profile-complete'): Promise<Answer> {
    const response = await client.postForm(path, { intent: 'send', name: '', ...fields, botCheck: await client.botToken('SEND_OTP') });
    const html = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), text: path.endsWith('.data') ? html : mainText(html), html };
  }

  async function api(client: HttpClient, step: 'code' | 'verify', body: Record<string, string>): Promise<Problem> {
    const response = await client.request(`/api/v1/me/phone/${step}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Problem['body'] };
  }

  const allTexts = async () => (await readOutbox(new HttpClient(server.url))).filter((entry) => entry.channel === 'sms');

  /** Every SMS in the outbox to any spelling of the national number `national`. */
  async function textsTo(national: string) {
    return (await readOutbox(new HttpClient(server.url))).filter((entry) => entry.channel === 'sms' && entry.recipient.replace(/\D/g, '').includes(national));
  }

  test('every spelling of one number is texted to +91…, counted as one, and refused by its hourly limit after five, unsent', async () => {
    const national = '9399999378';
    const canonical = `+91${national}`;
    // Five codes an hour to the number, each typed another way: each is texted to the one number.
    const allowed = [
      { countryCode: '91', phone: '09399999378' },
      { countryCode: '+91', phone: '+91 9399999378' },
      { countryCode: '+91', phone: '919399999378' },
      { countryCode: '+91', phone: '93999-99378' },
      { countryCode: '+91', phone: ` ${national} ` },
    ];
    const people: Array<{ client: HttpClient; userId: string }> = [];
    for (const spelling of allowed) {
      const person = await newPerson();
      people.push(person);
      const sent = await pageSend(person.client, spelling);
      expect(sent.status, JSON.stringify(spelling)).toBe(200);
      expect(sent.text, JSON.stringify(spelling)).toContain(`${SENT} ${canonical}.`);
      const [row, ...more] = await sql.all<{ phone: string }>('SELECT phone FROM phone_otps WHERE user_id = ?', [person.userId]);
      expect(more).toEqual([]);
      expect(row!.phone, JSON.stringify(spelling)).toBe(canonical);
    }
    const texts = await textsTo(national);
    expect(texts.map((sms) => sms.recipient)).toEqual(Array(5).fill(canonical));

    // The number's hour is used up: every other spelling of it, from new accounts and addresses,
    // on the page, its data request and the API, is refused by the same limit and not texted.
    const refused = [
      { countryCode: '91', phone: '09399999378' },
      { countryCode: '+91', phone: '+91 9399999378' },
      { countryCode: '91', phone: '919399999378' },
      { countryCode: '+91', phone: '939 999 9378' },
      { countryCode: '+91', phone: '+91-93999-99378' },
      { countryCode: '+91', phone: '(0) 93999 99378' },
    ];
    for (const spelling of refused) {
      const { client } = await newPerson();
      const page = await pageSend(client, spelling);
      expect(page.status, JSON.stringify(spelling)).toBe(429);
      expect(Number(page.retryAfter)).toBeGreaterThan(3000);
      expect(page.text).toMatch(TOO_MANY_SENDS);
    }
    const scripted = await pageSend((await newPerson()).client, { countryCode: '91', phone: '09399999378' }, '/profile-complete.data');
    expect(scripted.status).toBe(429);
    expect(scripted.text).toMatch(TOO_MANY_SENDS);
    for (const spelling of [{ countryCode: '91', phone: '09399999378' }, { countryCode: '+91', phone: '+91 93999 99378' }, { phone: '919399999378' }] as Array<
      Record<string, string>
    >) {
      const { client } = await newPerson();
      const answer = await api(client, 'code', { ...spelling, botCheck: await client.botToken('SEND_OTP') });
      expect(answer.status, JSON.stringify(spelling)).toBe(429);
      expect(Number(answer.retryAfter)).toBeGreaterThan(3000);
      expect(answer.body.detail).toMatch(TOO_MANY_SENDS);
    }
    expect(
      (await textsTo(national)).map((sms) => sms.recipient),
      'still the five texts, all to the one number',
    ).toEqual(Array(5).fill(canonical));

    // A code sent to one spelling verifies with another, and the profile keeps the canonical
    // number. The newest text is the last person's (the outbox lists the newest first).
    const last = people.at(-1)!;
    const code = otpFrom((await waitForOutbox(last.client, 'sms', canonical)).body);
    const verified = await last.client.postForm('/profile-complete', {
      intent: 'verify',
      name: 'Asha Verma',
      countryCode: '+91',
      phone: '+91 93999 99378',
      otp: code,
    });
    expect(verified.status).toBe(302);
    expect(await sql.all('SELECT phone, phone_verified FROM profiles WHERE user_id = ?', [last.userId])).toEqual([{ phone: canonical, phone_verified: 1 }]);
  });

  test('a country code of 091 or 0, or a number that is no Indian mobile: 400 with the field’s message on the page, its data request and the API; nothing is texted', async () => {
    const national = uniqueMobile();
    const textsBefore = await allTexts();
    const cases = [
      { fields: { countryCode: '091', phone: national }, field: 'countryCode' },
      { fields: { countryCode: '0', phone: national }, field: 'countryCode' },
      { fields: { countryCode: '+1', phone: national }, field: 'countryCode' },
      { fields: { countryCode: '+91', phone: '1234567890' }, field: 'phone' },
      { fields: { countryCode: '+91', phone: '022 1234 5678' }, field: 'phone' },
      { fields: { countryCode: '+91', phone: '+1 202 555 0123' }, field: 'phone' },
      { fields: { countryCode: '+91', phone: `+91 91${national}` }, field: 'phone' },
    ] as const;
    for (const { fields, field } of cases) {
      const label = JSON.stringify(fields);
      const { client } = await newPerson();

      // The page: 400, the message beside the field at fault, the field marked for screen readers.
      const page = await pageSend(client, fields);
      expect(page.status, label).toBe(400);
      expect(page.text, label).toContain(PHONE_INVALID);
      expect(page.text, label).not.toContain(SENT);
      expect(page.html, label).toMatch(new RegExp(`<input[^>]*id="${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="${field}-error"`));
      expect(page.html, label).toContain(`<p id="${field}-error" class="text-sm font-medium text-red-700">${PHONE_INVALID}</p>`);
      // Verify is refused the same way, before "request OTP first".
      const verify = await client.postForm('/profile-complete', { intent: 'verify', name: 'Asha', ...fields, otp: '123456' });
      expect(verify.status, label).toBe(400);
      expect(mainText(await verify.text()), label).toContain(PHONE_INVALID);

      // The page's script (React Router's data request).
      const scripted = await pageSend(client, fields, '/profile-complete.data');
      expect(scripted.status, label).toBe(400);
      expect(scripted.text, label).toContain(PHONE_INVALID);

      // The app's API: problem+json 400 naming the field.
      for (const step of ['code', 'verify'] as const) {
        const answer = await api(client, step, { ...fields, otp: '123456', name: 'Asha', botCheck: await client.botToken('SEND_OTP') });
        expect(answer.status, `${step} ${label}`).toBe(400);
        expect(answer.body.detail, `${step} ${label}`).toBe(PHONE_INVALID);
        expect(answer.body.fields, `${step} ${label}`).toEqual({ [field]: PHONE_INVALID });
      }
    }
    // Nothing reached the SMS provider for any of them.
    expect(await allTexts()).toEqual(textsBefore);
  });

  test('the app API texts a valid number as +91… whatever way it is typed, and says so', async () => {
    const national = uniqueMobile();
    const { client } = await newPerson();
    const sent = await api(client, 'code', {
      countryCode: '91',
      phone: `0${national.slice(0, 5)}-${national.slice(5)}`,
      botCheck: await client.botToken('SEND_OTP'),
    });
    expect(sent).toMatchObject({ status: 200, body: { sent: true, phone: `+91${national}` } });
    expect((await textsTo(national)).map((sms) => sms.recipient)).toEqual([`+91${national}`]);
  });

  // ---------------------------------------------------------------------------------- leads

  async function postRequest(client: HttpClient, phone: string, path = '/request-vehicle') {
    const response = await client.postForm(path, {
      name: 'Ravi Kumar',
      phone,
      model: 'Maruti Swift VXi',
      year: '2019',
      budget: '₹5,00,000',
      description: '',
      botCheck: await client.botToken('REQUEST_FORM'),
    });
    const html = await response.text();
    return { status: response.status, text: path.endsWith('.data') ? html : mainText(html), html };
  }

  async function postSell(client: HttpClient, phone: string, path: string) {
    const form = new FormData();
    for (const [key, value] of Object.entries({ name: 'Sunita Sharma', phone, vehicle: 'Hyundai i20 Asta', year: '2018', price: '4,50,000', description: '' }))
      form.set(key, value);
    form.set('botCheck', await client.botToken('SELL_FORM'));
    const response = await client.request(path, { method: 'POST', body: form });
    return { status: response.status, location: response.headers.get('location'), text: response.headers.get('location') ? '' : await response.text() };
  }

  async function apiJson(client: HttpClient, path: string, body: Record<string, string>) {
    const response = await client.request(`/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { detail?: string; fields?: Record<string, string> } };
  }

  const storedRequests = (national: string) =>
    sql.all<{ phone: string }>('SELECT phone FROM vehicle_requests WHERE phone LIKE ? ORDER BY id', [`%${national.slice(-6)}%`]);
  const storedSells = (national: string) =>
    sql.all<{ phone: string }>('SELECT phone FROM sell_submissions WHERE phone LIKE ? ORDER BY id', [`%${national.slice(-6)}%`]);

  test('a lead’s phone is kept as +91… however it was typed, on the pages and through the API', async () => {
    const national = uniqueMobile();
    const canonical = `+91${national}`;
    const spaced = `${national.slice(0, 5)} ${national.slice(5)}`;
    expect((await postRequest(new HttpClient(server.url), `0${spaced}`)).text).toContain(REQUEST_SENT);
    expect((await postRequest(new HttpClient(server.url), `+91-${national.slice(0, 5)}-${national.slice(5)}`)).text).toContain(REQUEST_SENT);
    const viaApi = new HttpClient(server.url);
    expect(
      (
        await apiJson(viaApi, '/vehicle-requests', {
          name: 'Ravi Kumar',
          phone: `91 ${spaced}`,
          model: 'Maruti Swift VXi',
          year: '2019',
          budget: '₹5,00,000',
          description: '',
          botCheck: await viaApi.botToken('REQUEST_FORM'),
        })
      ).status,
    ).toBe(201);
    expect(await storedRequests(national)).toEqual(Array(3).fill({ phone: canonical }));

    const sellPage = await postSell(new HttpClient(server.url), `(+91) ${spaced}`, '/sell-vehicle');
    expect(sellPage.status).toBe(303);
    expect(sellPage.location).toMatch(/^https:\/\/wa\.me\//);
    const sellApi = await postSell(new HttpClient(server.url), national, '/api/v1/sell-offers');
    expect(sellApi.status, sellApi.text.slice(0, 300)).toBe(201);
    expect(await storedSells(national)).toEqual(Array(2).fill({ phone: canonical }));
  });

  test('a lead with a number that is no Indian mobile is refused with the phone field’s message, on the pages, their data requests and the API; nothing is kept', async () => {
    const leadsKept = async () =>
      Promise.all(
        ['vehicle_requests', 'sell_submissions'].map(async (table) =>
          Number((await sql.all<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${table}`))[0]!.count),
        ),
      );
    const before = await leadsKept();
    for (const phone of ['1234567890', '022 1234 5678', '+44 7700 900123', '+91 91 93999 99377']) {
      const page = await postRequest(new HttpClient(server.url), phone);
      expect(page.status, phone).toBe(400);
      expect(page.html, phone).toMatch(/<input[^>]*id="request-phone"[^>]*aria-invalid="true"/);
      expect(page.html, phone).toContain(`<p id="request-phone-error" class="text-sm font-medium text-red-700">${PHONE_INVALID}</p>`);
      const scripted = await postRequest(new HttpClient(server.url), phone, '/request-vehicle.data');
      expect(scripted.status, phone).toBe(400);
      expect(scripted.text, phone).toContain(PHONE_INVALID);
      const client = new HttpClient(server.url);
      const viaApi = await apiJson(client, '/vehicle-requests', {
        name: 'Ravi Kumar',
        phone,
        model: 'Maruti Swift VXi',
        year: '2019',
        budget: '₹5,00,000',
        description: '',
        botCheck: await client.botToken('REQUEST_FORM'),
      });
      expect(viaApi, phone).toMatchObject({ status: 400, body: { detail: PHONE_INVALID, fields: { phone: PHONE_INVALID } } });

      const sellPage = await postSell(new HttpClient(server.url), phone, '/sell-vehicle');
      expect(sellPage.status, phone).toBe(400);
      expect(mainText(sellPage.text), phone).toContain(PHONE_INVALID);
      const sellApi = await postSell(new HttpClient(server.url), phone, '/api/v1/sell-offers');
      expect(sellApi.status, phone).toBe(400);
      expect(JSON.parse(sellApi.text), phone).toMatchObject({ detail: PHONE_INVALID, fields: { phone: PHONE_INVALID } });
    }
    expect(await leadsKept()).toEqual(before);
  });
});
