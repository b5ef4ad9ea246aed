import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, viewports, waitFor, waitForHydration } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The dealer's first day, in Chromium: set up the first admin on an empty database, verify the
 * email through /dev/outbox, sign in, add a category and a car with two photos, see it on the
 * home page with its cover, change its price, mark it sold (it leaves the listing), delete it
 * (its files leave storage).
 */

const EMAIL = 'admin@gaadibazaar.in';
const PASSWORD = 'first-admin-1';
let server: TestServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

/** A small JPEG of one colour, as a phone would upload. */
async function photo(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: colour } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function mediaFiles(folder: string): Promise<string[]> {
  try {
    return await readdir(path.join(server.dataDir, 'media', folder));
  } catch {
    return [];
  }
}

beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite', seed: false });
  browser = await launchChromium();
  const context = await browser.newContext({ ...viewports.desktop, baseURL: server.url, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('sets up the first admin, manages a car from listing to deletion', async () => {
  // First-admin setup on an empty database, then 3 seconds later the admin login.
  await page.goto('/setup-admin');
  await expect.poll(() => page.getByRole('heading', { name: 'Create First Admin Account' }).isVisible()).toBe(true);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Admin Account' }).click();
  await page.getByText('Admin account created! Please verify your email before logging in.').waitFor();
  await page.waitForURL('**/admin-login', { timeout: 10_000 });

  // Signing in before verifying is refused with the spec's message.
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Please verify your email before logging in. Check your inbox for the verification email.').waitFor();

  await page.goto('/dev/outbox');
  const verify = await page.locator('a[href*="verify-email"]').first().getAttribute('href');
  expect(verify).toBeTruthy();
  // The link verifies the email and signs the new admin in, landing on the dashboard.
  await page.goto(verify!);
  await page.waitForURL('**/admin-panel');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  // Setup is closed now that an admin exists.
  await page.goto('/setup-admin');
  await page.waitForURL('**/admin-login');
  // The sign-in form solves the bot check in the page: wait until the page has hydrated.
  await waitForHydration(page, 'form[method="post"]');

  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/admin-panel');
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();

  await page.goto('/admin/add-category');
  await page.getByLabel('Category Name').fill('Compact SUVs');
  await page.getByRole('button', { name: 'Add Category' }).click();
  await page.getByText('Category added successfully!').waitFor();

  await page.goto('/admin/add-vehicle');
  await page.getByLabel('Vehicle Name').fill('Tata Nexon XZ+ 2021');
  await page.getByLabel('Category').selectOption({ label: 'Compact SUVs' });
  await page.getByLabel('Price in rupees').fill('845000');
  await page.getByLabel('Make').fill('Tata');
  await page.getByLabel('Model').fill('Nexon');
  await page.getByLabel('Images').setInputFiles([
    { name: 'nexon-front.jpg', mimeType: 'image/jpeg', buffer: await photo('#b3201c') },
    { name: 'nexon-side.jpg', mimeType: 'image/jpeg', buffer: await photo('#1f3f8f') },
  ]);
  await page.getByRole('button', { name: 'Add Vehicle' }).click();
  await page.getByText('Vehicle added successfully!').waitFor();
  const stored = await mediaFiles('vehicles/compact-suvs');
  expect(stored.filter((file) => file.includes('nexon-front')).length).toBeGreaterThan(0);
  expect(stored.filter((file) => file.includes('nexon-side')).length).toBeGreaterThan(0);

  // On the home page with the first photo as its cover.
  await page.goto('/');
  const card = page.getByRole('article').filter({ hasText: 'Tata Nexon' });
  await card.waitFor();
  await expect.poll(() => card.getByRole('img').getAttribute('src')).toContain('nexon-front');
  await expect.poll(() => card.textContent()).toContain('On-road price ₹8,45,000');

  // Change its price.
  await page.goto('/admin-panel/vehicles');
  await page.getByRole('link', { name: /Edit Tata Nexon/ }).click();
  // The form's sold fields follow the status once the page's script runs.
  await waitForHydration(page, 'select[name="status"]');
  await page.getByLabel('Price in rupees').fill('799000');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Vehicle updated successfully').waitFor();
  await page.goto('/');
  await expect.poll(() => page.getByRole('article').filter({ hasText: 'Tata Nexon' }).textContent()).toContain('On-road price ₹7,99,000');

  // Mark it sold: it leaves the listing and search.
  await page.goto('/admin-panel/vehicles');
  await page.getByRole('link', { name: /Edit Tata Nexon/ }).click();
  // The form's sold fields follow the status once the page's script runs.
  await waitForHydration(page, 'select[name="status"]');
  // The form hides the sold fields once hydrated; choose again until React has seen the choice.
  await waitFor(
    async () => {
      await page.getByLabel('Status', { exact: true }).selectOption('sold');
      return page.getByLabel('Sold price in rupees').isVisible();
    },
    Boolean,
    20_000,
  );
  await page.getByLabel('Sold price in rupees').fill('790000');
  await page.getByLabel('Sold date').fill(new Date().toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Vehicle updated successfully').waitFor();
  await page.goto('/?q=nexon');
  await page.getByText('No vehicles found for “nexon”').waitFor();

  // Delete it: the confirmation, the toast, and its files leave storage.
  await page.goto('/admin-panel/vehicles');
  await page.getByRole('button', { name: /Delete Tata Nexon/ }).click();
  await page.getByText('Are you sure you want to delete Tata Nexon XZ+ 2021?').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('Tata Nexon XZ+ 2021 deleted successfully!').waitFor();
  await expect.poll(async () => (await mediaFiles('vehicles/compact-suvs')).filter((file) => file.includes('nexon')).length).toBe(0);

  expect(errors).toEqual([]);
});
