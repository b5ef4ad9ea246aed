import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { saveDealerSettings } from '../support/sales.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Reserving a car in Chromium at 375 px (docs/decisions/080), Razorpay against the local
 * stand-in: the car's page offers "Reserve for ₹5,000, fully refundable", the pay page opens
 * Checkout, the buyer pays in its frame, the profile shows the reservation with the time left;
 * the desk sees it on the dashboard and converts it to a sale from the car's admin page: the sale's
 * form, filled in from the reservation, records the sale and issues its tax invoice. Each screen is
 * also looked at 1280 px wide.
 */

const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
let server: TestServer;
let standin: RazorpayStandin;
let browser: Browser;
let buyer: HttpClient;
let admin: HttpClient;
let car: { id: number; name: string };
const errors: string[] = [];

const open = (viewport: ViewportName, who: HttpClient) => openPageOn(browser, server.url, viewport, errors, { cookies: who.jar.cookies.values() });
const shot = (page: Page, name: string) => saveScreenshot(page, name, true);

beforeAll(async () => {
  standin = await startRazorpayStandin();
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: {
      APP_MODE: 'demo',
      PAGE_CACHE_SECONDS: '0',
      DEMO_ADMIN_PASSWORD: PASSWORD,
      ADMIN_EMAILS: ADMIN,
      RAZORPAY_KEY_ID: STANDIN_KEY_ID,
      RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
      RAZORPAY_API_URL: standin.url,
      RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
    },
  });
  const listing = (await (await fetch(`${server.url}/api/v1/vehicles`)).json()) as {
    items: Array<{ id: number; name: string; status: string; priceRupees?: number | null }>;
  };
  car = listing.items.find((item) => item.status === 'available')!;
  buyer = new HttpClient(server.url, { address: null });
  await signUp(buyer, uniqueEmail('reserve'));
  await completeProfile(buyer, 'Meera Iyer', uniqueMobile());
  admin = new HttpClient(server.url, { address: null });
  expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.close();
});

