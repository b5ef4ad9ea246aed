import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { browserHarness, CHROMIUM_ARGS, CHROMIUM_PATH, findVehicleId, saveScreenshot, visible, waitForHydration } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { OFFLINE_PAGE } from '../../app/lib/offline.ts';
import { paths } from '../../app/lib/paths.ts';
import { startTestServer } from '../support/server.ts';

/**
 * The installable app on a weak signal (decision 085): Chromium finds the site installable,
 * the service worker keeps the cars a visitor opened and shows them offline, and pages about
 * one person are never kept on the device.
 */

const harness = browserHarness();
let swift = 0;
let alto = 0;

beforeAll(async () => {
  swift = await findVehicleId(harness.baseUrl, 'swift');
  alto = await findVehicleId(harness.baseUrl, 'creta');
});

/** Waits until the service worker controls the page (it claims the pages open when it starts). */
async function workerInControl(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Every request URL (path and query) held in the worker's caches. */
async function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const found: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        const url = new URL(request.url);
        found.push(url.pathname + url.search);
      }
    }
    return found;
  });
}

async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
}

/**
 * Offline, what is not on the device fails and the browser logs it: React Router's request for
 * the routes of a page's links (lazy route discovery: "Failed to fetch manifest patches"), and a
 * gallery photo at a size never shown before. The failures a visitor without a signal has.
 */
const OFFLINE_ERRORS = [/^Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED)$/, /^Failed to fetch manifest patches TypeError: Failed to fetch/];

