import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acceptDialogs, launchChromium, openPageOn, saveScreenshot, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { addFleetCarOn, param, sendLicence } from '../support/rentals.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The demo's payment sandbox in Chromium at 375 px (docs/decisions/095): a demo server started as
 * `npm run demo` starts it (PAYMENTS=sandbox, no Razorpay keys, nothing else standing in for
 * Razorpay) takes every payment through its own Checkout sheet. A buyer reserves a car, fails a
 * payment and closes the sheet (the reservation stays unpaid, the page says so each time), pays,
 * sees the car Reserved, cancels and reads the refund on the profile; a renter books a car and
 * pays it online, after a failed try. Screenshots of the sheet go to test-results/screenshots/.
 */

const HOUR_MS = 60 * 60 * 1000;
const FLEET_CAR = 'Sandbox Baleno';
let server: TestServer;
let browser: Browser;
let buyer: HttpClient;
let car: { id: number; name: string };
let fleetCarId: number;
const errors: string[] = [];

const open = (viewport: ViewportName, who?: HttpClient) => openPageOn(browser, server.url, viewport, errors, who ? { cookies: who.jar.cookies.values() } : {});
const sheetOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="Razorpay Checkout"]');

/** Presses the pay page's own button and waits for the sandbox's sheet to show the amount. */
async function openSheet(page: Page, pay: string): Promise<FrameLocator> {
  await page.getByRole('button', { name: pay, exact: true }).click();
  const sheet = sheetOf(page);
  await visible(sheet.getByRole('button', { name: pay, exact: true }));
  return sheet;
}

async function myReservations(): Promise<Array<{ id: number; status: string; amountRefunded: number }>> {
  return ((await (await buyer.get('/api/v1/me/reservations')).json()) as { items: Array<{ id: number; status: string; amountRefunded: number }> }).items;
}

beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite', seed: true, env: { APP_MODE: 'demo', PAYMENTS: 'sandbox', PAGE_CACHE_SECONDS: '0' } });
  const listing = (await (await fetch(`${server.url}/api/v1/vehicles`)).json()) as { items: Array<{ id: number; name: string; status: string }> };
  car = listing.items.find((item) => item.status === 'available')!;
  fleetCarId = await addFleetCarOn(server, FLEET_CAR);
  buyer = new HttpClient(server.url, { address: null });
  await signUp(buyer, uniqueEmail('sandbox'));
  await completeProfile(buyer, 'Kavya Menon', uniqueMobile());
  expect((await sendLicence(buyer, 'KA0120180099123', '1992-04-18')).status).toBe(201);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('a buyer reserves a car through the sandbox: Fail and Close leave it unpaid, Pay reserves it, cancelling refunds the token', async () => {
  const page = await open('mobile', buyer);
  acceptDialogs(page);
  await page.goto(`/vehicle/${car.id}`);
  const reserve = page.getByRole('button', { name: 'Reserve for ₹5,000, fully refundable' });
  await visible(reserve);
  await reserve.click();
  await page.waitForURL((url) => /^\/profile\/reservations\/\d+\/pay$/.test(url.pathname));
  const reservationId = Number(/\/profile\/reservations\/(\d+)\/pay/.exec(page.url())![1]);
  await waitForHydration(page, 'main button[type="button"]');

  // The sheet: the site's name, what is paid for, the amount, Pay, Fail and Close.
  let sheet = await openSheet(page, 'Pay ₹5,000');
  await visible(sheet.getByText('Gaadi Bazaar', { exact: true }));
  await visible(sheet.getByText(`Reservation #${reservationId}`, { exact: false }));
  await visible(sheet.getByText('₹5,000', { exact: true }));
  await visible(sheet.getByText(/Payment sandbox:/));
  await saveScreenshot(page, 'payment-sandbox-1-checkout-375', false);

  // Fail: the bank declines; the sheet says so and stays; closed, the page says it did not go through.
  await sheet.getByRole('button', { name: 'Fail' }).click();
  await visible(sheet.getByText(/^Payment failed: The bank declined this payment\./));
  await saveScreenshot(page, 'payment-sandbox-2-failed-375', false);
  await sheet.getByRole('button', { name: 'Close' }).click();
  await visible(page.getByRole('alert').filter({ hasText: 'The payment did not go through: The bank declined this payment.' }));
  expect(await page.locator('iframe[title="Razorpay Checkout"]').count()).toBe(0);
  await saveScreenshot(page, 'payment-sandbox-3-failed-page-375', false);
  expect((await myReservations()).find((item) => item.id === reservationId)?.status).toBe('pending');

  // Close without paying: nothing was paid, and the page says that instead.
  sheet = await openSheet(page, 'Pay ₹5,000');
  await sheet.getByRole('button', { name: 'Close' }).click();
  await visible(page.getByRole('status').filter({ hasText: 'The payment window was closed and nothing was paid.' }));
  await saveScreenshot(page, 'payment-sandbox-3-closed-page-375', false);
  expect(await page.getByRole('alert').filter({ hasText: 'did not go through' }).count()).toBe(0);
  expect((await myReservations()).find((item) => item.id === reservationId)?.status).toBe('pending');

  // Pay: Checkout's signed answer reserves the car.
  sheet = await openSheet(page, 'Pay ₹5,000');
  await sheet.getByRole('button', { name: 'Pay ₹5,000' }).click();
  await page.waitForURL((url) => url.pathname === '/profile');
  await visible(page.getByText(/^Reserved: .* is held for you until/));
  expect((await myReservations()).find((item) => item.id === reservationId)?.status).toBe('active');
  const visitor = await open('mobile');
  await visitor.goto(`/vehicle/${car.id}`);
  await visible(visitor.getByText('Reserved', { exact: true }).first());

  // Cancel from the profile: the token comes back through the sandbox's refund API.
  const section = page.locator('#reservations');
  await section.getByRole('button', { name: 'Cancel (refund ₹5,000)' }).click();
  // The site's own dialog asks first.
  await (await visible(page.getByRole('dialog').getByRole('button', { name: 'Cancel reservation' }))).click();
  await visible(page.getByText('Reservation cancelled. ₹5,000 is being refunded in full to the way you paid.'));
  await visible(page.locator('#reservations').getByText('Refunded ₹5,000'));
  await page.locator('#reservations').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'payment-sandbox-4-refunded-375', false);
  expect((await myReservations()).find((item) => item.id === reservationId)).toMatchObject({ status: 'cancelled', amountRefunded: 5000 });
  expect(errors).toEqual([]);
}, 240_000);

