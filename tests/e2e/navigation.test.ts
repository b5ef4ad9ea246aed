import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { hidden, browserHarness, visible, waitFor } from '../support/browser.ts';

/** The layout's ways around: the search overlay, the drawer, the dropdown menu and the bottom bar. */

const harness = browserHarness();

const MENU_LINKS = ['Home', 'Categories', 'Rent a car', 'Wishlist', 'Profile', 'About Us', 'Contact', 'Request Vehicle', 'Sell Vehicle'];

function bodyLock(page: Page) {
  return page.evaluate(() => ({ locked: document.body.classList.contains('scroll-locked'), overflow: getComputedStyle(document.body).overflow }));
}

/** The dialog's close event, which unlocks the page, comes a task after the dialog hides. */
function unlocked(page: Page) {
  return waitFor(
    () => bodyLock(page),
    (state) => !state.locked,
  );
}

function pathAndQuery(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

describe('search overlay', () => {
  test('opens from the top bar, refuses a blank term, shows Searching... while busy and lands on the results', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    // Hold the overlay's API call until the test has seen the busy state.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let apiCalls = 0;
    await page.route('**/api/v1/vehicles?*', async (route) => {
      apiCalls += 1;
      await held;
      await route.continue();
    });
    await page.goto('/about');
    await page.waitForLoadState('load');

    const overlay = page.getByRole('dialog', { name: 'Search vehicles' });
    expect(await overlay.isVisible()).toBe(false);
    await page.getByRole('banner').getByRole('button', { name: 'Search vehicles' }).click();
    await visible(overlay);
    expect((await bodyLock(page)).overflow).toBe('hidden');

    const input = overlay.getByRole('searchbox', { name: 'Search vehicles' });
    expect(await input.getAttribute('placeholder')).toBe('Search vehicles...');
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    const submit = overlay.getByRole('button', { name: 'Search', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await input.fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await input.press('Enter');
    expect(apiCalls).toBe(0);
    expect(pathAndQuery(page)).toBe('/about');

    await input.fill('swift');
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    const busy = await visible(overlay.getByRole('button', { name: 'Searching...' }));
    expect(await busy.isDisabled()).toBe(true);
    await waitFor(
      async () => apiCalls,
      (calls) => calls === 1,
    );
    release();

    await page.waitForURL((url) => url.pathname === '/' && url.search === '?q=swift');
    await hidden(overlay);
    await visible(page.getByRole('main').getByRole('heading', { name: 'Search results for “swift”' }));
    expect(await unlocked(page)).toEqual({ locked: false, overflow: 'visible' });

    const stored = await page.evaluate(() => ({ results: localStorage.getItem('searchResults'), term: localStorage.getItem('searchTerm') }));
    expect(stored.term).toBe('swift');
    const results = JSON.parse(stored.results ?? 'null') as unknown;
    expect(Array.isArray(results)).toBe(true);
    expect((results as unknown[]).length).toBeGreaterThan(0);
    for (const item of results as Array<{ id: unknown; make: string; model: string; name: string }>) {
      expect(typeof item.id).toBe('number');
      expect(`${item.make} ${item.model} ${item.name}`).toMatch(/swift/i);
    }
  });

  test('the close button and Escape close it', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    await page.waitForLoadState('load');
    const overlay = page.getByRole('dialog', { name: 'Search vehicles' });
    const opener = page.getByRole('banner').getByRole('button', { name: 'Search vehicles' });

    await opener.click();
    await visible(overlay);
    await overlay.getByRole('button', { name: 'Close search' }).click();
    await hidden(overlay);
    expect(await unlocked(page)).toEqual({ locked: false, overflow: 'visible' });

    await opener.click();
    await visible(overlay);
    await page.keyboard.press('Escape');
    await hidden(overlay);
    expect(await unlocked(page)).toEqual({ locked: false, overflow: 'visible' });
    expect(pathAndQuery(page)).toBe('/');
  });
});

describe('drawer', () => {
  test('Open menu shows the drawer, locks the page, and Escape or the backdrop closes it', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    await page.waitForLoadState('load');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    const opener = page.getByRole('button', { name: 'Open menu' });
    expect(await drawer.isVisible()).toBe(false);

    await opener.click();
    await visible(drawer);
    expect(await opener.getAttribute('aria-expanded')).toBe('true');
    for (const name of [...MENU_LINKS, 'Download App']) await visible(drawer.getByRole('link', { name, exact: true }));
    // No store listing set: the link leads to the app's install steps (decision 121).
    expect(await drawer.getByRole('link', { name: 'Download App' }).getAttribute('href')).toBe('/app');

    // The page behind does not scroll: locked body, and a swipe over the backdrop moves nothing.
    expect(await bodyLock(page)).toEqual({ locked: true, overflow: 'hidden' });
    const before = await page.evaluate(() => window.scrollY);
    await page.mouse.move(350, 500);
    // Settled once the page has seen the wheel event and drawn two frames since (a scroll it
    // caused would have begun by then).
    const wheelHandled = page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          window.addEventListener('wheel', () => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), { once: true, passive: true }),
        ),
    );
    await page.mouse.wheel(0, 800);
    await wheelHandled;
    expect(await page.evaluate(() => window.scrollY)).toBe(before);

    await page.keyboard.press('Escape');
    await hidden(drawer);
    expect(await unlocked(page)).toEqual({ locked: false, overflow: 'visible' });
    expect(await opener.getAttribute('aria-expanded')).toBe('false');

    // The backdrop: the strip to the right of the 288 px drawer.
    await opener.click();
    await visible(drawer);
    const box = await drawer.boundingBox();
    expect(box && box.x + box.width).toBeLessThan(370);
    await page.mouse.click(370, 400);
    await hidden(drawer);
    expect(await unlocked(page)).toEqual({ locked: false, overflow: 'visible' });

    // A link goes there and the drawer closes behind it.
    await opener.click();
    await visible(drawer);
    await drawer.getByRole('link', { name: 'About Us' }).click();
    await page.waitForURL((url) => url.pathname === '/about');
    await hidden(drawer);
    expect(await unlocked(page)).toEqual({ locked: false, overflow: 'visible' });
  });
});

