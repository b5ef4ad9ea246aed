import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DEFAULT_FINANCE_TERMS, emiFrom } from '../../app/features/emi/emi.ts';
import { calculatorDefaults, loanSummary } from '../../app/features/emi/calculator.ts';
import { formatRupees, priceDigits } from '../../app/lib/format.ts';
import { FILTERS } from '../../app/lib/listing-filters/catalogue.ts';
import { FUELS } from '../../app/lib/listing-filters/options.ts';
import englishBrowse from '../../app/lib/i18n/en/browse.json' with { type: 'json' };
import { browserHarness, signUpInBrowser, visible, waitFor, waitForHydration } from '../support/browser.ts';
import { uniqueEmail } from '../support/http-client.ts';

/**
 * The buyer's tools on a phone (375 px): the filter sheet with its live "Show N cars", the
 * chips that take a filter off, the sort; the same filters as a plain form without JavaScript;
 * "EMI from" on a card and on the car's page, and the calculator; the heart on a card, signed
 * out and signed in.
 */

const harness = browserHarness();
const PASSWORD = 'gulab-jamun-and-chai-9';

type FacetOption = { value: string; label: string; count: number };
type Listing = { total: number; items: Array<{ id: number; priceRupees: number | null; fuelType: string }>; facets: Record<string, FacetOption[]> };

