import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { acceptDialogs, findVehicleId, hidden, pressWhereShown, browserHarness, visible, waitFor, waitForHydration } from '../support/browser.ts';

/**
 * A visitor's main path: the listing, a search, a vehicle page with its contact and share
 * buttons, and back; plus the empty states, scrolling and image fallbacks on the way.
 */

const harness = browserHarness();

const NO_WEB_SHARE = 'delete Navigator.prototype.share; delete navigator.share;';
const REJECTING_CLIPBOARD = `
  if (typeof Clipboard !== 'undefined') {
    Object.defineProperty(Clipboard.prototype, 'writeText', {
      configurable: true,
      value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    });
  }
`;
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

/**
 * Waits for the vehicle itself (not the 'Loading Vehicle Details' screen, whose h1 can still
 * be on screen for a moment after the URL changed) and returns its title.
 */
async function vehicleTitle(page: Page): Promise<string> {
  await visible(page.getByRole('heading', { name: 'Key Specifications', level: 2 }));
  return ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
}

describe('browse, search, open a vehicle, share, back', () => {
  test('home search -> results -> vehicle page -> chat link -> share copies the link -> back to the results', async () => {
    const { page } = await harness.open({ viewport: 'mobile', context: CLIPBOARD, initScripts: [NO_WEB_SHARE] });
    await page.goto('/');
    await visible(page.getByRole('heading', { name: 'Available Vehicles', level: 1 }));

    const main = page.getByRole('main');
    const searchBox = main.getByRole('searchbox', { name: 'Search vehicles' });
    await searchBox.fill('creta');
    await searchBox.press('Enter');

    await visible(main.getByRole('heading', { name: 'Search results for “creta”' }));
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/?q=creta');
    const countText = await visible(main.getByText(/^\d+ vehicles? found$/));
    const count = Number((await countText.textContent())?.match(/^\d+/)?.[0]);
    expect(count).toBeGreaterThan(0);
    const cards = main.getByRole('article');
    expect(await cards.count()).toBe(Math.min(count, 10));
    for (const title of await cards.getByRole('heading', { level: 3 }).allTextContents()) expect(title).toMatch(/creta/i);

    // The card's title, tapped where the visitor sees it (on a phone the whole card opens the car).
    const card = cards.first();
    await pressWhereShown(page, card.getByRole('heading', { level: 3 }));
    await page.waitForURL(/\/vehicle\/\d+$/);
    const title = await vehicleTitle(page);
    expect(title).toMatch(/Creta/);

    // The chat link: the dealer's number and a message naming the car and the page.
    const chat = await visible(page.getByRole('link', { name: 'Chat on WhatsApp' }));
    const href = new URL((await chat.getAttribute('href')) ?? '');
    expect(href.origin).toBe('https://wa.me');
    expect(href.pathname).toMatch(/^\/\d{10,15}$/);
    const message = href.searchParams.get('text') ?? '';
    expect(message).toContain(title);
    expect(message).toContain(page.url());
    expect(await page.getByRole('link', { name: 'Call Seller' }).getAttribute('href')).toMatch(/^tel:\+?\d{10,15}$/);

    // No share sheet in this browser: the link goes to the clipboard and the site's own dialog says so (no alert()).
    const alerts = acceptDialogs(page);
    await waitForHydration(page, 'button[aria-haspopup="dialog"]');
    const share = page.getByRole('button', { name: 'Share' });
    await share.click();
    const dialog = page.getByRole('dialog', { name: 'Share this car' });
    await visible(dialog.getByRole('status').filter({ hasText: 'Link copied to clipboard!' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    expect(await dialog.getByLabel('Link to this car').inputValue()).toBe(page.url());
    // Focus is in the dialog; Escape closes it and gives focus back to Share.
    await waitFor(
      () => dialog.getByRole('button', { name: 'Close', exact: true }).evaluate((button) => button === document.activeElement),
      (focused) => focused,
    );
    await harness.screenshot(page, 'share-dialog-375');
    await page.keyboard.press('Escape');
    await hidden(dialog);
    await waitFor(
      () => share.evaluate((button) => button === document.activeElement),
      (focused) => focused,
    );
    expect(alerts).toEqual([]);

    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '?q=creta');
    await visible(main.getByRole('heading', { name: 'Search results for “creta”' }));
    expect(await cards.count()).toBe(Math.min(count, 10));
  });

  test('share on a desktop says so when the clipboard refuses the link, and hands over the link selected to copy', async () => {
    const { page } = await harness.open({ viewport: 'desktop', initScripts: [NO_WEB_SHARE, REJECTING_CLIPBOARD] });
    const id = await findVehicleId(harness.baseUrl, 'creta');
    await page.goto(`/vehicle/${id}`);
    await vehicleTitle(page);
    const alerts = acceptDialogs(page);
    await waitForHydration(page, 'button[aria-haspopup="dialog"]');
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this car' });
    await visible(dialog.getByText('Could not copy the link. Select it above and copy it.'));
    const link = dialog.getByLabel('Link to this car');
    await waitFor(
      () =>
        link.evaluate((input: HTMLInputElement) => input === document.activeElement && input.selectionStart === 0 && input.selectionEnd === input.value.length),
      (selected) => selected,
    );
    expect(await link.inputValue()).toBe(page.url());
    await harness.screenshot(page, 'share-dialog-refused-1280');
    // Close closes it.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await hidden(dialog);
    expect(alerts).toEqual([]);
  });

  test('share on a Hindi page opens the dialog in Hindi', async () => {
    const { page } = await harness.open({ viewport: 'desktop', context: CLIPBOARD, initScripts: [NO_WEB_SHARE] });
    const id = await findVehicleId(harness.baseUrl, 'creta');
    await page.goto(`/hi/vehicle/${id}`);
    await visible(page.getByRole('heading', { level: 1 }));
    await waitForHydration(page, 'button[aria-haspopup="dialog"]');
    await page.getByRole('button', { name: 'शेयर करें' }).click();
    const dialog = page.getByRole('dialog', { name: 'यह कार शेयर करें' });
    await visible(dialog.getByText('लिंक कॉपी हो गया!'));
    await harness.screenshot(page, 'share-dialog-hi-1280');
  });

  test('share uses the phone share sheet when there is one', async () => {
    const recordShare = `
      window.__shared = [];
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data) => { window.__shared.push(data); return Promise.resolve(); },
      });
    `;
    const { page } = await harness.open({ viewport: 'mobile', initScripts: [recordShare] });
    const alerts = acceptDialogs(page);
    const id = await findVehicleId(harness.baseUrl, 'creta');
    await page.goto(`/vehicle/${id}`);
    const title = await vehicleTitle(page);
    await page.getByRole('button', { name: 'Share' }).click();
    const shared = await waitFor(
      () => page.evaluate(() => (window as unknown as { __shared: Array<{ title?: string; url?: string }> }).__shared),
      (value) => value.length > 0,
    );
    expect(shared).toEqual([{ title, url: page.url() }]);
    expect(alerts).toEqual([]);
  });
});

describe('empty states', () => {
  test('a search with no match says so and suggests other keywords', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/?q=zzzzzz');
    const main = page.getByRole('main');
    await visible(main.getByRole('heading', { name: 'Search results for “zzzzzz”' }));
    await visible(main.getByText('0 vehicles found'));
    await visible(main.getByText('No vehicles found for “zzzzzz”'));
    await visible(main.getByText('Try searching with different keywords or browse our available vehicles.'));
    expect(await main.getByRole('article').count()).toBe(0);
  });

  test('a missing vehicle shows Vehicle Not Found with a way back to the listing', async () => {
    const { page } = await harness.open({ viewport: 'mobile', allowConsoleErrors: [/status of 404/] });
    const response = await page.goto('/vehicle/99999');
    expect(response?.status()).toBe(404);
    await visible(page.getByRole('heading', { name: 'Vehicle Not Found', level: 1 }));
    await visible(page.getByText("The vehicle you're looking for doesn't exist or may have been removed."));
    await page.getByRole('link', { name: 'Browse Available Vehicles' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await visible(page.getByRole('heading', { name: 'Available Vehicles', level: 1 }));
    expect(await page.getByRole('main').getByRole('article').count()).toBeGreaterThan(0);
  });
});

describe('scrolling', () => {
  test('a route change starts the next page at the top', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    const cards = page.getByRole('main').getByRole('article');
    await visible(cards.first());
    // Far down the listing: on a phone its cards are compact rows (decision 063).
    const far = cards.nth(Math.min(9, (await cards.count()) - 1));
    await far.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

    await pressWhereShown(page, far.getByRole('heading', { level: 3 }));
    await page.waitForURL(/\/vehicle\/\d+$/);
    await vehicleTitle(page);
    await page.waitForLoadState('load');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.evaluate(() => history.scrollRestoration)).toBe('manual');
  });
});

describe('image fallbacks', () => {
  test('a card whose photo fails to load shows the drawn placeholder, not a broken image', async () => {
    const { page } = await harness.open({ viewport: 'mobile', allowConsoleErrors: [/Failed to load resource: net::ERR_FAILED/] });
    await page.route('**/media/**', (route) => route.abort());
    await page.goto('/');
    const first = page.getByRole('main').getByRole('article').first();
    const title = (await first.getByRole('heading', { level: 3 }).textContent())?.trim() ?? '';
    await visible(first.getByRole('img', { name: `${title}: no photo` }));
    expect(await first.locator('img').count()).toBe(0);
    // No image the visitor can see on the screen is a broken one.
    await page.waitForLoadState('load');
    const broken = await waitFor(
      () =>
        page.evaluate(
          () =>
            [...document.images].filter((image) => {
              const box = image.getBoundingClientRect();
              return box.bottom > 0 && box.top < innerHeight && image.complete && image.naturalWidth === 0;
            }).length,
        ),
      (count) => count === 0,
    );
    expect(broken).toBe(0);
  });

  test('a vehicle with no photos says No Images Available in the gallery', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    const id = await findVehicleId(harness.baseUrl, 'kwid', (item) => item.cover === null);
    await page.goto(`/vehicle/${id}`);
    await vehicleTitle(page);
    await visible(page.getByRole('img', { name: 'No Images Available' }));
    await visible(page.getByText('No Images Available'));
    await hidden(page.getByRole('list', { name: 'Photos' }));
  });
});
