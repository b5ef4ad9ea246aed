import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, visible, waitFor, waitForHydration, type ViewportName } from '../support/browser.ts';
import { uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { addFleetCarOn } from '../support/rentals.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { openServerDatabase } from '../support/database.ts';
import { addDays, indiaDateTimeParam, indiaDay } from '../../app/lib/india-time.ts';

/**
 * A renter on a phone (375 px) rents a self-drive car from start to finish: dates on /rent, the
 * car, Book, sign up from the sign-in step, verify the phone with the SMS code, upload a
 * licence (both photos), book with pay at pickup. The dealer (also on a phone) approves the
 * licence, confirms, hands the car over and takes it back 50 km over the allowance; the closing
 * statement shows the extra-km charge and the deposit refund, and the renter's /profile shows
 * the booking closed.
 */

const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'kaju-katli-2026';
const CAR = 'Journey Swift Dzire';
let server: TestServer;
let browser: Browser;
let carId: number;
const errors: string[] = [];

const open = (viewport: ViewportName) => openPageOn(browser, server.url, viewport, errors);
const shot = saveScreenshot;

/** A phone photo of one side of a licence. */
async function photo(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 1000, height: 630, channels: 3, background: colour } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** The newest SMS to `recipient` in /dev/outbox whose text matches `pattern` (its first group). */
async function smsCode(page: Page, recipient: string, pattern: RegExp): Promise<string> {
  const outbox = await page.context().newPage();
  try {
    return await waitFor(
      async () => {
        await outbox.goto('/dev/outbox');
        const text =
          (await outbox
            .locator('li[data-channel="sms"]', { hasText: recipient })
            .first()
            .textContent({ timeout: 2000 })
            .catch(() => '')) ?? '';
        return pattern.exec(text)?.[1] ?? '';
      },
      (found) => found !== '',
    );
  } finally {
    await outbox.close();
  }
}

beforeAll(async () => {
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN, PAGE_CACHE_SECONDS: '0', SETTINGS_CACHE_SECONDS: '0' },
  });
  // A fleet car of the test's own: 240 km a day included, ₹12 per extra km, ₹5,000 deposit.
  carId = await addFleetCarOn(server, CAR);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('a renter books a self-drive car on a phone; the desk hands it over, takes it back 50 km over and closes it', async () => {
  const page = await open('mobile');
  expect(page.viewportSize()?.width).toBe(375);
  const email = uniqueEmail('renter');
  const mobile = uniqueMobile();
  // Two days from the day after tomorrow, 10:00 to 10:00 India time: 48 hours, 480 km included.
  const day = addDays(indiaDay(Date.now()), 2);
  const from = `${day}T10:00`;
  const to = `${addDays(day, 2)}T10:00`;

  // Dates on /rent: the car is free, with its rent for the two days.
  await page.goto('/rent');
  await visible(page.getByRole('heading', { name: 'Rent a self-drive car', level: 1 }));
  await page.getByLabel('Pickup (India time)').fill(from);
  await page.getByLabel('Return (India time)').fill(to);
  await page.getByRole('button', { name: 'Show available cars' }).click();
  await page.waitForURL((url) => url.searchParams.get('from') === from && url.searchParams.get('to') === to);
  const card = page.getByRole('article', { name: CAR });
  await visible(card.getByText('₹3,600'));
  await visible(card.getByText('rent for 48 hours'));
  await shot(page, 'rental-1-rent-375');
  await card.getByRole('link', { name: 'Book' }).click();

  // The car's page: the quote, then Book.
  await page.waitForURL((url) => url.pathname === `/rent/${carId}`);
  await visible(page.getByRole('heading', { name: CAR, level: 1 }));
  const quote = page.getByRole('region', { name: 'Your price' });
  await visible(quote.getByText('480 km', { exact: false }).first());
  await shot(page, 'rental-2-car-375');
  await quote.getByRole('link', { name: 'Book' }).click();
  await page.waitForURL((url) => url.pathname === `/rent/${carId}/book`);
  await visible(page.getByRole('heading', { name: `Book the ${CAR}`, level: 1 }));
  await shot(page, 'rental-3-steps-signed-out-375');

  // Sign in, as a new renter: the sign-in page's "Create an account" keeps the way back.
  const steps = page.getByRole('list', { name: 'Booking steps' });
  await steps.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL((url) => url.pathname === '/signup');
  await visible(page.getByRole('heading', { name: 'Create your account', level: 1 }));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

  // Verify the phone with the code from the SMS; back to the booking steps.
  await page.waitForURL((url) => url.pathname === '/profile-complete');
  await visible(page.getByRole('heading', { name: 'Complete your profile', level: 1 }));
  await page.getByLabel('Full name').fill('Kavya Menon');
  await page.getByLabel('Mobile number').fill(mobile);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
  const code = await smsCode(page, mobile, /(\d{6}) is your/);
  await page.getByLabel('OTP').fill(code);
  await page.getByRole('button', { name: 'Verify and Save' }).click();
  await page.waitForURL((url) => url.pathname === `/rent/${carId}/book`);
  await visible(steps.getByText(`Signed in as ${email}`));
  await visible(steps.getByText(`Verified +91${mobile}`));

  // The licence: number, date of birth, both photos; back to the booking steps.
  await steps.getByRole('link', { name: 'Add licence' }).click();
  await page.waitForURL((url) => url.pathname === '/profile/licence');
  await page.getByLabel('Licence number').fill('KA0120190054321');
  await page.getByLabel('Date of birth').fill('1994-08-21');
  await page.getByLabel('Photo of the front').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: await photo('#3a6ea5') });
  await page.getByLabel('Photo of the back').setInputFiles({ name: 'back.jpg', mimeType: 'image/jpeg', buffer: await photo('#a53a3a') });
  await shot(page, 'rental-4-licence-375');
  await page.getByRole('button', { name: /licence/i }).click();
  await page.waitForURL((url) => url.pathname === `/rent/${carId}/book`);
  await visible(steps.getByText(/Awaiting review/i));
  await shot(page, 'rental-5-steps-ready-375');

  // The quote in lines: rent and 18% GST, the deposit apart. Ticking damage protection (2 days at
  // ₹250) adds its line and its GST: ₹3,600 + ₹500 + ₹738 = ₹4,838, and ₹5,000 deposit at pickup.
  await waitForHydration(page, 'form[method="post"]');
  const lines = page.locator('[data-quote-line]');
  expect(await lines.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-quote-line')))).toEqual(['rent', 'gst']);
  await page.getByRole('checkbox', { name: /Add damage protection/ }).check();
  expect(await lines.evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-quote-line'), row.querySelector('dd')?.textContent]))).toEqual([
    ['rent', '₹3,600'],
    ['protection', '₹500'],
    ['gst', '₹738'],
  ]);
  expect(await page.locator('[data-quote-total="total"] dd').textContent()).toBe('₹4,838');
  expect(await page.locator('[data-quote-total="deposit"] dd').textContent()).toBe('₹5,000');
  await shot(page, 'rental-5b-quote-protection-375');

  // Book, pay at pickup: the total ₹4,838 and the deposit ₹5,000.
  await page.getByRole('button', { name: 'Book, pay ₹9,838 at pickup' }).click();
  await page.waitForURL((url) => url.pathname === '/profile');
  const booking = page.locator('li[data-booking]', { hasText: CAR });
  await visible(booking.getByText('Requested', { exact: true }));
  await visible(booking.getByText('₹9,838 at pickup: ₹4,838 and the refundable deposit ₹5,000'));
  const bookingId = Number(await booking.getAttribute('data-booking'));
  expect(bookingId).toBeGreaterThan(0);
  await booking.scrollIntoViewIfNeeded();
  await shot(page, 'rental-6-profile-requested-375');

  // The dealer, on a phone: approve the licence, confirm the booking.
  const admin = await open('mobile');
  await admin.goto('/admin-login');
  await waitForHydration(admin, 'form[method="post"]');
  await admin.getByLabel('Email').fill(ADMIN);
  await admin.getByLabel('Password').fill(PASSWORD);
  await admin.getByRole('button', { name: 'Sign In' }).click();
  await admin.waitForURL('**/admin-panel');
  await admin.goto('/admin/rentals');
  // The desk lists it as waiting, with who asked; Confirm waits for the licence.
  const deskRow = admin.getByRole('region', { name: /Waiting for confirmation/ }).locator('li', { hasText: `#${bookingId} · ${CAR}` });
  await visible(deskRow.getByText('Kavya Menon'));
  await visible(deskRow.getByText(`+91${mobile}`));
  expect(await deskRow.getByRole('button', { name: `Confirm #${bookingId}` }).isDisabled()).toBe(true);
  await shot(admin, 'rental-7-desk-375');
  await admin.goto('/admin/rentals/licences');
  const licence = admin.locator('li', { hasText: email });
  await visible(licence.getByRole('img', { name: /front/ }));
  await shot(admin, 'rental-7b-licences-375');
  await licence.getByRole('button', { name: 'Approve licence' }).click();
  await visible(admin.getByText('Approved the licence KA0120190054321; the customer was told.'));

  await admin.goto(`/admin/rentals/bookings/${bookingId}`);
  await waitForHydration(admin, 'form[method="post"]');
  await admin.getByRole('button', { name: 'Confirm booking' }).click();
  await visible(admin.getByText('Booking confirmed; the customer was told.'));

  // The trip is moved five days back, so the desk can enter its real handover and return times (never in the future).
  const past = 5 * 24 * 3_600_000;
  const database = openServerDatabase(server);
  await database.db
    .updateTable('rental_bookings')
    .set((eb) => ({ starts_ms: eb('starts_ms', '-', past), ends_ms: eb('ends_ms', '-', past), held_until_ms: eb('held_until_ms', '-', past) }))
    .where('id', '=', bookingId)
    .execute();
  await database.close();
  const pastFrom = indiaDateTimeParam(Date.parse(`${from}:00+05:30`) - past);
  const pastTo = indiaDateTimeParam(Date.parse(`${to}:00+05:30`) - past);
  await admin.reload();
  await waitForHydration(admin, 'form[method="post"]');

  // Handover: odometer, fuel and the photo checklist (the four sides and the dashboard).
  const sides = ['Front', 'Back', 'Left side', 'Right side', 'Odometer and fuel gauge'];
  const checklistPhotos = async () => {
    for (const [index, side] of sides.entries()) {
      await admin.getByLabel(side, { exact: true }).setInputFiles({
        name: `side-${index}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await photo(['#b91c1c', '#1d4ed8', '#15803d', '#a16207', '#334155'][index]!),
      });
    }
  };
  await admin.getByLabel('Odometer out (km)').fill('30000');
  await admin.getByLabel('Fuel out').selectOption('8');
  await admin.getByLabel('Handed over at').fill(pastFrom);
  // What is due at pickup, taken in cash.
  expect(await admin.getByLabel('Collected (₹)').inputValue()).toBe('9838');
  await admin.getByLabel('How it was paid').selectOption('cash');
  await checklistPhotos();
  await admin.getByRole('button', { name: 'Hand over' }).click();
  await visible(admin.getByText('Car handed over; the checklist and its photos are recorded.'));

  // Return on time with 530 km driven: 50 km over the 480 included.
  await admin.getByLabel('Odometer in (km)').fill('30530');
  await admin.getByLabel('Fuel in').selectOption('8');
  await admin.getByLabel('Fuel shortfall (₹)').fill('0');
  await admin.getByLabel('Returned at').fill(pastTo);
  await checklistPhotos();
  await admin.getByRole('button', { name: 'Record return' }).click();
  await visible(admin.getByText('Car returned; the charges are below.'));
  const statement = admin.locator('dl[aria-label="Closing statement"]');
  const rowValue = (label: string) => statement.locator('div', { has: admin.locator('dt', { hasText: label }) }).locator('dd');
  expect(await admin.locator('[data-charge="extra-km"]').textContent()).toMatch(/Extra km \(50 km over the allowance\)\s*₹600/);
  await visible(admin.locator('[data-charge="extra-km"] img'));
  expect(await rowValue('Deposit refund').textContent()).toBe('₹4,400');
  await shot(admin, 'rental-8-return-375');
  await admin.getByLabel('How the deposit was returned').selectOption('cash');
  await admin.getByRole('button', { name: 'Settle deposit and close' }).click();
  await visible(admin.getByText('Deposit settled; the booking is closed and the customer has the closing statement.'));
  await visible(admin.locator('[data-status="closed"]'));

  // The renter's closing statement by SMS, and /profile shows the booking closed.
  await smsCode(page, mobile, /(₹4,400)/);
  await page.goto('/profile');
  const closed = page.locator(`li[data-booking="${bookingId}"]`);
  await visible(closed.getByText('Closed', { exact: true }));
  await visible(closed.getByText(/Charges at return ₹600 · deposit refund ₹4,400/));
  // The handover and return records with their photos, and the charge with its photo (open, as there is a charge).
  await visible(closed.locator('[data-checklist="handover"] img').first());
  await visible(closed.locator('[data-charge="extra-km"] img'));
  await closed.scrollIntoViewIfNeeded();
  await shot(page, 'rental-9-profile-closed-375');
  expect(errors).toEqual([]);
});

it.each(['mobile', 'desktop'] as const)(
  'the quote shows its lines with the deposit apart, and the car page states each term as the terms page does (%s)',
  async (viewport) => {
    const page = await open(viewport);
    const width = viewport === 'mobile' ? 375 : 1280;
    const day = addDays(indiaDay(Date.now()), 9);
    await page.goto(`/rent/${carId}?from=${day}T10:00&to=${addDays(day, 2)}T13:00`);
    const quote = page.getByRole('region', { name: 'Your price' });
    await visible(quote);
    // 51 hours: two days and three hours of rent, 18% GST on it; the deposit on its own row, not in the total.
    const lines = await quote
      .locator('[data-quote-line]')
      .evaluateAll((rows) =>
        rows.map((row) => [row.getAttribute('data-quote-line'), row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent]),
      );
    expect(lines).toEqual([
      ['rent', 'Rent, 51 hours (2 days 3 hours)', '₹4,050'],
      ['gst', 'GST 18%', '₹729'],
    ]);
    expect(await quote.locator('[data-quote-total="total"] dd').textContent()).toBe('₹4,779');
    expect(await quote.locator('dl[aria-label="Price"]').textContent()).not.toMatch(/deposit/i);
    expect(await quote.locator('[data-quote-total="deposit"]').textContent()).toBe('Refundable security deposit (not part of the price)₹5,000');
    expect(await quote.locator('[data-quote-total="pickup"] dd').textContent()).toBe('₹9,779');
    await quote.scrollIntoViewIfNeeded();
    await shot(page, `rental-quote-${width}`);
    // The booking page, signed out: the same lines under the steps.
    await page.goto(`/rent/${carId}/book?from=${day}T10:00&to=${addDays(day, 2)}T13:00`);
    expect(await page.locator('[data-quote-total="total"] dd').textContent()).toBe('₹4,779');
    await shot(page, `rental-book-${width}`);
    await page.goBack();

    const factsOn = (scope: string) =>
      page
        .locator(`${scope} [data-fact]`)
        .evaluateAll((items) => items.map((item) => [item.getAttribute('data-fact'), item.querySelector('[data-fact-text]')?.textContent ?? '']));
    const carFacts = await factsOn('[data-terms="car"]');
    expect(carFacts.map(([key]) => key)).toEqual([
      'km',
      'fuel',
      'deposit',
      'driver',
      'deposit-return',
      'refund',
      'late-return',
      'cancellation',
      'protection',
      'delivery',
      'gst',
    ]);
    expect(Object.fromEntries(carFacts)['deposit-return']).toContain('within 7 working days');

    await page.goto('/rent/terms');
    await visible(page.getByRole('heading', { name: 'Self-drive rental terms', level: 1 }));
    const termsFacts = [...(await factsOn(`[data-terms-car="${carId}"]`)), ...(await factsOn('[data-terms="all"]'))];
    expect(termsFacts).toEqual(carFacts);
    await shot(page, `rental-terms-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(errors).toEqual([]);
  },
);
