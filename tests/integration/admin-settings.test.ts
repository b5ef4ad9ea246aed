import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatRupees } from '../../app/lib/format.ts';
import { commonText } from '../../app/lib/i18n/common.ts';

const DEFAULT_TITLE = commonText('defaultTitle', {}, 'en');
import { DEFAULT_PRICE_INCLUDES, DEFAULT_STOREFRONT_PROMISE, DEFAULT_TRUST_POINTS } from '../../app/lib/storefront.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { demoCategories } from '../../server/db/demo/inventory.ts';
import { demoFleetVehicles, demoSaleVehicles } from '../../server/db/demo/rental-fleet.ts';
import { decodeEntities, HttpClient, mainText, waitForOutbox } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Admin settings in effect, statistics with real figures, the audit log and creating another
 * admin (design.md, Decisions: statistics show real figures, settings take effect, creating an
 * admin applies the allow-list), against the real server on SQLite and on PostgreSQL, through
 * the pages' own form posts as a browser without JavaScript sends them.
 */

const { dialect, url: sharedUrl } = sharedServer();

const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
const SECOND_ADMIN = 'manager@gaadibazaar.in';
const DEFAULT_SITE_NAME = 'Gaadi Bazaar';
// '&' and '<' check that the name is escaped everywhere it is shown.
const NEW_SITE_NAME = 'Sharma & Sons <Motors>';

const MESSAGES = {
  saved: 'Settings saved successfully!',
  reset: 'Settings restored to their defaults.',
  notAuthorized: 'This email is not authorized to be an admin',
  passwordTooShort: 'Password must be at least 6 characters long.',
  alreadyRegistered: 'This email is already registered. Please log in instead.',
  adminCreated: 'Admin account created! Please verify your email before logging in.',
} as const;

const titleOf = (html: string) => decodeEntities(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '');
const mainHtml = (html: string) => /<main\b[\s\S]*?<\/main>/.exec(html)?.[0] ?? '';
/** The listing's vehicle links (the home page's storefront above it has featured cars too). */
const listingOf = (html: string) => mainHtml(html).slice(Math.max(0, mainHtml(html).indexOf('aria-labelledby="results-heading"')));
const cardIds = (html: string) => new Set([...listingOf(html).matchAll(/<a\b[^>]*href="\/vehicle\/(\d+)"/g)].map((match) => match[1]));

