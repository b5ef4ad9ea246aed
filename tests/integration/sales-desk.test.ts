import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { completeProfile, HttpClient, mainText, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { DEALER_SETTINGS_FORM, GSTIN, saveDealerSettings, walkInSaleForm } from '../support/sales.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The sale at the desk and the buyer's documents, through the running app (decision 114): the
 * settings' GSTIN checked, refusals beside their field, a second sale 409, the invoice
 * downloaded by the desk and by its buyer (profile and API), and nobody else (404).
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

describe.skipIf(!sharedUrl)(`the sales desk and the buyer's documents (${dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let admin: HttpClient;
  let buyer: HttpClient;
  let buyerEmail: string;
  let car: number;
  let saleId: number;

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
    buyer = new HttpClient(server.url);
    buyerEmail = uniqueEmail('buyer');
    await signUp(buyer, buyerEmail);
    await completeProfile(buyer, 'Meera Kulkarni', uniqueMobile());
    const row = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    car = Number(row.id);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  const sale = (changes: Record<string, string> = {}) => walkInSaleForm(car, { buyerEmail, ...changes });

  it('refuses a sale until the settings have a GSTIN, and a GSTIN whose check character is wrong', async () => {
    const refused = await admin.postForm('/admin/sales/new', sale());
    expect(refused.status).toBe(400);
    expect(mainText(await refused.text())).toContain("A tax invoice needs the dealer's GSTIN");
    const wrong = await admin.postForm('/admin/settings', { ...DEALER_SETTINGS_FORM, dealerGstin: '27AAPFU0939F1ZW' });
    expect(wrong.status).toBe(400);
    expect(mainText(await wrong.text())).toContain('This is not a valid GSTIN');
    expect([302, 303]).toContain(await saveDealerSettings(admin, { dealerGstin: GSTIN.toLowerCase() }));
    const audit = await database.db.selectFrom('audit_log').select('summary').where('entity', '=', 'settings').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.summary).toContain("Dealer's GSTIN");
  });

  it('says what is wrong beside the field: a PAN missing above the limit, a chassis number of the wrong shape', async () => {
    const noPan = await admin.postForm('/admin/sales/new', sale({ buyerPan: '' }));
    expect(noPan.status).toBe(400);
    const noPanText = mainText(await noPan.text());
    expect(noPanText).toContain('A PAN is required for a sale above ₹2,00,000.');
    const badChassis = await admin.postForm('/admin/sales/new', sale({ chassisNumber: 'MA3EWDE1SO0123456' }));
    expect(badChassis.status).toBe(400);
    const html = await badChassis.text();
    expect(mainText(html)).toContain('The chassis number (VIN) has 17 letters and digits, without I, O or Q.');
    // What was typed is shown again.
    expect(html).toContain('value="Meera Kulkarni"');
  });

  it('records the sale: the desk lands on it, with its invoice to download; a second sale of the car is 409', async () => {
    const recorded = await admin.postForm('/admin/sales/new', sale());
    expect(recorded.status).toBe(303);
    const location = recorded.headers.get('location')!;
    expect(location).toMatch(/^\/admin\/sales\/\d+$/);
    saleId = Number(location.split('/').at(-1));
    const page = await admin.get(location);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/GB\/2026-27\/\d{5}|GB\/20\d\d-\d\d\/\d{5}/);
    const link = /href="(\/admin\/sales\/\d+\/documents\/\d+)"/.exec(html)![1]!;
    const pdf = await admin.get(link);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(await pdf.arrayBuffer()) }).toString('utf8');
    expect(text).toContain(GSTIN);
    expect(text).toContain('Six lakh fifty thousand rupees only');
    const again = await admin.postForm('/admin/sales/new', sale());
    expect(again.status).toBe(409);
    expect(mainText(await again.text())).toContain('This car is already sold.');
    // Nobody but an admin reaches the desk's copy: the signed-in buyer is refused, a visitor sent to sign in.
    expect((await buyer.get(link)).status).toBe(403);
    expect((await new HttpClient(server.url).get(link)).status).toBe(302);
  });

  it('the buyer lists and downloads their invoice from the API (and the profile links it); anyone else gets 404', async () => {
    const list = await buyer.get('/api/v1/me/documents');
    expect(list.status).toBe(200);
    const { items } = (await list.json()) as { items: Array<{ id: number; kind: string; number: string }> };
    expect(items).toEqual([expect.objectContaining({ kind: 'tax-invoice', number: expect.stringMatching(/^GB\//) })]);
    const own = await buyer.get(`/api/v1/me/documents/${items[0]!.id}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await own.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const profile = await buyer.get('/profile');
    expect(await profile.text()).toContain(`/api/v1/me/documents/${items[0]!.id}`);
    const stranger = new HttpClient(server.url);
    await signUp(stranger, uniqueEmail('stranger'));
    const theirs = await stranger.get(`/api/v1/me/documents/${items[0]!.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get('content-type')).toContain('application/problem+json');
    expect(((await (await stranger.get('/api/v1/me/documents')).json()) as { items: unknown[] }).items).toEqual([]);
    expect((await new HttpClient(server.url).get(`/api/v1/me/documents/${items[0]!.id}`)).status).toBe(401);
  });

  it("the desk cancels the sale with a reason: a credit note, on the buyer's list too; without a reason it says so", async () => {
    const noReason = await admin.postForm(`/admin/sales/${saleId}`, { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(mainText(await noReason.text())).toContain('Say why the sale is cancelled.');
    const cancelled = await admin.postForm(`/admin/sales/${saleId}`, { reason: 'The buyer returned the car' });
    expect(cancelled.status).toBe(303);
    expect(await (await admin.get(`/admin/sales/${saleId}`)).text()).toMatch(/CN\/20\d\d-\d\d\/00001/);
    const { items } = (await (await buyer.get('/api/v1/me/documents')).json()) as { items: Array<{ kind: string }> };
    expect(items.map((item) => item.kind)).toEqual(['credit-note', 'tax-invoice']);
  });

  it("a reservation's convert button opens the sale's form with its buyer and the price typed; the sale converts it and reaches the buyer's documents", async () => {
    const userId = (await database.db.selectFrom('user').select('id').where('email', '=', buyerEmail).executeTakeFirstOrThrow()).id;
    const row = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .where('id', '!=', car)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const reservedCar = Number(row.id);
    await database.db.updateTable('vehicles').set({ status: 'reserved' }).where('id', '=', reservedCar).execute();
    const now = new Date().toISOString();
    const reservation = await database.db
      .insertInto('car_reservations')
      .values({
        user_id: userId,
        vehicle_id: reservedCar,
        vehicle_title: 'The reserved car',
        name: 'Meera Kulkarni',
        phone: '+919820012345',
        email: buyerEmail,
        amount_paise: 500_000,
        hold_hours: 72,
        status: 'active',
        payment_order_id: null,
        payment_id: null,
        payment_problem: null,
        pay_by_ms: Date.now(),
        held_until_ms: Date.now() + 72 * 3_600_000,
        sale_price: null,
        paid_at: now,
        ended_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(reservation.id);
    const convert = await admin.postForm(`/admin/reservations/${id}`, { intent: 'convert', salePrice: '6,40,000', backTo: '/admin-panel' });
    expect(convert.status).toBe(303);
    const form = convert.headers.get('location')!;
    expect(form).toBe(`/admin/sales/new?reservation=${id}&price=6%2C40%2C000`);
    const html = await (await admin.get(form)).text();
    expect(mainText(html)).toContain(`From reservation #${id}: The reserved car`);
    expect(html).toContain('value="6,40,000"');
    const sold = await admin.postForm(form, { ...sale({ price: '6,40,000', paid: '6,40,000', buyerEmail: '' }), vehicleId: '', reservationId: String(id) });
    expect(sold.status).toBe(303);
    expect((await database.db.selectFrom('car_reservations').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('converted');
    await admin.get(sold.headers.get('location')!);
    const { items } = (await (await buyer.get('/api/v1/me/documents')).json()) as { items: Array<{ kind: string }> };
    expect(items.map((item) => item.kind)).toEqual(['tax-invoice', 'credit-note', 'tax-invoice']);
    // The reservation is a sale now: a second one is refused.
    const again = await admin.postForm(form, { ...sale({ price: '6,40,000', paid: '6,40,000' }), vehicleId: '', reservationId: String(id) });
    expect(again.status).toBe(409);
    expect(mainText(await again.text())).toContain('This reservation is no longer active');
  });
});
