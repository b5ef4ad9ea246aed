import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, multipart } from '../support/api/client.ts';
import { HttpClient, otpFrom, requestOtp, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';

/**
 * Logs never hold a full email address, phone number, OTP, token or licence number (decision
 * 111), whatever a person sends: one person through every public form and one through the
 * app's API (sign-up, sign-in right and wrong, OTP sent and verified right and wrong, a vehicle
 * request, a sell offer, a test drive, a driving licence), with the details also typed into
 * free text where a form takes it. The server logs everything it can (LOG_LEVEL=trace, one line
 * per request, mail through SMTP); the test then searches the whole log for each raw value.
 */
const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function photo(red: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: red, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

/** A date three days from now in India, as the slots API takes it. */
function dateAhead(days: number): string {
  const midnight = Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR + days * DAY;
  return new Date(midnight + 5.5 * HOUR).toISOString().slice(0, 10);
}

/** Digits standing alone (not inside a longer number such as a time in milliseconds). */
const alone = (digits: string) => new RegExp(`(?<!\\d)${digits.replace('+', '\\+')}(?!\\d)`);

describe.skipIf(!shared.url)(`the log holds no personal details (${shared.dialect})`, () => {
  let server: TestServer;
  let smtp: SmtpPeer;
  /** Every raw value sent, by what it is. */
  const sent: Array<{ what: string; value: string | RegExp }> = [];
  const remember = (what: string, value: string | RegExp) => sent.push({ what, value });

  beforeAll(async () => {
    // Refusing some recipients by name, as real mail servers do: the error that says so must not put the address in the log.
    smtp = await startSmtpPeer({ refusesRecipient: (address) => address.startsWith('refused.') });
    server = await startTestServer({ dialect: shared.dialect, env: { LOG_LEVEL: 'trace', TRUST_PROXY: 'true', SMTP_URL: smtp.url } });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  async function availableCar(client: HttpClient): Promise<{ id: number; slot: string }> {
    const listing = (await (await client.get('/api/v1/vehicles?perPage=20')).json()) as { items: Array<{ id: number; status: string }> };
    for (const car of listing.items.filter((item) => item.status === 'available').reverse()) {
      const slots = (await (await client.get(`/api/v1/test-drives/slots?vehicleId=${car.id}&date=${dateAhead(4)}`)).json()) as {
        slots: Array<{ start: string; remaining: number }>;
      };
      const slot = slots.slots.find((candidate) => candidate.remaining > 0);
      if (slot) return { id: car.id, slot: slot.start };
    }
    throw new Error('no car with a free slot');
  }

  it('through every public form', async () => {
    const web = new HttpClient(server.url);
    const email = uniqueEmail('asha.logs');
    const password = 'Logs-Form-Secret-81';
    const [mobile, leadMobile, sellMobile] = [uniqueMobile(), uniqueMobile(), uniqueMobile()];
    remember('sign-up email', email);
    remember('password', password);

    await signUp(web, email, password);
    const mail = await smtp.waitForMessage((message) => message.envelopeTo.includes(email), 10_000);
    const link = /Verify email address: (\S+)/.exec(mail.text)![1]!;
    const verificationToken = new URL(link).searchParams.get('token')!;
    remember('verification token', verificationToken);
    await web.open(link);

    // A sign-up whose verification mail the mail server refuses, naming the address.
    const refused = uniqueEmail('refused.chitra');
    remember('refused email', refused);
    await signUp(new HttpClient(server.url), refused, password);

    // Sign-in: a wrong password, then the right one.
    const wrongPassword = 'Not-The-Password-77';
    remember('wrong password', wrongPassword);
    expect((await web.postForm('/login', { intent: 'email', email, password: wrongPassword, botCheck: await web.botToken('LOGIN') })).status).toBe(200);
    expect((await web.postForm('/login', { intent: 'email', email, password, botCheck: await web.botToken('LOGIN') })).status).toBe(302);

    // The phone: the code sent, a wrong one, then the right one.
    remember('phone', alone(mobile));
    expect((await requestOtp(web, mobile, 'Asha Verma')).status).toBe(200);
    const otp = otpFrom((await waitForOutbox(web, 'sms', `+91${mobile}`)).body);
    remember('OTP', alone(otp));
    const wrongOtp = otp === '000000' ? '111111' : '000000';
    await web.postForm('/profile-complete', { intent: 'verify', name: 'Asha Verma', countryCode: '+91', phone: mobile, otp: wrongOtp });
    const verified = await web.postForm('/profile-complete', { intent: 'verify', name: 'Asha Verma', countryCode: '+91', phone: mobile, otp });
    expect(verified.status).toBe(302);

    // A vehicle request, with the details typed into its free text too.
    remember('lead phone', alone(leadMobile));
    const lead = await web.postForm('/request-vehicle', {
      name: 'Asha Verma',
      phone: leadMobile,
      model: 'Maruti Swift VXi',
      year: '2019',
      budget: '₹5,00,000',
      description: `Call me on ${leadMobile} or write to ${email}`,
      botCheck: await web.botToken('REQUEST_FORM'),
    });
    expect(lead.status).toBe(200);

    // A sell offer.
    remember('sell phone', alone(sellMobile));
    const form = new FormData();
    for (const [key, value] of Object.entries({
      name: 'Asha Verma',
      phone: sellMobile,
      vehicle: 'Hyundai i20 Asta',
      year: '2018',
      price: '4,50,000',
      description: `Owner ${email}, ${sellMobile}`,
    }))
      form.set(key, value);
    form.set('botCheck', await web.botToken('SELL_FORM'));
    form.append('images', new File([await photo(120)], 'front.jpg', { type: 'image/jpeg' }));
    const sell = await web.request('/sell-vehicle', { method: 'POST', body: form });
    expect(sell.status).toBeLessThan(400);

    // A test drive.
    const car = await availableCar(web);
    const drive = await web.postForm(`/vehicle/${car.id}/test-drive`, { slot: car.slot, mode: 'hub', pinCode: '' });
    expect(drive.status).toBe(302);

    // The driving licence for renting, typed as people type it.
    const licence = new FormData();
    licence.append('number', 'mh-12 2019 0043210');
    licence.append('dateOfBirth', '1990-05-01');
    licence.append('front', await photo(200), 'front.jpg');
    licence.append('back', await photo(40), 'back.jpg');
    remember('licence number', /MH-?12 ?2019 ?0043210/i);
    const uploaded = await web.request('/profile/licence', { method: 'POST', body: licence });
    expect(uploaded.status).toBeLessThan(400);
  });

  it('through the app’s API', async () => {
    const browser = new HttpClient(server.url);
    const app = apiClient(server.url, { address: browser.address });
    const email = uniqueEmail('bharat.api');
    const password = 'Logs-Api-Secret-92';
    const [mobile, leadMobile, sellMobile] = [uniqueMobile(), uniqueMobile(), uniqueMobile()];
    remember('API email', email);
    remember('API password', password);

    const signedUp = await app.POST('/auth/sign-up', { body: { name: 'Bharat Api', email, password } });
    expect(signedUp.response.status).toBe(201);
    remember('sign-up token', signedUp.data!.token);

    const wrong = await app.POST('/auth/sign-in', { body: { email, password: 'Wrong-Api-Pass-33', botCheck: await browser.botToken('LOGIN') } });
    expect(wrong.response.status).toBe(401);
    remember('wrong API password', 'Wrong-Api-Pass-33');
    const signedIn = await app.POST('/auth/sign-in', { body: { email, password, botCheck: await browser.botToken('LOGIN') } });
    expect(signedIn.response.status).toBe(200);
    remember('bearer token', signedIn.data!.token);
    app.useToken(signedIn.data!.token);

    remember('API phone', alone(mobile));
    const code = await app.POST('/me/phone/code', { body: { phone: mobile, countryCode: '+91', botCheck: await browser.botToken('SEND_OTP') } });
    expect(code.response.status).toBe(200);
    const otp = otpFrom((await waitForOutbox(browser, 'sms', `+91${mobile}`)).body);
    remember('API OTP', alone(otp));
    const wrongOtp = otp === '000000' ? '111111' : '000000';
    expect(
      (await app.POST('/me/phone/verify', { body: { phone: mobile, countryCode: '+91', otp: wrongOtp, name: 'Bharat Api' } })).response.status,
    ).toBeGreaterThanOrEqual(400);
    expect((await app.POST('/me/phone/verify', { body: { phone: mobile, countryCode: '+91', otp, name: 'Bharat Api' } })).response.status).toBe(200);

    remember('API lead phone', alone(leadMobile));
    const requested = await app.POST('/vehicle-requests', {
      body: {
        name: 'Bharat Api',
        phone: leadMobile,
        model: 'Honda City',
        year: '2020',
        budget: '₹8,00,000',
        description: `Reach me at ${email}`,
        botCheck: await browser.botToken('REQUEST_FORM'),
      },
    });
    expect(requested.response.status).toBe(201);

    remember('API sell phone', alone(sellMobile));
    const offered = await app.POST('/sell-offers', {
      body: {
        name: 'Bharat Api',
        phone: sellMobile,
        vehicle: 'Tata Nexon XZ',
        year: '2021',
        price: '7,50,000',
        description: 'One owner',
        botCheck: await browser.botToken('SELL_FORM'),
        images: [new File([await photo(60)], 'front.jpg', { type: 'image/jpeg' })],
      },
      bodySerializer: multipart,
    });
    expect(offered.response.status).toBe(201);

    const car = await availableCar(browser);
    const booked = await app.POST('/test-drives', { body: { vehicleId: car.id, slot: car.slot, mode: 'hub' } });
    expect(booked.response.status).toBeLessThan(500);

    remember('API licence number', /KA-?05 ?2018 ?0012345/i);
    const licence = await app.POST('/me/licence', {
      body: { number: 'KA05 2018 0012345', dateOfBirth: '1991-03-09', front: await photo(210), back: await photo(30) },
      bodySerializer: multipart,
    });
    expect(licence.response.status).toBe(201);
  });

  it('leaves none of those values in the log, which did record the requests', async () => {
    // The queued mails (new-lead notices, verification) have left: their lines are in too.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const log = server.output();
    const answered = log.split('\n').filter((line) => line.includes('"msg":"request answered"'));
    expect(answered.length, 'the access lines were logged').toBeGreaterThan(25);
    expect(log).toContain('"msg":"mail sent"');
    expect(log, 'the refusal naming the address was logged, masked').toMatch(/Recipient address rejected/);
    expect(sent.length).toBe(20);
    const found = sent.filter(({ value }) => (typeof value === 'string' ? log.toLowerCase().includes(value.toLowerCase()) : value.test(log)));
    const lines = (value: string | RegExp) =>
      log
        .split('\n')
        .filter((line) => (typeof value === 'string' ? line.toLowerCase().includes(value.toLowerCase()) : value.test(line)))
        .slice(0, 3);
    expect(found.map(({ what, value }) => `${what}: ${lines(value).join('\n')}`)).toEqual([]);
  });
});
