import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserHarness, findVehicleId, hidden, saveScreenshot, signInAdminInBrowser, visible } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startRazorpayStandin, STANDIN_KEY_ID, STANDIN_KEY_SECRET, STANDIN_WEBHOOK_SECRET, type RazorpayStandin } from '../support/razorpay-standin.ts';
import { addFleetCarOn, param, sendLicence } from '../support/rentals.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import { pathInLanguage } from '../../app/lib/i18n/language.ts';
import { OFFLINE_PAGE } from '../../app/lib/offline.ts';

/**
 * The browser runs Preact, which hydrates the server's React HTML without a word when the two
 * disagree: a mismatch shows as a wrong page, not as a warning (decisions 039, 053). So every
 * kind of page in app/routes.ts is loaded in Chromium and, once it says it has hydrated (every
 * deferred part too: `window.pageHydrated`, app/entry.client.tsx), its <body> is compared
 * with the <body> of the HTML the server sent for that very load. The page must log no error,
 * and one control on it must work, which only a hydrated page does. A page made to render
 * differently in the browser (/dev/hydration-mismatch, test mode only) proves the comparison
 * sees a mismatch. Run it after every React Router or Preact update.
 */

const harness = browserHarness();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'hydration-admin-1' };
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The page's <body> as lines of structure and text: one line per element (its tag and its
 * attributes, sorted) and per run of text, indented by depth. Left out, with their reasons:
 * - `nonce`, which the browser hides from the page once the document has a CSP;
 * - what <noscript> holds, which a page running scripts keeps as raw text and DOMParser (no
 *   scripts) as elements;
 * - comments (React's text separators, which Preact removes);
 * - the module preloads React Router's <Scripts> renders: React's server moves them to <head>,
 *   the browser entry removes them there, and Preact puts them back where <Scripts> is
 *   (decision 039); they only name files the page has already loaded;
 * - the inline scripts that stream the router's data to the page (`…streamController.enqueue`
 *   and `close`): they have run before hydration, and Preact drops them, as React Router's
 *   browser side renders none;
 * - what an element marked `data-changes-once-hydrated` holds: controls that appear once the
 *   page runs script (useHydrated, app/features/admin/admin-ui.tsx), after hydration.
 * Runs in the page.
 */
function bodyOutline(root: HTMLElement): string[] {
  const lines: string[] = [];
  const walk = (node: Node, depth: number) => {
    const indent = '  '.repeat(depth);
    if (node.nodeType === Node.TEXT_NODE) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text) lines.push(`${indent}"${text}"`);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    if (element.localName === 'link' && element.getAttribute('rel') === 'modulepreload') return;
    if (element.localName === 'script' && element.textContent?.startsWith('window.__reactRouterContext.streamController')) return;
    const attributes = [...element.attributes]
      .filter((attribute) => attribute.name !== 'nonce')
      .map((attribute) => `${attribute.name}="${attribute.value}"`)
      .sort();
    lines.push(`${indent}<${element.localName}${attributes.length ? ' ' + attributes.join(' ') : ''}>`);
    if (element.localName === 'noscript' || element.hasAttribute('data-changes-once-hydrated')) return;
    // Adjacent text nodes (React writes `₹<!-- -->5,00,000`) read as one run.
    let run = '';
    const flush = () => {
      const text = run.replace(/\s+/g, ' ').trim();
      if (text) lines.push(`${indent}  "${text}"`);
      run = '';
    };
    for (const child of element.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) run += child.textContent ?? '';
      else if (child.nodeType === Node.ELEMENT_NODE) {
        flush();
        walk(child, depth + 1);
      }
    }
    flush();
  };
  walk(root, 0);
  return lines;
}

/**
 * Where the hydrated page differs from the server's HTML: the first differing line with a
 * little context, or nothing. Waits until the page says it has hydrated.
 */
