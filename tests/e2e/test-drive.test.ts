import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  compareToggle,
  launchChromium,
  openPageOn,
  saveScreenshot,
  visible,
  waitFor,
  waitForHydration,
  signUpInBrowser,
  type ViewportName,
} from '../support/browser.ts';
import { priceDigits } from '../../app/lib/format.ts';
import { uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * A buyer books a test drive on a phone (375 px): sign up, verify the phone with the code from
 * the SMS, narrow the listing to 5–8 lakh and diesel in the filter sheet, sort it by price, put
 * two cars in compare and open the first from the compare page, "Book a test drive", choose the hub, tomorrow and an hour with places
 * left, confirm; the profile lists it. Then the admin sees it on the day's schedule and
 * confirms it. Screenshots of every step at 375 px and of the steps and the schedule at 1280 px.
 */

const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'kaju-katli-2026';
let server: TestServer;
let browser: Browser;
const errors: string[] = [];

const open = (viewport: ViewportName, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) =>
  openPageOn(browser, server.url, viewport, errors, storageState ? { storageState } : {});
const shot = saveScreenshot;

/** The page has hydrated (the sign-in forms solve the bot check in the page). */
const hydrated = (page: Page) => waitForHydration(page, 'form[method="post"]');

beforeAll(async () => {
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN, PAGE_CACHE_SECONDS: '0', SETTINGS_CACHE_SECONDS: '0' },
  });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('a buyer books a test drive on a phone and the admin sees it on the day’s schedule', async () => {
  const page = await open('mobile');
  expect(page.viewportSize()?.width).toBe(375);
  const email = uniqueEmail('testdrive');
  const mobile = uniqueMobile();

  // Sign up and verify the phone with the code from the SMS in the outbox.
  await signUpInBrowser(page, email, PASSWORD);
  await page.getByLabel('Full name').fill('Meera Iyer');
  await page.getByLabel('Mobile number').fill(mobile);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
  const outbox = await page.context().newPage();
  const code = await waitFor(
    async () => {
      await outbox.goto('/dev/outbox');
      const body =
        (await outbox
          .locator('li[data-channel="sms"]', { hasText: mobile })
          .first()
          .locator('p', { hasText: 'verification code' })
          .textContent({ timeout: 2000 })
          .catch(() => '')) ?? '';
      return /(\d{6}) is your/.exec(body)?.[1] ?? '';
    },
    (found) => found !== '',
  );
  await outbox.close();
  await page.getByLabel('OTP').fill(code);
  await page.getByRole('button', { name: 'Verify and Save' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  // The listing's filter sheet: 5–8 lakh and diesel, then sorted by price.
  await waitForHydration(page, '#filters form');
  await page.getByRole('button', { name: /^Filters/ }).click();
  const sheet = page.getByRole('dialog', { name: 'Filters' });
  await sheet.getByRole('checkbox', { name: /^₹5–8 lakh \(/ }).check();
  await sheet.getByRole('checkbox', { name: /^Diesel \(/ }).check();
  await waitFor(
    async () => (await sheet.locator('button[type="submit"]').textContent()) ?? '',
    (text) => /^Show \d+ cars?$/.test(text),
  );
  await sheet.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.searchParams.get('budget') === '5-8' && url.searchParams.get('fuel') === 'diesel');
  await waitForHydration(page, '#listing-sort');
  await page.getByLabel('Sort by').selectOption('price_asc');
  await page.waitForURL((url) => url.searchParams.get('sort') === 'price_asc' && url.searchParams.get('fuel') === 'diesel');
  const expected = (
    (await (await fetch(`${server.url}/api/v1/vehicles?budget=5-8&fuel=diesel&sort=price_asc`)).json()) as {
      items: Array<{ priceRupees: number; fuelType: string }>;
    }
  ).items;
  expect(expected.length).toBeGreaterThanOrEqual(2);
  const listing = page.getByRole('region', { name: 'Vehicles for sale' });
  const cards = listing.getByRole('article');
  const prices = await waitFor(
    async () => (await cards.locator('p.text-brand-700').allTextContents()).map((text) => priceDigits(text)),
    (shown) => shown.join() === expected.map((item) => item.priceRupees).join(),
  );
  expect(prices).toEqual([...prices].sort((a, b) => a! - b!));
  for (const price of prices) expect(price! >= 500_000 && price! < 800_000).toBe(true);
  expect(expected.every((item) => /diesel/i.test(item.fuelType))).toBe(true);
  // Each card's facts line ("2021 · Diesel · Manual · 48,000 km") says diesel.
  const facts = (await cards.locator('p.text-sm.text-slate-600').allTextContents()).filter((line) => line.includes('·'));
  expect(facts).toHaveLength(prices.length);
  for (const line of facts) expect(line).toContain('Diesel');
  await shot(page, 'test-drive-0-filtered-375');

  // Two of them into compare; the compare page shows both.
  await waitForHydration(page, 'main article form[action="/compare"] button');
  const titles = (await cards.getByRole('heading', { level: 3 }).allTextContents()).slice(0, 2).map((text) => text.trim());
  for (const cardTitle of titles) {
    const toggle = compareToggle(listing, cardTitle);
    await toggle.click();
    await waitFor(
      () => toggle.getAttribute('aria-pressed'),
      (pressed) => pressed === 'true',
    );
  }
  await page.getByRole('complementary', { name: 'Cars to compare' }).getByRole('link', { name: 'Compare 2' }).click();
  await page.waitForURL(/\/compare\?ids=\d+,\d+$/);
  const heads = page.getByRole('main').locator('thead th');
  await visible(heads.nth(1));
  expect((await heads.allTextContents()).map((text) => text.trim())).toEqual([expect.stringContaining(titles[0]!), expect.stringContaining(titles[1]!)]);
  await shot(page, 'test-drive-0-compare-375');

  // The first of them: "Book a test drive".
  await heads.first().getByRole('link', { name: titles[0] }).first().click();
  await page.waitForURL(/\/vehicle\/\d+$/);
  const car = { id: Number(/\/vehicle\/(\d+)$/.exec(page.url())![1]) };
  const title = (await (await visible(page.getByRole('heading', { level: 1 }))).textContent())?.trim() ?? '';
  await page.getByRole('link', { name: 'Book a test drive' }).click();
  await page.waitForURL((url) => url.pathname === `/vehicle/${car.id}/test-drive`);
  await visible(page.getByRole('heading', { name: 'Book a test drive', level: 1 }));
  await visible(page.getByText(title).first());
  await shot(page, 'test-drive-1-steps-375');

  // Tomorrow, the first hour with places left.
  const tomorrow = addDays(indiaDay(Date.now()), 1);
  await page.getByRole('radio', { name: /At our hub/ }).check();
  await page.locator(`button[name="date"][value="${tomorrow}"]`).click();
  await page.waitForURL((url) => url.searchParams.get('date') === tomorrow);
  await visible(page.locator(`button[name="date"][value="${tomorrow}"][aria-pressed="true"]`));
  const slot = page.getByRole('button', { name: /10:00 am – 11:00 am, 2 left/ });
  await slot.click();
  await page.waitForURL((url) => url.searchParams.get('slot') === `${tomorrow}T10:00`);
  const confirm = await visible(page.getByRole('button', { name: 'Confirm test drive' }));
  await shot(page, 'test-drive-2-confirm-375');
  await confirm.click();
  await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('testDrive') === 'booked');
  await visible(page.getByText('Your test drive is booked.'));
  const myDrives = page.locator('#test-drives');
  await visible(myDrives.getByText(title));
  await visible(myDrives.getByText('Booked', { exact: true }));
  await visible(myDrives.getByRole('link', { name: 'Reschedule' }));
  await myDrives.scrollIntoViewIfNeeded();
  await shot(page, 'test-drive-3-profile-375');

  // The same steps at 1280 px, signed in as the same buyer.
  const wide = await open('desktop', await page.context().storageState());
  await wide.goto(`/vehicle/${car.id}/test-drive?date=${tomorrow}&slot=${encodeURIComponent(`${tomorrow}T11:00`)}`);
  await visible(wide.getByRole('button', { name: 'Confirm test drive' }));
  await visible(wide.getByRole('button', { name: /10:00 am – 11:00 am, Full/ }));
  await shot(wide, 'test-drive-2-confirm-1280');

  // The admin, on a phone: the day's schedule shows the booking; confirm it.
  const admin = await open('mobile');
  await admin.goto('/admin-login');
  await hydrated(admin);
  await admin.getByLabel('Email').fill(ADMIN);
  await admin.getByLabel('Password').fill(PASSWORD);
  await admin.getByRole('button', { name: 'Sign In' }).click();
  await admin.waitForURL('**/admin-panel');
  await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Test drives' }).click();
  await admin.waitForURL((url) => url.pathname === '/admin/test-drives');
  await admin.getByRole('link', { name: 'Next day →' }).click();
  await admin.waitForURL((url) => url.searchParams.get('date') === tomorrow);
  const booking = admin.locator('li[data-test-drive]', { hasText: 'Meera Iyer' });
  await visible(booking.getByText(title));
  await visible(booking.getByText('10:00 am – 11:00 am'));
  await visible(booking.getByText(`+91${mobile}`));
  await shot(admin, 'test-drive-4-admin-schedule-375');
  await booking.getByRole('button', { name: 'Confirm' }).click();
  await visible(admin.locator('li[data-test-drive]', { hasText: 'Meera Iyer' }).getByText('Confirmed', { exact: true }));

  const adminWide = await open('desktop', await admin.context().storageState());
  await adminWide.goto(`/admin/test-drives?date=${tomorrow}`);
  await visible(adminWide.getByText('Meera Iyer'));
  await shot(adminWide, 'test-drive-4-admin-schedule-1280');

  expect(errors).toEqual([]);
});
