import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSellChatText } from '../../app/features/sell/sell-chat.ts';
import { issueFormToken, MIN_FILL_MS } from '../../server/leads/form-guard.ts';
import { decodeEntities, HttpClient, mainText, signUp, uniqueEmail } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { openServerSql, type ServerSql } from '../support/database.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Request a Vehicle and Sell Your Vehicle end to end against the real server, on SQLite and on
 * PostgreSQL: every validation message, what is stored (exactly the fields; photos validated
 * by content and stripped of GPS), the chat redirect of the no-script sell form, hostile
 * input, the honeypot, the rate limit, the bot check, the admin mail over real SMTP, and the
 * admin views (guard, cards, status, search, paging, CSV export).
 */

const { dialect, url: sharedUrl } = sharedServer();

const REQUEST_SENT = 'Your request has been submitted successfully!';
const REQUEST_FAILED = 'Failed to submit request. Please try again.';
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

// ------------------------------------------------------------------------------------ helpers

type RequestRow = {
  id: number;
  name: string;
  phone: string;
  model: string;
  year: string;
  budget: string;
  description: string;
  status: string;
  notes: string;
  created_at: string;
};
type SellRow = { id: number; name: string; phone: string; vehicle: string; year: string; price: string; description: string; status: string; notes: string };
type ImageRow = { submission_id: number; position: number; key: string; width: number; height: number; variant_widths: string };

let server: TestServer;
let smtp: SmtpPeer;
let sql: ServerSql;

async function count(table: string): Promise<number> {
  const [row] = await sql.all<{ count: number | string }>(`SELECT COUNT(*) AS count FROM ${table}`);
  return Number(row?.count ?? 0);
}

async function setSetting(key: string, value: unknown) {
  await sql.run('INSERT INTO settings (key, value, updated_by, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
    key,
    JSON.stringify(value),
    'test',
    new Date().toISOString(),
  ]);
  // Written behind the server's back; the server reads them on every request (SETTINGS_CACHE_SECONDS=0 below).
}

/** The time a form token was issued at (its first part, milliseconds since the epoch). */
function tokenIssuedAt(token: string): number {
  return Number(token.split('.')[0]);
}

/** The server's signing secret, so the test can make the token a page showed MIN_FILL_MS ago. */
const AUTH_SECRET = 'leads-test-secret-0123456789abcdefghijklmnop';

async function mediaFiles(): Promise<string[]> {
  try {
    return await readdir(path.join(server.dataDir, 'media', 'sell_vehicles'));
  } catch {
    return [];
  }
}

/** A visitor with their own address (the server trusts X-Forwarded-For here, as behind the proxy). */
function visitor(): HttpClient {
  return new HttpClient(server.url);
}

/** How a lead's phone is kept (decision 096): the Indian mobile in E.164, however it was typed. */
const kept = (typed: string) => `+91${typed.replace(/\D/g, '').slice(-10)}`;

const goodRequest = {
  name: 'Ravi Kumar',
  phone: '98765 43210',
  model: 'Maruti Swift VXi',
  year: '2019',
  budget: '₹5,00,000',
  description: 'White, petrol, single owner',
};
const goodSell = {
  name: 'Sunita Sharma',
  phone: '+91 99887 76655',
  vehicle: 'Hyundai i20 Asta',
  year: '2018',
  price: '4,50,000',
  description: 'Single owner, 42,000 km',
};

async function postRequest(client: HttpClient, fields: Record<string, string>, options: { bot?: boolean } = {}) {
  const body = { ...fields, ...(options.bot === false ? {} : { botCheck: await client.botToken('REQUEST_FORM') }) };
  const response = await client.postForm('/request-vehicle', body);
  return { status: response.status, text: mainText(await response.text()) };
}

type Upload = { name: string; bytes: Uint8Array; type: string };

async function postSell(client: HttpClient, fields: Record<string, string>, uploads: Upload[] = [], options: { bot?: boolean } = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (options.bot !== false) form.set('botCheck', await client.botToken('SELL_FORM'));
  if (uploads.length === 0) form.append('images', new File([], '', { type: 'application/octet-stream' }));
  for (const upload of uploads) form.append('images', new File([new Uint8Array(upload.bytes)], upload.name, { type: upload.type }));
  const response = await client.request('/sell-vehicle', { method: 'POST', body: form });
  const location = response.headers.get('location');
  const text = location ? '' : mainText(await response.text());
  return { status: response.status, location, text };
}

