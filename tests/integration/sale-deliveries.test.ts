import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKLIST_ITEMS } from '../../app/features/rentals/rental-checklist.ts';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, HttpClient, mainText, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { saveDealerSettings, walkInSaleForm } from '../support/sales.ts';

/**
 * The delivery of a sold car through the running app on SQLite and PostgreSQL (decision 116):
 * the handover recorded with the rental checklist's photos, the delivery note read back in
 * English and Hindi, a second delivery 409 (ten at once give one), a cancelled sale refused, a
 * fake or oversize drawn signature refused by name, the desk's page for admins only, and the
 * note downloaded by its buyer and nobody else.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

async function jpeg(seed: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 90 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

/** A signature as the pad draws it: a dark stroke on a transparent canvas, as a PNG data URL. */
async function drawnSignature(): Promise<string> {
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><path d="M20 150 C 120 20, 220 180, 320 60 S 520 160, 580 40" stroke="#0f172a" stroke-width="5" fill="none"/></svg>',
  );
  const png = await sharp(svg).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The desk's handover form: the reading, the five photos, the documents' boxes and the signature fields. */
async function deliveryForm(fields: Record<string, string>, documents: string[] = ['rc', 'insurance', 'puc', 'noc']): Promise<FormData> {
  const form = new FormData();
  const values = {
    odometer: '42,315',
    fuel: '6',
    keys: '2',
    otherDocuments: 'Loan closure letter',
    signerName: 'Meera Kulkarni',
    typedSignature: '',
    signature: '',
    ...fields,
  };
  for (const [name, value] of Object.entries(values)) form.append(name, value);
  for (const document of documents) form.append('documents', document);
  for (const [index, item] of CHECKLIST_ITEMS.entries()) form.append(item, await jpeg(index + 1), `${item}.jpg`);
  return form;
}

const pdfText = (bytes: ArrayBuffer) =>
  execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(bytes) })
    .toString('utf8')
    .normalize('NFC');

