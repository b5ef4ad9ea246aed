import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { apiClient, type ApiClient } from '../support/api/client.ts';
import type { operations } from '../support/api/schema.d.ts';
import { openServerDatabase } from '../support/database.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { saveDealerSettings, walkInSaleForm } from '../support/sales.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The desk's sales in the JSON API (decision 120): an admin's site session only (no app token,
 * no buyer), the same refusals as the desk's page as problem+json with `reason` and `fields`,
 * a second sale of a car 409, a cancel by credit note, and the operations in the OpenAPI document.
 */

const { dialect, url: sharedUrl } = sharedServer();
type SaleBody = operations['postAdminSales']['requestBody']['content']['application/json'];
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

describe.skipIf(!sharedUrl)(`the desk's sales API (${dialect})`, () => {
  let server: TestServer;
  let database: Database;
  let desk: ApiClient;
  let deskPages: HttpClient;
  let car: number;

  /** The walk-in's sale as the API takes it: the car's id a number, the rest as the form types it. */
  const sale = (changes: Record<string, string> = {}): SaleBody => ({ ...walkInSaleForm(car, changes), vehicleId: car }) as SaleBody;

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    deskPages = new HttpClient(server.url);
    expect((await deskPages.postForm('/admin-login', { ...ADMIN, botCheck: await deskPages.botToken('LOGIN') })).status).toBe(302);
    desk = apiClient(server.url, { jar: deskPages.jar });
    const row = await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    car = Number(row.id);
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('answers 401 without a session and with an app token (even an admin’s), 403 to a buyer', async () => {
    const anonymous = apiClient(server.url);
    expect((await anonymous.GET('/admin/sales/{id}', { params: { path: { id: 1 } } })).response.status).toBe(401);

    const signIn = new HttpClient(server.url);
    const signedIn = await fetch(`${server.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': signIn.address! },
      body: JSON.stringify({ ...ADMIN, botCheck: await signIn.botToken('LOGIN') }),
    });
    expect(signedIn.status).toBe(200);
    const app = apiClient(server.url);
    app.useToken(((await signedIn.json()) as { token: string }).token);
    const withToken = await app.POST('/admin/sales', { body: sale() });
    expect(withToken.response.status).toBe(401);
    expect(withToken.response.headers.get('content-type')).toContain('application/problem+json');

    const buyerPages = new HttpClient(server.url);
    await signUp(buyerPages, uniqueEmail('api-buyer'));
    const buyer = apiClient(server.url, { jar: buyerPages.jar });
    const refused = await buyer.POST('/admin/sales', { body: sale() });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.detail).toBe("This is for the dealer's admins only.");
    expect(await database.db.selectFrom('sales').select('id').where('vehicle_id', '=', car).execute()).toEqual([]);
  });

  it('refuses as the page does, as problem+json: no GSTIN, a chassis number of the wrong shape, a body that is not JSON', async () => {
    const noGstin = await desk.POST('/admin/sales', { body: sale() });
    expect(noGstin.response.status).toBe(400);
    expect(noGstin.error).toMatchObject({ reason: 'dealer-gstin-missing', detail: expect.stringContaining("dealer's GSTIN") });

    expect([302, 303]).toContain(await saveDealerSettings(deskPages));

    const badChassis = await desk.POST('/admin/sales', { body: sale({ chassisNumber: 'MA3EWDE1SO0123456', buyerPan: '' }) });
    expect(badChassis.response.status).toBe(400);
    expect(badChassis.error?.fields).toMatchObject({ chassisNumber: 'The chassis number (VIN) has 17 letters and digits, without I, O or Q.' });

    const noPan = await desk.POST('/admin/sales', { body: sale({ buyerPan: '' }) });
    expect(noPan.response.status).toBe(400);
    expect(noPan.error?.fields).toMatchObject({ buyerPan: 'A PAN is required for a sale above ₹2,00,000.' });

    for (const body of ['{"vehicleId":', '[1,2]', 'null', '"text"']) {
      const answer = await fetch(`${server.url}/api/v1/admin/sales`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: deskPages.jar.header(), origin: server.url },
        body,
      });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    }
    // From another site, the admin's cookie does not carry a post.
    const forged = await fetch(`${server.url}/api/v1/admin/sales`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: deskPages.jar.header(), origin: 'https://evil.example' },
      body: JSON.stringify(sale()),
    });
    expect(forged.status).toBe(403);
    expect(await database.db.selectFrom('sales').select('id').where('vehicle_id', '=', car).execute()).toEqual([]);
  });

  it('records a sale with its invoice number and tax, refuses a second sale of the car, and cancels it by credit note', async () => {
    const recorded = await desk.POST('/admin/sales', { body: sale() });
    expect(recorded.response.status).toBe(201);
    const first = recorded.data!.sale;
    expect(first).toMatchObject({
      status: 'recorded',
      source: 'desk',
      vehicleId: car,
      pricePaise: 65_000_000,
      purchasePricePaise: 59_000_000,
      scheme: 'margin',
    });
    expect(first.invoiceNumber).toMatch(/^GB\/20\d\d-\d\d\/\d{5}$/);
    // 18% held in the ₹60,000 margin, halved into CGST and SGST within Maharashtra.
    expect(first.taxPaise).toBe(915_254);
    expect(first.taxLines.map((line) => line.kind)).toEqual(['cgst', 'sgst']);

    const again = await desk.POST('/admin/sales', { body: sale() });
    expect(again.response.status).toBe(409);
    expect(again.error?.reason).toBe('sold');

    const read = await desk.GET('/admin/sales/{id}', { params: { path: { id: first.id } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.sale.documents.map((document) => document.kind)).toEqual(['tax-invoice']);
    for (const id of [0, 2_147_483_648, 99_999_999]) expect((await desk.GET('/admin/sales/{id}', { params: { path: { id } } })).response.status).toBe(404);

    const noReason = await desk.POST('/admin/sales/{id}/cancel', { params: { path: { id: first.id } }, body: { reason: '  ' } });
    expect(noReason.response.status).toBe(400);
    const cancelled = await desk.POST('/admin/sales/{id}/cancel', { params: { path: { id: first.id } }, body: { reason: 'The buyer’s loan fell through' } });
    expect(cancelled.response.status).toBe(200);
    expect(cancelled.data!.sale).toMatchObject({ status: 'cancelled', cancelReason: 'The buyer’s loan fell through' });
    expect(cancelled.data!.sale.creditNoteNumber).toMatch(/^CN\/20\d\d-\d\d\/\d{5}$/);
    const twice = await desk.POST('/admin/sales/{id}/cancel', { params: { path: { id: first.id } }, body: { reason: 'again' } });
    expect(twice.response.status).toBe(409);
    expect(twice.error?.reason).toBe('cancelled');
  });

  it('documents the desk’s operations as taking the site session only', async () => {
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security: unknown; responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ['/admin/sales', 'post'],
      ['/admin/sales/{id}', 'get'],
      ['/admin/sales/{id}/cancel', 'post'],
    ] as const) {
      const operation = document.paths[path]![method]!;
      expect(operation.security).toEqual([{ sessionCookie: [] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '404']));
    }
  });
});