async function hydrationDifferences(page: Page, serverHtml: string): Promise<string[]> {
  await page.waitForFunction(() => (window as unknown as { pageHydrated?: boolean }).pageHydrated === true, null, { timeout: 30_000 });
  return page.evaluate(
    ({ html, outline }) => {
      const toOutline = new Function(`return (${outline})`)() as (root: HTMLElement) => string[];
      const server = toOutline(new DOMParser().parseFromString(html, 'text/html').body);
      const browser = toOutline(document.body);
      const length = Math.max(server.length, browser.length);
      for (let index = 0; index < length; index += 1) {
        if (server[index] === browser[index]) continue;
        const around = (lines: string[]) => lines.slice(Math.max(0, index - 3), index + 3).join('\n');
        return [`line ${index + 1} of ${server.length} (server) / ${browser.length} (browser)`, `server:\n${around(server)}`, `browser:\n${around(browser)}`];
      }
      return [];
    },
    { html: serverHtml, outline: bodyOutline.toString() },
  );
}

/** Opens `path`, and answers the server's HTML of that load (the page must answer `status`). */
async function load(page: Page, path: string, status = 200): Promise<string> {
  const response = await page.goto(path);
  if (!response) throw new Error(`no answer for ${path}`);
  expect(response.status(), `status of ${path}`).toBe(status);
  return response.text();
}

/** The site's search overlay opens from the top bar and closes again: the layout's handlers are attached. */
async function searchOverlayWorks(page: Page) {
  const overlay = page.getByRole('dialog', { name: 'Search vehicles' });
  await page.getByRole('banner').getByRole('button', { name: 'Search vehicles' }).click();
  await visible(overlay);
  await overlay.getByRole('button', { name: 'Close search' }).click();
  await hidden(overlay);
}

/** A tab of the admin's navigation opens its page in the running app, without loading a document. */
async function adminTabNavigates(page: Page) {
  await page.evaluate(() => ((window as unknown as { stillThisDocument: boolean }).stillThisDocument = true));
  const onDashboard = new URL(page.url()).pathname === adminPaths.dashboard;
  const [tab, target] = onDashboard ? ['Statistics', adminPaths.statistics] : ['Dashboard', adminPaths.dashboard];
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: tab, exact: true }).click();
  await page.waitForURL((url) => url.pathname === target);
  expect(await page.evaluate(() => (window as unknown as { stillThisDocument?: boolean }).stillThisDocument)).toBe(true);
}

type PageKind = { name: string; path: () => string; status?: number; works?: (page: Page) => Promise<void> };

async function checkPage(page: Page, kind: PageKind) {
  const html = await load(page, kind.path(), kind.status);
  expect(await hydrationDifferences(page, html), `${kind.name}: the hydrated page differs from the server's HTML`).toEqual([]);
  await (kind.works ?? searchOverlayWorks)(page);
}

/** The first `/rent/<id>` link on the fleet page: a self-drive car of the demo. */
async function fleetCarId(baseUrl: string): Promise<number> {
  const html = await (await fetch(`${baseUrl}${paths.rent()}`)).text();
  const id = /href="\/rent\/(\d+)/.exec(html)?.[1];
  if (!id) throw new Error('the demo fleet has no car on /rent');
  return Number(id);
}