describe.skipIf(!sharedUrl)(`the delivery of a sold car (${dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let admin: HttpClient;
  let buyer: HttpClient;
  let buyerEmail: string;
  let cars: number[];

  const post = async (saleId: number, form: FormData) => admin.request(`/admin/sales/${saleId}/delivery`, { method: 'POST', body: form });

  /** Records a walk-in sale of the next car to the buyer, in `language`. */
  const sell = async (language: 'en' | 'hi' = 'en'): Promise<number> => {
    const car = cars.shift()!;
    const recorded = await admin.postForm('/admin/sales/new', walkInSaleForm(car, { buyerEmail, language }));
    expect(recorded.status).toBe(303);
    return Number(recorded.headers.get('location')!.split('/').at(-1));
  };

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
    buyer = new HttpClient(server.url);
    buyerEmail = uniqueEmail('buyer');
    await signUp(buyer, buyerEmail);
    await completeProfile(buyer, 'Meera Kulkarni', uniqueMobile());
    expect([302, 303]).toContain(await saveDealerSettings(admin));
    const rows = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id')
      .limit(6)
      .execute();
    cars = rows.map((row) => Number(row.id));
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('records the handover with a drawn signature: the sale page shows it, the delivery note says what was handed over, the buyer is told', async () => {
    const saleId = await sell('en');
    const page = await admin.get(`/admin/sales/${saleId}`);
    expect(await page.text()).toContain(`/admin/sales/${saleId}/delivery`);
    const formPage = await admin.get(`/admin/sales/${saleId}/delivery`);
    expect(formPage.status).toBe(200);
    const html = await formPage.text();
    expect(mainText(html)).toContain('Registration certificate (RC)');
    expect(html).toContain('name="typedSignature"');

    const delivered = await post(saleId, await deliveryForm({ signature: await drawnSignature() }));
    expect(delivered.status).toBe(303);
    expect(delivered.headers.get('location')).toBe(`/admin/sales/${saleId}`);
    const row = await database.db.selectFrom('sale_deliveries').selectAll().where('sale_id', '=', saleId).executeTakeFirstOrThrow();
    expect(row.signature_key).toMatch(/^sale-deliveries\/[0-9a-f-]+-signature\.png$/);
    expect(row.typed_signature).toBeNull();
    expect(JSON.parse(row.documents_handed)).toEqual(['rc', 'insurance', 'puc', 'noc']);
    // The checklist engine stored the five photos privately, under the delivery's own prefix.
    const stored = await readdir(path.join(server.dataDir, 'private', 'sale-deliveries'));
    expect(stored.filter((name) => name.endsWith('-thumb.webp'))).toHaveLength(CHECKLIST_ITEMS.length);
    expect(stored.filter((name) => name.endsWith('-signature.png'))).toHaveLength(1);

    const after = await (await admin.get(`/admin/sales/${saleId}`)).text();
    expect(mainText(after)).toContain('42,315 km');
    expect(mainText(after)).toContain('Signed by Meera Kulkarni');
    // The handover's photos, for the desk to look at again: each thumbnail and photo is the desk's only.
    const thumbs = [...after.matchAll(new RegExp(`src="(/admin/sales/${saleId}/delivery/photos/[^"?]+)\\?size=thumb"`, 'g'))].map((match) => match[1]!);
    expect(thumbs).toHaveLength(CHECKLIST_ITEMS.length);
    for (const size of ['?size=thumb', '']) {
      const photo = await admin.get(`${thumbs[0]}${size}`);
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/webp');
      expect(photo.headers.get('cache-control')).toBe('private, no-store');
      expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect((await admin.get(`/admin/sales/${saleId}/delivery/photos/not-a-photo`)).status).toBe(404);
    expect((await buyer.get(thumbs[0]!)).status).toBe(403);
    expect((await new HttpClient(server.url).get(thumbs[0]!)).status).toBe(302);
    const link = new RegExp(`href="(/admin/sales/${saleId}/documents/\\d+)"[^>]*>[^<]*</a>`, 'g');
    const links = [...after.matchAll(link)].map((match) => match[1]!);
    expect(links).toHaveLength(2);
    const note = await admin.get(links[1]!);
    expect(note.status).toBe(200);
    const text = pdfText(await note.arrayBuffer());
    for (const expected of [
      'Delivery note',
      'DN-GB/',
      'Odometer: 42,315 km',
      'Fuel: 6/8',
      'Keys: 2',
      'Registration certificate (RC)',
      'Insurance policy',
      'PUC certificate',
      'NOC',
      'Loan closure letter',
      'Signed by Meera Kulkarni',
      'IST',
      'MA3EWDE1S00123456',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Service book');

    const audit = await database.db
      .selectFrom('audit_log')
      .select('summary')
      .where('action', '=', 'deliver')
      .where('entity_id', '=', String(saleId))
      .executeTakeFirstOrThrow();
    expect(audit.summary).toContain('42315 km');
    const messages = await database.db.selectFrom('outbox_messages').select(['channel', 'body']).where('body', 'like', '%was handed over%').execute();
    expect(messages.map((message) => message.channel).sort()).toEqual(['email', 'sms']);
    expect(messages.find((message) => message.channel === 'email')!.body).toContain('/profile#my-documents');
  });

  it('a second delivery of a sale is 409, and ten at once give one', async () => {
    const [first] = (await database.db.selectFrom('sale_deliveries').select('sale_id').execute()).map((row) => Number(row.sale_id));
    const again = await post(first!, await deliveryForm({ typedSignature: 'Meera Kulkarni' }));
    expect(again.status).toBe(409);
    expect(mainText(await again.text())).toContain('This car was already handed over to its buyer.');

    const saleId = await sell('en');
    const forms = await Promise.all(Array.from({ length: 10 }, () => deliveryForm({ typedSignature: 'Meera Kulkarni' })));
    const answers = await Promise.all(forms.map((form) => post(saleId, form)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await database.db.selectFrom('sale_deliveries').select('id').where('sale_id', '=', saleId).execute()).toHaveLength(1);
    // The losers' photos were deleted again: one delivery's photos more than before.
    const stored = await readdir(path.join(server.dataDir, 'private', 'sale-deliveries'));
    expect(stored.filter((name) => name.endsWith('-thumb.webp'))).toHaveLength(2 * CHECKLIST_ITEMS.length);
  });

  it('a typed signature in Hindi: the delivery note is in Hindi with the reading and the signer', async () => {
    const saleId = await sell('hi');
    const delivered = await post(saleId, await deliveryForm({ odometer: '18250', typedSignature: 'Meera K.', signerName: 'Meera Kulkarni' }, ['rc', 'noc']));
    expect(delivered.status).toBe(303);
    // The job queued with the delivery makes the note: the buyer's list has it once the job has run.
    let note: { id: number; kind: string; number: string; language: string } | undefined;
    for (let attempt = 0; attempt < 50 && !note; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      const { items } = (await (await buyer.get('/api/v1/me/documents')).json()) as {
        items: Array<{ id: number; kind: string; number: string; language: string }>;
      };
      note = items.find((item) => item.kind === 'delivery-note' && item.language === 'hi');
    }
    expect(note).toBeDefined();
    const text = pdfText(await (await buyer.get(`/api/v1/me/documents/${note!.id}`)).arrayBuffer());
    // Words without a reph or a short i, which pdftotext gives in visual order (decision 114).
    for (const expected of ['ओडोमीटर: 18,250', 'Meera K.', 'Meera Kulkarni', '(RC)', 'NOC', note!.number]) expect(text).toContain(expected);
  });

  it('refuses a cancelled sale, a fake PNG, an oversize signature and no signature at all, each by name', async () => {
    const cancelledSale = await sell('en');
    expect((await admin.postForm(`/admin/sales/${cancelledSale}`, { reason: 'The buyer changed their mind' })).status).toBe(303);
    const refused = await post(cancelledSale, await deliveryForm({ typedSignature: 'Meera Kulkarni' }));
    expect(refused.status).toBe(409);
    expect(mainText(await refused.text())).toContain("a cancelled sale's car is not handed over");

    const saleId = await sell('en');
    const jpegBytes = Buffer.from(await (await jpeg(9)).arrayBuffer());
    const fake = await post(saleId, await deliveryForm({ signature: `data:image/png;base64,${jpegBytes.toString('base64')}` }));
    expect(fake.status).toBe(400);
    const fakeHtml = await fake.text();
    expect(mainText(fakeHtml)).toContain('The drawn signature is not a PNG image from the signature pad.');
    // What was typed is kept.
    expect(fakeHtml).toContain('value="Loan closure letter"');
    const truncated = Buffer.from((await drawnSignature()).split(',')[1]!, 'base64').subarray(0, 60);
    expect((await post(saleId, await deliveryForm({ signature: `data:image/png;base64,${truncated.toString('base64')}` }))).status).toBe(400);

    const noise = await sharp(randomBytes(205 * 205 * 4), { raw: { width: 205, height: 205, channels: 4 } })
      .png()
      .toBuffer();
    expect(noise.length).toBeGreaterThan(150_000);
    const oversize = await post(saleId, await deliveryForm({ signature: `data:image/png;base64,${noise.toString('base64')}` }));
    expect(oversize.status).toBe(400);
    expect(mainText(await oversize.text())).toContain('The drawn signature is too large (more than 150 KB).');

    const unsigned = await post(saleId, await deliveryForm({}));
    expect(unsigned.status).toBe(400);
    expect(mainText(await unsigned.text())).toContain('The buyer signs: draw on the pad, or type the name.');
    expect(await database.db.selectFrom('sale_deliveries').select('id').where('sale_id', '=', saleId).execute()).toHaveLength(0);
  });

  it("the desk only: the buyer gets 403 and a visitor is sent to sign in; the note is the buyer's to download, 404 for anyone else", async () => {
    const saleId = Number((await database.db.selectFrom('sale_deliveries').select('sale_id').orderBy('id').executeTakeFirstOrThrow()).sale_id);
    expect((await buyer.get(`/admin/sales/${saleId}/delivery`)).status).toBe(403);
    const visitor = new HttpClient(server.url);
    expect((await visitor.get(`/admin/sales/${saleId}/delivery`)).status).toBe(302);
    expect((await buyer.request(`/admin/sales/${saleId}/delivery`, { method: 'POST', body: await deliveryForm({ typedSignature: 'x' }) })).status).toBe(403);

    const { items } = (await (await buyer.get('/api/v1/me/documents')).json()) as { items: Array<{ id: number; kind: string }> };
    const notes = items.filter((item) => item.kind === 'delivery-note');
    expect(notes.length).toBeGreaterThanOrEqual(2);
    const own = await buyer.get(`/api/v1/me/documents/${notes[0]!.id}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/pdf');
    expect(await (await buyer.get('/profile')).text()).toContain(`/api/v1/me/documents/${notes[0]!.id}`);
    const stranger = new HttpClient(server.url);
    await signUp(stranger, uniqueEmail('stranger'));
    expect((await stranger.get(`/api/v1/me/documents/${notes[0]!.id}`)).status).toBe(404);
    // The buyer's data download has the deliveries, without where the files are kept.
    const exported = await (await buyer.get('/api/v1/me/data')).text();
    expect(exported).toContain('"saleDeliveries"');
    expect(exported).toContain('"signerName":"Meera Kulkarni"');
    expect(exported).not.toContain('sale-deliveries/');
  });
});
