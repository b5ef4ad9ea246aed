import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { findVehicleId, browserHarness, visible, type ViewportName } from '../support/browser.ts';

/** Accessibility (axe-core), layout stability (CLS) and the contact bar leaving the content readable. */

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
    { name: 'compare', path: `/compare?ids=${featuredId},2147483647`, ready: (page: Page) => visible(page.getByRole('heading', { name: 'Compare cars' })) },
  ];
}

/** Loads lazy images too, so their layout shifts (if any) count, as for a visitor who scrolls. */
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
    window.__shiftObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.__layoutShifts.push({
          value: entry.value,
          sources: (entry.sources || []).map((source) => source.node ? (source.node.nodeName + '.' + (source.node.className || '')) : '?'),
        });
      }
    });
    window.__shiftObserver.observe({ type: 'layout-shift', buffered: true });
  `;

  test.each([
    ['home', () => '/'],
    ['a vehicle page', () => `/vehicle/${featuredId}`],
  ])('loading %s on a phone shifts the layout by less than 0.1 (CLS)', async (_name, path) => {
    const { page } = await harness.open({ viewport: 'mobile', initScripts: [observeShifts] });
    await page.goto(path());
    await page.waitForLoadState('load');
    await loadAllImages(page);
    // Settled: React has hydrated the page (its props sit on the DOM), the fonts are in, and two
    // frames have been drawn since; then the observer hands over what it has not delivered yet.
    await page.waitForFunction(() => Object.keys(document.body.querySelector('header') ?? {}).some((key) => key.startsWith('__react')));
    const shifts = await page.evaluate(async () => {
      await document.fonts.ready;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      type Shift = { value: number; sources: string[] };
      const state = window as unknown as { __layoutShifts: Shift[]; __shiftObserver: PerformanceObserver };
      for (const entry of state.__shiftObserver.takeRecords() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) state.__layoutShifts.push({ value: entry.value, sources: [] });
      }
      return state.__layoutShifts;
    });
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    expect(total, JSON.stringify(shifts)).toBeLessThan(0.1);
  });
});

describe('contact bar', () => {
  test.each(VIEWPORTS)('at the very end of a vehicle page the contact buttons cover no part of the last section (%s)', async (viewport) => {
    const { page } = await harness.open({ viewport });
    await page.goto(`/vehicle/${featuredId}`);
    await page.waitForLoadState('load');
    await loadAllImages(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // Scrolled to the bottom (images above may still have grown the page: scroll until it holds).
    await page.waitForFunction(() => {
      const bottom = document.documentElement.scrollHeight;
      if (window.scrollY + window.innerHeight < bottom - 1) window.scrollTo(0, bottom);
      return window.scrollY + window.innerHeight >= bottom - 1;
    });
    const lastSection = await page.getByRole('heading', { name: 'Finance Options' }).locator('xpath=ancestor::section[1]').boundingBox();
    for (const name of ['Call Seller', 'Chat on WhatsApp']) {
      const button = await page.getByRole('link', { name }).boundingBox();
      if (!lastSection || !button) throw new Error('missing box');
      const overlaps = button.x < lastSection.x + lastSection.width && lastSection.x < button.x + button.width && button.y < lastSection.y + lastSection.height && lastSection.y < button.y + button.height;
      expect(overlaps, `${name} ${JSON.stringify(button)} over the last section ${JSON.stringify(lastSection)}`).toBe(false);
    }
  });
});
