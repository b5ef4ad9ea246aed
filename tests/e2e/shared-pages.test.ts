import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Shared pages (decision 127): the home page and a car's page come from the page cache, the same
 * for everyone; after they loaded the browser asks GET /api/v1/me/summary and fills the person
 * in: the hearts of their wishlisted cars and the top bar's Logout. Nothing moves when it does
 * (no layout shift), and two people never see each other's hearts.
 */

let server: TestServer;
let browser: Browser;
const errors: string[] = [];
let cars: [number, number];

/** Adds up the layout shifts of the page from its first paint on (the PerformanceObserver of CLS). */
const observeShifts = `
  window.__layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShifts.push({
        value: entry.value,
        sources: (entry.sources || []).map((source) => source.node ? (source.node.nodeName + '.' + (source.node.className || '')) : '?'),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite', seed: true, env: { PAGE_CACHE_SECONDS: '60' } });
  const listed = (await (await fetch(`${server.url}/api/v1/vehicles?perPage=2`)).json()) as { items: Array<{ id: number }> };
  cars = [listed.items[0]!.id, listed.items[1]!.id];
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A person signed up (by HTTP) with `car` on their wishlist, and a browser page signed in as them. */
async function personWith(car: number, viewport: ViewportName): Promise<Page> {
  const client = new HttpClient(server.url, { address: null });
  await signUp(client, uniqueEmail('shared-page'));
  expect((await client.postForm(`/vehicle/${car}`, { intent: 'wishlist', wishlisted: 'true' })).status).toBe(200);
  const page = await openPageOn(browser, server.url, viewport, errors, { cookies: client.jar.cookies.values() });
  await page.addInitScript(observeShifts);
  return page;
}

/** The heart of `car` on the page, filled (wishlisted) or not. */
const filledHeart = (page: Page, car: number) => page.locator(`form[action="/vehicle/${car}"] button[aria-pressed="true"]`);

/** The sum of the layout shifts so far, once the page is settled (fonts in, two frames drawn). */
async function layoutShift(page: Page): Promise<{ total: number; shifts: unknown[] }> {
  const shifts = await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return (window as unknown as { __layoutShifts: Array<{ value: number; sources: string[] }> }).__layoutShifts;
  });
  return { total: shifts.reduce((sum, shift) => sum + shift.value, 0), shifts };
}

describe('a signed-in person on shared pages', () => {
  it.each(['desktop', 'mobile'] as const)('sees their hearts and Logout filled in after load, nothing moving (%s)', async (viewport) => {
    const [mine, theirs] = cars;
    const page = await personWith(mine, viewport);
    for (const path of ['/', `/vehicle/${mine}`]) {
      await page.goto(path);
      await waitForHydration(page, 'header');
      // The page came from the shared cache: the person is filled in by the browser.
      await visible(page.getByRole('banner').getByRole('button', { name: 'Logout' }));
      if (path === '/') {
        await visible(filledHeart(page, mine).first());
        await expect(filledHeart(page, theirs).count()).resolves.toBe(0);
      } else {
        await visible(page.getByRole('main').getByRole('button', { name: 'Remove from wishlist' }));
      }
      const { total, shifts } = await layoutShift(page);
      await saveScreenshot(page, `shared-page-signed-in-${viewport}-${path === '/' ? 'home' : 'car'}`, false);
      expect(total, `${path}: ${JSON.stringify(shifts)}`).toBe(0);
    }
    await page.context().close();
  });

  it('two people in two browsers each see only their own hearts, on the same cached page', async () => {
    const [carA, carB] = cars;
    const [a, b] = await Promise.all([personWith(carA, 'desktop'), personWith(carB, 'desktop')]);
    for (const page of [a, b]) {
      await page.goto('/');
      await waitForHydration(page, 'header');
    }
    await visible(filledHeart(a, carA).first());
    await visible(filledHeart(b, carB).first());
    expect(await filledHeart(a, carB).count()).toBe(0);
    expect(await filledHeart(b, carA).count()).toBe(0);

    // A toggles a heart off: their page follows at once, B's is untouched.
    await filledHeart(a, carA).first().click();
    await visible(a.locator(`form[action="/vehicle/${carA}"] button[aria-pressed="false"]`).first());
    await b.reload();
    await waitForHydration(b, 'header');
    await visible(filledHeart(b, carB).first());
    expect(await filledHeart(b, carA).count()).toBe(0);

    // Signing out: the hearts and the top bar go back to the signed-out form.
    await b.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await visible(b.getByRole('banner').getByRole('link', { name: 'Login' }));
    expect(await b.locator('button[aria-pressed="true"]').count()).toBe(0);
    await a.context().close();
    await b.context().close();
    expect(errors).toEqual([]);
  });
});
