import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, viewports, waitForHydration } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The restore drill (decision 112) on the demo's seeded week: the desk, a customer's profile and
 * a car's photos are read in the browser; `npm run backup` takes a backup; the data folder is
 * wiped; `npm run restore` brings it back into the empty folder; the site started again shows
 * the same desk, profile and photos, and the customer signed in before is signed in still.
 */

const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };
// A customer of the demo's week (server/db/demo/week.ts), with bookings on her profile.
const CUSTOMER = { email: 'priya.nair@example.in', password: 'demo-+919867045120' };
const KEY = 'the-restore-drill-key';
const env = { APP_MODE: 'demo', SEED_DEMO: 'true', DEMO_ADMIN_PASSWORD: ADMIN.password, PAGE_CACHE_SECONDS: '0', BACKUP_KEY: KEY };

let server: TestServer;
let browser: Browser;
let keep: string;

beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite', seed: false, childProcess: true, env });
  browser = await launchChromium();
  keep = await mkdtemp(path.join(tmpdir(), 'gaadi-drill-'));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(keep, { recursive: true, force: true });
});

async function signedInPage(baseURL: string, who: 'admin' | 'customer'): Promise<Page> {
  const context = await browser.newContext({ ...viewports.desktop, baseURL, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const { email, password } = who === 'admin' ? ADMIN : CUSTOMER;
  await page.goto(who === 'admin' ? '/admin-login' : '/login');
  await waitForHydration(page, 'form[method="post"]');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page
    .getByRole('main')
    .getByRole('button', { name: who === 'admin' ? 'Sign In' : 'Login', exact: true })
    .click();
  await page.waitForURL((url) => url.pathname !== '/login' && url.pathname !== '/admin-login');
  return page;
}

/** What the desk, the customer and a buyer see: the rental desk's list, the profile's bookings, a car's photos (their bytes). */
async function whatPeopleSee(baseURL: string) {
  const admin = await signedInPage(baseURL, 'admin');
  await admin.goto('/admin/rentals');
  const desk = await admin.getByRole('main').innerText();
  const customer = await signedInPage(baseURL, 'customer');
  await customer.goto('/profile');
  // The notifications switch asks the browser about this device once the page runs: read the profile once it has answered.
  await customer.getByText('Checking this device…').waitFor({ state: 'detached' });
  // Signing in to look changes two things, after the restore as before: it adds a signed-in
  // device (the profile is read up to that list) and moves "Last login" to the minute of it.
  const profile = (await customer.getByRole('main').innerText()).split('Signed-in devices')[0]!.replace(/Last login\n[^\n]*/, 'Last login\n(this sign-in)');
  const buyer = await admin.context().browser()!.newPage({ baseURL });
  await buyer.goto('/');
  const carLink = await buyer.locator('a[href^="/vehicle/"]').first().getAttribute('href');
  await buyer.goto(carLink!);
  const sources = await buyer
    .locator('main img')
    .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).currentSrc || (image as HTMLImageElement).src));
  const photos: string[] = [];
  for (const source of sources.filter((url) => url.includes('/media/')).slice(0, 4)) {
    const answer = await buyer.request.get(source);
    expect(answer.status()).toBe(200);
    photos.push(Buffer.from(await answer.body()).toString('base64'));
  }
  // The customer's cookies, to come back signed in after the restore.
  const customerCookies = await customer.context().storageState();
  await Promise.all([admin.context().close(), customer.context().close(), buyer.close()]);
  return { desk, profile, carLink, photos, customerCookies };
}

it('backs up the seeded week, wipes it, restores it, and the desk, a profile and a car read as before', async () => {
  const before = await whatPeopleSee(server.url);
  expect(before.desk).toContain('Farhan Shaikh');
  expect(before.profile).toContain('Priya');
  expect(before.photos.length).toBeGreaterThan(0);

  const backupEnv = { ...process.env, DATA_DIR: server.dataDir, BACKUP_KEY: KEY };
  const taken = execFileSync(process.execPath, ['scripts/backup.mjs'], { env: backupEnv, encoding: 'utf8' });
  expect(taken).toMatch(/Backup taken: /);
  const [name] = (await readdir(path.join(server.dataDir, 'backups'))).filter((file) => file.endsWith('.gbk'));
  const backup = path.join(keep, name!);
  await rename(path.join(server.dataDir, 'backups', name!), backup);

  // The disk is lost: nothing of the data folder is left.
  await server.stopKeepingData();
  await rm(server.dataDir, { recursive: true, force: true });
  await mkdir(server.dataDir);
  const restored = execFileSync(process.execPath, ['scripts/restore.mjs', backup], { env: backupEnv, encoding: 'utf8' });
  expect(restored).toMatch(/Restored and checked: \d+ tables, \d+ rows and \d+ files match/);

  const again = await startTestServer({ dialect: 'sqlite', childProcess: true, sameDataAs: server, env });
  try {
    const after = await whatPeopleSee(again.url);
    expect(after.desk).toBe(before.desk);
    expect(after.profile).toBe(before.profile);
    expect(after.carLink).toBe(before.carLink);
    expect(after.photos).toEqual(before.photos);
    // The installation's secret came back with the data: the customer who was signed in before
    // the disk was lost is still signed in, with no new sign-in.
    const returning = await browser.newContext({ ...viewports.desktop, baseURL: again.url, storageState: before.customerCookies });
    const page = await returning.newPage();
    await page.goto('/profile');
    expect(new URL(page.url()).pathname).toBe('/profile');
    await expect.poll(() => page.getByRole('main').innerText()).toContain('Priya Nair');
    await returning.close();
  } finally {
    await again.stop();
  }
}, 600_000);