describe('dropdown menu (desktop)', () => {
  test('Menu opens the site menu; an outside click and Escape close it', async () => {
    const { page } = await harness.open({ viewport: 'desktop' });
    await page.goto('/');
    await page.waitForLoadState('load');
    const button = page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true });
    const menu = page.getByRole('navigation', { name: 'Site menu' });
    expect(await menu.isVisible()).toBe(false);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await button.click();
    await visible(menu);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('link').allTextContents()).toEqual(MENU_LINKS);

    // Outside the menu, on the page's empty margin (a click on a link there would also navigate).
    await page.mouse.click(5, 500);
    await hidden(menu);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await button.click();
    await visible(menu);
    await page.keyboard.press('Escape');
    await hidden(menu);

    // The button toggles it, and a link closes it on the way to its page.
    await button.click();
    await visible(menu);
    await button.click();
    await hidden(menu);
    await button.click();
    await menu.getByRole('link', { name: 'Contact' }).click();
    await page.waitForURL((url) => url.pathname === '/contact');
    await hidden(menu);
  });

  test('the bottom bar is for phones only', async () => {
    const { page } = await harness.open({ viewport: 'desktop' });
    await page.goto('/');
    expect(await page.getByRole('navigation', { name: 'Quick links' }).isVisible()).toBe(false);
  });
});

describe('bottom bar (mobile)', () => {
  test('Search goes home and focuses the search box; Categories opens the categories', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/about');
    await page.waitForLoadState('load');
    const bar = await visible(page.getByRole('navigation', { name: 'Quick links' }));
    for (const name of ['Home', 'Categories', 'Search', 'Wishlist', 'Profile']) await visible(bar.getByRole('link', { name, exact: true }));
    // The desktop dropdown is not offered on a phone.
    expect(await page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true }).isVisible()).toBe(false);

    await bar.getByRole('link', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    const searchBox = page.getByRole('main').getByRole('searchbox', { name: 'Search vehicles' });
    await visible(searchBox);
    await waitFor(
      () => searchBox.evaluate((element) => element === document.activeElement),
      (focused) => focused,
    );

    await bar.getByRole('link', { name: 'Categories', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/categories');
    await visible(page.getByRole('heading', { name: 'Browse by Category', level: 1 }));
    expect(await bar.getByRole('link', { name: 'Categories', exact: true }).getAttribute('aria-current')).toBe('page');

    await bar.getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visible(page.getByRole('heading', { name: 'Available Vehicles', level: 1 }));
    // Home is not a search: the search box is not grabbed.
    expect(await searchBox.evaluate((element) => element === document.activeElement)).toBe(false);
  });
});
