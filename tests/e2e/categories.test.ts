import { expect, test } from 'vitest';
import { browserHarness, visible } from '../support/browser.ts';

const harness = browserHarness();

test.each(['mobile', 'desktop'] as const)('categories: the first category is chosen, and choosing SUVs shows the SUVs (%s)', async (viewport) => {
  const { page } = await harness.open({ viewport });
  await page.goto('/categories');
  await page.waitForLoadState('load');
  await visible(page.getByRole('heading', { name: 'Browse by Category', level: 1 }));

  const select = await visible(page.getByRole('combobox', { name: 'Select a Category:' }));
  const options = await select.getByRole('option').allTextContents();
  expect(options.length).toBeGreaterThan(1);
  expect(options[0]).toMatch(/^Hatchbacks\b/);
  expect(await select.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.textContent)).toBe(options[0]);
  await visible(page.getByRole('heading', { name: 'Hatchbacks', exact: true }));
  const cards = page.getByRole('main').getByRole('article');
  expect(await cards.count()).toBeGreaterThan(0);
  const hatchbacks = await cards.getByRole('heading', { level: 3 }).allTextContents();

  const suvs = options.find((option) => /^SUVs\b/.test(option));
  if (!suvs) throw new Error(`No SUVs option in ${options.join(', ')}`);
  await select.selectOption({ label: suvs });
  await page.waitForURL((url) => url.pathname === '/categories' && url.search === '?category=suvs');
  await visible(page.getByRole('heading', { name: 'SUVs', exact: true }));
  expect(await select.evaluate((element: HTMLSelectElement) => element.value)).toBe('suvs');
  await visible(cards.first());
  const suvTitles = await cards.getByRole('heading', { level: 3 }).allTextContents();
  expect(suvTitles).not.toEqual(hatchbacks);
  // The count in the option is the number of SUVs listed (one page holds them all).
  const count = Number(/\((\d+)\)/.exec(suvs)?.[1]);
  expect(suvTitles.length).toBe(Math.min(count, 10));

  // Back returns to the first category.
  await page.goBack();
  await page.waitForURL((url) => url.pathname === '/categories' && url.search === '');
  await visible(page.getByRole('heading', { name: 'Hatchbacks', exact: true }));
  expect(await select.evaluate((element: HTMLSelectElement) => element.value)).toBe('hatchbacks');
});

test('a category link opened directly shows that category', async () => {
  const { page } = await harness.open({ viewport: 'mobile' });
  await page.goto('/categories?category=suvs');
  await visible(page.getByRole('heading', { name: 'SUVs', exact: true }));
  expect(await page.getByRole('combobox', { name: 'Select a Category:' }).evaluate((element: HTMLSelectElement) => element.value)).toBe('suvs');
});
