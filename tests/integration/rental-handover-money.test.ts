import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKLIST_ITEMS } from '../../app/features/rentals/rental-checklist.ts';
import { paiseToWholeRupees, rupeesToPaise } from '../../app/lib/money.ts';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, decodeEntities, HttpClient, mainText, signUp, uniqueEmail, uniqueMobile, waitForOutbox } from '../support/http-client.ts';
import { addFleetCarOn } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * The rental desk's real handover and return (docs/decisions/099), through the running server on
 * SQLite and PostgreSQL: a car handed over early, before the booked pickup, in cash, comes back
 * before the booked pickup too and is settled in cash; the times entered and the money as it moved
 * are kept, shown on the desk, in the audit log, on the renter's /profile and in the API; a
 * return before the handover and a UPI payment without its reference are refused beside their
 * fields; the database itself refuses both.
 */

const shared = sharedServer();
const HOUR = 3_600_000;
const MINUTE = 60_000;
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

async function jpeg(seed: number): Promise<Blob> {
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 90 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
}

async function checklistForm(intent: 'handover' | 'return', fields: Record<string, string>): Promise<FormData> {
  const form = new FormData();
  form.append('intent', intent);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [index, item] of CHECKLIST_ITEMS.entries()) form.append(item, await jpeg(index + (intent === 'handover' ? 1 : 11)), `${item}.jpg`);
  return form;
}

/** The text of a field's error (`<p id="name-error">`), and whether its input points at it with aria-describedby. */
function fieldError(html: string, name: string): { text: string | null; described: boolean } {
  const text = new RegExp(`<p id="${name}-error"[^>]*>([^<]*)</p>`).exec(html)?.[1];
  const input = new RegExp(`<(input|select)[^>]*id="${name}"[^>]*>`).exec(html)?.[0] ?? '';
  return { text: text === undefined ? null : decodeEntities(text), described: /aria-describedby="[^"]*-error/.test(input) && input.includes(`${name}-error`) };
}

