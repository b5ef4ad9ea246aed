import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveSettings, settingsFor } from '../../server/admin/settings.ts';
import type { Database } from '../../server/db/connection.ts';
import { createLocalStorage } from '../../server/media/storage.ts';
import { tellDeskOfOverdueRcTransfers, type RcTransferServices } from '../../server/sales/rc-transfers.ts';
import { cancelSale, recordSale, type SaleServices } from '../../server/sales/sales.ts';
import type { Sale } from '../../server/sales/store.ts';
import { saleFormSchema } from '../../app/features/sales/schemas.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, mainText, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { deskServices, movableClock, outboxFor } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { walkInSaleForm } from '../support/sales.ts';

/**
 * A sold car's registration (RC) transfer (decision 117), on SQLite and PostgreSQL: steps in
 * order with their dates, a step out of order refused (409 `out-of-order` naming the next step),
 * ten desks recording one step at once moving it once and telling the buyer once, the buyer's
 * own transfers in the API and nobody else's, the overdue warning on the panel and exactly one
 * mail to the desk however often its job runs, the messages in the sale's language, a cancelled
 * sale's transfer closed.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
const DESK = 'desk@gaadibazaar.in';
const GSTIN = '27AAPFU0939F1ZV';
const DAY = 86_400_000;
const AS_PROGRAM = { headers: { accept: 'application/problem+json, application/json' } };

describe.skipIf(!sharedUrl)(`the registration transfer of a sold car (${dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let services: SaleServices & RcTransferServices;
  let admin: HttpClient;
  let buyer: HttpClient;
  let stranger: HttpClient;
  let buyerEmail: string;
  const clock = movableClock(Date.now());
  let cars: number[] = [];

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    services = {
      ...deskServices(database, clock),
      privateStorage: createLocalStorage(path.join(server.dataDir, 'private')),
      pageCache: { clear: () => {} },
      listingTotals: { clear: () => {} },
      changeNotices: { announce: async () => {} },
    } as unknown as SaleServices & RcTransferServices;
    await saveSettings(
      services as never,
      {
        ...(await settingsFor(services)),
        dealerLegalName: 'Gaadi Bazaar Motors LLP',
        dealerAddress: 'Andheri East, Mumbai 400069',
        dealerGstin: GSTIN,
        adminEmail: DESK,
      },
      ADMIN.email,
    );
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
    buyer = new HttpClient(server.url);
    buyerEmail = uniqueEmail('rcbuyer');
    await signUp(buyer, buyerEmail);
    stranger = new HttpClient(server.url);
    await signUp(stranger, uniqueEmail('stranger'));
    const rows = await database.db.selectFrom('vehicles').select('id').where('purpose', '=', 'sale').where('status', '=', 'available').orderBy('id').execute();
    cars = rows.map((row) => Number(row.id));
    expect(cars.length).toBeGreaterThanOrEqual(4);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  /** A walk-in's sale of `car`, to the buyer's account when `email` is theirs, in `language`. */
  async function sell(car: number, options: { email?: string; language?: 'en' | 'hi' } = {}): Promise<Sale> {
    const form = saleFormSchema.parse(walkInSaleForm(car, { buyerPhone: uniqueMobile(), buyerEmail: options.email ?? '', language: options.language ?? 'en' }));
    return recordSale(services, { ...form, actorEmail: ADMIN.email });
  }

  const post = (saleId: number, fields: Record<string, string>) => admin.postForm(`/admin/sales/${saleId}/transfer`, fields, AS_PROGRAM);

  let bought: Sale;

  it('opens the transfer with the sale, and moves it only to the next step: one out of order is 409 `out-of-order` naming the next', async () => {
    bought = await sell(cars[0]!, { email: buyerEmail });
    const opened = await database.db.selectFrom('rc_transfers').selectAll().where('sale_id', '=', bought.id).executeTakeFirstOrThrow();
    expect(opened.step).toBe('sold');
    const skipped = await post(bought.id, { step: 'submitted', applicationNumber: 'MH2411123456789' });
    expect(skipped.status).toBe(409);
    expect(skipped.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await skipped.json()) as { reason: string; detail: string };
    expect(problem.reason).toBe('out-of-order');
    expect(problem.detail).toContain('the next step is “Forms 29 and 30 signed”');
    const unknown = await post(bought.id, { step: 'sold' });
    expect(unknown.status).toBe(400);
    expect((await database.db.selectFrom('rc_transfers').select('step').where('sale_id', '=', bought.id).executeTakeFirstOrThrow()).step).toBe('sold');
  });

  it('records each step in order with its date and who recorded it; a refused field says why; the buyer is told at each step', async () => {
    const before = Date.now();
    expect((await post(bought.id, { step: 'forms-signed', form35Needed: 'on' })).status).toBe(200);
    const badNumber = await post(bought.id, { step: 'submitted', applicationNumber: 'MH12' });
    expect(badNumber.status).toBe(400);
    expect(((await badNumber.json()) as { fields: Record<string, string> }).fields.applicationNumber).toContain('8 to 14 digits');
    expect((await post(bought.id, { step: 'submitted', applicationNumber: 'mh 2411 123456789' })).status).toBe(200);
    expect((await post(bought.id, { step: 'fee-paid', fee: '1,250', feeReceipt: 'RTO-77812' })).status).toBe(200);
    expect((await post(bought.id, { step: 'rc-issued', newRegistration: '' })).status).toBe(200);
    const last = await post(bought.id, { step: 'delivered' });
    expect(last.status).toBe(200);
    expect(((await last.json()) as { transfer: { state: string; next: null } }).transfer).toMatchObject({ state: 'delivered', next: null });
    const row = await database.db.selectFrom('rc_transfers').selectAll().where('sale_id', '=', bought.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      step: 'delivered',
      application_number: 'MH2411123456789',
      fee_receipt: 'RTO-77812',
      new_registration: null,
      forms_signed_by: ADMIN.email,
      delivered_by: ADMIN.email,
    });
    expect(Number(row.fee_paise)).toBe(1_250_00);
    expect(Number(row.form35_needed)).toBe(1);
    const times = [row.forms_signed_ms, row.submitted_ms, row.fee_paid_ms, row.rc_issued_ms, row.delivered_ms].map(Number);
    for (const time of times) expect(time).toBeGreaterThanOrEqual(before - 1000);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // After the end, every step is out of order.
    const again = await post(bought.id, { step: 'delivered' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { reason: string }).reason).toBe('out-of-order');
    // A mail and an SMS per step, in the sale's language (English here).
    const mails = (await outboxFor(database, buyerEmail)).filter((message) => message.subject?.startsWith('Registration transfer'));
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Registration transfer of your ${bought.vehicle.title}: Forms 29 and 30 signed`,
      `Registration transfer of your ${bought.vehicle.title}: Submitted to the RTO`,
      `Registration transfer of your ${bought.vehicle.title}: Transfer fee paid`,
      `Registration transfer of your ${bought.vehicle.title}: New RC issued`,
      `Registration transfer of your ${bought.vehicle.title}: RC delivered to the buyer`,
    ]);
    expect(mails[1]!.body).toContain('Application number MH2411123456789.');
    expect(mails[2]!.body).toContain('Fee ₹1,250, receipt RTO-77812.');
    const sms = (await outboxFor(database, bought.buyer.phone)).filter((message) => message.channel === 'sms');
    expect(sms).toHaveLength(5);
    expect(sms[0]!.body).toMatch(/^Gaadi Bazaar: RC transfer of .+: Forms 29 and 30 signed\.$/);
    const audit = await database.db
      .selectFrom('audit_log')
      .select('summary')
      .where('action', '=', 'rc-step')
      .where('entity_id', '=', String(bought.id))
      .execute();
    expect(audit).toHaveLength(5);
  });

  it('tells a Hindi buyer in Hindi', async () => {
    const sale = await sell(cars[1]!, { email: uniqueEmail('hindi'), language: 'hi' });
    expect((await post(sale.id, { step: 'forms-signed' })).status).toBe(200);
    const [mail] = await outboxFor(database, sale.buyer.email);
    expect(mail!.subject).toBe(`आपकी ${sale.vehicle.title} का रजिस्ट्रेशन ट्रांसफ़र: फ़ॉर्म 29 और 30 पर दस्तख़त`);
    const [sms] = await outboxFor(database, sale.buyer.phone);
    expect(sms!.body).toContain('RC ट्रांसफ़र');
  });

  let racing: Sale;

  it('ten desks recording the same step at once move it once and tell the buyer once', async () => {
    racing = await sell(cars[2]!, { email: uniqueEmail('race') });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(racing.id, { step: 'forms-signed' })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const answer of answers.filter((one) => one.status === 409)) expect(((await answer.json()) as { reason: string }).reason).toBe('out-of-order');
    expect(await outboxFor(database, racing.buyer.email)).toHaveLength(1);
    expect((await outboxFor(database, racing.buyer.phone)).filter((message) => message.channel === 'sms')).toHaveLength(1);
    const audit = await database.db.selectFrom('audit_log').select('id').where('action', '=', 'rc-step').where('entity_id', '=', String(racing.id)).execute();
    expect(audit).toHaveLength(1);
  });

  it("shows the buyer their own transfers in the API and on the profile; anyone else's are absent", async () => {
    const mine = await buyer.get('/api/v1/me/sales');
    expect(mine.status).toBe(200);
    const { items } = (await mine.json()) as {
      items: Array<{ saleId: number; transfer: { state: string; steps: Array<{ step: string; doneAt: string | null }>; applicationNumber: string } }>;
    };
    expect(items.map((item) => item.saleId)).toEqual([bought.id]);
    expect(items[0]!.transfer).toMatchObject({ state: 'delivered', applicationNumber: 'MH2411123456789' });
    expect(items[0]!.transfer.steps.map((step) => step.step)).toEqual(['forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered']);
    expect(items[0]!.transfer.steps.every((step) => step.doneAt !== null)).toBe(true);
    // The admins who recorded the steps are not the buyer's to see.
    expect(JSON.stringify(items)).not.toContain(ADMIN.email);
    const profile = mainText(await (await buyer.get('/profile')).text());
    expect(profile).toContain('Registration transfer');
    expect(profile).toContain('RC delivered to the buyer');
    const theirs = (await (await stranger.get('/api/v1/me/sales')).json()) as { items: unknown[] };
    expect(theirs.items).toEqual([]);
    expect(mainText(await (await stranger.get('/profile')).text())).not.toContain('Registration transfer');
    expect((await new HttpClient(server.url).get('/api/v1/me/sales')).status).toBe(401);
    // The desk's own route is the desk's: a buyer is turned away.
    expect([302, 303, 403, 404]).toContain((await buyer.get(`/admin/sales/${bought.id}/transfer`)).status);
  });

  it('past the setting’s days: the panel warns, the list marks it first, and the desk is mailed exactly once however often the job runs', async () => {
    const late = await sell(cars[3]!);
    await database.db
      .updateTable('rc_transfers')
      .set({ sold_ms: Date.now() - 40 * DAY })
      .where('sale_id', '=', late.id)
      .execute();
    clock.set(Date.now());
    const panel = mainText(await (await admin.get('/admin-panel')).text());
    expect(panel).toMatch(/1\s*Registration transfers overdue/);
    const list = await (await admin.get('/admin/sales/transfers')).text();
    const listText = mainText(list);
    expect(listText).toContain('40 days since the sale');
    expect(listText).toContain('Overdue');
    // Overdue first; the delivered transfer is not a liability any more.
    expect(listText.indexOf(late.invoiceNumber)).toBeLessThan(listText.indexOf(racing.invoiceNumber));
    expect(listText).not.toContain(bought.invoiceNumber);
    await Promise.all([tellDeskOfOverdueRcTransfers(services), tellDeskOfOverdueRcTransfers(services)]);
    await tellDeskOfOverdueRcTransfers(services);
    const told = (await outboxFor(database, DESK)).filter((mail) => mail.subject?.startsWith('Registration transfer overdue'));
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toContain(late.invoiceNumber);
    expect(told[0]!.body).toContain('40 days');
  });

  it("closes a cancelled sale's transfer: off the list, and no step is recorded any more", async () => {
    await cancelSale(services, { saleId: racing.id, reason: 'The buyer changed his mind', actorEmail: ADMIN.email });
    const row = await database.db.selectFrom('rc_transfers').select(['step', 'closed_ms']).where('sale_id', '=', racing.id).executeTakeFirstOrThrow();
    expect(row.step).toBe('closed');
    expect(row.closed_ms).not.toBeNull();
    const refused = await post(racing.id, { step: 'submitted', applicationNumber: 'MH2411123456789' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { reason: string }).reason).toBe('closed');
    expect(mainText(await (await admin.get('/admin/sales/transfers')).text())).not.toContain(racing.invoiceNumber);
    const missing = await post(2_147_483_000, { step: 'forms-signed' });
    expect(missing.status).toBe(404);
  });
});
