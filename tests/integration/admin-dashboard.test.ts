import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openServerDatabase } from '../support/database.ts';
import { decodeEntities, HttpClient, mainText } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The admin dashboard opens with today's work: new leads since the admin's last visit, each a
 * link to its list, then the cards. A visit is a run of loads less than 30 minutes apart; the
 * test moves a visit into the past in the database rather than waiting.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
const HOUR = 3_600_000;

let server: TestServer;
let database: Database;
let admin: HttpClient;

async function addLead(kind: 'request' | 'sell', createdAt: Date, status: 'new' | 'contacted' = 'new') {
  const at = createdAt.toISOString();
  if (kind === 'request') {
    await database.db
      .insertInto('vehicle_requests')
      .values({ name: 'Ravi Kumar', phone: '98765 43210', model: 'Swift', year: '', budget: '5 lakh', description: '', status, notes: '', created_at: at, updated_at: at })
      .execute();
  } else {
    await database.db
      .insertInto('sell_submissions')
      .values({ name: 'Asha Rao', phone: '98765 43211', vehicle: 'Honda City', year: '2018', price: '450000', description: '', status, notes: '', created_at: at, updated_at: at })
      .execute();
  }
}

/** The count on the dashboard tile labelled `label`, and where it links. */
function tile(html: string, label: string): { count: number; href: string } {
  const match = new RegExp(`<a\\b[^>]*href="([^"]*)"[^>]*>\\s*<span[^>]*>(\\d+)</span>\\s*<span[^>]*>${label}</span>`).exec(html);
  if (!match) throw new Error(`no tile "${label}" on the dashboard`);
  return { count: Number(match[2]), href: decodeEntities(match[1]!) };
}

async function dashboard(): Promise<string> {
  const response = await admin.get('/admin-panel');
  expect(response.status).toBe(200);
  return response.text();
}

async function visitRow() {
  return database.db.selectFrom('admin_dashboard_visits').selectAll().where('admin_email', '=', ADMIN.email).executeTakeFirst();
}

describe.skipIf(!sharedUrl)(`admin dashboard: today's work (${dialect})`, () => {
  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    database = openServerDatabase(server);
    admin = new HttpClient(server.url);
    const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
    expect(signedIn.status).toBe(302);
  });
  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  it('is behind the admin guard', async () => {
    const response = await new HttpClient(server.url).get('/admin-panel');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/admin-login/);
    expect(await database.db.selectFrom('admin_dashboard_visits').selectAll().execute()).toEqual([]);
  });

  it('ten first loads at once record one visit; on a first visit every lead not yet contacted counts', async () => {
    const twoDaysAgo = new Date(Date.now() - 48 * HOUR);
    await addLead('request', twoDaysAgo);
    await addLead('request', twoDaysAgo);
    await addLead('request', twoDaysAgo, 'contacted');
    await addLead('sell', twoDaysAgo);

    const pages = await Promise.all(Array.from({ length: 10 }, () => admin.get('/admin-panel')));
    expect(pages.map((page) => page.status)).toEqual(Array(10).fill(200));
    await Promise.all(pages.map((page) => page.body?.cancel()));
    expect(await database.db.selectFrom('admin_dashboard_visits').selectAll().execute()).toHaveLength(1);

    const html = await dashboard();
    const text = mainText(html);
    expect(text).toContain("Today's work");
    expect(tile(html, 'New vehicle requests')).toEqual({ count: 2, href: '/admin/requested-vehicles?status=new' });
    expect(tile(html, 'New sell offers')).toEqual({ count: 1, href: '/admin-panel/selling-vehicles?status=new' });
    expect(text).toContain('Not yet contacted');
    // The cards follow.
    expect(text.indexOf('Add Vehicle')).toBeGreaterThan(text.indexOf("Today's work"));
  });

  it('counts the leads since the previous visit; reloading within the visit keeps them', async () => {
    // The visit above began an hour ago: this load starts a new one.
    const anHourAgo = new Date(Date.now() - HOUR).toISOString();
    await database.db.updateTable('admin_dashboard_visits').set({ seen_at: anHourAgo }).where('admin_email', '=', ADMIN.email).execute();
    await addLead('request', new Date());
    await addLead('sell', new Date());
    await addLead('sell', new Date());

    const html = await dashboard();
    expect(tile(html, 'New vehicle requests').count).toBe(1);
    expect(tile(html, 'New sell offers').count).toBe(2);
    expect(mainText(html)).toContain('Since your last visit');
    const row = await visitRow();
    expect(row?.previous_seen_at).toBe(anHourAgo);

    // A reload, and a page under /admin-panel, are part of the same visit.
    expect((await admin.get('/admin-panel/vehicles')).status).toBe(200);
    const again = await dashboard();
    expect(tile(again, 'New vehicle requests').count).toBe(1);
    expect(await visitRow()).toEqual(row);
  });
});
