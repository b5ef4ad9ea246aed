import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { findVehicleId, browserHarness, visible, type ViewportName } from '../support/browser.ts';

/** Accessibility (axe-core), layout stability (CLS) and screenshots for a person to look at. */

const harness = browserHarness();
const VIEWPORTS: ViewportName[] = ['mobile', 'desktop'];

let axeSource = '';
/** The featured Swift: photos, condition report, refurbishment and finance sections. */
let featuredId = 0;

beforeAll(async () => {
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  featuredId = await findVehicleId(harness.baseUrl, 'swift', (item) => item.featured && item.name === 'Maruti Suzuki Swift VXi');
});

function pages() {
  return [
    { name: 'home', path: '/', ready: (page: Page) => visible(page.getByRole('heading', { name: 'Available Vehicles' })) },
    { name: 'vehicle', path: `/vehicle/${featuredId}`, ready: (page: Page) => visible(page.getByRole('heading', { name: 'Finance Options' })) },
    { name: 'categories', path: '/categories', ready: (page: Page) => visible(page.getByRole('heading', { name: 'Hatchbacks Vehicles' })) },
  ];
}

/** Loads lazy images too, so full-page screenshots show what a visitor scrolling would see. */
async function loadAllImages(page: Page) {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = 'eager';
    await Promise.all(images.map((image) => image.decode().catch(() => {})));
  });
}

describe('accessibility', () => {
  test.each(VIEWPORTS)('axe finds no serious or critical violations on home, a vehicle and categories (%s)', async (viewport) => {
    const { page } = await harness.open({ viewport, context: { bypassCSP: true } });
    const found: string[] = [];
    for (const target of pages()) {
      await page.goto(target.path);
      await page.waitForLoadState('load');
      await target.ready(page);
      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe;
        const results = await axe.run(document, { resultTypes: ['violations'] });
        return results.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact ?? null,
          help: violation.help,
          nodes: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} — ${node.failureSummary ?? ''}`.replace(/\s+/g, ' ')),
        }));
      });
      for (const violation of violations) {
        const line = `${target.name} ${viewport}: [${violation.impact}] ${violation.id}: ${violation.help}\n    ${violation.nodes.join('\n    ')}`;
        if (violation.impact === 'serious' || violation.impact === 'critical') found.push(line);
        else console.info(`axe (minor) ${line}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('layout stability', () => {
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

  test.each([
    ['home', () => '/'],
    ['a vehicle page', () => `/vehicle/${featuredId}`],
  ])('loading %s on a phone shifts the layout by less than 0.1 (CLS)', async (_name, path) => {
    const { page } = await harness.open({ viewport: 'mobile', initScripts: [observeShifts] });
    await page.goto(path());
    await page.waitForLoadState('load');
    await loadAllImages(page);
    await page.waitForTimeout(1000);
    const shifts = await page.evaluate(() => (window as unknown as { __layoutShifts: Array<{ value: number; sources: string[] }> }).__layoutShifts);
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    expect(total, JSON.stringify(shifts)).toBeLessThan(0.1);
  });
});

describe('screenshots (test-results/screenshots)', () => {
  test.each(VIEWPORTS)('pages, the open drawer and the open search overlay (%s)', async (viewport) => {
    const { page } = await harness.open({ viewport });
    for (const target of pages()) {
      await page.goto(target.path);
      await page.waitForLoadState('load');
      await target.ready(page);
      await loadAllImages(page);
      await harness.screenshot(page, `${viewport}-${target.name}`, { fullPage: true });
      await harness.screenshot(page, `${viewport}-${target.name}-top`);
    }

    // The vehicle page as the visitor scrolls it: the contact bar must not hide the content.
    await page.goto(`/vehicle/${featuredId}`);
    await page.waitForLoadState('load');
    await loadAllImages(page);
    await page.getByRole('heading', { name: 'Vehicle Condition Report' }).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await harness.screenshot(page, `${viewport}-vehicle-middle`);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(200);
    await harness.screenshot(page, `${viewport}-vehicle-end`);
    // At the very end of the page the contact buttons cover no part of the last section.
    const lastSection = await page.getByRole('heading', { name: 'Finance Options' }).locator('xpath=ancestor::section[1]').boundingBox();
    for (const name of ['Call Seller', 'Chat on WhatsApp']) {
      const button = await page.getByRole('link', { name }).boundingBox();
      if (!lastSection || !button) throw new Error('missing box');
      const overlaps = button.x < lastSection.x + lastSection.width && lastSection.x < button.x + button.width && button.y < lastSection.y + lastSection.height && lastSection.y < button.y + button.height;
      expect(overlaps, `${name} ${JSON.stringify(button)} over the last section ${JSON.stringify(lastSection)}`).toBe(false);
    }

    await page.goto('/');
    await page.waitForLoadState('load');
    await loadAllImages(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await visible(page.getByRole('dialog', { name: 'Menu' }));
    await page.waitForTimeout(200);
    await harness.screenshot(page, `${viewport}-drawer`);
    await page.keyboard.press('Escape');

    await page.getByRole('banner').getByRole('button', { name: 'Search vehicles' }).click();
    const overlay = await visible(page.getByRole('dialog', { name: 'Search vehicles' }));
    await overlay.getByRole('searchbox').fill('creta');
    await page.waitForTimeout(200);
    await harness.screenshot(page, `${viewport}-search-overlay`);

    if (viewport === 'desktop') {
      await overlay.getByRole('button', { name: 'Close search' }).click();
      await page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true }).click();
      await visible(page.getByRole('navigation', { name: 'Site menu' }));
      await harness.screenshot(page, `${viewport}-dropdown`);
    }
  });
});