it('a renter books a car and pays it online through the sandbox, after a failed try', async () => {
  const page = await open('mobile', buyer);
  // A day from three days ahead, on the hour: ₹1,800 rent + ₹324 GST online; the deposit at pickup.
  const fromMs = Math.ceil((Date.now() + 3 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
  await page.goto(`/rent/${fleetCarId}/book?from=${encodeURIComponent(param(fromMs))}&to=${encodeURIComponent(param(fromMs + 24 * HOUR_MS))}`);
  await waitForHydration(page, 'form[method="post"]');
  await page.getByRole('radio', { name: /Pay online now/ }).check();
  await page.getByRole('button', { name: 'Book and pay ₹2,124 online' }).click();
  await page.waitForURL((url) => /^\/profile\/bookings\/\d+\/pay$/.test(url.pathname));
  const bookingId = Number(/\/profile\/bookings\/(\d+)\/pay/.exec(page.url())![1]);
  await waitForHydration(page, 'main button[type="button"]');

  let sheet = await openSheet(page, 'Pay ₹2,124');
  await visible(sheet.getByText(`Booking #${bookingId}`, { exact: false }));
  await saveScreenshot(page, 'payment-sandbox-5-booking-checkout-375', false);
  await sheet.getByRole('button', { name: 'Fail' }).click();
  await visible(sheet.getByText(/^Payment failed:/));
  await sheet.getByRole('button', { name: 'Close' }).click();
  await visible(page.getByRole('alert').filter({ hasText: 'The payment did not go through: The bank declined this payment.' }));
  const unpaid = (await (await buyer.get(`/api/v1/me/bookings/${bookingId}`)).json()) as { amountPaid: number; status: string };
  expect(unpaid).toMatchObject({ amountPaid: 0, status: 'requested' });

  sheet = await openSheet(page, 'Pay ₹2,124');
  await sheet.getByRole('button', { name: 'Pay ₹2,124' }).click();
  await page.waitForURL((url) => url.pathname === '/profile');
  await visible(page.getByText(`Paid ₹2,124 online for booking #${bookingId}.`));
  await visible(page.locator(`li[data-booking="${bookingId}"]`).getByText('₹2,124 paid online; refundable deposit ₹5,000 at pickup'));
  const paid = (await (await buyer.get(`/api/v1/me/bookings/${bookingId}`)).json()) as { amountPaid: number; paymentMethod: string };
  expect(paid).toMatchObject({ amountPaid: 2124, paymentMethod: 'razorpay' });

  // The sheet at a desktop's width too, to look at.
  const wide = await open('desktop', buyer);
  await wide.goto(`/vehicle/${car.id}`);
  await visible(wide.getByRole('button', { name: 'Reserve for ₹5,000, fully refundable' }));
  await wide.getByRole('button', { name: 'Reserve for ₹5,000, fully refundable' }).click();
  await wide.waitForURL((url) => /\/pay$/.test(url.pathname));
  await waitForHydration(wide, 'main button[type="button"]');
  await openSheet(wide, 'Pay ₹5,000');
  await saveScreenshot(wide, 'payment-sandbox-6-checkout-1280', false);
  expect(errors).toEqual([]);
}, 240_000);
