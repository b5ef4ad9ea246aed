import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeProfile, HttpClient, mainText, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { pngClaiming } from '../support/png.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Driving licences (issue 10): uploaded on /profile or through the API, kept out of the public
 * /media/ files, shown only to their owner and the admins (a stranger and another signed-in
 * person get 404), reviewed by an admin who approves or refuses with a reason the customer is
 * told by mail and SMS, and never replaced once approved. On SQLite and PostgreSQL.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

type Licence = { number: string; dateOfBirth: string; status: string; refusalReason: string | null; frontUrl: string; backUrl: string };

async function photo(colour: { r: number; g: number; b: number }): Promise<Blob> {
  // A real JPEG with a GPS tag, as a phone would send: the stored copy must not keep it.
  const bytes = await sharp({ create: { width: 900, height: 560, channels: 3, background: colour } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '28/1 36/1 0/1' } })
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

function licenceForm(fields: Record<string, string>, files: Record<string, Blob | null>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) if (file) form.append(name, file, `${name}.jpg`);
  return form;
}

async function myLicence(client: HttpClient): Promise<Licence | null> {
  const response = await client.get('/api/v1/me/licence');
  expect(response.status).toBe(200);
  return ((await response.json()) as { licence: Licence | null }).licence;
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true })).map(String);
  } catch {
    return [];
  }
}

