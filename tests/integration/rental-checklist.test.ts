import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKLIST_ITEMS } from '../../app/features/rentals/rental-checklist.ts';
import { MAX_IMAGE_BYTES } from '../../app/lib/uploads.ts';
import type { Database } from '../../server/db/connection.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { runRetentionPurge } from '../../server/privacy/retention.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, HttpClient, mainText, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { addFleetCarOn } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * The photo checklist at the rental desk, through the running server on SQLite and PostgreSQL:
 * a handover missing an item (or carrying a fake, truncated or oversize photo) is refused by
 * name and moves nothing; a full handover and return store their photos; the return's extra km,
 * fuel shortfall, new damage and late hours are charged, each shown with its photo; the deposit
 * refund is the deposit less the charges; the renter sees the records on their page and in the
 * API, another renter and a visitor get 404 for the photos; the photos go with the booking.
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

async function jpeg(seed: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 90 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

type Extra = Record<string, string | Blob>;

/** The desk's handover or return form: readings, the photos (all unless `leaveOut`), and extra fields. */
async function checklistForm(
  intent: 'handover' | 'return' | 'preview',
  readings: Record<string, string>,
  options: { leaveOut?: string[]; extra?: Extra } = {},
): Promise<FormData> {
  const form = new FormData();
  form.append('intent', intent);
  for (const [name, value] of Object.entries(readings)) form.append(name, value);
  for (const [index, item] of CHECKLIST_ITEMS.entries())
    if (!options.leaveOut?.includes(item)) form.append(item, await jpeg(index + (intent === 'handover' ? 1 : 11)), `${item}.jpg`);
  for (const [name, value] of Object.entries(options.extra ?? {})) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, `${name}.jpg`);
  }
  return form;
}

async function privatePhotos(server: TestServer): Promise<string[]> {
  return readdir(path.join(server.dataDir, 'private', 'rental-checklists')).catch(() => []);
}