async function photo(options: { width?: number; color?: string; gps?: boolean } = {}): Promise<Uint8Array> {
  let image = sharp({ create: { width: options.width ?? 1200, height: 800, channels: 3, background: options.color ?? '#b91c1c' } }).jpeg({ quality: 80 });
  if (options.gps) {
    image = image.withExif({
      IFD0: { Make: 'TestPhone', Model: 'GPS-1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '19/1 4/1 3000/100', GPSLongitudeRef: 'E', GPSLongitude: '72/1 52/1 1000/100' },
    });
  }
  return new Uint8Array(await image.toBuffer());
}

/** Whether an EXIF block (as sharp returns it) holds a GPS IFD (tag 0x8825 in IFD0). */
function hasGpsIfd(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') === 0 ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  const entries = u16(ifd0);
  for (let index = 0; index < entries; index++) if (u16(ifd0 + 2 + index * 12) === 0x8825) return true;
  return false;
}

async function signInAdmin(): Promise<HttpClient> {
  const client = visitor();
  const response = await client.postForm('/admin-login', { ...ADMIN, botCheck: await client.botToken('LOGIN') });
  expect(
    response.status,
    await response
      .clone()
      .text()
      .then((html) => html.slice(0, 200)),
  ).toBe(302);
  return client;
}

async function adminPage(client: HttpClient, pathname: string): Promise<{ status: number; html: string }> {
  const response = await client.get(pathname);
  return { status: response.status, html: await response.text() };
}

// ------------------------------------------------------------------------------------ setup

describe.skipIf(!sharedUrl)(`leads (${dialect})`, () => {
  beforeAll(async () => {
    smtp = await startSmtpPeer();
    server = await startTestServer({
      dialect,
      seed: true,
      // Info logs: the server says when it decides not to mail a lead, which the mail test waits for.
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: ADMIN.password,
        SMTP_URL: smtp.url,
        TRUST_PROXY: 'true',
        SETTINGS_CACHE_SECONDS: '0',
        LOG_LEVEL: 'info',
        AUTH_SECRET,
      },
    });
    sql = await openServerSql(server);
  });

  afterAll(async () => {
    await sql?.close();
    await server?.stop();
    await smtp?.close();
  });

  // ---------------------------------------------------------------------------- request form

  describe('Request a Vehicle', () => {
    test('the page has the form, the honeypot hidden from people and the privacy notice', async () => {
      const html = await (await visitor().get('/request-vehicle')).text();
      const text = mainText(html);
      for (const label of ['Your name', 'Phone number', 'Preferred vehicle model', 'Year (optional)', 'Budget', 'Description (optional)', 'Submit Request']) {
        expect(text).toContain(label);
      }
      expect(html).toMatch(/<div aria-hidden="true"[^>]*-left-\[10000px\][^>]*><label for="leave_blank">/);
      const honeypot = /<input[^>]*name="leave_blank"[^>]*>/.exec(html)?.[0] ?? '';
      expect(honeypot).toContain('tabindex="-1"');
      expect(honeypot).toMatch(/autocomplete="off"/i); // React writes autoComplete; HTML ignores case
      expect(html).toContain('href="/privacy"');
    });

    test('each validation message, and nothing stored', async () => {
      const before = await count('vehicle_requests');
      const empty = await postRequest(visitor(), { name: '', phone: '', model: '', year: '', budget: '', description: '' }, { bot: false });
      expect(empty.status).toBe(400);
      for (const message of [
        'Please enter your name',
        'Please enter a phone number',
        'Please enter the vehicle model you are looking for',
        'Please enter your budget',
      ]) {
        expect(empty.text).toContain(message);
      }
      expect(empty.text).not.toContain(REQUEST_SENT);

      const cases: Array<[Record<string, string>, string]> = [
        [{ phone: '98765 4321' }, 'Please enter a valid phone number'],
        [{ phone: 'call me maybe' }, 'Please enter a valid phone number'],
        [{ name: 'n'.repeat(101) }, 'Name must be at most 100 characters'],
        [{ model: 'm'.repeat(10_000) }, 'Vehicle model must be at most 120 characters'],
        [{ year: 'y'.repeat(21) }, 'Year must be at most 20 characters'],
        [{ budget: '9'.repeat(41) }, 'Budget must be at most 40 characters'],
        [{ description: 'd'.repeat(10_000) }, 'Description must be at most 1000 characters'],
        [{ description: 'अ'.repeat(10_000) }, 'Description must be at most 1000 characters'],
        [{ phone: '9'.repeat(21) }, 'Phone number must be at most 20 characters'],
      ];
      for (const [override, message] of cases) {
        const result = await postRequest(visitor(), { ...goodRequest, ...override }, { bot: false });
        expect(result.status, message).toBe(400);
        expect(result.text, message).toContain(message);
      }
      expect(await count('vehicle_requests')).toBe(before);
    });

    test('a request is stored with exactly its fields, and the form comes back empty with the green text', async () => {
      const response = await visitor().postForm('/request-vehicle', { ...goodRequest, botCheck: await visitor().botToken('REQUEST_FORM') });
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(mainText(html)).toContain(REQUEST_SENT);
      expect(html).toMatch(/role="status"[^>]*bg-green-50|bg-green-50[^>]*role="status"/);
      // The fields are cleared: the typed values are not sent back.
      expect(html).not.toContain('value="Maruti Swift VXi"');
      expect(html).not.toContain('White, petrol, single owner</textarea>');

      const [row] = await sql.all<RequestRow>('SELECT * FROM vehicle_requests WHERE phone = ? ORDER BY id DESC', [kept(goodRequest.phone)]);
      expect(row).toMatchObject({ ...goodRequest, phone: '+919876543210', status: 'new', notes: '' });
      expect(Date.now() - new Date(row!.created_at).getTime()).toBeLessThan(60_000);
    });

    test('year and description are optional', async () => {
      const fields = { ...goodRequest, phone: '98111 22233', year: '', description: '' };
      const result = await postRequest(visitor(), fields);
      expect(result.text).toContain(REQUEST_SENT);
      const [row] = await sql.all<RequestRow>('SELECT * FROM vehicle_requests WHERE phone = ?', [kept(fields.phone)]);
      expect(row).toMatchObject({ year: '', description: '' });
    });

    test('a failure keeps what was typed and shows the red text', async () => {
      // No bot check at all (no token, no page token): refused as a failure, fields kept.
      const result = await visitor().postForm('/request-vehicle', { ...goodRequest, model: 'Tata Nexon EV' });
      const html = await result.text();
      expect(result.status).toBe(403);
      expect(mainText(html)).toContain(REQUEST_FAILED);
      expect(html).toMatch(/role="alert"[^>]*bg-red-50|bg-red-50[^>]*role="alert"/);
      expect(html).toContain('value="Tata Nexon EV"');
      expect(await sql.all('SELECT id FROM vehicle_requests WHERE model = ?', ['Tata Nexon EV'])).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------- sell form

  describe('Sell Your Vehicle', () => {
    test('each validation message, and nothing stored', async () => {
      const before = await count('sell_submissions');
      const empty = await postSell(visitor(), { name: '', phone: '', vehicle: '', year: '', price: '', description: '' }, [], { bot: false });
      expect(empty.status).toBe(400);
      for (const message of [
        'Please enter your name',
        'Please enter a phone number',
        'Please enter your vehicle (make and model)',
        'Please enter the year of manufacture',
        'Please enter your expected price',
      ]) {
        expect(empty.text).toContain(message);
      }
      const cases: Array<[Record<string, string>, string]> = [
        [{ phone: '12345' }, 'Please enter a valid phone number'],
        [{ year: '18' }, 'Please enter a valid year, for example 2018'],
        [{ year: '3024' }, 'Please enter a valid year, for example 2018'],
        [{ vehicle: 'v'.repeat(10_000) }, 'Vehicle model must be at most 120 characters'],
        [{ price: 'p'.repeat(41) }, 'Expected price must be at most 40 characters'],
        [{ description: '🚗'.repeat(5_000) }, 'Description must be at most 1000 characters'],
      ];
      for (const [override, message] of cases) {
        const result = await postSell(visitor(), { ...goodSell, ...override }, [], { bot: false });
        expect(result.status, message).toBe(400);
        expect(result.text, message).toContain(message);
      }
      expect(await count('sell_submissions')).toBe(before);
    });

    test('a submission with two photos is stored with exactly its fields, and the chat opens with the spec text', async () => {
      const fields = { ...goodSell, phone: '+91 90000 11111' };
      const result = await postSell(visitor(), fields, [
        { name: 'Front View.JPG', bytes: await photo({ color: '#1d4ed8' }), type: 'image/jpeg' },
        {
          name: 'inside.png',
          bytes: new Uint8Array(
            await sharp({ create: { width: 300, height: 200, channels: 3, background: '#16a34a' } })
              .png()
              .toBuffer(),
          ),
          type: 'image/png',
        },
      ]);
      expect(result.status).toBe(303);
      const [row] = await sql.all<SellRow>('SELECT * FROM sell_submissions WHERE phone = ?', [kept(fields.phone)]);
      expect(row).toMatchObject({ ...fields, phone: '+919000011111', status: 'new', notes: '' });
      const images = await sql.all<ImageRow>('SELECT * FROM sell_submission_images WHERE submission_id = ? ORDER BY position', [row!.id]);
      expect(images.map((image) => image.position)).toEqual([0, 1]);
      expect(images[0]!.key).toMatch(/^sell_vehicles\/\d{13}_front-view-[0-9a-f]{10}$/);
      expect(images[1]!.key).toMatch(/^sell_vehicles\/\d{13}_inside-[0-9a-f]{10}$/);
      expect(images[0]!.variant_widths).toBe('400,800,1200');
      expect(images[1]!.variant_widths).toBe('300');

      const urls = images.map((image) => `${server.url}/media/${image.key}-${image.variant_widths.split(',').at(-1)}.webp`);
      const chat = new URL(result.location!);
      expect(chat.origin + chat.pathname).toBe('https://wa.me/919876543210');
      expect(chat.searchParams.get('text')).toBe(buildSellChatText({ ...fields, phone: kept(fields.phone) }, urls));
      expect(chat.searchParams.get('text')).toBe(
        [
          'Hello, I want to sell my vehicle.',
          'Name: Sunita Sharma',
          'Phone: +919000011111',
          'Vehicle: Hyundai i20 Asta',
          'Year: 2018',
          'Expected Price: ₹4,50,000',
          'Description: Single owner, 42,000 km',
          'Images:',
          ...urls,
        ].join('\n'),
      );
      for (const url of urls) {
        const image = await fetch(url);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe('image/webp');
      }
    });

    test('description and photos are optional; without photos the chat has no Images list', async () => {
      const fields = { ...goodSell, phone: '90000 22222', description: '' };
      const result = await postSell(visitor(), fields);
      expect(result.status).toBe(303);
      const text = new URL(result.location!).searchParams.get('text')!;
      expect(text).toContain('Description: -');
      expect(text).not.toContain('Images:');
      const [row] = await sql.all<SellRow>('SELECT * FROM sell_submissions WHERE phone = ?', [kept(fields.phone)]);
      expect(row).toMatchObject({ description: '' });
      expect(await sql.all('SELECT id FROM sell_submission_images WHERE submission_id = ?', [row!.id])).toEqual([]);
    });

    test('the stored photo has no EXIF (no GPS)', async () => {
      const original = await photo({ gps: true });
      expect(hasGpsIfd((await sharp(original).metadata()).exif)).toBe(true);
      const fields = { ...goodSell, phone: '90000 33333' };
      const result = await postSell(visitor(), fields, [{ name: 'IMG_0001.jpg', bytes: original, type: 'image/jpeg' }]);
      expect(result.status).toBe(303);
      const [image] = await sql.all<ImageRow>('SELECT i.* FROM sell_submission_images i JOIN sell_submissions s ON s.id = i.submission_id WHERE s.phone = ?', [
        kept(fields.phone),
      ]);
      for (const width of image!.variant_widths.split(',')) {
        const stored = await fetch(`${server.url}/media/${image!.key}-${width}.webp`);
        const metadata = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
        expect(metadata.format).toBe('webp');
        expect(metadata.exif).toBeUndefined();
        expect(metadata.xmp).toBeUndefined();
      }
    });

    test('a fake image, an SVG and an oversize file are refused with a clear message and nothing is stored', async () => {
      const before = { rows: await count('sell_submissions'), images: await count('sell_submission_images'), files: (await mediaFiles()).length };
      const good = { name: 'good.jpg', bytes: await photo(), type: 'image/jpeg' };
      const svg = new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      );
      const cases: Array<[Upload, string]> = [
        [
          { name: 'car.jpg', bytes: new TextEncoder().encode('This is a text file, not a photo.\n'.repeat(20)), type: 'image/jpeg' },
          '“car.jpg”: This file is not an image we can read.',
        ],
        [{ name: 'logo.svg', bytes: svg, type: 'image/svg+xml' }, '“logo.svg”: Only photos can be uploaded'],
        [{ name: 'huge.jpg', bytes: new Uint8Array(15 * 1024 * 1024 + 1), type: 'image/jpeg' }, '“huge.jpg”: The image is larger than 15 MB.'],
      ];
      for (const [bad, message] of cases) {
        // The good photo goes first, so refusing the bad one has to remove what was stored.
        const result = await postSell(visitor(), { ...goodSell, phone: '90000 44444' }, [good, bad]);
        expect(result.status, bad.name).toBe(400);
        expect(result.text, bad.name).toContain(message);
      }
      expect({ rows: await count('sell_submissions'), images: await count('sell_submission_images'), files: (await mediaFiles()).length }).toEqual(before);
    });

    test('a refused submission keeps what was typed', async () => {
      const response = await visitor().request('/sell-vehicle', {
        method: 'POST',
        body: (() => {
          const form = new FormData();
          for (const [key, value] of Object.entries({ ...goodSell, year: 'old' })) form.set(key, value);
          return form;
        })(),
      });
      const html = await response.text();
      expect(response.status).toBe(400);
      expect(html).toContain('value="Sunita Sharma"');
      expect(html).toContain('value="+91 99887 76655"');
      expect(html).toContain('Single owner, 42,000 km</textarea>');
    });
  });

  // ---------------------------------------------------------------------------- bots

  describe('bots', () => {
    test('a filled honeypot is answered like success and nothing is stored', async () => {
      const requests = await count('vehicle_requests');
      const sells = await count('sell_submissions');
      const request = await postRequest(visitor(), { ...goodRequest, leave_blank: 'http://spam.example' });
      expect(request.status).toBe(200);
      expect(request.text).toContain(REQUEST_SENT);
      const sell = await postSell(visitor(), { ...goodSell, leave_blank: 'http://spam.example' }, [
        { name: 'a.jpg', bytes: await photo(), type: 'image/jpeg' },
      ]);
      expect(sell.status).toBe(303);
      expect(sell.location).toMatch(/^https:\/\/wa\.me\//);
      expect(await count('vehicle_requests')).toBe(requests);
      expect(await count('sell_submissions')).toBe(sells);
    });

    test('the rate limit refuses the eleventh submission in an hour from one address', async () => {
      const client = visitor();
      for (let attempt = 1; attempt <= 10; attempt++) {
        const result = await postRequest(client, { ...goodRequest, name: '' }, { bot: false });
        expect(result.status, `attempt ${attempt}`).toBe(400);
      }
      const refused = await postRequest(client, { ...goodRequest, phone: '97000 00011' });
      expect(refused.status).toBe(429);
      expect(refused.text).toMatch(/Too many submissions from your network\. Please try again in \d+ minutes?\./);
      expect(await sql.all('SELECT id FROM vehicle_requests WHERE phone = ?', [kept('97000 00011')])).toEqual([]);
      // Another visitor is not affected, and the sell form counts on its own.
      expect((await postRequest(visitor(), { ...goodRequest, phone: '97000 00012' })).status).toBe(200);
      expect((await postSell(client, { ...goodSell, phone: '97000 00013' })).status).toBe(303);
    });

    test('a forged or reused bot-check token is refused', async () => {
      const client = visitor();
      const token = await client.botToken('REQUEST_FORM');
      expect((await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00021', botCheck: token })).status).toBe(200);
      expect((await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00022', botCheck: token })).status).toBe(403);
      const sellToken = await client.botToken('SELL_FORM');
      expect((await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00023', botCheck: sellToken })).status).toBe(403);
      expect((await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00024', botCheck: 'forged' })).status).toBe(403);
      expect(await sql.all('SELECT phone FROM vehicle_requests WHERE phone LIKE ?', ['+91970000002%'])).toEqual([{ phone: '+919700000021' }]);
    });

    test('without script, the page token stands in for the bot check: not too fast, once only', async () => {
      const client = visitor();
      const page = await (await client.get('/request-vehicle')).text();
      const pageToken = /name="formToken" value="([^"]+)"/.exec(page)?.[1];
      // The page's token is the server's signature of when it was shown.
      expect(pageToken).toBe(issueFormToken(AUTH_SECRET, 'request', tokenIssuedAt(pageToken!)));
      const fast = await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00031', formToken: pageToken! });
      expect(fast.status).toBe(403);
      // A person takes at least MIN_FILL_MS to fill the form in: the token the page gave a
      // visitor who opened it that long ago passes, once (made here rather than waited for).
      const formToken = issueFormToken(AUTH_SECRET, 'request', Date.now() - MIN_FILL_MS - 50);
      const sellPage = await (await client.get('/sell-vehicle')).text();
      const sellPageToken = /name="formToken" value="([^"]+)"/.exec(sellPage)?.[1];
      expect(sellPageToken).toBe(issueFormToken(AUTH_SECRET, 'sell', tokenIssuedAt(sellPageToken!)));
      const sellToken = issueFormToken(AUTH_SECRET, 'sell', Date.now() - MIN_FILL_MS - 50);
      const slow = await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00032', formToken });
      expect(mainText(await slow.text())).toContain(REQUEST_SENT);
      const again = await client.postForm('/request-vehicle', { ...goodRequest, phone: '97000 00033', formToken });
      expect(again.status).toBe(403);
      expect((await sql.all<{ phone: string }>('SELECT phone FROM vehicle_requests WHERE phone LIKE ?', ['+91970000003%'])).map((row) => row.phone)).toEqual([
        '+919700000032',
      ]);

      // The sell form the same way, ending in the redirect to the chat.
      const sell = await postSell(client, { ...goodSell, phone: '97000 00034', formToken: sellToken }, [], { bot: false });
      expect(sell.status).toBe(303);
      expect(sell.location).toMatch(/^https:\/\/wa\.me\/919876543210\?text=/);
    });
  });

  // ---------------------------------------------------------------------------- mail

  describe('admin mail', () => {
    test('a new lead mails the admin through SMTP when notifications are on, and not when off', async () => {
      await setSetting('emailNotifications', true);
      const fields = { ...goodRequest, phone: '96000 00001', model: 'Kia Seltos <HTX>' };
      expect((await postRequest(visitor(), fields)).status).toBe(200);
      const mail = await smtp.waitForMessage((message) => message.text.includes(kept('96000 00001')), 15_000);
      expect(mail.envelopeTo).toEqual([ADMIN.email]);
      expect(mail.subject).toMatch(/^New vehicle request #\d+: Kia Seltos <HTX>$/);
      expect(mail.text).toContain('Name: Ravi Kumar');
      expect(mail.text).toContain('Model: Kia Seltos <HTX>');
      expect(mail.text).toContain(`${server.url}/admin/requested-vehicles`);
      expect(mail.html).toContain('Kia Seltos &lt;HTX&gt;');
      expect(mail.html).not.toContain('<HTX>');

      const sell = await postSell(visitor(), { ...goodSell, phone: '96000 00002' }, [{ name: 'a.jpg', bytes: await photo(), type: 'image/jpeg' }]);
      expect(sell.status).toBe(303);
      const sellMail = await smtp.waitForMessage((message) => message.text.includes(kept('96000 00002')), 15_000);
      expect(sellMail.subject).toMatch(/^New car offered for sale #\d+: Hyundai i20 Asta$/);
      expect(sellMail.text).toMatch(/\/media\/sell_vehicles\/\d+_a-[0-9a-f]{10}-1200\.webp/);

      await setSetting('emailNotifications', false);
      expect((await postRequest(visitor(), { ...goodRequest, phone: '96000 00003' })).status).toBe(200);
      const [quiet] = await sql.all<{ id: number }>('SELECT id FROM vehicle_requests WHERE phone = ?', [kept('96000 00003')]);
      // The server's decision not to mail this lead, as it logs it; only then is the absence of a mail meaningful.
      await server.waitForOutput(new RegExp(`"lead":"request#${quiet!.id}".*no new-lead email`));
      expect(smtp.messages.some((message) => message.text.includes(kept('96000 00003')))).toBe(false);
      await setSetting('emailNotifications', true);
    });
  });

  // Retention (leads older than 12 months go with their photos) runs on the server's schedule
  // and is tested directly in privacy.test.ts.

  // ---------------------------------------------------------------------------- admin

  describe('admin views', () => {
    test('every admin view and action is behind the guard', async () => {
      const stranger = visitor();
      for (const pathname of [
        '/admin/requested-vehicles',
        '/admin-panel/selling-vehicles',
        '/admin/selling-vehicles',
        '/admin/leads-export/requested-vehicles',
        '/admin/leads-export/selling-vehicles',
      ]) {
        const response = await stranger.get(pathname);
        expect(response.status, pathname).toBe(302);
        expect(response.headers.get('location'), pathname).toMatch(/^\/admin-login\?redirectTo=/);
      }
      const [row] = await sql.all<RequestRow>('SELECT id, status FROM vehicle_requests ORDER BY id LIMIT 1');
      const change = await stranger.postForm('/admin/requested-vehicles', { intent: 'update', id: String(row!.id), status: 'closed', notes: 'hacked' });
      expect(change.status).toBe(302);
      const remove = await stranger.postForm('/admin-panel/selling-vehicles', { intent: 'delete', id: '1' });
      expect(remove.status).toBe(302);
      const [after] = await sql.all<RequestRow>('SELECT status, notes FROM vehicle_requests WHERE id = ?', [row!.id]);
      expect(after).toMatchObject({ status: row!.status, notes: '' });
    });

    test('a signed-in visitor who is not an admin is refused (403) on every view, action and export', async () => {
      const member = visitor();
      await signUp(member, uniqueEmail('leads'));
      expect(await member.session()).not.toBeNull();
      for (const pathname of [
        '/admin/requested-vehicles',
        '/admin-panel/selling-vehicles',
        '/admin/leads-export/requested-vehicles',
        '/admin/leads-export/selling-vehicles',
      ]) {
        const response = await member.get(pathname);
        expect(response.status, pathname).toBe(403);
        expect(await response.text(), pathname).not.toContain('Name,Phone');
      }
      const [row] = await sql.all<RequestRow>('SELECT id, status FROM vehicle_requests ORDER BY id LIMIT 1');
      expect((await member.postForm('/admin/requested-vehicles', { intent: 'delete', id: String(row!.id) })).status).toBe(403);
      expect(await sql.all('SELECT id FROM vehicle_requests WHERE id = ?', [row!.id])).toHaveLength(1);
    });

    test('hostile input is stored as typed (the phone as its E.164) and shown escaped', async () => {
      const hostile = {
        name: '<script>alert("x")</script> सुनीता 🚗',
        phone: '+91 98765 00001',
        model: "Robert'); DROP TABLE vehicle_requests;--",
        year: '2020 OR 1=1',
        budget: '=HYPERLINK("http://evil.example","₹")',
        description: '<img src=x onerror=alert(1)>\nदूसरी पंक्ति 😀',
      };
      expect((await postRequest(visitor(), hostile)).status).toBe(200);
      const [stored] = await sql.all<RequestRow>('SELECT * FROM vehicle_requests WHERE phone = ?', [kept(hostile.phone)]);
      expect(stored).toMatchObject({ ...hostile, phone: '+919876500001' });

      const sellHostile = {
        ...goodSell,
        name: '<b onmouseover=alert(2)>Bold</b>',
        vehicle: '<script>alert(3)</script> Swift',
        phone: '+91 98765 00002',
        description: "' OR '1'='1",
      };
      expect((await postSell(visitor(), sellHostile)).status).toBe(303);

      const admin = await signInAdmin();
      const requests = await adminPage(admin, `/admin/requested-vehicles?q=${encodeURIComponent('98765 00001')}`);
      expect(requests.status).toBe(200);
      expect(requests.html).not.toContain('<script>alert("x")</script>');
      expect(requests.html).not.toContain('<img src=x onerror');
      expect(requests.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; सुनीता 🚗');
      expect(requests.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(mainText(requests.html)).toContain("Robert'); DROP TABLE vehicle_requests;--");
      expect(mainText(requests.html)).toContain('दूसरी पंक्ति 😀');

      const sells = await adminPage(admin, `/admin-panel/selling-vehicles?q=${encodeURIComponent('98765 00002')}`);
      expect(sells.html).not.toContain('<script>alert(3)</script>');
      expect(sells.html).not.toContain('<b onmouseover');
      expect(sells.html).toContain('&lt;script&gt;alert(3)&lt;/script&gt; Swift');
      expect(await count('vehicle_requests')).toBeGreaterThan(0);
    });

    test('requested vehicles: cards with the spec fields, Call Customer and WhatsApp, search, status and CSV', async () => {
      const fields = {
        ...goodRequest,
        name: 'Arjun Mehta',
        phone: '98450 12345',
        model: 'Toyota Innova Crysta',
        budget: '=1+2',
        description: 'Seven seater, "diesel", manual',
      };
      expect((await postRequest(visitor(), fields)).status).toBe(200);
      const [row] = await sql.all<RequestRow>('SELECT * FROM vehicle_requests WHERE phone = ?', [kept(fields.phone)]);
      const admin = await signInAdmin();

      const page = await adminPage(admin, '/admin/requested-vehicles?q=9845012345');
      const text = mainText(page.html);
      expect(text).toContain('Requested Vehicles');
      for (const value of ['Arjun Mehta', '+919845012345', 'Toyota Innova Crysta', '2019', '=1+2', 'Seven seater, "diesel", manual', `Request #${row!.id}`])
        expect(text).toContain(value);
      expect(text).toContain('Call Customer');
      expect(page.html).toContain('href="tel:+919845012345"');
      expect(page.html).toContain('href="https://wa.me/919845012345?text=');
      expect(text).toContain('1 request, newest first');

      // Search by name, case-insensitive; a miss shows the empty text.
      expect(mainText((await adminPage(admin, '/admin/requested-vehicles?q=arjun%20MEH')).html)).toContain('Arjun Mehta');
      expect(mainText((await adminPage(admin, '/admin/requested-vehicles?q=nobody-like-this')).html)).toContain('No vehicle requests match this filter.');

      // Mark it contacted with a note; the audit log keeps the change.
      const saved = await admin.postForm('/admin/requested-vehicles', {
        intent: 'update',
        id: String(row!.id),
        status: 'contacted',
        notes: 'Called, wants white',
      });
      expect(saved.status).toBe(200);
      const [updated] = await sql.all<RequestRow>('SELECT status, notes FROM vehicle_requests WHERE id = ?', [row!.id]);
      expect(updated).toEqual({ status: 'contacted', notes: 'Called, wants white' });
      const audits = await sql.all<{ action: string; summary: string }>('SELECT action, summary FROM audit_log WHERE entity = ? AND entity_id = ?', [
        'vehicle_request',
        String(row!.id),
      ]);
      expect(audits).toEqual([{ action: 'status', summary: `Marked vehicle request #${row!.id} as contacted` }]);
      expect((await admin.postForm('/admin/requested-vehicles', { intent: 'update', id: String(row!.id), status: 'sold', notes: '' })).status).toBe(400);
      expect((await admin.postForm('/admin/requested-vehicles', { intent: 'update', id: '999999', status: 'closed', notes: '' })).status).toBe(404);
      // Read by its schema (decision 109): every wrong field has its message, never a 500.
      const wrong = await admin.postForm('/admin/requested-vehicles', { intent: 'update', id: String(row!.id), status: 'sold', notes: 'n'.repeat(2001) });
      expect(wrong.status).toBe(400);
      const wrongText = decodeEntities(await wrong.text());
      expect(wrongText).toContain('Please choose a status: new, contacted or closed.');
      expect(wrongText).toContain('Notes must be at most 2000 characters');
      expect((await admin.postForm('/admin/requested-vehicles', { intent: 'explode', id: String(row!.id) })).status).toBe(400);

      const contacted = mainText((await adminPage(admin, '/admin/requested-vehicles?status=contacted')).html);
      expect(contacted).toContain('Arjun Mehta');
      expect(mainText((await adminPage(admin, '/admin/requested-vehicles?status=new&q=9845012345')).html)).toContain('No vehicle requests match this filter.');

      // CSV of the filtered list: escaped, formula-guarded, UTF-8 with a BOM.
      const csvResponse = await admin.get('/admin/leads-export/requested-vehicles?status=contacted');
      expect(csvResponse.status).toBe(200);
      expect(csvResponse.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csvResponse.headers.get('content-disposition')).toMatch(/^attachment; filename="vehicle-requests-\d{4}-\d{2}-\d{2}\.csv"$/);
      const csv = await csvResponse.text();
      expect(csv.startsWith('\uFEFF') || csv.startsWith('ID,')).toBe(true);
      const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('ID,Created,Name,Phone,Model,Year,Budget,Description,Status,Notes');
      expect(lines).toContain(
        `${row!.id},${row!.created_at},Arjun Mehta,'+919845012345,Toyota Innova Crysta,2019,'=1+2,"Seven seater, ""diesel"", manual",contacted,"Called, wants white"`,
      );
      expect(lines.filter((line) => line.includes(',new,'))).toEqual([]);
      const [exported] = await sql.all<{ actor_email: string; summary: string }>(
        "SELECT actor_email, summary FROM audit_log WHERE action = 'export' ORDER BY id DESC LIMIT 1",
      );
      expect(exported).toEqual({
        actor_email: ADMIN.email,
        summary: expect.stringMatching(/^Exported \d+ vehicle requests as CSV \(filtered by status contacted\)$/),
      });
    });

    test('selling vehicles: title, cards with 100x70 thumbnails linking to the full image, id, newest first, alias, paging, CSV, delete', async () => {
      const older = { ...goodSell, name: 'Older Seller', phone: '93000 00001', vehicle: 'Honda City ZX' };
      const newer = { ...goodSell, name: 'Newer Seller', phone: '93000 00002', vehicle: 'Mahindra XUV700' };
      expect((await postSell(visitor(), older)).status).toBe(303);
      expect(
        (
          await postSell(visitor(), newer, [
            { name: 'front.jpg', bytes: await photo(), type: 'image/jpeg' },
            { name: 'rear.jpg', bytes: await photo({ color: '#000' }), type: 'image/jpeg' },
          ])
        ).status,
      ).toBe(303);
      const [submission] = await sql.all<SellRow>('SELECT * FROM sell_submissions WHERE phone = ?', [kept(newer.phone)]);
      const images = await sql.all<ImageRow>('SELECT * FROM sell_submission_images WHERE submission_id = ? ORDER BY position', [submission!.id]);
      const admin = await signInAdmin();

      for (const pathname of ['/admin-panel/selling-vehicles', '/admin/selling-vehicles']) {
        const { status, html } = await adminPage(admin, `${pathname}?q=93000`);
        expect(status, pathname).toBe(200);
        const text = mainText(html);
        expect(text).toContain('Selling Vehicles');
        expect(text).toContain('Submissions from the Sell Vehicle page');
        expect(text.indexOf('Mahindra XUV700')).toBeLessThan(text.indexOf('Honda City ZX'));
        for (const value of ['Newer Seller', '+919300000002', '2018', '4,50,000', 'Single owner, 42,000 km', `ID: ${submission!.id}`])
          expect(text).toContain(value);
        for (const image of images) {
          expect(html).toContain(`href="/media/${image.key}-1200.webp" target="_blank"`);
          expect(html).toMatch(new RegExp(`<img src="/media/${image.key}-400\\.webp" alt="[^"]*" width="100" height="70"`));
        }
      }
      expect(mainText((await adminPage(admin, '/admin/selling-vehicles?q=no-such-seller')).html)).toContain('No selling submissions found.');

      // Paging follows the Items Per Page setting.
      await setSetting('itemsPerPage', 5);
      const paged = await adminPage(admin, '/admin-panel/selling-vehicles');
      const total = await count('sell_submissions');
      expect(mainText(paged.html)).toContain(`Page 1 of ${Math.ceil(total / 5)}`);
      expect((paged.html.match(/ID: (?:<!-- -->)?\d+</g) ?? []).length).toBe(5);
      const last = await adminPage(admin, `/admin-panel/selling-vehicles?page=${Math.ceil(total / 5)}`);
      expect((last.html.match(/ID: (?:<!-- -->)?\d+</g) ?? []).length).toBe(total % 5 || 5);
      await setSetting('itemsPerPage', 10);

      const csv = await (await admin.get('/admin/leads-export/selling-vehicles?q=93000')).text();
      const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('ID,Created,Name,Phone,Vehicle,Year,Expected Price,Description,Status,Notes,Images');
      expect(csv).toContain(`${submission!.id},`);
      expect(csv).toContain(`"${images.map((image) => `${server.url}/media/${image.key}-1200.webp`).join('\n')}"`);

      // Deleting removes the row, the photo rows and the files.
      const files = await mediaFiles();
      expect(files.filter((file) => images.some((image) => file.startsWith(image.key.split('/')[1]!)))).toHaveLength(6);
      const deleted = await admin.postForm('/admin-panel/selling-vehicles', { intent: 'delete', id: String(submission!.id) });
      expect(deleted.status).toBe(200);
      expect(await sql.all('SELECT id FROM sell_submissions WHERE id = ?', [submission!.id])).toEqual([]);
      expect(await sql.all('SELECT id FROM sell_submission_images WHERE submission_id = ?', [submission!.id])).toEqual([]);
      expect((await mediaFiles()).filter((file) => images.some((image) => file.startsWith(image.key.split('/')[1]!)))).toEqual([]);
    });
  });
});
