import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { adminPaths } from '../../app/lib/paths.ts';
import { browserHarness, signInAdminInBrowser, visible, waitFor, waitForHydration } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The seller picks the car from the catalogue of cars sold in India (decision 098): comboboxes
 * that forgive 'hundai' and 'cretta', and after "See my estimate" the result in view and
 * focused, with script and without.
 */

const harness = browserHarness();

/** Whether the element is wholly inside the window. */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return Boolean(box && box.y >= 0 && box.y + box.height <= size.height);
}

/** Fills the car's other fields: a 2019 diesel manual, 45,000 km, Maharashtra. */
async function fillTheRest(page: Page) {
  await page.locator('#car-year').fill('2019');
  await page.locator('#car-km').fill('45,000');
  await page.locator('#car-fuel').selectOption('Diesel');
  await page.locator('#car-transmission').selectOption('Manual');
  await page.locator('#car-state').selectOption('MH');
}

describe('the sell page picks the car from the catalogue', () => {
  it('at 375 px: "hundai" offers Hyundai, "cretta" offers Creta, and the estimate is brought into view and focused', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/sell-vehicle');
    await waitForHydration(page, '#car-make[role="combobox"]');

    const make = page.getByRole('combobox', { name: 'Make' });
    await make.fill('hundai');
    const hyundai = page.getByRole('option', { name: /^Hyundai/ });
    await visible(hyundai);
    expect(await make.getAttribute('aria-expanded')).toBe('true');
    await harness.screenshot(page, 'sell-catalogue-make-375');
    await hyundai.click();
    expect(await make.inputValue()).toBe('Hyundai');
    expect(await make.getAttribute('aria-expanded')).toBe('false');

    // By keyboard: the first suggestion is highlighted with the arrow and picked with Enter.
    const model = page.getByRole('combobox', { name: 'Model' });
    await model.fill('cretta');
    await visible(page.getByRole('option', { name: /^Creta/ }));
    await model.press('ArrowDown');
    expect(await model.getAttribute('aria-activedescendant')).toBeTruthy();
    await model.press('Enter');
    expect(await model.inputValue()).toBe('Creta');

    const variant = page.getByRole('combobox', { name: 'Variant (optional)' });
    await variant.fill('sx');
    await page.getByRole('option', { name: 'SX', exact: true }).click();
    await fillTheRest(page);
    await page.getByRole('button', { name: 'See my estimate' }).click();

    const heading = page.getByRole('heading', { name: 'Your 2019 Hyundai Creta SX is worth about' });
    await visible(heading);
    await waitFor(
      () => heading.evaluate((element) => element === document.activeElement),
      (focused) => focused,
    );
    expect(await inViewport(page, heading)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await harness.screenshot(page, 'sell-catalogue-estimate-375');
  });

  it('without script the server reads "hundai cretta", and the #estimate anchor brings the result into view', async () => {
    const { page } = await harness.open({ viewport: 'mobile', context: { javaScriptEnabled: false } });
    await page.goto('/sell-vehicle');
    await page.locator('#car-make').fill('hundai');
    await page.locator('#car-model').fill('cretta');
    await fillTheRest(page);
    await page.getByRole('button', { name: 'See my estimate' }).click();
    await page.waitForURL((url) => url.hash === '#estimate' && url.searchParams.get('make') === 'hundai');
    const heading = page.getByRole('heading', { name: 'Your 2019 Hyundai Creta is worth about' });
    await visible(heading);
    expect(await inViewport(page, heading)).toBe(true);
    expect(await page.locator('#car-make').inputValue()).toBe('Hyundai');
  });

  it('a name not in the list is refused beside its field with the closest names, and "not in the list" still gets an answer', async () => {
    const { page } = await harness.open({ viewport: 'desktop' });
    await page.goto('/sell-vehicle');
    await waitForHydration(page, '#car-make[role="combobox"]');
    await page.getByRole('combobox', { name: 'Make' }).fill('tota');
    await page.getByRole('combobox', { name: 'Model' }).fill('zoom');
    await fillTheRest(page);
    await page.getByRole('button', { name: 'See my estimate' }).click();
    const refusal = page.locator('#car-make-error');
    await visible(refusal);
    expect(await refusal.textContent()).toMatch(/We do not know the make “tota”\. Closest: .*Tata.*Toyota/);
    await waitFor(
      () => page.evaluate(() => document.activeElement?.id),
      (id) => id === 'car-make',
    );
    await harness.screenshot(page, 'sell-catalogue-refused-1280');

    await page.getByLabel('My car is not in the list: use what I typed').check();
    await page.getByRole('button', { name: 'See my estimate' }).click();
    await visible(page.getByRole('heading', { name: 'We cannot estimate this car from our own data yet.' }));
  });

  it('in Hindi: the pickers show the Hindi names beside the English ones', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const { page } = await harness.open({ viewport });
      await page.goto('/hi/sell-vehicle');
      await waitForHydration(page, '#car-make[role="combobox"]');
      await page.locator('#car-make').fill('ह्युंडई');
      await visible(page.getByRole('option', { name: /Hyundai/ }));
      await harness.screenshot(page, `sell-catalogue-hindi-${viewport === 'mobile' ? 375 : 1280}`);
      await page.getByRole('option', { name: /Hyundai/ }).click();
      await page.locator('#car-model').fill('क्रेटा');
      await page.getByRole('option', { name: /Creta/ }).first().click();
      await fillTheRest(page);
      await page.locator('#car-step-form button[type="submit"]').click();
      const heading = page.locator('#estimate');
      await visible(heading);
      await waitFor(
        () => heading.evaluate((element) => element === document.activeElement),
        (focused) => focused,
      );
      expect(await inViewport(page, heading)).toBe(true);
      await harness.screenshot(page, `sell-catalogue-hindi-estimate-${viewport === 'mobile' ? 375 : 1280}`);
    }
  });

  it('in Hindi: searching क्रेटा lists the Cretas', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto(`/hi?${new URLSearchParams({ q: 'क्रेटा' })}`);
    await visible(page.locator('main article').first());
    const cars = await page.locator('main article h3, main article h2').allTextContents();
    expect(cars.length).toBeGreaterThan(0);
    expect(cars.every((name) => /Creta/.test(name))).toBe(true);
    await harness.screenshot(page, 'search-hindi-creta-375');
  });
});

