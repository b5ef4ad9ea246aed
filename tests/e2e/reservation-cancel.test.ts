import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerDatabase } from '../support/database.ts';
import { hidden, launchChromium, openPageOn, saveScreenshot, visible, waitFor, waitForHydration, type ViewportName } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Cancelling a reservation on the profile asks in the site's own dialog, not the browser's
 * confirm(): the dialog says what happens to the token, focus starts on "Keep it", Escape or
 * "Keep it" changes nothing and gives focus back to the Cancel button, and "Cancel reservation"
 * cancels. At 375 px and 1280 px, in English and Hindi.
 */

let server: TestServer;
let browser: Browser;
let buyer: HttpClient;
const errors: string[] = [];
const dialogs: string[] = [];

async function open(viewport: ViewportName, path: string): Promise<Page> {
  const page = await openPageOn(browser, server.url, viewport, errors, { cookies: buyer.jar.cookies.values() });
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  await page.goto(path);
  await waitForHydration(page, '#reservations button[aria-haspopup="dialog"]');
  return page;
}

const focused = (page: Page, name: string) =>
  waitFor(
    () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''),
    (text) => text === name,
  );

beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite', seed: true, env: { PAGE_CACHE_SECONDS: '0' } });
  buyer = new HttpClient(server.url, { address: null });
  const email = uniqueEmail('cancel-reservation');
  await signUp(buyer, email);
  await completeProfile(buyer, 'Meera Iyer', uniqueMobile());
  const database = openServerDatabase(server);
  try {
    const user = await database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const row = (title: string, status: 'active' | 'pending') => ({
      user_id: user.id,
      vehicle_id: null,
      vehicle_title: title,
      name: 'Meera Iyer',
      phone: '+919812345678',
      email,
      amount_paise: 500_000,
      hold_hours: 72,
      status,
      pay_by_ms: Date.now() + 30 * 60_000,
      held_until_ms: status === 'active' ? Date.now() + 48 * 3_600_000 : null,
      amount_refunded_paise: 0,
      created_at: now,
      updated_at: now,
    });
    await database.db
      .insertInto('car_reservations')
      .values([row('Honda City VX CVT', 'active'), row('Maruti Suzuki Swift VXi', 'pending')])
      .execute();
  } finally {
    await database.close();
  }
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('cancelling a reservation', () => {
  it('asks in the site’s dialog at 375 px: "Keep it" changes nothing and gives focus back, "Cancel reservation" cancels', async () => {
    const page = await open('mobile', '/profile#reservations');
    const section = page.locator('#reservations');
    const cancelPaid = section.getByRole('button', { name: 'Cancel (refund ₹5,000)' });
    await cancelPaid.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your reservation of Honda City VX CVT?' });
    await visible(dialog.getByText('Your token of ₹5,000 is refunded in full, to the way you paid, and the car is offered to other buyers again.'));
    await focused(page, 'Keep it');
    await saveScreenshot(page, 'reservation-cancel-dialog-375', false);
    // Keep it: nothing happens, and focus is back on the button that asked.
    await dialog.getByRole('link', { name: 'Keep it' }).click();
    await hidden(dialog);
    await focused(page, 'Cancel (refund ₹5,000)');
    // Escape is the same way out.
    await cancelPaid.click();
    await visible(dialog);
    await focused(page, 'Keep it');
    await page.keyboard.press('Escape');
    await hidden(dialog);
    await focused(page, 'Cancel (refund ₹5,000)');
    await visible(section.getByText('Honda City VX CVT'));

    // The unpaid one: nothing charged, and Cancel reservation cancels it.
    await section.getByRole('button', { name: 'Cancel', exact: true }).click();
    const unpaid = page.getByRole('dialog', { name: 'Cancel your reservation of Maruti Suzuki Swift VXi?' });
    await visible(unpaid.getByText('You have not paid for it yet, so nothing is charged.'));
    await unpaid.getByRole('button', { name: 'Cancel reservation' }).click();
    await visible(page.getByText('Reservation cancelled.', { exact: true }));
    await waitFor(
      () => section.getByRole('button', { name: 'Cancel', exact: true }).count(),
      (count) => count === 0,
    );
    expect(dialogs).toEqual([]);
  });

  it('at 1280 px, and in Hindi', async () => {
    const page = await open('desktop', '/profile#reservations');
    await page.locator('#reservations').getByRole('button', { name: 'Cancel (refund ₹5,000)' }).click();
    await visible(page.getByRole('dialog', { name: 'Cancel your reservation of Honda City VX CVT?' }));
    await saveScreenshot(page, 'reservation-cancel-dialog-1280', false);

    const hindi = await open('desktop', '/hi/profile#reservations');
    await hindi.locator('#reservations').getByRole('button', { name: 'रद्द करें (₹5,000 रिफ़ंड)' }).click();
    const dialog = hindi.getByRole('dialog', { name: 'Honda City VX CVT का रिज़र्वेशन रद्द करें?' });
    await visible(dialog.getByRole('link', { name: 'रहने दें' }));
    await focused(hindi, 'रहने दें');
    await saveScreenshot(hindi, 'reservation-cancel-dialog-hi-1280', false);
    const phone = await open('mobile', '/hi/profile#reservations');
    await phone.locator('#reservations').getByRole('button', { name: 'रद्द करें (₹5,000 रिफ़ंड)' }).click();
    await visible(phone.getByRole('dialog', { name: 'Honda City VX CVT का रिज़र्वेशन रद्द करें?' }));
    await saveScreenshot(phone, 'reservation-cancel-dialog-hi-375', false);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});
