import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * How admin actions answer (decision 017): a refusal from the error vocabulary keeps its
 * message and status; a failure nobody planned for (here: the audit log's table is gone, so
 * every change fails after its first write) is logged and answered with the page's fixed
 * sentence and 500, and the database's own message never reaches the admin's page.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

let server: TestServer;
let database: Database;
let admin: HttpClient;

function toastOf(html: string): string | null {
  const match = /role="(?:status|alert)"[^>]*><span>([\s\S]*?)<\/span>/.exec(html);
  return match ? decodeEntities(match[1]!.replace(/<!--[\s\S]*?-->/g, '')) : null;
}

async function post(path: string, fields: Record<string, string>) {
  const response = await admin.postForm(path, fields);
  const html = await response.text();
  return { status: response.status, html, toast: toastOf(html) };
}

async function firstId(path: string): Promise<number> {
  const body = (await (await fetch(server.url + path)).json()) as { items?: Array<{ id: number }> } | Array<{ id: number }>;
  const items = Array.isArray(body) ? body : body.items!;
  return items[0]!.id;
}

async function newRequestId(): Promise<number> {
  const at = new Date().toISOString();
  const row = await database.db
    .insertInto('vehicle_requests')
    .values({
      name: 'Ravi Kumar',
      phone: '98765 43210',
      model: 'Swift',
      year: '',
      budget: '5 lakh',
      description: '',
      status: 'new',
      notes: '',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.skipIf(!sharedUrl)(`admin actions answer errors by kind (${dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
    expect(signedIn.status, 'admin sign-in').toBe(302);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('refusals keep their message and status', async () => {
    const missingCategory = await post('/admin-panel/categories', { intent: 'delete', id: '99999999' });
    expect(missingCategory.status).toBe(404);
    expect(missingCategory.toast).toBe('Failed to delete category: Category not found');

    const missingLead = await post('/admin/requested-vehicles', { intent: 'update', id: '99999999', status: 'closed', notes: '' });
    expect(missingLead.status).toBe(404);
    expect(missingLead.toast).toBe('This lead no longer exists. It may have been deleted.');

    const takenName = await post('/admin/add-category', { name: 'hatchbacks' });
    expect(takenName.status).toBe(400);
    expect(takenName.toast).toBe('A category named "hatchbacks" already exists.');
  });

  it('an unexpected failure is logged and answered with a fixed sentence, never its own message', async () => {
    const vehicleId = await firstId('/api/v1/vehicles?perPage=1');
    const categoryId = await firstId('/api/v1/categories');
    const leadId = await newRequestId();
    server.expectErrorLog(/delete vehicle failed|update category failed|leads: admin change failed/);
    await sql`ALTER TABLE audit_log RENAME TO audit_log_away`.execute(database.db);
    try {
      const vehicle = await post('/admin-panel/vehicles', { intent: 'delete', id: String(vehicleId) });
      expect(vehicle.status).toBe(500);
      expect(vehicle.toast).toBe('Failed to delete vehicle: please try again');

      const category = await post('/admin-panel/categories', { intent: 'update', id: String(categoryId), name: 'Renamed Category' });
      expect(category.status).toBe(500);
      expect(category.toast).toBe('Failed to update category');

      const lead = await post('/admin/requested-vehicles', { intent: 'update', id: String(leadId), status: 'closed', notes: '' });
      expect(lead.status).toBe(500);
      expect(lead.toast).toBe('The change could not be saved. Please try again.');

      for (const page of [vehicle, category, lead]) {
        expect(page.html).not.toMatch(/audit_log|no such table|does not exist|at async/);
      }
    } finally {
      await sql`ALTER TABLE audit_log_away RENAME TO audit_log`.execute(database.db);
    }
    const logged = server.output();
    expect(logged).toMatch(/"msg":"delete vehicle failed"/);
    expect(logged).toMatch(/"msg":"leads: admin change failed"/);
  });
});