it('a buyer reserves a car through Checkout and sees it on the profile; the desk converts it to a sale', async () => {
  const page = await open('mobile', buyer);
  await page.goto(`/vehicle/${car.id}`);
  const reserve = page.getByRole('button', { name: 'Reserve for ₹5,000, fully refundable' });
  await visible(reserve);
  await reserve.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'reservation-1-car-375', false);
  await reserve.click();

  await page.waitForURL((url) => /^\/profile\/reservations\/\d+\/pay$/.test(url.pathname));
  const reservationId = Number(/\/profile\/reservations\/(\d+)\/pay/.exec(page.url())![1]);
  await visible(page.getByRole('heading', { level: 1, name: /^Reserve / }));
  await shot(page, 'reservation-2-pay-375');
  const widePay = await open('desktop', buyer);
  await widePay.goto(`/vehicle/${car.id}`);
  await visible(widePay.getByRole('button', { name: 'Reserve for ₹5,000, fully refundable' }));
  await saveScreenshot(widePay, 'reservation-1-car-1280', false);
  await widePay.goto(`/profile/reservations/${reservationId}/pay`);
  await visible(widePay.getByRole('button', { name: 'Pay ₹5,000' }));
  await shot(widePay, 'reservation-2-pay-1280');
  await waitForHydration(page, 'main button[type="button"]');
  await page.getByRole('button', { name: 'Pay ₹5,000' }).click();
  const checkout = page.frameLocator('iframe[title="Razorpay Checkout"]');
  await visible(checkout.getByText(standin.orders.at(-1)!.id));
  await checkout.getByRole('button', { name: 'Pay ₹5,000' }).click();

  await page.waitForURL((url) => url.pathname === '/profile');
  await visible(page.getByText(/^Reserved: .* is held for you until/));
  const section = page.locator('#reservations');
  await visible(section.getByText(/\d+ days? (\d+ hours? )?left/));
  await visible(section.getByRole('link', { name: 'Book a test drive' }));
  await visible(section.getByRole('button', { name: 'Cancel (refund ₹5,000)' }));
  await section.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'reservation-3-profile-375', false);

  // Everyone sees the car Reserved, and no Reserve button.
  const visitor = await openPageOn(browser, server.url, 'mobile', errors);
  await visitor.goto(`/vehicle/${car.id}`);
  await visible(visitor.getByText('Reserved', { exact: true }).first());
  expect(await visitor.getByRole('button', { name: /Reserve for/ }).count()).toBe(0);

  // The wide screens of the same pages.
  const wide = await open('desktop', buyer);
  await wide.goto('/profile#reservations');
  await visible(wide.locator('#reservations'));
  await shot(wide, 'reservation-3-profile-1280');

  // The desk: the dashboard lists it; the car's admin page converts it to a sale.
  for (const viewport of ['mobile', 'desktop'] as const) {
    const desk = await open(viewport, admin);
    await desk.goto('/admin-panel');
    await visible(desk.getByRole('heading', { name: 'Cars reserved (1)' }));
    await shot(desk, `reservation-4-dashboard-${viewport === 'mobile' ? 375 : 1280}`);
  }
  // A sale issues a tax invoice, which needs the dealer's particulars (decision 114).
  expect([302, 303]).toContain(await saveDealerSettings(admin));
  const desk = await open('mobile', admin);
  const edit = ((await (await admin.get('/admin-panel/vehicles')).text()).match(new RegExp(`/admin-panel/vehicles/edit/[^/"]+/${car.id}(?=")`)) ?? [])[0];
  expect(edit).toBeTruthy();
  await desk.goto(edit!);
  await visible(desk.getByRole('heading', { name: 'Reservations' }));
  await waitForHydration(desk, 'input[name="salePrice"]');
  await desk.locator('input[name="salePrice"]').fill('6,50,000');
  // Converting opens the sale's form with the reservation and the price filled in.
  await desk.getByRole('button', { name: 'Convert to sale' }).click();
  await desk.waitForURL((url) => url.pathname === '/admin/sales/new');
  await waitForHydration(desk, 'textarea[name="buyerAddress"]');
  await expect.poll(() => desk.locator('input[name="price"]').inputValue()).toBe('6,50,000');
  await desk.locator('textarea[name="buyerAddress"]').fill('Flat 4, Shanti Niwas, Paud Road, Pune 411038');
  await desk.locator('input[name="buyerPan"]').fill('ABCPK1234F');
  // The token of ₹5,000 counts towards the price: the balance is paid at the desk.
  await desk.locator('input[name="paid"]').fill('6,45,000');
  await desk.locator('input[name="purchasePrice"]').fill('5,90,000');
  await desk.locator('input[name="chassisNumber"]').fill('MA3EWDE1S00123456');
  await desk.locator('input[name="engineNumber"]').fill('K12MN1234567');
  await desk.getByRole('button', { name: 'Record the sale and issue the invoice' }).click();
  await desk.waitForURL((url) => /^\/admin\/sales\/\d+$/.test(url.pathname));
  await visible(desk.getByText(/GB\/\d{4}-\d{2}\/\d{5}/).first());
  await shot(desk, 'reservation-5-converted-375');
  const wideDesk = await open('desktop', admin);
  await wideDesk.goto(desk.url());
  await visible(wideDesk.getByText(/GB\/\d{4}-\d{2}\/\d{5}/).first());
  await shot(wideDesk, 'reservation-5-converted-1280');

  const answer = (await (await fetch(`${server.url}/api/v1/vehicles/${car.id}`)).json()) as { status?: string; vehicle?: { status: string } };
  expect(answer.vehicle?.status ?? answer.status).toBe('sold');
  const mine = (await (await buyer.get('/api/v1/me/reservations')).json()) as { items: Array<{ id: number; status: string; salePrice: number }> };
  expect(mine.items[0]).toMatchObject({ id: reservationId, status: 'converted', salePrice: 650_000 });
  expect(errors).toEqual([]);
}, 240_000);
