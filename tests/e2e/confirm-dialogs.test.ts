import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hidden,
  launchChromium,
  openPageOn,
  saveScreenshot,
  signInAdminInBrowser,
  visible,
  waitFor,
  waitForHydration,
  type ViewportName,
} from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * The last of the browser's confirm() boxes are the site's own dialog (app/components/confirm-dialog.tsx):
 * a buyer cancelling a test drive, the desk cancelling a reservation, deleting a lead and
 * resetting the settings. Each says what will happen, starts on its way out, gives focus back
 * to the button that opened it when kept (by its button or Escape), and does the thing when
 * confirmed; no native dialog is ever shown. On the demo's full week, at 375 and 1280 px, in
 * English and Hindi.
 */

const ADMIN = { email: 'admin@gaadibazaar.in', password: 'dialog-admin-1' };
let server: TestServer;
let browser: Browser;
let buyer: HttpClient;
let carTitle = '';
const errors: string[] = [];
const nativeDialogs: string[] = [];

async function open(viewport: ViewportName, who?: HttpClient): Promise<Page> {
  const page = await openPageOn(browser, server.url, viewport, errors, who ? { cookies: who.jar.cookies.values() } : {});
  page.on('dialog', (dialog) => {
    nativeDialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  return page;
}

/** The text of the element that has the focus, once it is `name`. */
const focused = (page: Page, name: string) =>
  waitFor(
    () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''),
    (text) => text === name,
  );

/** Opens the dialog with `opener`, keeps it by `keep` and then by Escape: focus goes back to the opener each time. */
async function keptTwice(page: Page, opener: Locator, dialog: Locator, keep: string) {
  const openerText = ((await opener.textContent()) ?? '').trim();
  await opener.click();
  await visible(dialog);
  await focused(page, keep);
  await dialog.getByRole('link', { name: keep }).click();
  await hidden(dialog);
  await focused(page, openerText);
  await opener.click();
  await visible(dialog);
  // Focus on the way out: the dialog is modal now, and Escape is its to take.
  await focused(page, keep);
  await page.keyboard.press('Escape');
  await hidden(dialog);
  await focused(page, openerText);
}

beforeAll(async () => {
  server = await startTestServer({
    dialect: 'sqlite',
    seed: false,
    env: { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: ADMIN.password, PAGE_CACHE_SECONDS: '0' },
  });
  const listing = (await (await fetch(`${server.url}/api/v1/vehicles?perPage=20`)).json()) as { items: Array<{ id: number; name: string; status: string }> };
  const forSale = listing.items.filter((item) => item.status === 'available');
  const car = forSale[0]!;
  buyer = new HttpClient(server.url, { address: null });
  const email = uniqueEmail('dialogs');
  await signUp(buyer, email);
  await completeProfile(buyer, 'Nisha Rao', uniqueMobile());
  // Two test drives of the car, on two days: one is kept, one cancelled.
  for (const days of [3, 4]) {
    const date = addDays(indiaDay(Date.now()), days);
    const slots = (await (await buyer.get(`/api/v1/test-drives/slots?vehicleId=${car.id}&date=${date}`)).json()) as {
      slots: Array<{ start: string; remaining: number }>;
    };
    const slot = slots.slots.find((entry) => entry.remaining > 0)!.start;
    const booked = await buyer.request('/api/v1/test-drives', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vehicleId: car.id, slot, mode: 'hub' }),
    });
    expect(booked.status).toBe(201);
  }
  const database = new DatabaseSync(path.join(server.dataDir, 'gaadi-bazaar.sqlite'));
  try {
    carTitle = (database.prepare('SELECT vehicle_title FROM test_drives ORDER BY id DESC LIMIT 1').get() as { vehicle_title: string }).vehicle_title;
    // A paid reservation at the desk, held for two more days.
    const user = database.prepare('SELECT id FROM user WHERE email = ?').get(email) as { id: string };
    const now = new Date().toISOString();
    database
      .prepare(
        `INSERT INTO car_reservations (user_id, vehicle_id, vehicle_title, name, phone, email, amount_paise, hold_hours, status, pay_by_ms, held_until_ms, amount_refunded_paise, created_at, updated_at)
         VALUES (?, NULL, 'Honda City VX CVT', 'Nisha Rao', '+919812345678', ?, 500000, 72, 'active', ?, ?, 0, ?, ?)`,
      )
      .run(user.id, email, Date.now() + 30 * 60_000, Date.now() + 48 * 3_600_000, now, now);
  } finally {
    database.close();
  }
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the site's own dialog instead of confirm()", () => {
  it('a buyer cancelling a test drive is asked first, at 375 px and in Hindi at 1280 px', async () => {
    const page = await open('mobile', buyer);
    await page.goto(paths.myTestDrives);
    await waitForHydration(page, '#test-drives button[aria-haspopup="dialog"]');
    const section = page.locator('#test-drives');
    const cancel = section.getByRole('button', { name: 'Cancel test drive' });
    expect(await cancel.count()).toBe(2);
    const dialog = page.getByRole('dialog', { name: `Cancel your test drive of ${carTitle}?` });
    await keptTwice(page, cancel.first(), dialog, 'Keep it');
    await cancel.first().click();
    await visible(dialog.getByText(/: the time goes back to other buyers\. You can book another test drive whenever you like\.$/));
    await saveScreenshot(page, 'dialog-test-drive-cancel-375', false);
    await dialog.getByRole('button', { name: 'Cancel test drive' }).click();
    await visible(page.getByText('Your test drive has been cancelled.'));
    await waitFor(
      () => section.getByRole('button', { name: 'Cancel test drive' }).count(),
      (count) => count === 1,
    );

    const hindi = await open('desktop', buyer);
    await hindi.goto(`/hi${paths.myTestDrives}`);
    await waitForHydration(hindi, '#test-drives button[aria-haspopup="dialog"]');
    await hindi.locator('#test-drives').getByRole('button', { name: 'टेस्ट ड्राइव रद्द करें' }).click();
    const hindiDialog = hindi.getByRole('dialog', { name: `${carTitle} की टेस्ट ड्राइव रद्द करें?` });
    await visible(hindiDialog.getByRole('link', { name: 'रहने दें' }));
    await focused(hindi, 'रहने दें');
    await saveScreenshot(hindi, 'dialog-test-drive-cancel-hi-1280', false);
    expect(nativeDialogs).toEqual([]);
  });

  describe('in the admin panel', () => {
    let admin: Page;
    beforeAll(async () => {
      admin = await open('desktop');
      await signInAdminInBrowser(admin, ADMIN);
    });

    it('the desk cancelling a reservation is asked first, and cancels with the refund when confirmed', async () => {
      await admin.goto(adminPaths.dashboard);
      await waitForHydration(admin, 'button[aria-haspopup="dialog"]');
      const cancel = admin.getByRole('button', { name: 'Cancel with refund' });
      const dialog = admin.getByRole('dialog', { name: /^Cancel reservation #\d+ of Honda City VX CVT\?$/ });
      await keptTwice(admin, cancel, dialog, 'Keep reservation');
      await cancel.click();
      await visible(dialog.getByText('Nisha Rao’s token of ₹5,000 is refunded in full, to the way it was paid, and the car is on sale again.'));
      await saveScreenshot(admin, 'dialog-desk-reservation-cancel-1280', false);
      await dialog.getByRole('button', { name: 'Cancel with refund' }).click();
      await visible(admin.getByText(/^Reservation #\d+ cancelled; ₹5,000 is being refunded\.$/));
      await hidden(admin.getByRole('button', { name: 'Cancel with refund' }));
    });

    it('deleting a lead is asked first, and deletes it when confirmed', async () => {
      await admin.goto(adminPaths.sellingVehicles);
      await waitForHydration(admin, 'main button[aria-haspopup="dialog"]');
      const deletes = admin.getByRole('main').getByRole('button', { name: 'Delete', exact: true });
      const before = await deletes.count();
      expect(before).toBeGreaterThan(0);
      const dialog = admin.getByRole('dialog', { name: /^Delete submission #\d+ and its photos\?$/ });
      await keptTwice(admin, deletes.first(), dialog, 'Cancel');
      await deletes.first().click();
      await visible(dialog.getByText('Everything in it is deleted; the audit log keeps only its number. This cannot be undone.'));
      await saveScreenshot(admin, 'dialog-lead-delete-1280', false);
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await waitFor(
        () => deletes.count(),
        (count) => count === before - 1,
      );
    });

    it('resetting the settings is asked first, in English and Hindi, at 1280 and 375 px', async () => {
      await admin.goto(adminPaths.settings);
      await waitForHydration(admin, 'button[aria-haspopup="dialog"]');
      const reset = admin.getByRole('button', { name: 'Reset to Default' });
      const dialog = admin.getByRole('dialog', { name: 'Reset every setting to its default value?' });
      await keptTwice(admin, reset, dialog, 'Cancel');
      await reset.click();
      await visible(dialog);
      await saveScreenshot(admin, 'dialog-settings-reset-1280', false);
      await dialog.getByRole('button', { name: 'Reset to Default' }).click();
      await visible(admin.getByText('Settings restored to their defaults.'));

      const phone = await open('mobile');
      await phone.context().addCookies(await admin.context().cookies());
      await phone.goto(`/hi${adminPaths.settings}`);
      await waitForHydration(phone, 'button[aria-haspopup="dialog"]');
      await phone.getByRole('button', { name: 'डिफ़ॉल्ट पर रीसेट करें' }).click();
      await visible(phone.getByRole('dialog', { name: 'हर सेटिंग को उसकी डिफ़ॉल्ट वैल्यू पर लौटाएँ?' }));
      await saveScreenshot(phone, 'dialog-settings-reset-hi-375', false);
      expect(nativeDialogs).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