describe('public pages hydrate to the HTML the server sent', () => {
  let swift = 0;
  let creta = 0;
  let rentalCar = 0;
  let category = '';
  beforeAll(async () => {
    swift = await findVehicleId(harness.baseUrl, 'swift');
    creta = await findVehicleId(harness.baseUrl, 'creta');
    rentalCar = await fleetCarId(harness.baseUrl);
    const categories = (await (await fetch(`${harness.baseUrl}/api/v1/categories`)).json()) as Array<{ slug: string }>;
    category = categories[0]!.slug;
  });

  const kinds: PageKind[] = [
    { name: 'home', path: () => paths.home },
    { name: 'search results', path: () => paths.search('swift') },
    { name: 'listing with filters', path: () => paths.browse({ budget: '5-8' }) },
    { name: 'categories', path: () => paths.categories() },
    { name: 'a category', path: () => paths.categories(category) },
    { name: 'a car', path: () => paths.vehicle(swift) },
    { name: 'test drive, signed out', path: () => paths.testDrive(swift) },
    { name: 'compare', path: () => paths.compare([swift, creta]) },
    { name: 'rent', path: () => paths.rent() },
    { name: 'a rental car', path: () => paths.rentalCar(rentalCar) },
    { name: 'sell your car', path: () => paths.sellVehicle },
    { name: 'request a car', path: () => paths.requestVehicle },
    { name: 'login', path: () => paths.login },
    { name: 'sign up', path: () => paths.signup },
    { name: 'wishlist, signed out', path: () => paths.wishlist },
    { name: 'privacy', path: () => paths.privacy },
    { name: 'about', path: () => paths.about },
    { name: 'contact', path: () => paths.contact },
    { name: 'offline', path: () => OFFLINE_PAGE },
    { name: 'outbox', path: () => paths.devOutbox },
    { name: 'not found', path: () => '/no-such-page', status: 404 },
    // The shared server has no admin (only demo mode makes one), so the first admin's form shows.
    {
      name: 'first admin setup',
      path: () => adminPaths.setup,
      works: async (page) => {
        // Sent empty by the app (no admin is made): the server's refusal shows on the page.
        await page.getByRole('button', { name: 'Create Admin Account' }).click();
        await visible(page.getByRole('alert').filter({ hasText: 'Please enter both email and password.' }));
      },
    },
    {
      name: 'admin login',
      path: () => adminPaths.login,
      works: async (page) => {
        // Filled by the browser and sent by the app: a wrong password is refused on the page.
        await page.getByLabel('Email').fill('nobody@example.in');
        await page.getByLabel('Password').fill('wrong-password-1');
        await page.getByRole('button', { name: 'Sign In' }).click();
        await visible(page.getByRole('alert').first());
      },
    },
  ];

  test.each(kinds.map((kind) => [kind.name, kind] as const))('%s', async (_name, kind) => {
    const { page } = await harness.open({ allowConsoleErrors: kind.status === 404 ? [/404/] : [] });
    await checkPage(page, kind);
  });

  // The same pages in Hindi: the browser reads its texts with its own engine (decision 087),
  // which must write every one as the server's i18next did.
  const inHindi = [
    'home',
    'search results',
    'listing with filters',
    'a category',
    'a car',
    'test drive, signed out',
    'compare',
    'rent',
    'a rental car',
    'sell your car',
    'request a car',
    'login',
    'sign up',
    'privacy',
    'about',
    'contact',
    'offline',
    'not found',
  ];
  test.each(kinds.filter((kind) => inHindi.includes(kind.name)).map((kind) => [kind.name, kind] as const))('%s, in Hindi', async (_name, kind) => {
    const { page } = await harness.open({ allowConsoleErrors: kind.status === 404 ? [/404/] : [] });
    await checkPage(page, { ...kind, path: () => pathInLanguage(kind.path(), 'hi'), works: async () => {} });
  });

  test('a page the browser renders unlike the server is caught', async () => {
    const { page } = await harness.open();
    const html = await load(page, paths.devHydrationMismatch);
    const differences = await hydrationDifferences(page, html);
    expect(differences.join('\n')).toContain('"Rendered by the server"');
    expect(differences.join('\n')).toContain('"Rendered by the browser"');
  });
});