// A server of its own: only demo mode makes the admin.
describe("the admin's additions", () => {
  const ADMIN = { email: 'admin@gaadibazaar.in', password: 'catalogue-admin-1' };
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect: 'sqlite', seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, PAGE_CACHE_SECONDS: '0' } });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('the admin adds a model on the page, at 375 and 1280 px in English and Hindi, and the seller is offered it', async () => {
    const { page } = await harness.open({ viewport: 'mobile', context: { baseURL: server.url } });
    await signInAdminInBrowser(page, ADMIN);
    await page.goto(adminPaths.carModels);
    await waitForHydration(page, 'form');
    await page.getByLabel('Make', { exact: true }).fill('VinFast');
    await page.getByLabel('Make in Hindi (Devanagari)').fill('विनफ़ास्ट');
    await page.getByLabel('Model', { exact: true }).fill('VF 6');
    await page.getByLabel('Model in Hindi (Devanagari)').fill('वीएफ 6');
    await page.getByLabel('Body type (optional)').selectOption('suv');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await visible(page.getByText('VinFast VF 6 was added to the list.'));
    await visible(page.locator('li', { hasText: 'VinFast VF 6' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await harness.screenshot(page, 'car-models-admin-375', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await harness.screenshot(page, 'car-models-admin-1280', { fullPage: true });
    await page.goto(`/hi${adminPaths.carModels}`);
    await visible(page.getByRole('heading', { name: 'कारों के ब्रांड और मॉडल' }));
    await harness.screenshot(page, 'car-models-admin-hindi-1280', { fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await harness.screenshot(page, 'car-models-admin-hindi-375', { fullPage: true });

    await page.goto('/sell-vehicle');
    await waitForHydration(page, '#car-make[role="combobox"]');
    await page.getByRole('combobox', { name: 'Make' }).fill('vinfst');
    await page.getByRole('option', { name: /^VinFast/ }).click();
    await page.getByRole('combobox', { name: 'Model' }).fill('vf');
    await page.getByRole('option', { name: /^VF 6/ }).click();
    expect(await page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('VF 6');
  });
});
