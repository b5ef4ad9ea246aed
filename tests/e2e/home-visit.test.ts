import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, signInAdminInBrowser, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { openServerDatabase } from '../support/database.ts';
import { verifiedPerson } from '../support/people.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { pathInLanguage } from '../../app/lib/i18n/language.ts';
import { paths } from '../../app/lib/paths.ts';
import { sellInspectionFor } from '../../app/features/sell/estimate-schemas.ts';
import type { Database } from '../../server/db/connection.ts';
import type { VerifiedPerson } from '../support/people.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * A buyer books a test drive at home on a phone (decision 097): the areas we visit are listed
 * before they type; a PIN code we do not visit names the nearest area and offers the hub; a
 * served one leads to the times, and the confirmation asks for the street and a landmark. The
 * desk's schedule shows the full address. Screenshots of the forms at 375 and 1280 px, in
 * English and Hindi, the seller's home inspection form too.
 */

const ADMIN = { email: 'admin@gaadibazaar.in', password: 'kaju-katli-2026' };
let server: TestServer;
let database: Database;
let browser: Browser;
let buyer: VerifiedPerson;
const errors: string[] = [];

const open = (viewport: ViewportName) => openPageOn(browser, server.url, viewport, errors, { cookies: buyer.client.jar.cookies.values() });

beforeAll(async () => {
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, ADMIN_EMAILS: ADMIN.email, PAGE_CACHE_SECONDS: '0', SETTINGS_CACHE_SECONDS: '0' },
  });
  database = openServerDatabase(server);
  buyer = await verifiedPerson(server.url, database, { label: 'home-visit', name: 'Meera Iyer', password: ADMIN.password });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
});