describe.skipIf(!shared.url)(`driving licences (${shared.dialect})`, () => {
  let server: TestServer;
  let admin: HttpClient;
  let asha: HttpClient;
  let ashaId: string;
  let ashaEmail: string;
  let ashaMobile: string;
  let bharat: HttpClient;
  let bharatId: string;
  let bharatEmail: string;
  let front: Blob;
  let back: Blob;

  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true', ADMIN_EMAILS: ADMIN },
    });
    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);

    asha = new HttpClient(server.url);
    ashaEmail = uniqueEmail('asha');
    await signUp(asha, ashaEmail);
    ashaId = (await asha.session())!.user.id;
    ashaMobile = uniqueMobile();
    await completeProfile(asha, 'Asha Verma', ashaMobile);

    bharat = new HttpClient(server.url);
    bharatEmail = uniqueEmail('bharat');
    await signUp(bharat, bharatEmail);
    bharatId = (await bharat.session())!.user.id;

    front = await photo({ r: 200, g: 40, b: 40 });
    back = await photo({ r: 40, g: 40, b: 200 });
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('asks a signed-out visitor to sign in, on the page and the API', async () => {
    const stranger = new HttpClient(server.url);
    const page = await stranger.get('/profile/licence');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    expect((await stranger.get('/api/v1/me/licence')).status).toBe(401);
    const post = await stranger.request('/api/v1/me/licence', {
      method: 'POST',
      body: licenceForm({ number: 'DL1420110012345', dateOfBirth: '1990-05-01' }, { front, back }),
    });
    expect(post.status).toBe(401);
  });

  it('uploads a licence from the profile page and shows it awaiting review', async () => {
    const before = await asha.get('/profile');
    const html = await before.text();
    expect(mainText(html)).toContain('Driving licence');
    expect(html).toMatch(/enctype="multipart\/form-data"/i);

    const response = await asha.request('/profile/licence', {
      method: 'POST',
      body: licenceForm({ number: 'dl-14 2011 0012345', dateOfBirth: '1990-05-01' }, { front, back }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/profile');
    const profile = mainText(await (await asha.get('/profile')).text());
    expect(profile).toContain('Your driving licence was sent for review');
    expect(profile).toContain('DL1420110012345');
    expect(profile).toContain('Awaiting review');

    const licence = await myLicence(asha);
    expect(licence).toMatchObject({ number: 'DL1420110012345', dateOfBirth: '1990-05-01', status: 'pending', refusalReason: null });
  });

  it('keeps the photos out of the public media and strips their metadata', async () => {
    const media = await filesUnder(path.join(server.dataDir, 'media'));
    expect(media.filter((file) => file.includes('licence'))).toEqual([]);
    const privateFiles = (await filesUnder(path.join(server.dataDir, 'private'))).filter((file) => file.endsWith('.webp'));
    expect(privateFiles).toHaveLength(2);
    for (const file of privateFiles) {
      expect((await asha.get(`/media/${file}`)).status).toBe(404);
      const meta = await sharp(path.join(server.dataDir, 'private', file)).metadata();
      expect(meta.exif).toBeUndefined();
    }
  });

  it('shows the photos to their owner and the admins only: strangers and other people get 404', async () => {
    const licence = (await myLicence(asha))!;
    for (const url of [licence.frontUrl, licence.backUrl]) {
      const own = await asha.get(url);
      expect(own.status).toBe(200);
      expect(own.headers.get('content-type')).toBe('image/webp');
      expect(own.headers.get('cache-control')).toContain('no-store');
      expect((await sharp(Buffer.from(await own.arrayBuffer())).metadata()).format).toBe('webp');

      const byAdmin = await admin.get(url);
      expect(byAdmin.status).toBe(200);
      await byAdmin.body?.cancel();

      const stranger = await new HttpClient(server.url).get(url);
      expect(stranger.status).toBe(404);
      expect(stranger.headers.get('content-type')).not.toContain('image');
      await stranger.body?.cancel();

      const other = await bharat.get(url);
      expect(other.status).toBe(404);
      await other.body?.cancel();
    }
    // Another person asking for their own (absent) licence, and odd addresses: the same 404.
    for (const url of [
      `/licence-photos/${bharatId}/front`,
      `/licence-photos/${ashaId}/side`,
      `/licence-photos/${ashaId}/..%2F..%2Fgaadi-bazaar.sqlite`,
      `/licence-photos/${'x'.repeat(5000)}/front`,
    ]) {
      const response = await bharat.get(url);
      expect(response.status, url).toBe(404);
      await response.body?.cancel();
    }
  });

  it('refuses wrong input with a clear message per field, never a 500', async () => {
    const cases: Array<{ fields: Record<string, string>; files: Record<string, Blob | null>; field: string; text: RegExp }> = [
      { fields: { number: '12', dateOfBirth: '1990-05-01' }, files: { front, back }, field: 'number', text: /licence number/ },
      { fields: { number: 'DL1420110012345', dateOfBirth: '2015-01-01' }, files: { front, back }, field: 'dateOfBirth', text: /at least 18/ },
      { fields: { number: 'DL1420110012345', dateOfBirth: '1990-02-30' }, files: { front, back }, field: 'dateOfBirth', text: /date of birth/ },
      { fields: { number: 'DL1420110012345', dateOfBirth: '1990-05-01' }, files: { front, back: null }, field: 'back', text: /back of your licence/ },
      {
        fields: { number: 'DL1420110012345', dateOfBirth: '1990-05-01' },
        files: { front: new Blob(['not an image']), back },
        field: 'front',
        text: /front of your licence could not be used/,
      },
      {
        fields: { number: 'DL1420110012345', dateOfBirth: '1990-05-01' },
        files: { front, back: new Blob([new Uint8Array(pngClaiming(20_000, 20_000))], { type: 'image/png' }) },
        field: 'back',
        text: /megapixels/,
      },
    ];
    for (const { fields, files, field, text } of cases) {
      const response = await bharat.request('/api/v1/me/licence', { method: 'POST', body: licenceForm(fields, files) });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const body = (await response.json()) as { detail: string; fields: Record<string, string> };
      expect(body.fields[field], JSON.stringify(body)).toMatch(text);
    }
    // A NUL in a field is refused at the edge before anything reads it (decision 061).
    const nul = await bharat.request('/api/v1/me/licence', {
      method: 'POST',
      body: licenceForm({ number: 'DL14\u000020110012345', dateOfBirth: '1990-05-01' }, { front, back }),
    });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { detail: string }).detail).toContain('invisible control characters');
    // The page answers the same with the form shown again, what was typed kept.
    const page = await bharat.request('/profile/licence', {
      method: 'POST',
      body: licenceForm({ number: 'DL1420110012345', dateOfBirth: '2015-01-01' }, { front, back }),
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(mainText(html)).toContain('You must be at least 18 years old');
    expect(html).toContain('value="DL1420110012345"');
    // Not a form at all, and three files.
    const json = await bharat.request('/api/v1/me/licence', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"number":"x"}' });
    expect(json.status).toBe(400);
    await json.body?.cancel();
    const three = licenceForm({ number: 'DL1420110012345', dateOfBirth: '1990-05-01' }, { front, back });
    three.append('front', front, 'again.jpg');
    const tooMany = await bharat.request('/api/v1/me/licence', { method: 'POST', body: three });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { detail: string }).detail).toMatch(/one photo of each side/);
    // Nothing was stored for Bharat by any of these.
    expect(await myLicence(bharat)).toBeNull();
  });

  it('refuses a body over the limit before reading it', async () => {
    // A declared 40 MB body: answered 413 before a byte of it is sent.
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${server.url}/api/v1/me/licence`, {
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(40 * 1024 * 1024),
          cookie: bharat.jar.header(),
          origin: server.url,
        },
      });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('takes an upload through the API, and a refusal tells the customer why; they may upload again', async () => {
    const created = await bharat.request('/api/v1/me/licence', {
      method: 'POST',
      body: licenceForm({ number: 'MH0220150034567', dateOfBirth: '1995-11-20' }, { front, back }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { licence: Licence }).licence.status).toBe('pending');

    const list = mainText(await (await admin.get('/admin/rentals/licences')).text());
    expect(list).toContain('MH0220150034567');
    expect(list).toContain('DL1420110012345');

    // A refusal needs a reason, told beside that licence's field with what was typed (decision 109).
    const noReason = await admin.postForm('/admin/rentals/licences', { intent: 'refuse', userId: bharatId, reason: '  ' });
    expect(noReason.status).toBe(400);
    const noReasonHtml = await noReason.text();
    expect(noReasonHtml).toContain(`id="reason-${bharatId}-error"`);
    expect(mainText(noReasonHtml)).toContain('Please say why the licence is refused: the customer reads it.');
    expect(noReasonHtml).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*> {2}<\/textarea>/);
    for (const hostile of [{ intent: 'explode', userId: bharatId }, { intent: 'approve' }] as Record<string, string>[]) {
      const answer = await admin.postForm('/admin/rentals/licences', hostile);
      expect(answer.status, JSON.stringify(hostile)).toBe(400);
      expect(mainText(await answer.text())).toContain('The form could not be read.');
    }
    expect((await myLicence(bharat))!.status).toBe('pending');

    const refused = await admin.postForm('/admin/rentals/licences', { intent: 'refuse', userId: bharatId, reason: 'The back photo is blurred.' });
    expect(refused.status).toBe(302);
    expect(await myLicence(bharat)).toMatchObject({ status: 'refused', refusalReason: 'The back photo is blurred.' });
    const mail = await waitForOutbox(admin, 'email', bharatEmail, (entry) => entry.subject.includes('not accepted'));
    expect(mail.body).toContain('The back photo is blurred.');
    expect(mainText(await (await bharat.get('/profile')).text())).toContain('Not accepted: The back photo is blurred.');

    const again = await bharat.request('/api/v1/me/licence', {
      method: 'POST',
      body: licenceForm({ number: 'MH0220150034567', dateOfBirth: '1995-11-20' }, { front, back }),
    });
    expect(again.status).toBe(201);
    expect(await myLicence(bharat)).toMatchObject({ status: 'pending', refusalReason: null });
    // The earlier photos are gone from the disk: two people, two photos each.
    const privateFiles = (await filesUnder(path.join(server.dataDir, 'private'))).filter((file) => file.endsWith('.webp'));
    expect(privateFiles).toHaveLength(4);
  });

  it('approves a licence, tells the customer by mail and SMS, and then it cannot be replaced', async () => {
    const approved = await admin.postForm('/admin/rentals/licences', { intent: 'approve', userId: ashaId });
    expect(approved.status).toBe(302);
    expect((await myLicence(asha))!.status).toBe('approved');
    await waitForOutbox(admin, 'email', ashaEmail, (entry) => entry.subject === 'Your driving licence is approved');
    const sms = await waitForOutbox(admin, 'sms', `+91${ashaMobile}`, (entry) => entry.body.includes('approved'));
    expect(sms.body).toContain('driving licence is approved');

    const replace = await asha.request('/api/v1/me/licence', {
      method: 'POST',
      body: licenceForm({ number: 'DL1420110099999', dateOfBirth: '1990-05-01' }, { front, back }),
    });
    expect(replace.status).toBe(409);
    expect((await myLicence(asha))!.number).toBe('DL1420110012345');
    expect(await (await asha.get('/profile')).text()).not.toContain('action="/profile/licence"');

    const audit = mainText(await (await admin.get('/admin/audit-log')).text());
    expect(audit).toContain('Approved the driving licence DL1420110012345');
    expect(audit).toContain('Refused the driving licence MH0220150034567: The back photo is blurred.');
  });

  it('lets nobody but an admin review or list licences', async () => {
    for (const client of [new HttpClient(server.url), bharat]) {
      const list = await client.get('/admin/rentals/licences');
      expect([302, 403]).toContain(list.status);
      expect(await list.text()).not.toContain('MH0220150034567');
      const post = await client.postForm('/admin/rentals/licences', { intent: 'approve', userId: bharatId });
      expect([302, 403]).toContain(post.status);
      await post.body?.cancel();
    }
    expect((await myLicence(bharat))!.status).toBe('pending');
  });

  it('puts the licence in the data download and deletes it with the account', async () => {
    const download = (await (await bharat.get('/api/v1/me/data')).json()) as { drivingLicence: { number: string } | null };
    expect(download.drivingLicence?.number).toBe('MH0220150034567');
    const deleted = await bharat.postForm('/api/v1/me/delete', { password: 'correct-horse-7' });
    expect(deleted.status).toBe(200);
    await deleted.body?.cancel();
    const privateFiles = (await filesUnder(path.join(server.dataDir, 'private'))).filter((file) => file.endsWith('.webp'));
    expect(privateFiles).toHaveLength(2);
  });
});