describe.skipIf(!shared.url)(`the handover and return photo checklist (${shared.dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let admin: HttpClient;
  let renter: HttpClient;
  let stranger: HttpClient;
  let bookingId: number;
  let deskPath: string;
  let fromMs: number;
  let toMs: number;
  let handoverMoney: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
    const carId = await addFleetCarOn(server, 'Checklist Swift');
    [renter, stranger] = [new HttpClient(server.url), new HttpClient(server.url)];
    for (const [client, label] of [
      [renter, 'renter'],
      [stranger, 'stranger'],
    ] as const) {
      await signUp(client, uniqueEmail(`checklist-${label}`));
      await completeProfile(client, 'Asha Verma', uniqueMobile());
    }
    const form = new FormData();
    form.append('number', 'KA0120150001234');
    form.append('dateOfBirth', '1990-04-12');
    form.append('front', await jpeg(100), 'front.jpg');
    form.append('back', await jpeg(101), 'back.jpg');
    expect((await renter.request('/api/v1/me/licence', { method: 'POST', body: form })).status).toBe(201);
    await database.db.updateTable('driving_licences').set({ status: 'approved' }).execute();
    const day = Math.floor((Date.now() + 5.5 * HOUR) / DAY) * DAY - 5.5 * HOUR;
    fromMs = day + 3 * DAY + 10 * HOUR;
    toMs = fromMs + 2 * DAY;
    const booked = await renter.request('/api/v1/rentals/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ carId, from: indiaDateTimeParam(fromMs), to: indiaDateTimeParam(toMs), pickup: 'hub' }),
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    bookingId = ((await booked.json()) as { booking: { id: number } }).booking.id;
    deskPath = `/admin/rentals/bookings/${bookingId}`;
    expect((await admin.postForm(deskPath, { intent: 'confirm' })).status).toBe(302);
    // The trip is moved into the past, so the desk's handover and return times (never in the future) can be its real ones.
    const past = 6 * DAY;
    await database.db
      .updateTable('rental_bookings')
      .set((eb) => ({ starts_ms: eb('starts_ms', '-', past), ends_ms: eb('ends_ms', '-', past), held_until_ms: eb('held_until_ms', '-', past) }))
      .where('id', '=', bookingId)
      .execute();
    fromMs -= past;
    toMs -= past;
    const quote = await database.db.selectFrom('rental_bookings').select('quote').where('id', '=', bookingId).executeTakeFirstOrThrow();
    handoverMoney = {
      handedOverAt: indiaDateTimeParam(fromMs),
      collectedAmount: String((JSON.parse(quote.quote) as { dueAtPickup: number }).dueAtPickup),
      collectedMethod: 'cash',
    };
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  const status = async () => (await database.db.selectFrom('rental_bookings').select('status').where('id', '=', bookingId).executeTakeFirstOrThrow()).status;

  it('refuses a handover missing photos, naming each, and moves nothing', async () => {
    const response = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('handover', { odometerOut: '20000', fuelOut: '8', ...handoverMoney }, { leaveOut: ['left', 'dashboard'] }),
    });
    expect(response.status).toBe(400);
    const text = mainText(await response.text());
    expect(text).toContain('The handover checklist is not complete. Missing: left side photo, odometer and fuel gauge photo.');
    expect(text).toContain('Please add a photo of the odometer and fuel gauge.');
    const halfDamage = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('handover', { odometerOut: '20000', fuelOut: '8', ...handoverMoney }, { extra: { damage0Note: 'Dent on the left rear door' } }),
    });
    expect(halfDamage.status).toBe(400);
    expect(mainText(await halfDamage.text())).toContain('Missing: damage 1 photo.');
    expect(await status()).toBe('confirmed');
    expect(await privatePhotos(server)).toEqual([]);
  });

  it('reads the handover by its schema: each wrong reading refused beside its field, what was typed shown again, nothing moved, never a 500', async () => {
    const response = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('handover', { odometerOut: '20k', fuelOut: '9', ...handoverMoney, handedOverAt: 'yesterday', collectedReference: 'UPI 4471' }),
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    const text = mainText(html);
    // Each field has its own sentence (before, only the first wrong field was told).
    expect(text).toContain('The odometer must be a whole number from 0 to');
    expect(text).toContain('The fuel level must be a whole number from 0 to 8.');
    expect(text).toContain('Please give the handover time as a date and time.');
    expect(html).toMatch(/name="odometerOut"[^>]*value="20k"|value="20k"[^>]*name="odometerOut"/);
    expect(html).toContain('value="UPI 4471"');
    expect(await status()).toBe('confirmed');
    expect(await privatePhotos(server)).toEqual([]);
  });

  it('refuses a fake, a truncated and an oversize photo with a clear message, storing none', async () => {
    const fake = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm(
        'handover',
        { odometerOut: '20000', fuelOut: '8', ...handoverMoney },
        { leaveOut: ['left'], extra: { left: new Blob(['<?php echo 1; ?> not a photo']) } },
      ),
    });
    expect(fake.status).toBe(400);
    expect(mainText(await fake.text())).toContain('The photo of the left side could not be used. This file is not an image we can read.');

    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 200, b: 10 } } })
      .png()
      .toBuffer();
    const truncated = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm(
        'handover',
        { odometerOut: '20000', fuelOut: '8', ...handoverMoney },
        { leaveOut: ['front'], extra: { front: new Blob([new Uint8Array(png.subarray(0, png.length - 30))]) } },
      ),
    });
    expect(truncated.status).toBe(400);
    expect(mainText(await truncated.text())).toContain('The photo of the front could not be used. This photo is damaged or incomplete');

    const oversize = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm(
        'handover',
        { odometerOut: '20000', fuelOut: '8', ...handoverMoney },
        { leaveOut: ['back'], extra: { back: new Blob([new Uint8Array(MAX_IMAGE_BYTES + 1024)]) } },
      ),
    });
    expect(oversize.status).toBe(400);
    expect(mainText(await oversize.text())).toContain('The image is larger than 15 MB. Please choose a smaller photo.');

    expect(await status()).toBe('confirmed');
    expect(await privatePhotos(server)).toEqual([]);
  });

  it('hands over with the full checklist and a damage already there, and takes the car back with the charges each shown with its photo', async () => {
    const handover = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm(
        'handover',
        { odometerOut: '20000', fuelOut: '8', ...handoverMoney },
        { extra: { damage0Note: 'Dent on the left rear door', damage0Photo: await jpeg(60) } },
      ),
    });
    expect(handover.status, (await handover.clone().text()).slice(0, 3000)).toBe(302);
    expect(await status()).toBe('active');
    // Each photo and its 320 px copy for the lists.
    expect(await privatePhotos(server)).toHaveLength(12);

    // 2 days include 480 km: 100 km over at ₹12; fuel 6/8 of 8/8 priced ₹500; a new scratch ₹2,000; 2.5 h late (1 h grace, ₹200 an hour).
    const returnedAt = indiaDateTimeParam(toMs + 2.5 * HOUR);
    const readings = { odometerIn: '20580', fuelIn: '6', fuelCharge: '500', returnedAt };
    const damage = {
      damage0Note: 'Dent on the left rear door',
      damage0Photo: await jpeg(61),
      damage0Charge: '0',
      damage1Note: 'Scratch on the front bumper',
      damage1Photo: await jpeg(62),
      damage1New: 'on',
      damage1Charge: '2000',
      // Rows left blank, as a browser sends them.
      damage2Note: '',
      damage2New: 'on',
      damage2Charge: '0',
      damage3Note: '',
      damage3New: 'on',
      damage3Charge: '',
    };
    const overcharged = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('return', readings, { extra: { ...damage, damage0Charge: '300' } }),
    });
    expect(overcharged.status).toBe(400);
    expect(mainText(await overcharged.text())).toContain('Damage 1: only new damage found at the return can be charged.');
    const returned = await admin.request(deskPath, { method: 'POST', body: await checklistForm('return', readings, { extra: damage }) });
    expect(returned.status, (await returned.clone().text()).slice(0, 3000)).toBe(302);
    expect(await privatePhotos(server)).toHaveLength(26);

    const row = await database.db
      .selectFrom('rental_bookings')
      .select(['status', 'charges', 'deposit_refund_paise'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('returned');
    const charges = JSON.parse(row.charges!) as Record<string, unknown>;
    expect(charges).toMatchObject({
      kmDriven: 580,
      extraKm: 100,
      extraKmCharge: 1200,
      fuelCharge: 500,
      lateHours: 2,
      lateFee: 400,
      damageCharge: 2000,
      total: 4100,
      depositRefund: 900,
    });

    const page = await (await admin.get(deskPath)).text();
    const text = mainText(page);
    // The renter's licence: its status, then where licences are reviewed, not "Approved review".
    expect(text).toContain('Licence: Approved · See the licences');
    expect(text).not.toContain('Approved review');
    expect(text).toContain('Km driven: 580 km');
    // Said as a difference from the pickup, not "−2/8 less".
    expect(text).toContain('Fuel: 2/8 less than at pickup');
    expect(text).not.toContain('−2/8');
    expect(page).toMatch(/data-damage="new"[^>]*>[\s\S]*?Scratch on the front bumper/);
    expect(page.match(/data-damage="existing"/g)).toHaveLength(2);
    for (const kind of ['extra-km', 'late', 'fuel', 'damage']) expect(page).toContain(`data-charge="${kind}"`);
    expect(page).toMatch(/data-charge="damage"[\s\S]*?src="\/rental-photos\/\d+\/[0-9a-f-]{36}\?size=thumb"/);

    const settled = await admin.postForm(deskPath, { intent: 'settle', depositRefund: '900', settleMethod: 'upi', settleReference: '412345678901' });
    expect(settled.status).toBe(302);
    // The audit log names what the settlement changed, in words, in both languages (the record keeps its codes).
    const audit = mainText(await (await admin.get('/admin/audit-log')).text());
    expect(audit).toContain(
      `settle rental booking #${bookingId} Settled booking #${bookingId}: deposit refund ₹900 (upi) Before and after (6 changed: Status, Deposit refund, Returned to the renter, How it was settled, Settlement reference, Tax invoice withheld )`,
    );
    expect(audit).toContain('After Status closed Deposit refund 900');
    // The return's charges are named inside the record too.
    expect(audit).toMatch(/Charges at return Km driven: 580 Extra km: 100 Extra-km charge: 1200 .*New damage: Note: Scratch on the front bumper Charge: 2000/);
    expect(audit).not.toMatch(/depositRefund|rental-booking/);
    expect(mainText(await (await admin.get('/hi/admin/audit-log')).text())).toContain(
      '(6 बदले: स्टेटस, डिपॉज़िट रिफ़ंड, रेंटर को लौटाया गया, सेटलमेंट का तरीका, सेटलमेंट का रेफ़रेंस, कर बीजक रोका गया )',
    );
    const closed = await database.db
      .selectFrom('rental_bookings')
      .select(['status', 'deposit_refund_paise', 'amount_refunded_paise'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    expect({ status: closed.status, refund: Number(closed.deposit_refund_paise), refunded: Number(closed.amount_refunded_paise) }).toEqual({
      status: 'closed',
      refund: (5000 - 4100) * 100,
      refunded: 900 * 100,
    });
    const statement = await database.db
      .selectFrom('outbox_messages')
      .select('body')
      .where('subject', 'like', `Closing statement:%(booking #${bookingId})`)
      .executeTakeFirstOrThrow();
    expect(statement.body).toContain('New damage (Scratch on the front bumper): ₹2,000');
    expect(statement.body).toContain('Deposit refund: ₹900');
    expect(statement.body).toContain('₹900 sent to your UPI at the return (reference 412345678901).');
  });

  it('shows the renter their records and charges with photos; another renter and a visitor get 404 for the photos', async () => {
    const answer = await renter.get(`/api/v1/me/bookings/${bookingId}`);
    expect(answer.status).toBe(200);
    const booking = (await answer.json()) as {
      handover: { odometer: number; fuelEighths: number; photos: Array<{ item: string; url: string; newDamage: boolean }> };
      return: { odometer: number; fuelEighths: number; photos: Array<{ item: string; url: string; newDamage: boolean; charge: number }> };
      comparison: { kmDriven: number; fuelDifference: number };
      chargeLines: Array<{ kind: string; amount: number; photoUrl: string | null }>;
      depositRefund: number;
    };
    expect(booking.handover).toMatchObject({ odometer: 20000, fuelEighths: 8 });
    expect(booking.handover.photos).toHaveLength(6);
    expect(booking.return.photos.filter((photo) => photo.newDamage)).toEqual([expect.objectContaining({ item: 'damage', charge: 2000 })]);
    expect(booking.comparison).toEqual({ kmDriven: 580, fuelDifference: -2 });
    expect(booking.chargeLines.map((line) => [line.kind, line.amount])).toEqual([
      ['extra-km', 1200],
      ['late', 400],
      ['fuel', 500],
      ['damage', 2000],
    ]);
    expect(booking.chargeLines.find((line) => line.kind === 'late')!.photoUrl).toBeNull();
    expect(booking.depositRefund).toBe(900);
    expect(JSON.stringify(booking)).not.toContain('rental-checklists/');

    const photoUrl = booking.chargeLines.find((line) => line.kind === 'damage')!.photoUrl!;
    const own = await renter.get(photoUrl);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/webp');
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect((await sharp(Buffer.from(await own.arrayBuffer())).metadata()).format).toBe('webp');
    expect((await admin.get(photoUrl)).status).toBe(200);
    const thumb = await renter.get(`${photoUrl}?size=thumb`);
    expect(thumb.status).toBe(200);
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 320 });
    for (const [who, client] of [
      ['another renter', stranger],
      ['a visitor', new HttpClient(server.url)],
    ] as const) {
      for (const url of [
        photoUrl,
        `${photoUrl}?size=thumb`,
        booking.handover.photos[0]!.url,
        photoUrl.replace(/\/[^/]+$/, '/00000000-0000-0000-0000-000000000000'),
        photoUrl.replace(/\/rental-photos\/\d+\//, '/rental-photos/999999/'),
      ]) {
        const refused = await client.get(url);
        expect(refused.status, `${who}: ${url}`).toBe(404);
      }
    }
    expect((await stranger.get(`/api/v1/me/bookings/${bookingId}`)).status).toBe(404);

    const exported = (await (await renter.get('/profile/my-data')).json()) as {
      rentalBookings: Array<{ id: number; checklists: Array<{ stage: string; odometer: number; photos: Array<{ item: string; photo: string }> }> }>;
    };
    const ownExport = exported.rentalBookings.find((item) => item.id === bookingId)!;
    expect(ownExport.checklists.map((record) => [record.stage, record.odometer, record.photos.length])).toEqual([
      ['handover', 20000, 6],
      ['return', 20580, 7],
    ]);
    expect(JSON.stringify(ownExport.checklists)).not.toMatch(/rental-checklists\/|[0-9a-f]{8}-[0-9a-f]{4}-/);

    const profile = mainText(await (await renter.get('/profile')).text());
    expect(profile).toContain('Car condition at handover and return');
    expect(profile).toContain('Scratch on the front bumper');
    expect(profile).toContain('Fuel: 2/8 less than at pickup');
    expect(mainText(await (await renter.get('/hi/profile')).text())).toContain('फ़्यूल: पिकअप के समय से 2/8 कम');
  });

  it('deletes the photos with the booking when its retention period ends', async () => {
    const deps = {
      database,
      clock: { now: () => Date.now() },
      storage: createLocalStorage(path.join(server.dataDir, 'media')),
      privateStorage: createLocalStorage(path.join(server.dataDir, 'private')),
      logger: { warn: () => {}, info: () => {}, error: () => {} },
    };
    await runRetentionPurge(deps, new Date(toMs + 9 * 366 * DAY));
    expect(await database.db.selectFrom('rental_bookings').select('id').where('id', '=', bookingId).executeTakeFirst()).toBeUndefined();
    expect(await database.db.selectFrom('rental_checklists').select('id').where('booking_id', '=', bookingId).execute()).toEqual([]);
    expect(await privatePhotos(server)).toEqual([]);
  });
});
