import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { HttpClient } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { saveDealerSettings, walkInSaleForm } from '../support/sales.ts';

/**
 * A sold car handed over in Chromium at 375 px (decision 116): the desk opens the sale, goes to
 * "Hand over the car", reads the odometer and fuel, ticks the documents, takes the five photos,
 * the buyer draws a signature on the pad with the pointer, and the sale's page then shows the
 * delivery and lists its delivery note. The form is also looked at 1280 px wide.
 */

const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';
let server: TestServer;
let browser: Browser;
let admin: HttpClient;
let saleId: number;
const errors: string[] = [];

const open = (viewport: ViewportName) => openPageOn(browser, server.url, viewport, errors, { cookies: admin.jar.cookies.values() });

beforeAll(async () => {
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: { APP_MODE: 'demo', PAGE_CACHE_SECONDS: '0', DEMO_ADMIN_PASSWORD: PASSWORD, ADMIN_EMAILS: ADMIN },
  });
  admin = new HttpClient(server.url, { address: null });
  expect((await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') })).status).toBe(302);
  expect([302, 303]).toContain(await saveDealerSettings(admin));
  const listing = (await (await fetch(`${server.url}/api/v1/vehicles`)).json()) as { items: Array<{ id: number; status: string }> };
  const car = listing.items.find((item) => item.status === 'available')!;
  const sold = await admin.postForm('/admin/sales/new', walkInSaleForm(car.id));
  expect(sold.status).toBe(303);
  saleId = Number(sold.headers.get('location')!.split('/').at(-1));
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A phone camera's photo of one side of the car. */
async function photo(seed: number) {
  const buffer = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: (seed * 53) % 256, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();
  return { name: `photo-${seed}.jpg`, mimeType: 'image/jpeg', buffer };
}

/** Draws a signature on the pad as a hand would: pointer down, a few strokes, pointer up. */
async function sign(page: Page) {
  const pad = page.getByRole('img', { name: 'Signature pad: draw the signature here' });
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await page.mouse.down();
  for (let step = 1; step <= 20; step++)
    await page.mouse.move(box.x + 20 + step * ((box.width - 40) / 20), box.y + box.height * (0.7 - 0.4 * Math.sin(step / 3)));
  await page.mouse.up();
}

it('the desk hands the sold car over at 375 px: the buyer signs on the screen and the delivery note appears', async () => {
  const page = await open('mobile');
  await page.goto(`/admin/sales/${saleId}`);
  await page.getByRole('link', { name: 'Hand over the car' }).click();
  await page.waitForURL((url) => url.pathname === `/admin/sales/${saleId}/delivery`);
  await waitForHydration(page, 'canvas');
  // Usable on a phone: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.getByLabel('Odometer (km)').fill('42315');
  await page.getByLabel('Fuel level').selectOption('6');
  await page.getByLabel('Keys handed over').fill('2');
  for (const document of ['Registration certificate (RC)', 'Insurance policy', 'PUC certificate', 'Form 29 (copy)', 'Form 30 (copy)'])
    await page.getByLabel(document).check();
  const sides = ['Front', 'Back', 'Left side', 'Right side', 'Odometer and fuel gauge'];
  for (const [index, side] of sides.entries()) await page.getByLabel(side, { exact: true }).setInputFiles(await photo(index + 1));
  await sign(page);
  expect(await page.locator('input[name="signature"]').inputValue()).toMatch(/^data:image\/png;base64,/);
  await saveScreenshot(page, 'sale-delivery-1-form-375');
  // Cleared, the pad sends nothing; drawn again, it does.
  await page.getByRole('button', { name: 'Clear' }).click();
  expect(await page.locator('input[name="signature"]').inputValue()).toBe('');
  await sign(page);

  await page.getByRole('button', { name: 'Record the handover' }).click();
  await page.waitForURL((url) => url.pathname === `/admin/sales/${saleId}`);
  await visible(page.getByText(/Handed over on .* 42,315 km/));
  await visible(page.getByText(/^Delivery note DN-GB\//));
  await visible(page.getByText(/Signed by Meera Kulkarni .* \(drawn on the screen\)/));
  await saveScreenshot(page, 'sale-delivery-2-sale-375');

  const wide = await open('desktop');
  await wide.goto(`/admin/sales/${saleId}`);
  await visible(wide.getByText(/^Delivery note DN-GB\//));
  await saveScreenshot(wide, 'sale-delivery-3-sale-1280');
  expect(errors).toEqual([]);
});
