import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { estimateSellersCreta, launchChromium, openPageOn, saveScreenshot, visible, type ViewportName } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * A seller's car from estimate to inventory draft, in Chromium at 375 px (decisions 081, 084):
 * the seller gets an estimate and books a home inspection; the desk finds it on the day's
 * schedule, confirms, records it with a photo and makes an offer; the seller accepts on the
 * profile; the desk creates the vehicle draft, which the inventory shows as a Draft, and records
 * the purchase (decision 118), which the draft then carries as its purchase price. Every new
 * screen is also looked at 1280 px wide.
 */

const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
let server: TestServer;
let browser: Browser;
let seller: HttpClient;
let admin: HttpClient;
const errors: string[] = [];

const open = (viewport: ViewportName, who: HttpClient) => openPageOn(browser, server.url, viewport, errors, { cookies: who.jar.cookies.values() });
const shot = (page: Page, name: string) => saveScreenshot(page, name, true);

beforeAll(async () => {
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: { APP_MODE: 'demo', PAGE_CACHE_SECONDS: '0', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN },
  });
  seller = new HttpClient(server.url, { address: null });
  await signUp(seller, uniqueEmail('seller'));
  await completeProfile(seller, 'Kavita Desai', uniqueMobile());
  admin = new HttpClient(server.url, { address: null });
  expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('a seller gets an estimate, books a home inspection, the desk records it and offers, the seller accepts, the desk creates the draft', async () => {
  // The seller: estimate, then a home inspection.
  const page = await open('mobile', seller);
  await estimateSellersCreta(page);
  const book = page.getByRole('link', { name: 'Book an inspection' });
  await visible(book);
  await book.click();
  await visible(page.getByRole('heading', { level: 1, name: 'Book an inspection' }));
  await page.getByLabel(/At your home/).check();
  await page.locator('input[name="pin"]').fill('400069');
  await page.getByRole('button', { name: 'Show times' }).click();
  await page.waitForURL((url) => url.searchParams.get('pin') === '400069');
  const firstFree = page.locator('label:has(input[name="slot"]:not([disabled]))').first();
  await visible(firstFree);
  await firstFree.click();
  await page.getByLabel('House or flat, street and area').fill('12 Sea View, Juhu Tara Rd');
  await page.getByRole('button', { name: 'Book the inspection' }).click();
  await page.waitForURL((url) => url.pathname === '/profile');
  await visible(page.getByText('Your inspection is booked.'));

  const row = /data-inspection="(\d+)"/;
  const list = (await (await seller.get('/api/v1/me/inspections')).json()) as { inspections: Array<{ id: number; slot: string }> };
  const { id, slot } = list.inspections[0]!;
  const day = slot.slice(0, 10);

  // The desk: the day's schedule, then the inspection.
  for (const viewport of ['mobile', 'desktop'] as const) {
    const schedule = await open(viewport, admin);
    await schedule.goto(`/admin/inspections?date=${day}`);
    await visible(schedule.getByRole('link', { name: `Open inspection #${id}` }));
    expect(row.test(await schedule.content())).toBe(true);
    await shot(schedule, `seller-1-schedule-${viewport === 'mobile' ? 375 : 1280}`);
  }
  const desk = await open('mobile', admin);
  await desk.goto(`/admin/inspections/${id}`);
  await visible(desk.getByRole('heading', { name: 'Inspection record' }));
  await shot(desk, 'seller-2-inspection-booked-375');
  await desk.getByRole('button', { name: 'Confirm' }).click();
  await visible(desk.getByText('Inspection confirmed.'));
  await desk.getByLabel('Engine').selectOption('Good');
  await desk.getByLabel('Tyres').selectOption('Fair');
  await desk.getByLabel('Odometer reading (km)').fill('45,310');
  await desk.getByLabel('Notes').fill('Minor scratch on the rear bumper. Service history complete.');
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();
  await desk.locator('input[name="images"]').setInputFiles({ name: 'creta-front.jpg', mimeType: 'image/jpeg', buffer: photo });
  await desk.getByRole('button', { name: 'Save inspection record' }).click();
  await visible(desk.getByText('Inspection recorded.'));
  await visible(desk.getByRole('list', { name: 'Inspection photos' }).getByRole('img'));
  await desk.getByLabel('Amount in rupees').fill('6,10,000');
  await desk.getByRole('button', { name: 'Send the offer' }).click();
  await visible(desk.getByText('Offer of ₹6,10,000 sent to the seller.'));
  await shot(desk, 'seller-3-inspection-offered-375');
  const wideDesk = await open('desktop', admin);
  await wideDesk.goto(`/admin/inspections/${id}`);
  await visible(wideDesk.getByText("Waiting for the seller's answer"));
  await shot(wideDesk, 'seller-3-inspection-offered-1280');

  // The seller accepts on the profile.
  await page.goto('/profile#inspections');
  const offer = page.locator('#inspections [data-offer="open"]');
  await visible(offer.getByText('₹6,10,000'));
  await offer.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'seller-4-profile-offer-375', false);
  const wideProfile = await open('desktop', seller);
  await wideProfile.goto('/profile#inspections');
  await visible(wideProfile.locator('#inspections [data-offer="open"]'));
  await saveScreenshot(wideProfile, 'seller-4-profile-offer-1280', false);
  // The report the offer rests on, opened.
  await page.locator('#inspections summary', { hasText: 'Inspection report' }).click();
  await visible(page.locator('#inspections details[open]').getByText('Engine'));
  await page.locator('#inspections details[open]').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'seller-4-profile-report-375', false);
  // Accepting asks to confirm the amount first.
  await offer.getByRole('link', { name: 'Accept offer' }).click();
  const confirm = await visible(page.getByRole('button', { name: 'Yes, accept ₹6,10,000' }));
  await visible(page.getByText('Sell your 2019 Hyundai Creta to us for ₹6,10,000?'));
  await confirm.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'seller-4-profile-confirm-offer-375', false);
  await confirm.click();
  await visible(page.getByText('You accepted our offer.'));
  await visible(page.locator('#inspections [data-offer="accepted"]'));

  // The desk creates the draft; the inventory shows it as a Draft, the public does not see it.
  await desk.goto(`/admin/inspections/${id}`);
  await visible(desk.getByRole('heading', { name: 'Vehicle draft' }));
  await desk.getByRole('region', { name: 'Vehicle draft' }).getByLabel('Category').selectOption({ index: 1 });
  await desk.getByRole('button', { name: 'Create vehicle draft' }).click();
  await visible(desk.getByText('Vehicle draft created.'));
  const draftLink = desk.getByRole('link', { name: /Hyundai Creta \(vehicle #\d+\)/ });
  await visible(draftLink);
  await shot(desk, 'seller-5-draft-375');
  const vehicleId = Number(/#(\d+)/.exec((await draftLink.textContent()) ?? '')![1]);
  await wideDesk.goto(`/admin/inspections/${id}`);
  await visible(wideDesk.getByRole('heading', { name: 'Vehicle draft' }));
  await shot(wideDesk, 'seller-5-draft-1280');

  // The desk records the purchase (decision 118): the price defaults to the accepted offer, the date of possession to today.
  await visible(desk.getByRole('heading', { name: 'Record the purchase' }));
  expect(await desk.getByLabel('Price paid (₹)').inputValue()).toBe('610000');
  await desk.getByLabel('Payment reference').fill('UTR HDFC0099887766');
  await desk.getByLabel('RC (registration certificate)').check();
  await desk.getByLabel('Keys').check();
  await desk.getByLabel('Form 29 (signed)').check();
  await desk.getByLabel("Seller's address").fill('12 Sea View, Juhu Tara Rd, Mumbai 400049');
  await desk.getByRole('heading', { name: 'Record the purchase' }).scrollIntoViewIfNeeded();
  await shot(desk, 'seller-5b-purchase-form-375');
  await desk.getByRole('button', { name: 'Record the purchase' }).click();
  await visible(desk.getByText('Purchase recorded: ₹6,10,000 paid to the seller.'));
  await visible(desk.getByText('₹6,10,000 paid by bank transfer, reference UTR HDFC0099887766'));
  await desk.getByRole('heading', { name: 'Purchase', exact: true }).scrollIntoViewIfNeeded();
  await shot(desk, 'seller-5c-purchase-summary-375');
  await wideDesk.goto(`/admin/inspections/${id}`);
  await visible(wideDesk.getByRole('heading', { name: 'Purchase', exact: true }));
  await wideDesk.getByRole('heading', { name: 'Purchase', exact: true }).scrollIntoViewIfNeeded();
  await shot(wideDesk, 'seller-5c-purchase-summary-1280');
  // The draft carries what the dealer paid.
  await desk.getByRole('link', { name: `The car: Hyundai Creta (vehicle #${vehicleId})` }).click();
  await visible(desk.getByText('Bought from a seller for ₹6,10,000;'));
  await shot(desk, 'seller-5d-draft-purchase-price-375');
  for (const viewport of ['mobile', 'desktop'] as const) {
    const inventory = await open(viewport, admin);
    await inventory.goto('/admin-panel/vehicles?status=draft');
    await visible(inventory.getByText('Draft', { exact: true }).first());
    await shot(inventory, `seller-6-inventory-draft-${viewport === 'mobile' ? 375 : 1280}`);
  }
  expect((await fetch(`${server.url}/vehicle/${vehicleId}`)).status).toBe(404);
  for (const viewport of ['mobile', 'desktop'] as const) {
    const dashboard = await open(viewport, admin);
    await dashboard.goto('/admin-panel');
    await visible(dashboard.getByText('Inspections today'));
    await shot(dashboard, `seller-7-dashboard-${viewport === 'mobile' ? 375 : 1280}`);
  }
  expect(errors).toEqual([]);
});