it('a buyer books a test drive at home with the street and a landmark, and the desk sees the full address', async () => {
  const car = (
    await database.db
      .selectFrom('vehicles')
      .select('id')
      .where('purpose', '=', 'sale')
      .where('status', '=', 'available')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
  const page = await open('mobile');
  await page.goto(paths.testDrive(car));
  await waitForHydration(page, 'form[method="get"]');
  await page.getByRole('radio', { name: /At your home/ }).check();
  const areas = page.locator('details', { hasText: 'Areas we visit' });
  await visible(areas.locator('summary'));
  await saveScreenshot(page, 'home-visit-1-where-375');
  await areas.locator('summary').click();
  await visible(areas.getByText('Andheri West', { exact: true }));
  await saveScreenshot(page, 'home-visit-1-areas-375');

  // A PIN code we do not visit: the nearest area we do and the hub, one tap away.
  await page.locator('#pin').fill('400071');
  await page.getByRole('button', { name: 'Show times' }).click();
  await page.waitForURL((url) => url.searchParams.get('pin') === '400071');
  await visible(page.getByText(/We don't visit 400071 yet\. Nearest area we visit: Saki Naka — 400072, or come to our hub at /));
  const toHub = await visible(page.getByRole('link', { name: 'Come to the hub instead' }));
  await saveScreenshot(page, 'home-visit-2-refused-375');
  const wideRefused = await open('desktop');
  await wideRefused.goto(paths.testDrive(car, { mode: 'home', pin: '400071' }));
  await visible(wideRefused.getByRole('link', { name: 'Come to the hub instead' }));
  await saveScreenshot(wideRefused, 'home-visit-2-refused-1280');
  await toHub.click();
  await page.waitForURL((url) => url.searchParams.get('mode') === 'hub');
  await visible(page.getByRole('radio', { name: /At our hub/, checked: true }));

  // A PIN code we visit: a day, an hour, then the address on the confirmation.
  const tomorrow = addDays(indiaDay(Date.now()), 1);
  await page.goto(paths.testDrive(car, { mode: 'home', pin: '400049', date: tomorrow }));
  await page.getByRole('button', { name: /10:00 am – 11:00 am, 2 left/ }).click();
  await page.waitForURL((url) => url.searchParams.get('slot') === `${tomorrow}T10:00`);
  await waitForHydration(page, 'form[method="post"]');
  const street = await visible(page.getByLabel('House or flat, street and area'));
  await street.fill('12 Sea View, Juhu Tara Rd');
  await page.getByLabel('Landmark (optional)').fill('Juhu Circle');
  await page.getByRole('button', { name: 'Confirm test drive' }).scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'home-visit-3-confirm-375');
  await page.getByRole('button', { name: 'Confirm test drive' }).click();
  await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('testDrive') === 'booked');
  await visible(page.getByText('Your test drive is booked.'));
  const mine = page.locator('#test-drives');
  await visible(mine.getByText('At your home: 12 Sea View, Juhu Tara Rd (near Juhu Circle), 400049'));
  await mine.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'home-visit-3-profile-375', false);

  const wide = await open('desktop');
  await wide.goto(paths.testDrive(car, { mode: 'home', pin: '400049', date: tomorrow, slot: `${tomorrow}T12:00` }));
  await visible(wide.getByLabel('House or flat, street and area'));
  await saveScreenshot(wide, 'home-visit-3-confirm-1280');

  // The desk's schedule of the day: the full address.
  const desk = await openPageOn(browser, server.url, 'mobile', errors);
  await signInAdminInBrowser(desk, ADMIN);
  await desk.goto(`/admin/test-drives?date=${tomorrow}`);
  const booking = desk.locator('li[data-test-drive]', { hasText: 'Meera Iyer' });
  await visible(booking.getByText("At the customer's home: 12 Sea View, Juhu Tara Rd (near Juhu Circle), 400049"));
  await saveScreenshot(desk, 'home-visit-4-desk-375');
  await desk.goto('/admin/settings');
  const areasField = await visible(desk.getByLabel('Areas we visit'));
  expect(await areasField.inputValue()).toContain('Andheri West — 400053');
  await areasField.scrollIntoViewIfNeeded();
  await saveScreenshot(desk, 'home-visit-4-settings-375', false);

  // The same forms in Hindi, and the seller's home inspection, at both widths.
  const car2 = {
    make: 'Hyundai',
    model: 'Creta',
    variant: '',
    unlisted: false,
    year: 2020,
    fuel: 'Petrol',
    transmission: 'Manual',
    km: 42_000,
    owners: 1,
    registrationState: 'MH',
  } as const;
  for (const viewport of ['mobile', 'desktop'] as const) {
    const width = viewport === 'mobile' ? 375 : 1280;
    const hindi = await open(viewport);
    await hindi.goto(pathInLanguage(paths.testDrive(car, { mode: 'home', pin: '400071' }), 'hi'));
    await visible(hindi.getByText(/हम अभी 400071 में नहीं आते/));
    await saveScreenshot(hindi, `home-visit-5-refused-hi-${width}`);
    await hindi.goto(pathInLanguage(paths.testDrive(car, { mode: 'home', pin: '400049', date: tomorrow, slot: `${tomorrow}T13:00` }), 'hi'));
    await visible(hindi.locator('#street'));
    await saveScreenshot(hindi, `home-visit-5-confirm-hi-${width}`);
    const seller = await open(viewport);
    await seller.goto(`${sellInspectionFor(car2)}&mode=home&pin=400049`);
    await visible(seller.getByLabel('House or flat, street and area'));
    await saveScreenshot(seller, `home-visit-6-inspection-${width}`);
    await seller.goto(pathInLanguage(`${sellInspectionFor(car2)}&mode=home&pin=400071`, 'hi'));
    await visible(seller.getByText(/हम अभी 400071 में नहीं आते/));
    await saveScreenshot(seller, `home-visit-6-inspection-refused-hi-${width}`);
  }

  // Rental delivery lists the same areas beside its PIN code.
  const rental = (
    await database.db.selectFrom('rental_terms').select('vehicle_id').where('delivery_available', '=', 1).orderBy('vehicle_id').executeTakeFirstOrThrow()
  ).vehicle_id;
  const licensed = new Date().toISOString();
  await database.db
    .insertInto('driving_licences')
    .values({
      user_id: buyer.userId,
      number: 'MH0220190012345',
      date_of_birth: '1990-05-17',
      front_key: 'licences/x-front',
      back_key: 'licences/x-back',
      status: 'approved',
      refusal_reason: null,
      reviewed_by: null,
      reviewed_at: null,
      created_at: licensed,
      updated_at: licensed,
    })
    .execute();
  const renter = await open('mobile');
  await renter.goto(paths.rentalBook(rental, { from: `${addDays(tomorrow, 9)}T10:00`, to: `${addDays(tomorrow, 11)}T10:00` }));
  await waitForHydration(renter, 'form[method="post"]');
  await renter.getByRole('radio', { name: /Delivered to your address/ }).check();
  await renter.locator('details', { hasText: 'Areas we visit' }).locator('summary').click();
  await visible(renter.getByText('Saki Naka'));
  await renter.locator('input[name="pinCode"]').scrollIntoViewIfNeeded();
  await saveScreenshot(renter, 'home-visit-7-rental-delivery-375', false);

  expect(errors).toEqual([]);
});
