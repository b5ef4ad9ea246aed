import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionAnswerSchema } from '../../server/http/api-answers.ts';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText, waitForOutbox } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';
import { verifiedPerson as verifiedPersonOn } from '../support/people.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';
import { saveDealerSettings, walkInSaleForm } from '../support/sales.ts';

/**
 * Buying a seller's car and the dealer's books, through the running app on SQLite and
 * PostgreSQL (decision 118): a purchase only from an accepted offer (409 with the reason
 * otherwise), ten at once giving one, the Form 29C date checked beside its field, the draft
 * carrying its purchase price into the sale; the month's registers with a cancelled sale's
 * credit note as a negative row, their CSV (byte-order mark, quotes, formulas guarded), the
 * stock's age, and the books closed to anyone but an admin.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
const today = addDays(indiaDay(Date.now()), 1);
const month = today.slice(0, 7);
const car = { make: 'Maruti Suzuki', model: 'Baleno', year: 2020, fuel: 'Petrol', transmission: 'Manual', km: 38_000, owners: 1, registrationState: 'MH' };

let server: TestServer;
let database: Database;
let admin: HttpClient;
let slotsTaken = 0;

function freshSlot(): string {
  const index = slotsTaken++;
  return `${addDays(today, 1 + Math.floor(index / 8))}T${String(10 + (index % 8)).padStart(2, '0')}:00`;
}

async function postJson(client: HttpClient, path: string, body: unknown = {}) {
  const response = await client.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

async function desk(id: number, fields: Record<string, string>, client = admin) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await client.request(`/admin/inspections/${id}`, { method: 'POST', body: form });
  const location = response.headers.get('location');
  const html = location ? (await response.body?.cancel(), await (await client.get(location)).text()) : await response.text();
  return { status: response.status, location, text: decodeEntities(mainText(html)), html };
}

/** A seller's inspection booked, recorded and offered; accepted by the seller unless told not to. */
async function offered(accept = true): Promise<{ id: number; email: string; phone: string }> {
  const seller = await verifiedPersonOn(server.url, database, { label: 'seller', name: 'Sunita Rao', password: PASSWORD });
  const booked = await postJson(seller.client, '/api/v1/inspections', {
    car,
    mode: 'home',
    pinCode: '400069',
    street: '12 Sea View, Juhu Tara Rd',
    slot: freshSlot(),
  });
  expect(booked.status).toBe(201);
  const id = inspectionAnswerSchema.parse(booked.body).inspection.id;
  expect((await desk(id, { intent: 'record', 'item-0': 'Good', odometer: '38,400', notes: '' })).status).toBe(303);
  expect((await desk(id, { intent: 'offer', amount: '4,25,000', validUntil: addDays(today, 5) })).status).toBe(303);
  if (accept) expect((await postJson(seller.client, `/api/v1/me/inspections/${id}/offer/accept`)).status).toBe(200);
  return { id, email: seller.email, phone: seller.phone };
}