describe('installable app', () => {
  test('Chromium finds no installability error, and the manifest and icons are served', async () => {
    // Chromium installs nothing from an incognito profile, which every new context of the run's
    // browser is: a browser with a profile directory of its own.
    const profile = await mkdtemp(path.join(tmpdir(), 'gaadi-install-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL: harness.baseUrl });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(paths.home);
      await workerInControl(page);
      const session = await context.newCDPSession(page);
      const { installabilityErrors } = (await session.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
      expect(installabilityErrors).toEqual([]);
      const manifestUrl = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href);
      expect(manifestUrl).toBe(`${harness.baseUrl}/manifest.webmanifest`);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  test('"Download App" is the one way to the app: the steps without an offer, the install itself once the browser offers it', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const width = viewport === 'mobile' ? 375 : 1280;
      const { page } = await harness.open({ viewport });
      await page.goto(paths.home);
      await waitForHydration(page, 'header');
      // No store listing is set: one link, to the steps, and no second "install" idea beside it.
      const download = page.getByRole('banner').getByRole('link', { name: /Download\s*App/ });
      expect(await download.getAttribute('href')).toBe(paths.getApp);
      expect(
        await page
          .getByRole('banner')
          .getByRole('button', { name: /install/i })
          .count(),
      ).toBe(0);
      await download.click();
      await page.waitForURL((url) => url.pathname === paths.getApp);
      await visible(page.getByRole('heading', { level: 1, name: 'Get the Gaadi Bazaar app' }));
      await visible(page.getByRole('heading', { level: 2, name: 'On an iPhone or iPad (Safari)' }));
      const iphone = page.getByRole('region', { name: 'On an iPhone or iPad (Safari)' }).getByRole('listitem');
      expect(await iphone.allTextContents()).toContain('Scroll down and tap “Add to Home Screen”.');
      await saveScreenshot(page, `get-app-steps-${width}`);

      // Chromium offers the install only after its own engagement checks; the offer is made here as it makes it.
      await page.goto(paths.home);
      await waitForHydration(page, 'header');
      await page.evaluate(() => {
        const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: async () => {
            (window as unknown as { prompted?: number }).prompted = ((window as unknown as { prompted?: number }).prompted ?? 0) + 1;
          },
          userChoice: Promise.resolve({ outcome: 'accepted' }),
        });
        window.dispatchEvent(offer);
      });
      // The same link now installs, and the page stays where it is.
      await page
        .getByRole('banner')
        .getByRole('link', { name: /Download\s*App/ })
        .click();
      await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
      expect(new URL(page.url()).pathname).toBe(paths.home);
    }
  });

  test('the steps page offers the install button when the browser does, in Hindi too', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto(`/hi${paths.getApp}`);
    await waitForHydration(page, 'main');
    await visible(page.getByRole('heading', { level: 2, name: 'iPhone या iPad पर (Safari)' }));
    const install = page.getByRole('button', { name: 'ऐप इंस्टॉल करें' });
    expect(await install.count()).toBe(0);
    await page.evaluate(() => {
      const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => {
          (window as unknown as { prompted?: boolean }).prompted = true;
        },
        userChoice: Promise.resolve({ outcome: 'accepted' }),
      });
      window.dispatchEvent(offer);
    });
    await visible(install);
    await saveScreenshot(page, 'get-app-hindi-offer-375', false);
    await install.click();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
    await install.waitFor({ state: 'detached' });
  });

  test('offline, a car opened before opens again, and any other page is the offline page listing it', async () => {
    const { page, context } = await harness.open({ viewport: 'mobile', allowConsoleErrors: OFFLINE_ERRORS });
    await page.goto(paths.home);
    await workerInControl(page);
    // One car loaded as a page, one opened inside the app (the router fetches only its data).
    await page.goto(paths.vehicle(swift));
    await waitForHydration(page, 'h1');
    const swiftTitle = (await page.locator('h1').first().textContent())!;
    await page.goto(paths.home);
    await waitForHydration(page, 'main');
    await page.evaluate(
      (path) => (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(path),
      paths.vehicle(alto),
    );
    await page.waitForURL((url) => url.pathname === paths.vehicle(alto));
    await waitForHydration(page, 'h1');
    const altoTitle = (await page.locator('h1').first().textContent())!;
    // The worker keeps the car opened inside the app when the page asks it to.
    await expect.poll(() => cachedPaths(page), { timeout: 10_000 }).toContain(paths.vehicle(alto));

    await goOffline(context);
    for (const [id, title] of [
      [swift, swiftTitle],
      [alto, altoTitle],
    ] as const) {
      await page.goto(paths.vehicle(id));
      await visible(page.getByRole('heading', { level: 1, name: title }));
    }
    await saveScreenshot(page, 'offline-vehicle-375', false);

    // A page never opened: the offline page, with both cars, the last opened first, as links that work.
    await page.goto(paths.about);
    await page.waitForURL((url) => url.pathname === OFFLINE_PAGE);
    await visible(page.getByRole('heading', { level: 1, name: "You're offline" }));
    const list = page.getByRole('list', { name: 'Cars you opened recently' });
    await visible(list);
    expect(await list.getByRole('link').allTextContents()).toEqual([expect.stringContaining(altoTitle), expect.stringContaining(swiftTitle)]);
    // Their photos are on the device too.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('ul[aria-label="Cars you opened recently"] img')].every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    );
    await saveScreenshot(page, 'offline-page-375');
    await list.getByRole('link', { name: swiftTitle }).click();
    await visible(page.getByRole('heading', { level: 1, name: swiftTitle }));

    // The same at 1280 px.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(paths.contact);
    await visible(page.getByRole('heading', { level: 1, name: "You're offline" }));
    await saveScreenshot(page, 'offline-page-1280');
    await context.setOffline(false);
  });

  test("offline, a link inside the app shows the offline page inside the site's frame, with the way back", async () => {
    const { page, context } = await harness.open({ viewport: 'mobile', allowConsoleErrors: OFFLINE_ERRORS });
    // On a car's page the car pages' code is loaded: offline, another car's link fails only for its data.
    await page.goto(paths.vehicle(swift));
    await workerInControl(page);
    await waitForHydration(page, 'h1');
    await goOffline(context);
    try {
      await page.evaluate(
        (to) => void (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(to),
        paths.vehicle(alto),
      );
      await visible(page.getByRole('heading', { level: 1, name: "You're offline" }));
      // Not a bare "Something went wrong": the top bar with its menu, and the bottom bar, are there.
      expect(await page.getByText('Something went wrong').count()).toBe(0);
      await visible(page.getByRole('banner').getByRole('button', { name: 'Open menu' }));
      await visible(page.getByRole('navigation', { name: 'Quick links' }));
      await visible(page.getByRole('link', { name: 'Try the home page' }));
      await saveScreenshot(page, 'offline-in-app-link-375', false);
    } finally {
      await context.setOffline(false);
    }
  });

  test('pages about one person are never kept: signed out and offline, the profile is the offline page', async () => {
    // A server of its own: the shared one's sign-ups per address (5 an hour) go to the other browser tests.
    const server = await startTestServer({ dialect: 'sqlite', seed: true });
    try {
      const client = new HttpClient(server.url);
      const name = 'Offline Checker';
      await signUp(client, uniqueEmail('offline'));
      await completeProfile(client, name, uniqueMobile());
      const domain = new URL(server.url).hostname;
      const cookies = [...client.jar.cookies.values()].map((cookie) => ({
        name: cookie.name,
        value: cookie.value,
        domain,
        path: '/',
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: 'Lax' as const,
      }));
      const { page, context } = await harness.open({
        viewport: 'mobile',
        context: { baseURL: server.url, storageState: { cookies, origins: [] } },
        allowConsoleErrors: OFFLINE_ERRORS,
      });

      await page.goto(paths.home);
      await workerInControl(page);
      await page.goto(paths.profile);
      await visible(page.getByText(name).first());
      await page.goto(paths.wishlist);
      await page.goto(paths.vehicle(await findVehicleId(server.url, 'swift')));
      await waitForHydration(page, 'h1');
      // Signed in, no page is kept as this person sees it.
      const whileSignedIn = await cachedPaths(page);
      for (const personal of [paths.profile, paths.wishlist]) expect(whileSignedIn).not.toContain(personal);

      await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
      await visible(page.getByRole('banner').getByRole('link', { name: 'Login' }));
      await goOffline(context);
      for (const personal of [paths.profile, paths.wishlist, '/admin']) {
        await page.goto(personal);
        await page.waitForURL((url) => url.pathname === OFFLINE_PAGE);
        await visible(page.getByRole('heading', { level: 1, name: "You're offline" }));
        expect(await page.locator('body').textContent()).not.toContain(name);
      }
      // Nothing on the device names them, in any cache.
      const kept = await page.evaluate(async () => {
        const bodies: string[] = [];
        for (const cacheName of await caches.keys()) {
          const cache = await caches.open(cacheName);
          for (const request of await cache.keys()) {
            const response = await cache.match(request);
            if (response?.headers.get('content-type')?.startsWith('text/html')) bodies.push(await response.text());
          }
        }
        return bodies;
      });
      expect(kept.length).toBeGreaterThan(0);
      for (const body of kept) expect(body).not.toContain(name);
      // The page stays offline while its server stops: a link lookup it makes meanwhile fails
      // as offline (allowed above), not as a refused connection.
    } finally {
      await server.stop();
    }
  }, 120_000);
});