// A server of its own: the demo admin exists only in demo mode, sign-ups per address are
// limited on the shared server, and the payment page needs Razorpay (its local stand-in).
describe('signed-in and admin pages hydrate to the HTML the server sent', () => {
  let server: TestServer;
  let razorpay: RazorpayStandin;
  let booking = 0;
  let buyer: Array<{ name: string; value: string }> = [];
  let admin: Awaited<ReturnType<BrowserContext['storageState']>>;
  let swift = 0;
  let rentalCar = 0;
  let editVehicle = '';

  beforeAll(async () => {
    razorpay = await startRazorpayStandin();
    server = await startTestServer({
      dialect: 'sqlite',
      seed: true,
      env: {
        APP_MODE: 'demo',
        DEMO_ADMIN_PASSWORD: ADMIN.password,
        PAGE_CACHE_SECONDS: '0',
        RAZORPAY_KEY_ID: STANDIN_KEY_ID,
        RAZORPAY_KEY_SECRET: STANDIN_KEY_SECRET,
        RAZORPAY_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
        RAZORPAY_API_URL: razorpay.url,
        RAZORPAY_CHECKOUT_URL: razorpay.checkoutUrl,
      },
    });
    swift = await findVehicleId(server.url, 'swift');
    rentalCar = await fleetCarId(server.url);
    // A buyer with a verified phone: the profile and the booking steps show their full pages.
    const client = new HttpClient(server.url);
    await signUp(client, uniqueEmail('hydration'));
    await completeProfile(client, 'Hydration Buyer', uniqueMobile());
    // And a renter's booking awaiting online payment, on a car of its own (the demo fleet's
    // bookings cannot collide): the payment page and the desk's booking page show it.
    expect((await sendLicence(client, 'WB0120170099887', '1991-11-02')).status).toBe(201);
    const car = await addFleetCarOn(server, 'Hydration Baleno');
    const fromMs = Math.ceil((Date.now() + 3 * DAY_MS) / HOUR_MS) * HOUR_MS;
    const booked = await client.request('/api/v1/rentals/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ carId: car, from: param(fromMs), to: param(fromMs + DAY_MS), pickup: 'hub', payment: 'razorpay' }),
    });
    expect(booked.status).toBe(201);
    booking = ((await booked.json()) as { booking: { id: number } }).booking.id;
    buyer = [...client.jar.cookies.values()].map((cookie) => ({ name: cookie.name, value: cookie.value }));
    const { page, context } = await harness.open({ context: { baseURL: server.url } });
    await signInAdminInBrowser(page, ADMIN);
    admin = await context.storageState();
    const vehicles = await (await context.request.get(adminPaths.vehicles)).text();
    editVehicle = /href="(\/admin-panel\/vehicles\/edit\/[^"]+)"/.exec(vehicles)?.[1] ?? '';
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await razorpay?.close();
  });

  const signedIn = (): Parameters<typeof harness.open>[0] => {
    const domain = new URL(server.url).hostname;
    return {
      context: {
        baseURL: server.url,
        storageState: {
          cookies: buyer.map((cookie) => ({ ...cookie, domain, path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' as const })),
          origins: [],
        },
      },
    };
  };

  const buyerKinds: PageKind[] = [
    { name: 'profile', path: () => paths.profile },
    {
      name: 'profile completion',
      path: () => paths.profileComplete,
      works: async (page) => {
        // The form's schema runs in the browser too: a short number is refused before anything is sent.
        await page.getByLabel('Mobile number').fill('12345');
        await page.getByRole('button', { name: 'Send OTP' }).click();
        await visible(page.getByRole('alert').filter({ hasText: 'Please enter a valid phone number' }));
        await saveScreenshot(page, 'profile-complete-browser-check-375', false);
      },
    },
    { name: 'licence', path: () => paths.profileLicence },
    { name: 'delete account', path: () => paths.profileDelete },
    { name: 'wishlist', path: () => paths.wishlist },
    { name: 'test drive booking', path: () => paths.testDrive(swift) },
    { name: 'rental booking steps', path: () => paths.rentalBook(rentalCar) },
    { name: 'paying a booking online', path: () => paths.payBooking(booking) },
  ];

  test.each(buyerKinds.map((kind) => [kind.name, kind] as const))('buyer: %s', async (_name, kind) => {
    const { page } = await harness.open(signedIn());
    await checkPage(page, kind);
  });

  const adminKinds: PageKind[] = [
    { name: 'dashboard', path: () => adminPaths.dashboard },
    { name: 'vehicles', path: () => adminPaths.vehicles },
    { name: 'add a vehicle', path: () => adminPaths.addVehicle },
    { name: 'edit a vehicle', path: () => editVehicle },
    { name: 'categories', path: () => adminPaths.categories },
    { name: 'add a category', path: () => adminPaths.addCategory },
    { name: 'sell offers', path: () => adminPaths.sellingVehicles },
    { name: 'requested vehicles', path: () => adminPaths.requestedVehicles },
    { name: 'test drives', path: () => adminPaths.testDrives },
    { name: 'rental desk', path: () => adminPaths.rentalDesk },
    { name: 'a rental booking', path: () => adminPaths.rentalBooking(booking) },
    { name: 'licences', path: () => adminPaths.rentalLicences },
    { name: 'statistics', path: () => adminPaths.statistics },
    { name: 'settings', path: () => adminPaths.settings },
    { name: 'admins', path: () => adminPaths.registerAdmin },
    { name: 'audit log', path: () => adminPaths.auditLog },
  ];

  test.each(adminKinds.map((kind) => [kind.name, kind] as const))('admin: %s', async (_name, kind) => {
    const { page } = await harness.open({ viewport: 'desktop', context: { baseURL: server.url, storageState: admin } });
    await checkPage(page, { works: adminTabNavigates, ...kind });
  });
});
