import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCarOn, param, sendLicence } from '../support/rentals.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Paying a rental booking online in Chromium at 375 px, with Razorpay configured against the
 * local stand-in: the booking page offers "Pay online now", the payment page opens Checkout
 * (the stand-in's checkout.js, loaded under the page's CSP), the renter pays in its frame, and
 * the server records the payment only after checking Checkout's signature; /profile says paid.
 */

const HOUR_MS = 60 * 60 * 1000;
const CAR = 'Checkout Baleno';
let server: TestServer;
let standin: RazorpayStandin;
let browser: Browser;
let carId: number;
let renter: HttpClient;
const errors: string[] = [];

/** The renter signed up and sent a licence over HTTP: the browser carries the same session. */
const open = (viewport: ViewportName) => openPageOn(browser, server.url, viewport, errors, { cookies: renter.jar.cookies.values() });
const shot = (page: Page, name: string) => saveScreenshot(page, name, false);

beforeAll(async () => {
  standin = await startRazorpayStandin();
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: {
      APP_MODE: 'demo',
      PAGE_CACHE_SECONDS: '0',
      RAZORPAY_KEY_ID: STANDIN_KEY_ID,
      RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
      RAZORPAY_API_URL: standin.url,
      RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
    },
  });
  carId = await addFleetCarOn(server, CAR);
  renter = new HttpClient(server.url, { address: null });
  await signUp(renter, uniqueEmail('online'));
  await completeProfile(renter, 'Rohan Das', uniqueMobile());
  expect((await sendLicence(renter, 'WB0120170099887', '1991-11-02')).status).toBe(201);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standin?.close();
});

it('a renter pays a booking online in Razorpay Checkout and the server records it after checking the signature', async () => {
  const page = await open('mobile');
  // A day from three days ahead, on the hour: ₹1,800 rent + ₹324 GST online; the ₹5,000 deposit at pickup.
  const fromMs = Math.ceil((Date.now() + 3 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
  const range = `from=${encodeURIComponent(param(fromMs))}&to=${encodeURIComponent(param(fromMs + 24 * HOUR_MS))}`;
  await page.goto(`/rent/${carId}/book?${range}`);
  await visible(page.getByRole('heading', { name: `Book the ${CAR}`, level: 1 }));
  await waitForHydration(page, 'form[method="post"]');
  await page.getByRole('radio', { name: /Pay online now/ }).check();
  const book = page.getByRole('button', { name: 'Book and pay ₹2,124 online' });
  await visible(book);
  await book.scrollIntoViewIfNeeded();
  await shot(page, 'rental-checkout-1-choose-375');
  await book.click();

  await page.waitForURL((url) => /^\/profile\/bookings\/\d+\/pay$/.test(url.pathname));
  const bookingId = Number(/\/profile\/bookings\/(\d+)\/pay/.exec(page.url())![1]);
  await visible(page.getByRole('heading', { name: `Pay for booking #${bookingId}`, level: 1 }));
  await shot(page, 'rental-checkout-2-pay-375');
  await waitForHydration(page, 'main button[type="button"]');
  await page.getByRole('button', { name: 'Pay ₹2,124' }).click();

  // Checkout's frame, from the checkout origin: pay there.
  const checkout = page.frameLocator('iframe[title="Razorpay Checkout"]');
  await visible(checkout.getByText(standin.orders.at(-1)!.id));
  await shot(page, 'rental-checkout-3-checkout-375');
  await checkout.getByRole('button', { name: 'Pay ₹2,124' }).click();

  await page.waitForURL((url) => url.pathname === '/profile');
  await visible(page.getByText(`Paid ₹2,124 online for booking #${bookingId}.`));
  const booking = page.locator(`li[data-booking="${bookingId}"]`);
  await visible(booking.getByText('₹2,124 paid online; refundable deposit ₹5,000 at pickup'));
  await booking.scrollIntoViewIfNeeded();
  await shot(page, 'rental-checkout-4-paid-375');

  // The server checked the signature: the API says paid.
  const answer = (await (await renter.get(`/api/v1/me/bookings/${bookingId}`)).json()) as { amountPaid: number; paymentMethod: string };
  expect(answer).toMatchObject({ amountPaid: 2124, paymentMethod: 'razorpay' });
  expect(errors).toEqual([]);
});