async function categoryId(): Promise<string> {
  return String((await database.db.selectFrom('categories').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
}

const purchase = (changes: Record<string, string> = {}) => ({
  intent: 'purchase',
  price: '4,25,000',
  method: 'transfer',
  reference: 'UTR SBIN0012345678',
  'doc-rc': 'on',
  'doc-keys': 'on',
  'doc-form-29': 'on',
  documentsOther: '',
  possessionDate: today,
  sellerName: 'Sunita Rao',
  sellerPhone: '98200 55555',
  sellerAddress: '12 Sea View, Juhu Tara Rd, Mumbai 400049',
  ...changes,
});

/** RFC 4180 rows of a CSV text (quoted fields, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  return rows;
}

describe.skipIf(!shared.url)(`buying from a seller and the dealer's books (${shared.dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: PASSWORD,
        ADMIN_EMAILS: ADMIN,
        SETTINGS_CACHE_SECONDS: '0',
        PAGE_CACHE_SECONDS: '0',
        LOG_LEVEL: 'warn',
        TEST_CLOCK_START: `${today}T11:30:00+05:30`,
      },
    });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
  }, 240_000);
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  let vehicleId: number;

  it('refuses a purchase of an offer not accepted, with the reason', async () => {
    const { id } = await offered(false);
    const refused = await desk(id, purchase({ categoryId: await categoryId() }));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Only an accepted offer becomes a purchase');
    expect(await database.db.selectFrom('purchases').select('id').where('inspection_id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('refuses a date of possession in the future beside its field, keeping what was typed', async () => {
    const { id } = await offered();
    const refused = await desk(id, purchase({ possessionDate: addDays(today, 1), categoryId: await categoryId(), reference: 'UTR KEEP ME' }));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('The date of possession cannot be in the future.');
    expect(refused.html).toMatch(/id="purchase-possession-error"[^>]*>The date of possession cannot be in the future\./);
    expect(refused.html).toContain('value="UTR KEEP ME"');
    const noReference = await desk(id, purchase({ reference: '', categoryId: await categoryId() }));
    expect(noReference.status).toBe(400);
    expect(noReference.text).toContain("Enter the payment's reference");
  });

  it('records the purchase of an accepted offer: the draft is made with its purchase price, the seller is told with the reference; ten at once give one', async () => {
    const { id, email, phone } = await offered();
    const answers = await Promise.all(Array.from({ length: 10 }, () => desk(id, purchase({ categoryId: '' }), admin)));
    // The first needs a category for the draft it makes.
    expect(answers.every((answer) => answer.status === 400)).toBe(true);
    const cat = await categoryId();
    const many = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const form = new FormData();
        for (const [key, value] of Object.entries(purchase({ categoryId: cat }))) form.append(key, value);
        const response = await admin.request(`/admin/inspections/${id}`, { method: 'POST', body: form });
        await response.body?.cancel();
        return response.status;
      }),
    );
    expect(many.filter((status) => status === 303)).toHaveLength(1);
    expect(many.filter((status) => status === 409)).toHaveLength(9);
    const rows = await database.db.selectFrom('purchases').selectAll().where('inspection_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(Number(row.price_paise)).toBe(42_500_000);
    expect(JSON.parse(row.documents)).toEqual(['rc', 'form-29', 'keys']);
    expect(row.possession_date).toBe(today);
    expect(row.seller_phone).toBe('+919820055555');
    vehicleId = Number(row.vehicle_id);
    const vehicle = await database.db
      .selectFrom('vehicles')
      .select(['status', 'purchase_price_paise', 'purchased_at'])
      .where('id', '=', vehicleId)
      .executeTakeFirstOrThrow();
    expect(vehicle).toMatchObject({ status: 'draft', purchased_at: today });
    expect(Number(vehicle.purchase_price_paise)).toBe(42_500_000);
    const inspection = await database.db.selectFrom('inspections').select('draft_vehicle_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(inspection.draft_vehicle_id)).toBe(vehicleId);
    // The summary, with a link to the draft.
    const page = decodeEntities(mainText(await (await admin.get(`/admin/inspections/${id}`)).text()));
    expect(page).toContain('₹4,25,000 paid by bank transfer, reference UTR SBIN0012345678');
    expect(page).toContain(`(vehicle #${vehicleId})`);
    expect(page).toContain('Documents received: RC (registration certificate), Form 29 (signed), Keys');
    const mail = await waitForOutbox(admin, 'email', email, (entry) => entry.subject === 'Payment for your 2020 Maruti Suzuki Baleno: ₹4,25,000');
    expect(mail.body).toContain("The payment's reference is UTR SBIN0012345678.");
    // The SMS goes to the number the desk confirmed at the purchase.
    await waitForOutbox(admin, 'sms', '+919820055555', (entry) => entry.body.includes('ref UTR SBIN0012345678'));
    expect(phone).not.toBe('');
    // The seller's estimate counts what the dealer paid.
    const estimate = await postJson(admin, '/api/v1/sell-estimates', car);
    expect(estimate.status).toBe(200);
    expect(estimate.body).toMatchObject({ estimate: { kind: 'range', basis: { bought: 1 } } });
    const audit = await database.db.selectFrom('audit_log').select('summary').where('action', '=', 'purchase').where('entity_id', '=', String(id)).execute();
    expect(audit).toHaveLength(1);
  });

  it('the sale of the bought car takes its purchase price when the desk leaves it empty; the sale form shows it', async () => {
    expect([302, 303]).toContain(await saveDealerSettings(admin));
    const form = await (await admin.get(`/admin/sales/new?vehicle=${vehicleId}`)).text();
    expect(form).toMatch(/name="purchasePrice"[^>]*value="425000"|value="425000"[^>]*name="purchasePrice"/);
    const sold = await admin.postForm(
      '/admin/sales/new',
      walkInSaleForm(vehicleId, {
        buyerName: '=HYPERLINK("http://evil","Meera, "M" Kulkarni")',
        buyerAddress: 'Flat 4, Shanti Niwas, Pune 411038',
        price: '5,43,000',
        paid: '5,43,000',
        purchasePrice: '',
      }),
    );
    expect(sold.status).toBe(303);
    const sale = await database.db.selectFrom('sales').selectAll().where('vehicle_id', '=', vehicleId).executeTakeFirstOrThrow();
    expect(Number(sale.purchase_price_paise)).toBe(42_500_000);
    // 18% within ₹1,18,000 of margin: ₹18,000 of tax on ₹1,00,000.
    expect(Number(sale.taxable_paise)).toBe(10_000_000);
    expect(Number(sale.tax_paise)).toBe(1_800_000);
  });

  it('the books: two sales and a cancelled one in the month, its credit note a negative row; totals; CSV with BOM, quotes and formulas guarded', async () => {
    const cars = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id')
      .limit(2)
      .execute();
    const saleIds: number[] = [];
    for (const [index, row] of cars.entries()) {
      const sold = await admin.postForm(
        '/admin/sales/new',
        walkInSaleForm(Number(row.id), {
          buyerName: `Buyer ${index}`,
          buyerAddress: 'Pune',
          supplyState: index === 0 ? '27' : '29',
          price: '3,00,000',
          paid: '3,00,000',
          purchasePrice: '2,41,000',
        }),
      );
      expect(sold.status).toBe(303);
      saleIds.push(Number(sold.headers.get('location')!.split('/').at(-1)));
    }
    expect((await admin.postForm(`/admin/sales/${saleIds[1]}`, { reason: 'The buyer returned the car' })).status).toBe(303);
    const sales = await database.db.selectFrom('sales').selectAll().where('id', 'in', saleIds).orderBy('id').execute();

    const page = await admin.get(`/admin/books?month=${month}`);
    expect(page.status).toBe(200);
    const text = decodeEntities(mainText(await page.text()));
    expect(text).toContain(sales[1]!.credit_note_number!);
    expect(text).toContain('Credit note');

    const csvResponse = await admin.get(`/admin/books/sales.csv?month=${month}`);
    expect(csvResponse.status).toBe(200);
    expect(csvResponse.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await csvResponse.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // TextDecoder takes the byte-order mark off, as Excel does.
    const rows = parseCsv(new TextDecoder().decode(bytes));
    expect(rows[0]).toEqual(expect.arrayContaining(['Number', 'Taxable value', 'CGST', 'SGST', 'IGST']));
    const header = rows[0]!;
    const col = (name: string) => header.indexOf(name);
    const body = rows.slice(1, -1);
    // Three invoices (the bought car's and two more) and one credit note.
    expect(body.filter((row) => row[col('Kind')] === 'Tax invoice')).toHaveLength(3);
    const credit = body.find((row) => row[col('Kind')] === 'Credit note')!;
    expect(credit[col('Number')]).toBe(sales[1]!.credit_note_number);
    expect(credit[col('Price')]).toBe('-300000.00');
    // 18% in ₹59,000 of margin: ₹9,000 IGST (Karnataka), negative on the credit note.
    expect(credit[col('IGST')]).toBe('-9000.00');
    expect(credit[col('Taxable value')]).toBe('-50000.00');
    const intra = body.find((row) => row[col('Number')] === sales[0]!.invoice_number)!;
    expect(intra[col('CGST')]).toBe('4500.00');
    expect(intra[col('SGST')]).toBe('4500.00');
    // The buyer's name with a comma and quotes, and a formula, kept as text.
    expect(body.some((row) => row[col('Buyer')] === `'=HYPERLINK("http://evil","Meera, "M" Kulkarni")`)).toBe(true);
    // Totals: three invoices less the credit note.
    const totals = rows.at(-1)!;
    expect(totals[0]).toBe('Totals');
    expect(totals[col('Price')]).toBe('843000.00');
    expect(totals[col('IGST')]).toBe('0.00');
    expect(totals[col('CGST')]).toBe('13500.00');

    const purchases = parseCsv((await (await admin.get(`/admin/books/purchases.csv?month=${month}`)).text()).replace(/^\uFEFF/, ''));
    expect(purchases.some((row) => row.includes('UTR SBIN0012345678') && row.includes('425000.00'))).toBe(true);
  });

  it('the stock with its purchase price and age, oldest first; a month that is not one is told, not a 500', async () => {
    const draft = await database.db
      .insertInto('vehicles')
      .values({
        category_id: Number(await categoryId()),
        name: 'Honda City',
        make: 'Honda',
        model: 'City',
        variant: '',
        year: '2018',
        fuel_type: 'Petrol',
        transmission: 'Manual',
        price: '',
        price_rupees: null,
        owners: '1',
        registration: 'MH 02 AB 1234',
        insurance_validity: '',
        odometer: 50_000,
        fitness_fc: '',
        tyre_point: '',
        description: '',
        featured: 0,
        inspection: null,
        refurbishment: null,
        financial: null,
        video_url: '',
        status: 'draft',
        sold_price: null,
        sold_at: null,
        search_text: 'honda city',
        model_year: 2018,
        owner_count: 1,
        purchase_price_paise: 30_000_000,
        purchased_at: addDays(today, -400),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stock = parseCsv((await (await admin.get(`/admin/books/stock.csv?month=${month}`)).text()).replace(/^\uFEFF/, ''));
    const first = stock[1]!;
    expect(first[0]).toBe('2018 Honda City');
    expect(first[3]).toBe('300000.00');
    expect(first[5]).toBe('400');
    const page = decodeEntities(mainText(await (await admin.get('/admin/books')).text()));
    expect(page).toContain('Stock');
    expect(page).toContain('2018 Honda City');
    await database.db.deleteFrom('vehicles').where('id', '=', Number(draft.id)).execute();

    const bad = await admin.get('/admin/books?month=2026-13');
    expect(bad.status).toBe(400);
    expect(decodeEntities(mainText(await bad.text()))).toContain('Choose a month as YYYY-MM');
    expect((await admin.get('/admin/books/sales.csv?month=%00')).status).toBe(400);
    expect((await admin.get('/admin/books/other.csv')).status).toBe(404);
  });

  it('is closed to anyone but an admin', async () => {
    const stranger = new HttpClient(server.url);
    for (const path of ['/admin/books', `/admin/books/sales.csv?month=${month}`]) {
      const answer = await stranger.get(path);
      expect([302, 303, 401, 403, 404]).toContain(answer.status);
      expect(await answer.text()).not.toContain('Sales register');
    }
    const person = await verifiedPersonOn(server.url, database, { label: 'buyer', name: 'Not Admin', password: PASSWORD });
    const refused = await person.client.get(`/admin/books/sales.csv?month=${month}`);
    expect(refused.status).not.toBe(200);
    const { id } = await offered();
    expect((await desk(id, purchase({ categoryId: await categoryId() }), person.client)).status).not.toBe(303);
  });
});