describe.skipIf(!shared.url)(`the desk's real handover and return, and the money at each (${shared.dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let admin: HttpClient;
  let renter: HttpClient;
  let renterEmail: string;
  let bookingId: number;
  let deskPath: string;
  let fromMs: number;
  let duePaise: number;
  let handedOverMs: number;

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
    const carId = await addFleetCarOn(server, 'Early Baleno');
    renter = new HttpClient(server.url);
    renterEmail = uniqueEmail('early-renter');
    await signUp(renter, renterEmail);
    await completeProfile(renter, 'Ravi Kumar', uniqueMobile());
    const licence = new FormData();
    licence.append('number', 'KA0120150005678');
    licence.append('dateOfBirth', '1988-02-10');
    licence.append('front', await jpeg(100), 'front.jpg');
    licence.append('back', await jpeg(101), 'back.jpg');
    expect((await renter.request('/api/v1/me/licence', { method: 'POST', body: licence })).status).toBe(201);
    await database.db.updateTable('driving_licences').set({ status: 'approved' }).execute();
    // Six hours ahead (the notice is three): the renter comes now, early, and the desk hands the car over.
    fromMs = Math.ceil((Date.now() + 6 * HOUR) / HOUR) * HOUR;
    const booked = await renter.request('/api/v1/rentals/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ carId, from: indiaDateTimeParam(fromMs), to: indiaDateTimeParam(fromMs + 24 * HOUR), pickup: 'hub' }),
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const booking = ((await booked.json()) as { booking: { id: number; quote: { dueAtPickup: number } } }).booking;
    bookingId = booking.id;
    duePaise = booking.quote.dueAtPickup * 100;
    deskPath = `/admin/rentals/bookings/${bookingId}`;
    expect((await admin.postForm(deskPath, { intent: 'confirm' })).status).toBe(302);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  const row = () => database.db.selectFrom('rental_bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
  const readings = { odometerOut: '31000', fuelOut: '8' };

  it('refuses a handover whose money or time is wrong, each message beside its field, and moves nothing', async () => {
    const now = indiaDateTimeParam(Date.now());
    const cases: Array<[Record<string, string>, string, string]> = [
      [
        { handedOverAt: now, collectedAmount: String(duePaise / 100 - 1), collectedMethod: 'cash' },
        'collectedAmount',
        `₹${(duePaise / 100).toLocaleString('en-IN')} is due at the handover: record that amount as collected.`,
      ],
      [
        { handedOverAt: now, collectedAmount: String(duePaise / 100), collectedMethod: '' },
        'collectedMethod',
        'Please choose how it was paid: cash, UPI or card.',
      ],
      [
        { handedOverAt: now, collectedAmount: String(duePaise / 100), collectedMethod: 'upi', collectedReference: ' ' },
        'collectedReference',
        'Please give the UPI transaction reference (the 12-digit UTR).',
      ],
      [
        { handedOverAt: indiaDateTimeParam(Date.now() + 2 * HOUR), collectedAmount: String(duePaise / 100), collectedMethod: 'cash' },
        'handedOverAt',
        'The handover time cannot be in the future.',
      ],
      [
        { handedOverAt: indiaDateTimeParam(fromMs - 13 * HOUR), collectedAmount: String(duePaise / 100), collectedMethod: 'cash' },
        'handedOverAt',
        'The handover cannot be more than 12 hours before the booked pickup',
      ],
    ];
    for (const [fields, field, message] of cases) {
      const response = await admin.request(deskPath, { method: 'POST', body: await checklistForm('handover', { ...readings, ...fields }) });
      expect(response.status, field).toBe(400);
      const html = await response.text();
      const error = fieldError(html, field);
      expect(error.text, field).toContain(message);
      expect(error.described, field).toBe(true);
    }
    expect((await row()).status).toBe('confirmed');
  });

  it('hands the car over early, before the booked pickup, in cash: the time and the money kept and shown', async () => {
    handedOverMs = Math.floor((Date.now() - 5 * MINUTE) / MINUTE) * MINUTE;
    expect(handedOverMs).toBeLessThan(fromMs);
    const response = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('handover', {
        ...readings,
        handedOverAt: indiaDateTimeParam(handedOverMs),
        collectedAmount: (duePaise / 100).toLocaleString('en-IN'),
        collectedMethod: 'cash',
      }),
    });
    expect(response.status, (await response.clone().text()).slice(0, 500)).toBe(302);
    expect(await row()).toMatchObject({
      status: 'active',
      handed_over_ms: handedOverMs,
      handover_paise: duePaise,
      handover_method: 'cash',
      handover_reference: null,
    });
    const page = mainText(await (await admin.get(deskPath)).text());
    expect(page).toContain(`₹${(duePaise / 100).toLocaleString('en-IN')} collected in cash`);
    const desk = await (await admin.get('/admin/rentals')).text();
    expect(desk).toMatch(new RegExp(`#${bookingId}[\\s\\S]*?data-handed-over`));
  });

  it('refuses a return before the handover, with the message beside the return time, not at the top of the page', async () => {
    const response = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('return', { odometerIn: '31120', fuelIn: '8', fuelCharge: '0', returnedAt: indiaDateTimeParam(handedOverMs - HOUR) }),
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    const error = fieldError(html, 'returnedAt');
    expect(error.text).toMatch(/^The return time cannot be before the handover \(.+\)\.$/);
    expect(error.described).toBe(true);
    // Said once, beside the field: not also at the top of the page.
    expect(mainText(html).split(error.text!)).toHaveLength(2);
    expect((await row()).status).toBe('active');
  });

  it('takes the car back before the booked pickup (it went out earlier) and settles the deposit in cash', async () => {
    const returnedMs = Math.floor(Date.now() / MINUTE) * MINUTE;
    const response = await admin.request(deskPath, {
      method: 'POST',
      body: await checklistForm('return', { odometerIn: '31120', fuelIn: '8', fuelCharge: '0', returnedAt: indiaDateTimeParam(returnedMs) }),
    });
    expect(response.status, (await response.clone().text()).slice(0, 500)).toBe(302);
    expect(await row()).toMatchObject({ status: 'returned', returned_ms: returnedMs });
    const refund = paiseToWholeRupees(Number((await row()).deposit_refund_paise));
    expect(refund).toBeGreaterThan(0);

    const withoutMethod = await admin.postForm(deskPath, { intent: 'settle', depositRefund: String(refund) });
    expect(withoutMethod.status).toBe(400);
    expect(fieldError(await withoutMethod.text(), 'settleMethod')).toEqual({
      text: 'Please choose how the deposit was returned: cash, UPI or card.',
      described: true,
    });
    expect((await admin.postForm(deskPath, { intent: 'settle', depositRefund: String(refund), settleMethod: 'cash' })).status).toBe(302);
    expect(await row()).toMatchObject({ status: 'closed', settle_direction: 'returned', settle_paise: rupeesToPaise(refund), settle_method: 'cash' });

    const amount = `₹${Number(refund).toLocaleString('en-IN')}`;
    const statement = await waitForOutbox(admin, 'email', renterEmail, (entry) => entry.subject.startsWith('Closing statement'));
    expect(statement.body).toContain(`${amount} returned to you in cash at the return.`);
    expect(statement.body).not.toContain('payment method');
    const page = mainText(await (await admin.get(deskPath)).text());
    expect(page).toContain(`${amount} returned in cash`);
    // The demo's settings have no GSTIN: the booking settled without a tax invoice, and the desk's page says why (decision 119).
    expect(page).toContain("No tax invoice was issued for this rental: the dealer's GSTIN, legal name and address are not in Settings, Sales and GST.");
    expect(page).toContain('Rental agreement RA-');
    expect(page).not.toContain('Rental tax invoice');
  });

  it('shows the renter the real times and the money as it moved, on /profile in both languages and in the API', async () => {
    const booking = (await (await renter.get(`/api/v1/me/bookings/${bookingId}`)).json()) as Record<string, unknown>;
    const refund = paiseToWholeRupees(Number((await row()).deposit_refund_paise));
    expect(booking).toMatchObject({
      handedOverAt: `${indiaDateTimeParam(handedOverMs)}:00+05:30`,
      handoverMoney: {
        direction: 'paid',
        amountPaise: duePaise,
        method: 'cash',
        reference: null,
        text: `₹${(duePaise / 100).toLocaleString('en-IN')} paid in cash at the handover.`,
      },
      settlement: {
        direction: 'returned',
        amountPaise: rupeesToPaise(refund),
        method: 'cash',
        text: `₹${Number(refund).toLocaleString('en-IN')} returned to you in cash at the return.`,
      },
    });
    expect(typeof booking.returnedAt).toBe('string');

    const profile = mainText(await (await renter.get('/profile')).text());
    expect(profile).toContain('paid in cash at the handover.');
    expect(profile).toContain('returned to you in cash at the return.');
    expect(profile).toMatch(/Handed over \w+, \d+ \w+, [\d:]+ [ap]m · Returned \w+, \d+ \w+/);
    expect(profile).not.toContain('to your payment method');
    const hindi = mainText(await (await renter.get('/hi/profile')).text());
    expect(hindi).toContain('आपको कैश में लौटाए गए।');
    expect(hindi).toContain('कैश में दिए गए');
  });

  it('names the handover and settlement money in the audit log in both languages', async () => {
    const english = mainText(await (await admin.get('/admin/audit-log')).text());
    for (const label of ['Handed over at', 'Collected at handover', 'How it was paid at handover', 'Returned to the renter', 'How it was settled'])
      expect(english).toContain(label);
    const hindi = mainText(await (await admin.get('/hi/admin/audit-log')).text());
    for (const label of ['सौंपते समय मिली रकम', 'रेंटर को लौटाया गया', 'सेटलमेंट का तरीका']) expect(hindi).toContain(label);
  });

  it('the database itself refuses a UPI payment without its reference and a return before the handover', async () => {
    const { id } = await row();
    await expect(
      database.db.updateTable('rental_bookings').set({ handover_method: 'upi', handover_reference: null }).where('id', '=', id).execute(),
    ).rejects.toThrow(/check|constraint/i);
    await expect(
      database.db
        .updateTable('rental_bookings')
        .set({ returned_ms: handedOverMs - HOUR })
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow(/check|constraint/i);
    await expect(
      database.db.updateTable('rental_bookings').set({ settle_method: 'online', settle_direction: 'collected' }).where('id', '=', id).execute(),
    ).rejects.toThrow(/check|constraint/i);
  });
});