async function api(query: string): Promise<Listing> {
  const response = await fetch(`${harness.baseUrl}/api/v1/vehicles?perPage=100&${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Listing;
}

/**
 * A budget bucket and a fuel that give cars together and fewer than the bucket alone (so taking
 * the fuel off widens the listing): 5–8 lakh and diesel when the inventory has them.
 */
async function budgetAndFuel(): Promise<{ budget: FacetOption; fuel: FacetOption; budgetTotal: number }> {
  const all = await api('perPage=1');
  const budgets = [...all.facets.budget!]
    .filter((option) => option.count > 0)
    .sort((a, b) => Number(b.value === '5-8') - Number(a.value === '5-8') || b.count - a.count);
  for (const budget of budgets) {
    const within = await api(`budget=${budget.value}`);
    const fuels = within.facets
      .fuel!.filter((option) => option.count > 0 && option.count < within.total)
      .sort((a, b) => Number(b.value === 'diesel') - Number(a.value === 'diesel'));
    if (fuels[0]) return { budget, fuel: fuels[0], budgetTotal: within.total };
  }
  throw new Error('no budget and fuel in the demo inventory narrow the listing');
}

const listingRegion = (page: Page) => page.getByRole('region', { name: 'Vehicles for sale' });
const cardPrices = async (cards: Locator) => (await cards.locator('p.text-brand-700').allTextContents()).map((text) => priceDigits(text));
const foundText = async (page: Page) => (await listingRegion(page).getByRole('status').first().textContent())?.trim() ?? '';

/** The sheet's submit button once it has counted: "Show 12 cars". */
async function shownCount(sheet: Locator): Promise<number> {
  const button = sheet.locator('button[type="submit"]');
  const text = await waitFor(
    async () => ((await button.getAttribute('aria-busy')) === 'true' ? '' : ((await button.textContent()) ?? '')),
    (value) => /^Show [\d,]+ cars?$/.test(value),
  );
  return Number(/[\d,]+/.exec(text)![0].replace(/,/g, ''));
}

describe('the buyer’s tools at 375 px', () => {
  test('filter sheet: budget and fuel, "Show N cars" is what the listing shows, chips take a filter off, sort by price', async () => {
    const { budget, fuel, budgetTotal } = await budgetAndFuel();
    const budgetLabel = englishBrowse[FILTERS.budget.buckets.find((bucket) => bucket.value === budget.value)!.labelKey as keyof typeof englishBrowse];
    const fuelLabel = FUELS[fuel.value as keyof typeof FUELS];
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    await waitForHydration(page, '#filters form');
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    await page.getByRole('button', { name: /^Filters/ }).click();
    await visible(sheet);

    await sheet.getByRole('checkbox', { name: new RegExp(`^${budgetLabel} \\(`) }).check();
    expect(await shownCount(sheet)).toBe(budgetTotal);
    // The options count again for the budget chosen: the fuel promises what "Show N cars" then says.
    await visible(sheet.getByRole('checkbox', { name: `${fuelLabel} (${fuel.count})`, exact: true }));
    await sheet.getByRole('checkbox', { name: new RegExp(`^${fuelLabel} \\(`) }).check();
    const shown = await shownCount(sheet);
    expect(shown).toBe(fuel.count);
    await harness.screenshot(page, 'buyer-filter-sheet-375');

    await sheet.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.searchParams.get('budget') === budget.value && url.searchParams.get('fuel') === fuel.value);
    await waitFor(
      () => foundText(page),
      (text) => text === `${shown} ${shown === 1 ? 'vehicle' : 'vehicles'} found`,
    );
    const cards = listingRegion(page).getByRole('article');
    const cardCount = await cards.count();
    expect(cardCount).toBeGreaterThan(0);
    expect(cardCount).toBeLessThanOrEqual(shown);
    // Every card is of that fuel and within the budget.
    const [low, high] = budget.value.split('-').map((end) => (end === '' ? null : Number(end) * 100_000));
    for (const price of await cardPrices(cards)) {
      expect(price).not.toBeNull();
      if (low !== null && low !== undefined) expect(price!).toBeGreaterThanOrEqual(low);
      if (high !== null && high !== undefined) expect(price!).toBeLessThan(high);
    }
    const factLines = await cards.locator('p.text-sm.text-slate-600').allTextContents();
    expect(factLines.filter((line) => line.toLowerCase().includes(fuel.value === 'cng' ? 'cng' : fuel.value)).length).toBe(cardCount);
    await harness.screenshot(page, 'buyer-filtered-listing-375', { fullPage: true });

    // The chips: each a link without its filter; taking the fuel off widens the listing.
    const chips = page.getByRole('list', { name: 'Active filters' });
    await visible(chips.getByRole('link', { name: `Remove filter ${budgetLabel}` }));
    await chips.getByRole('link', { name: `Remove filter ${fuelLabel}` }).click();
    await page.waitForURL((url) => url.searchParams.get('budget') === budget.value && !url.searchParams.has('fuel'));
    await waitFor(
      () => foundText(page),
      (text) => text === `${budgetTotal} ${budgetTotal === 1 ? 'vehicle' : 'vehicles'} found`,
    );
    expect(budgetTotal).toBeGreaterThan(shown);

    // Sort by price, lowest first: the cards come in that order.
    await waitForHydration(page, '#listing-sort');
    await page.getByLabel('Sort by').selectOption('price_asc');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price_asc' && url.searchParams.get('budget') === budget.value);
    // The address changes a moment before the sorted cards are drawn: wait for the order to change.
    const sorted = (await api(`budget=${budget.value}&sort=price_asc`)).items.slice(0, 10).map((item) => item.priceRupees);
    const prices = await waitFor(
      async () => (await cardPrices(cards)).map(Number),
      (shown) => shown.join() === sorted.join(),
    );
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  test('a category page has the same sheet: its counts, "Show N cars", the URL, chips and sort stay within the category', async () => {
    const suvs = await api('category=suvs&perPage=1');
    const fuel = suvs.facets.fuel!.find((option) => option.count > 0 && option.count < suvs.total)!;
    const fuelLabel = FUELS[fuel.value as keyof typeof FUELS];
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/categories?category=suvs');
    await waitForHydration(page, '#filters form');
    await page.getByRole('button', { name: /^Filters/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    // The options count this category's cars, not the whole stock.
    await visible(sheet.getByRole('checkbox', { name: `${fuelLabel} (${fuel.count})`, exact: true }));
    await sheet.getByRole('checkbox', { name: new RegExp(`^${fuelLabel} \\(`) }).check();
    expect(await shownCount(sheet)).toBe(fuel.count);
    await harness.screenshot(page, 'buyer-category-filter-sheet-375');
    await sheet.locator('button[type="submit"]').click();
    await page.waitForURL(
      (url) => url.pathname === '/categories' && url.searchParams.get('category') === 'suvs' && url.searchParams.get('fuel') === fuel.value,
    );

    const region = page.getByRole('region', { name: 'SUVs', exact: true });
    await waitFor(
      async () => (await region.getByRole('status').first().textContent())?.trim(),
      (text) => text === `${fuel.count} ${fuel.count === 1 ? 'vehicle' : 'vehicles'} found`,
    );
    await waitForHydration(page, '#listing-sort');
    await page.getByLabel('Sort by').selectOption('price_desc');
    await page.waitForURL(
      (url) => url.pathname === '/categories' && url.searchParams.get('sort') === 'price_desc' && url.searchParams.get('fuel') === fuel.value,
    );
    const expected = await api(`category=suvs&fuel=${fuel.value}&sort=price_desc`);
    const cards = region.getByRole('article');
    const prices = expected.items.slice(0, 10).map((item) => item.priceRupees);
    expect(prices).toEqual([...prices].sort((a, b) => b! - a!));
    await waitFor(
      async () => (await cardPrices(cards)).join(),
      (shown) => shown === prices.join(),
    );

    // The chip takes the fuel off and stays in the category, in the same order.
    await page
      .getByRole('list', { name: 'Active filters' })
      .getByRole('link', { name: `Remove filter ${fuelLabel}` })
      .click();
    await page.waitForURL((url) => url.pathname === '/categories' && url.search === '?category=suvs&sort=price_desc');
    await waitFor(async () => (await cards.count()) === Math.min(suvs.total, 10), Boolean);
  });

  test('without JavaScript the same filters are a plain form: the sheet opens, the listing narrows, a chip widens it', async () => {
    const { budget, fuel, budgetTotal } = await budgetAndFuel();
    const budgetLabel = englishBrowse[FILTERS.budget.buckets.find((bucket) => bucket.value === budget.value)!.labelKey as keyof typeof englishBrowse];
    const fuelLabel = FUELS[fuel.value as keyof typeof FUELS];
    const { page } = await harness.open({ viewport: 'mobile', context: { javaScriptEnabled: false } });
    await page.goto('/');
    await page.getByRole('button', { name: /^Filters/ }).click();
    const sheet = page.locator('#filters');
    await visible(sheet.getByRole('checkbox', { name: new RegExp(`^${budgetLabel} \\(`) }));
    await sheet.getByRole('checkbox', { name: new RegExp(`^${budgetLabel} \\(`) }).check();
    await sheet.getByRole('checkbox', { name: new RegExp(`^${fuelLabel} \\(`) }).check();
    await harness.screenshot(page, 'buyer-filter-sheet-375-no-js');
    await sheet.getByRole('button', { name: /^Show / }).click();
    await page.waitForURL((url) => url.searchParams.get('budget') === budget.value && url.searchParams.get('fuel') === fuel.value);
    expect(await foundText(page)).toBe(`${fuel.count} ${fuel.count === 1 ? 'vehicle' : 'vehicles'} found`);

    await page
      .getByRole('list', { name: 'Active filters' })
      .getByRole('link', { name: `Remove filter ${fuelLabel}` })
      .click();
    await page.waitForURL((url) => !url.searchParams.has('fuel'));
    expect(await foundText(page)).toBe(`${budgetTotal} ${budgetTotal === 1 ? 'vehicle' : 'vehicles'} found`);

    await page.getByLabel('Sort by').selectOption('price_asc');
    await page.getByRole('button', { name: 'Sort', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'price_asc' && url.searchParams.get('budget') === budget.value);
    const prices = (await cardPrices(listingRegion(page).getByRole('article'))).map(Number);
    expect(prices.length).toBeGreaterThan(0);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  test('"EMI from" on a card and on the car’s page is the shared rule’s, and the calculator follows the tenure', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    const card = listingRegion(page).getByRole('article').filter({ hasText: 'EMI from' }).first();
    const price = priceDigits(await card.locator('p.text-brand-700').textContent())!;
    const emi = formatRupees(emiFrom(price, DEFAULT_FINANCE_TERMS)!);
    expect(await card.getByText(/^EMI from/).textContent()).toBe(`EMI from ${emi}/month`);

    await card.getByRole('heading', { level: 3 }).getByRole('link').click();
    // Not until 'load': a click before hydration is a full navigation that waits for every photo,
    // and what the test needs next is the text it waits for below.
    await page.waitForURL(/\/vehicle\/\d+$/, { waitUntil: 'commit' });
    await visible(page.getByRole('main').getByText(`EMI from ${emi}/month`, { exact: true }).first());
    const calculator = page.getByRole('region', { name: 'EMI calculator' });
    const output = calculator.locator('output');
    const start = calculatorDefaults(price, DEFAULT_FINANCE_TERMS);
    expect((await output.textContent())?.trim()).toBe(formatRupees(loanSummary(price, start.downPayment, start.ratePercent, start.tenureMonths).emi));
    await waitForHydration(page, '#emi-dp');
    await calculator.getByLabel('Tenure (months)').selectOption('36');
    const expected = formatRupees(loanSummary(price, start.downPayment, start.ratePercent, 36).emi);
    await waitFor(
      async () => (await output.textContent())?.trim(),
      (text) => text === expected,
    );
  });

  test('a heart on a card asks a signed-out visitor to sign in and saves the car for a signed-in one', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/?sort=price_desc');
    const card = listingRegion(page).getByRole('article').first();
    const title = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
    await card.getByRole('link', { name: `Add ${title} to wishlist` }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/?sort=price_desc');
    await visible(page.getByRole('heading', { level: 1 }));

    await signUpInBrowser(page, uniqueEmail('hearts'), PASSWORD);
    await page.goto('/?sort=price_desc');
    await waitForHydration(page, 'main article form[method="post"] button');
    const heart = listingRegion(page).getByRole('button', { name: `Add ${title} to wishlist` });
    await heart.click();
    await visible(listingRegion(page).getByText('Added to wishlist!'));
    await visible(listingRegion(page).getByRole('button', { name: `Remove ${title} from wishlist`, pressed: true }));
    await harness.screenshot(page, 'buyer-heart-375');
    await page.goto('/wishlist');
    await visible(page.getByRole('main').getByRole('heading', { name: title, level: 2 }));
  });
});