/** The attributes of the first element `<tag ... id="id">`. */
function element(html: string, tag: string, id: string): string {
  const found = new RegExp(`<${tag}\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!found) throw new Error(`no <${tag} id="${id}"> on the page`);
  return found;
}

/** What the settings form shows, read from its server-rendered HTML. */
function formValues(html: string) {
  const value = (id: string) => decodeEntities(/\bvalue="([^"]*)"/.exec(element(html, 'input', id))?.[1] ?? '');
  const checked = (id: string) => /\bchecked=""/.test(element(html, 'input', id));
  const select = /<select\b[^>]*\bid="itemsPerPage"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
  const selected = /<option\b[^>]*value="(\d+)"[^>]*selected=""/.exec(select)?.[1] ?? /<option\b[^>]*selected=""[^>]*value="(\d+)"/.exec(select)?.[1];
  return {
    siteName: value('siteName'),
    adminEmail: value('adminEmail'),
    itemsPerPage: selected,
    emailNotifications: checked('emailNotifications'),
    maintenanceMode: checked('maintenanceMode'),
  };
}

describe.skipIf(!sharedUrl)(`admin settings, statistics, audit log and admin accounts (${dialect})`, () => {
  let server: TestServer;
  let admin: HttpClient;

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    admin = new HttpClient(server.url);
    const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/admin-panel');
  });
  afterAll(async () => {
    await server?.stop();
  });

  const visitor = () => new HttpClient(server.url);

  async function page(client: HttpClient, path: string): Promise<{ status: number; html: string }> {
    const response = await client.get(path);
    return { status: response.status, html: await response.text() };
  }

  /** Posts the settings form; answers the redirect's target page, or the form again when refused. */
  async function postSettings(fields: Record<string, string>): Promise<{ status: number; html: string; redirected: boolean }> {
    const response = await admin.postForm('/admin/settings', fields);
    if (response.status === 302) {
      expect(response.headers.get('location')).toBe('/admin/settings');
      await response.body?.cancel();
      return { ...(await page(admin, '/admin/settings')), redirected: true };
    }
    return { status: response.status, html: await response.text(), redirected: false };
  }

  const saveFields = { intent: 'save', siteName: NEW_SITE_NAME, adminEmail: 'sales@example.in', itemsPerPage: '5' };

  test('every screen here is behind the admin guard, for reads and for writes', async () => {
    const anonymous = visitor();
    for (const path of ['/admin/settings', '/admin/statistics', '/admin/audit-log', '/admin/register-admin']) {
      const response = await anonymous.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(`/admin-login?redirectTo=${encodeURIComponent(path)}`);
    }
    const write = await anonymous.postForm('/admin/settings', { ...saveFields, maintenanceMode: 'on' });
    expect(write.status).toBe(302);
    expect(write.headers.get('location')).toMatch(/^\/admin-login\?/);
    const created = await anonymous.postForm('/admin/register-admin', { email: SECOND_ADMIN, password: 'manager-pass-1' });
    expect(created.status).toBe(302);
    // Nothing changed.
    const home = await page(anonymous, '/');
    expect(home.status).toBe(200);
    expect(titleOf(home.html)).toBe(`${DEFAULT_SITE_NAME} | ${DEFAULT_TITLE}`);
  });

  test('the settings page shows the defaults: items per page 10, notifications on, maintenance off', async () => {
    const { status, html } = await page(admin, '/admin/settings');
    expect(status).toBe(200);
    expect(titleOf(html)).toBe(`Settings | ${DEFAULT_SITE_NAME}`);
    expect(formValues(html)).toEqual({
      siteName: DEFAULT_SITE_NAME,
      adminEmail: ADMIN.email,
      itemsPerPage: '10',
      emailNotifications: true,
      maintenanceMode: false,
    });
    const text = mainText(html);
    for (const label of ['Site Name', 'Admin Email', 'Items Per Page', 'Enable Email Notifications', 'Maintenance Mode', 'Save Settings', 'Reset to Default']) {
      expect(text).toContain(label);
    }
    const itemsPerPage = /<select\b[^>]*\bid="itemsPerPage"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
    expect([...itemsPerPage.matchAll(/<option\b[^>]*value="(\d+)"/g)].map((match) => match[1])).toEqual(['5', '10', '25', '50']);
    const home = await page(visitor(), '/');
    expect(cardIds(home.html).size).toBe(10);
    expect(mainText(home.html)).toContain(`Page 1 of ${Math.ceil(demoSaleVehicles.length / 10)}`);
  });

  test('invalid values are refused with a message each, and nothing is saved', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ siteName: '' }, 'Site name is required'],
      [{ siteName: '   ' }, 'Site name is required'],
      [{ siteName: 'x'.repeat(61) }, 'Site name must be at most 60 characters'],
      [{ adminEmail: 'not-an-email' }, 'Please enter a valid admin email address'],
      [{ itemsPerPage: '7' }, 'Items per page must be 5, 10, 25 or 50'],
      [{ itemsPerPage: 'ten' }, 'Items per page must be 5, 10, 25 or 50'],
      [{ itemsPerPage: '' }, 'Items per page must be 5, 10, 25 or 50'],
    ];
    for (const [override, message] of cases) {
      const result = await postSettings({ ...saveFields, maintenanceMode: 'on', ...override });
      expect(result.redirected, JSON.stringify(override)).toBe(false);
      expect(result.status).toBe(200);
      const text = mainText(result.html);
      expect(text).toContain(message);
      expect(text).toContain('Please correct the highlighted fields.');
      expect(text).not.toContain(MESSAGES.saved);
    }
    // What was typed stays in the form.
    const refused = await postSettings({ ...saveFields, adminEmail: 'not-an-email' });
    expect(formValues(refused.html)).toMatchObject({ siteName: NEW_SITE_NAME, adminEmail: 'not-an-email', itemsPerPage: '5', emailNotifications: false });

    const settings = await page(admin, '/admin/settings');
    expect(formValues(settings.html)).toMatchObject({ siteName: DEFAULT_SITE_NAME, itemsPerPage: '10', maintenanceMode: false });
    const home = await page(visitor(), '/');
    expect(home.status).toBe(200);
    expect(titleOf(home.html)).toBe(`${DEFAULT_SITE_NAME} | ${DEFAULT_TITLE}`);
  });

  test('Save Settings: the message once, the new values shown, and in effect on the public pages', async () => {
    // Enable Email Notifications left unticked: an unticked checkbox is not sent.
    const saved = await postSettings(saveFields);
    expect(saved.redirected).toBe(true);
    expect(mainText(saved.html)).toContain(MESSAGES.saved);
    expect(formValues(saved.html)).toEqual({
      siteName: NEW_SITE_NAME,
      adminEmail: 'sales@example.in',
      itemsPerPage: '5',
      emailNotifications: false,
      maintenanceMode: false,
    });
    expect(titleOf(saved.html)).toBe(`Settings | ${NEW_SITE_NAME}`);
    expect(saved.html).not.toContain('<Motors>');
    // The message is shown once.
    expect(mainText((await page(admin, '/admin/settings')).html)).not.toContain(MESSAGES.saved);

    const anonymous = visitor();
    const home = await page(anonymous, '/');
    expect(titleOf(home.html)).toBe(`${NEW_SITE_NAME} | ${DEFAULT_TITLE}`);
    expect(home.html).not.toContain('<Motors>');
    expect(cardIds(home.html).size).toBe(5);
    expect(mainText(home.html)).toContain(`Page 1 of ${Math.ceil(demoSaleVehicles.length / 5)}`);
    const second = await page(anonymous, '/?page=2');
    expect(cardIds(second.html).size).toBe(5);
    expect([...cardIds(second.html)].some((id) => cardIds(home.html).has(id))).toBe(false);
    const about = await page(anonymous, '/about');
    expect(titleOf(about.html)).toContain(NEW_SITE_NAME);
  });

  test('Maintenance Mode: public pages answer 503 with the maintenance page; admin and sign-in keep working', async () => {
    const on = await postSettings({ ...saveFields, maintenanceMode: 'on', emailNotifications: 'on' });
    expect(on.redirected).toBe(true);
    expect(formValues(on.html)).toMatchObject({ maintenanceMode: true, emailNotifications: true });

    const anonymous = visitor();
    for (const path of ['/', '/categories', `/vehicle/1`, '/about', '/?q=swift']) {
      const response = await anonymous.get(path);
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after')).toBe('600');
      const html = await response.text();
      expect(decodeEntities(html)).toContain("We'll be back soon");
      expect(html).toContain('Sharma &amp; Sons &lt;Motors&gt;');
      expect(html).not.toContain('<Motors>');
    }
    expect((await anonymous.get('/admin-login')).status).toBe(200);
    expect((await anonymous.get('/login')).status).toBe(200);
    for (const path of ['/admin-panel', '/admin/settings', '/admin/statistics']) {
      expect((await admin.get(path)).status, path).toBe(200);
    }
  });

  test('Reset to Default restores every default, with its own message', async () => {
    const reset = await postSettings({ intent: 'reset' });
    expect(reset.redirected).toBe(true);
    expect(mainText(reset.html)).toContain(MESSAGES.reset);
    expect(formValues(reset.html)).toEqual({
      siteName: DEFAULT_SITE_NAME,
      adminEmail: ADMIN.email,
      itemsPerPage: '10',
      emailNotifications: true,
      maintenanceMode: false,
    });

    const home = await page(visitor(), '/');
    expect(home.status).toBe(200);
    expect(titleOf(home.html)).toBe(`${DEFAULT_SITE_NAME} | ${DEFAULT_TITLE}`);
    expect(cardIds(home.html).size).toBe(10);
  });

  test('the audit log lists the settings changes, newest first, with before and after', async () => {
    const { status, html } = await page(admin, '/admin/audit-log');
    expect(status).toBe(200);
    const text = mainText(html);
    // Newest first: reset, maintenance on, the first save.
    const reset = text.indexOf('Reset settings to defaults: Site Name, Admin Email, Items Per Page, Maintenance Mode');
    const maintenance = text.indexOf('Changed settings: Enable Email Notifications, Maintenance Mode');
    const firstSave = text.indexOf('Changed settings: Site Name, Admin Email, Items Per Page, Enable Email Notifications');
    expect(reset).toBeGreaterThan(-1);
    expect(maintenance).toBeGreaterThan(reset);
    expect(firstSave).toBeGreaterThan(maintenance);
    expect(text).toContain(ADMIN.email);
    expect(text).toMatch(/update settings/i);
    expect(text).toMatch(/reset settings/i);
    expect(text).toContain('3 entries, newest first');

    // The first save's before and after: each setting by its label, its value as recorded (escaped), its code kept in data-field.
    // Each entry is a card (li.rounded-2xl); a list-valued setting (the served areas) has list items of its own inside.
    const entries = mainHtml(html)
      .split(/<li class="[^"]*rounded-2xl[^"]*">/)
      .slice(1);
    expect(entries).toHaveLength(3);
    // Before and after, each in its own column (div.min-w-0); a list-valued setting nests rows of its own, read along and unused here.
    const sides = entries[2]!
      .split('<div class="min-w-0">')
      .slice(1)
      .map((side) =>
        Object.fromEntries(
          [...side.matchAll(/<div data-field="([^"]+)"[^>]*>\s*<dt\b[^>]*>([\s\S]*?)<\/dt>\s*<dd\b[^>]*>([\s\S]*?)<\/dd>/g)].map((row) => [
            row[1]!,
            { label: decodeEntities(row[2]!), value: decodeEntities(row[3]!) },
          ]),
        ),
      );
    const values = sides.map((side) => Object.fromEntries(Object.entries(side).map(([key, row]) => [key, row.value])));
    // Every setting is in the record; these are the ones this screen's first save changed.
    expect(values).toEqual([
      expect.objectContaining({
        siteName: DEFAULT_SITE_NAME,
        adminEmail: ADMIN.email,
        itemsPerPage: '10',
        emailNotifications: 'true',
        maintenanceMode: 'false',
      }),
      expect.objectContaining({
        siteName: NEW_SITE_NAME,
        adminEmail: 'sales@example.in',
        itemsPerPage: '5',
        emailNotifications: 'false',
        maintenanceMode: 'false',
      }),
    ]);
    // Named as the settings page names them, not by their codes.
    expect(sides[1]!.itemsPerPage!.label).toBe('Items Per Page');
    expect(text).toContain('4 changed: Site Name, Admin Email, Items Per Page, Enable Email Notifications');
    expect(text).not.toMatch(/changed: [^)]*itemsPerPage/);
    // The rental settings ride along unchanged.
    expect(values[0]!.rentalBufferHours).toBe('2');
    expect(values[1]!.rentalBufferHours).toBe('2');
    expect(values[1]!.testDriveCapacity).toBe(values[0]!.testDriveCapacity);
    expect(html).not.toContain('<Motors>');
    // A time in India's format.
    expect(text).toMatch(/\d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm)/i);
  });

  test('the storefront settings: the promise and trust points show on the home page, refused when too long, kept by a form without them', async () => {
    const home = await page(visitor(), '/');
    expect(mainText(home.html)).toContain(DEFAULT_STOREFRONT_PROMISE);
    for (const point of DEFAULT_TRUST_POINTS) expect(mainText(home.html)).toContain(point);

    const tooMany = await postSettings({ ...saveFields, storefrontPromise: 'Cars we would buy ourselves.', trustPoints: 'a\nb\nc\nd\ne\nf\ng' });
    expect(tooMany.redirected).toBe(false);
    expect(mainText(tooMany.html)).toContain('At most 6 trust points');
    const tooLong = await postSettings({ ...saveFields, storefrontPromise: 'x'.repeat(161), trustPoints: 'Inspected' });
    expect(mainText(tooLong.html)).toContain('The promise must be at most 160 characters');

    const saved = await postSettings({
      ...saveFields,
      storefrontPromise: 'Cars we would buy <ourselves>.',
      trustPoints: '200-point check\r\n\r\nOne-year warranty\n',
    });
    expect(saved.redirected).toBe(true);
    const after = await page(visitor(), '/');
    expect(mainText(after.html)).toContain('Cars we would buy <ourselves>.');
    expect(after.html).not.toContain('<ourselves>');
    expect(mainText(after.html)).toContain('200-point check');
    expect(mainText(after.html)).toContain('One-year warranty');
    expect(mainText(after.html)).not.toContain(DEFAULT_TRUST_POINTS[0]);

    // A post without the storefront fields (the form as it was before they existed) keeps them.
    await postSettings(saveFields);
    expect(mainText((await page(visitor(), '/')).html)).toContain('Cars we would buy <ourselves>.');
    await postSettings({ intent: 'reset' });
    expect(mainText((await page(visitor(), '/')).html)).toContain(DEFAULT_STOREFRONT_PROMISE);
  });

  test('what the on-road price includes: under the cards and the car’s price, refused when too long, nothing when empty', async () => {
    const home = await page(visitor(), '/');
    expect(mainText(home.html)).toContain(`On-road price: ${DEFAULT_PRICE_INCLUDES}.`);
    const carPath = /href="(\/vehicle\/\d+)"/.exec(home.html)![1]!;
    expect(mainText((await page(visitor(), carPath)).html)).toMatch(new RegExp(`On-road price ₹[\\d,]+ ${DEFAULT_PRICE_INCLUDES}`));

    const tooLong = await postSettings({ ...saveFields, priceIncludes: 'x'.repeat(81) });
    expect(tooLong.redirected).toBe(false);
    expect(mainText(tooLong.html)).toContain('What the price includes must be at most 80 characters');

    expect((await postSettings({ ...saveFields, priceIncludes: 'Includes RC transfer, insurance and a full tank' })).redirected).toBe(true);
    expect(mainText((await page(visitor(), '/')).html)).toContain('On-road price: Includes RC transfer, insurance and a full tank.');
    expect(mainText((await page(visitor(), carPath)).html)).toContain('Includes RC transfer, insurance and a full tank');

    expect((await postSettings({ ...saveFields, priceIncludes: '' })).redirected).toBe(true);
    expect(mainText((await page(visitor(), '/')).html)).not.toContain('On-road price:');
    expect(mainText((await page(visitor(), carPath)).html)).not.toContain(DEFAULT_PRICE_INCLUDES);
    await postSettings({ intent: 'reset' });
    expect(mainText((await page(visitor(), '/')).html)).toContain(`On-road price: ${DEFAULT_PRICE_INCLUDES}.`);
  });

  test('statistics show the real counts, this month’s sales in rupees and the daily chart', async () => {
    const before = await page(admin, '/admin/statistics');
    expect(before.status).toBe(200);
    let html = before.html;
    let text = mainText(html);
    // Sale stock only; the rental fleet has its own figures.
    expect(text).toContain(`Total Vehicles ${demoSaleVehicles.length}`);
    expect(text).toContain(`${demoSaleVehicles.length} available · 0 reserved · 0 sold`);
    expect(text).toContain('Rental Bookings 0');
    expect(text).toMatch(new RegExp(`Fleet Utilisation 0% 0 of [\\d,]+ hours booked · ${demoFleetVehicles.length} cars`));
    expect(text).toContain('Rental Revenue ₹0');
    expect(text).toContain(`Categories ${demoCategories.length}`);
    expect(text).toContain('Total Users 1');
    expect(text).toContain('Monthly Sales ₹0');
    expect(text).toContain('0 cars sold in');
    expect(text).toContain('Vehicles sold: 0');
    // The chart's numbers are in a table for screen readers: 30 days.
    expect([...html.matchAll(/<th scope="row">/g)]).toHaveLength(30);

    // Marking a car sold belongs to the inventory screens; here it is written directly.
    const database = openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
    try {
      await database.db
        .updateTable('vehicles')
        .set({ status: 'sold', sold_price: 1234567, sold_at: new Date().toISOString() })
        .where(
          'id',
          '=',
          (await database.db.selectFrom('vehicles').select('id').where('purpose', '=', 'sale').orderBy('id').limit(1).executeTakeFirstOrThrow()).id,
        )
        .execute();
      await database.db
        .updateTable('vehicles')
        .set({ status: 'reserved' })
        .where(
          'id',
          '=',
          (
            await database.db
              .selectFrom('vehicles')
              .select('id')
              .where('status', '=', 'available')
              .where('purpose', '=', 'sale')
              .orderBy('id', 'desc')
              .limit(1)
              .executeTakeFirstOrThrow()
          ).id,
        )
        .execute();
    } finally {
      await database.close();
    }

    html = (await page(admin, '/admin/statistics')).html;
    text = mainText(html);
    expect(text).toContain(`Total Vehicles ${demoSaleVehicles.length}`);
    expect(text).toContain(`${demoSaleVehicles.length - 2} available · 1 reserved · 1 sold`);
    expect(text).toContain(`Monthly Sales ${formatRupees(1234567)}`);
    expect(formatRupees(1234567)).toBe('₹12,34,567');
    expect(text).toContain('1 car sold in');
    expect(text).toContain('Vehicles sold: 1');
    // Today is the last row of the table.
    const rows = [...html.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g)];
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)?.[2]).toBe('1');
  });

  test('Create admin account: the allow-list, the password length, success with a verification mail, then already registered', async () => {
    const refused = async (fields: Record<string, string>) => {
      const response = await admin.postForm('/admin/register-admin', fields);
      expect(response.status).toBe(200);
      return mainText(await response.text());
    };
    expect(await refused({ email: 'someone@example.in', password: 'long-enough-1' })).toContain(MESSAGES.notAuthorized);
    expect(await refused({ email: SECOND_ADMIN, password: '12345' })).toContain(MESSAGES.passwordTooShort);
    // Read by its schema before better-auth is asked (decision 109): each field's message beside it, the address kept.
    const wrong = await admin.postForm('/admin/register-admin', { email: 'manager@', password: '12' });
    expect(wrong.status).toBe(200);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toMatch(/id="email-error"[^>]*>Invalid email address format\./);
    expect(wrongHtml).toMatch(/id="password-error"[^>]*>Password must be at least 6 characters long\./);
    expect(wrongHtml).toContain('value="manager@"');
    const signIn = await new HttpClient(server.url).postForm('/admin-login', { email: '', password: '' });
    expect(signIn.status).toBe(200);
    const signInHtml = await signIn.text();
    expect(signInHtml).toMatch(/id="email-error"[^>]*>Please enter both email and password\./);
    expect(signInHtml).toMatch(/id="password-error"[^>]*>Please enter both email and password\./);

    const created = await refused({ email: SECOND_ADMIN.toUpperCase(), password: 'manager-pass-1' });
    expect(created).toContain(MESSAGES.adminCreated);
    const mail = await waitForOutbox(admin, 'email', SECOND_ADMIN);
    expect(mail.links.some((link) => link.includes('verify-email'))).toBe(true);
    // The admin who created the account is still signed in as themselves.
    expect((await admin.session())?.user.email).toBe(ADMIN.email);

    // Until it is verified the account can be created again (a new password, a new mail:
    // docs/decisions/010); a verified one cannot.
    expect(await refused({ email: SECOND_ADMIN, password: 'manager-pass-2' })).toContain(MESSAGES.adminCreated);
    expect(await refused({ email: ADMIN.email, password: 'manager-pass-1' })).toContain(MESSAGES.alreadyRegistered);

    const log = mainText((await page(admin, '/admin/audit-log')).html);
    expect(log).toContain(`Created admin account ${SECOND_ADMIN}`);
    expect(log.indexOf(`Created admin account ${SECOND_ADMIN}`)).toBeLessThan(log.indexOf('Reset settings to defaults'));

    const statistics = mainText((await page(admin, '/admin/statistics')).html);
    expect(statistics).toContain('Total Users 2');
  });
});
