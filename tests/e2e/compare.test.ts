import { describe, expect, test } from 'vitest';
import { DEFAULT_FINANCE_TERMS } from '../../app/features/emi/emi.ts';
import { calculatorDefaults, loanSummary } from '../../app/features/emi/calculator.ts';
import { formatRupees, priceDigits } from '../../app/lib/format.ts';
import { compareToggle, browserHarness, findVehicleId, visible, waitFor, waitForHydration } from '../support/browser.ts';

/**
 * A buyer on a phone: puts two cars in the compare tray from the listing and opens them side by
 * side; works out an EMI on a vehicle page, live as they type and, without JavaScript, by
 * sending the calculator's form.
 */

const harness = browserHarness();

/** The first car on the listing with a price in rupees, read from the API. */
async function pricedCar(): Promise<{ id: number; price: number }> {
  const response = await fetch(`${harness.baseUrl}/api/v1/vehicles?perPage=50`);
  const body = (await response.json()) as { items: Array<{ id: number; price: string }> };
  const car = body.items.find((item) => priceDigits(item.price) !== null);
  if (!car) throw new Error('no demo car with a price');
  return { id: car.id, price: priceDigits(car.price)! };
}

describe('compare and the EMI calculator', () => {
  test('at 375 px: two cars added to compare from the listing show side by side on the compare page', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    // The listing's cards (the storefront's featured cars above it repeat some of them).
    const main = page.getByRole('region', { name: 'Vehicles for sale' });
    const cards = main.getByRole('article');
    await visible(cards.first());
    const titles = (await cards.getByRole('heading', { level: 3 }).allTextContents()).slice(0, 2).map((title) => title.trim());
    await waitForHydration(page, 'main article form[action="/compare"] button');

    for (const title of titles) {
      const toggle = compareToggle(main, title);
      await toggle.click();
      await waitFor(
        () => toggle.getAttribute('aria-pressed'),
        (pressed) => pressed === 'true',
      );
    }
    const tray = page.getByRole('complementary', { name: 'Cars to compare' });
    await visible(tray.getByText('2 of 3 cars'));
    await harness.screenshot(page, 'compare-tray-375');

    await tray.getByRole('link', { name: 'Compare 2' }).click();
    await page.waitForURL(/\/compare\?ids=\d+,\d+$/);
    await visible(page.getByRole('heading', { name: 'Compare cars', level: 1 }));
    const comparePage = page.getByRole('main');
    const heads = (await comparePage.locator('thead th').allTextContents()).map((text) => text.trim());
    expect(heads).toHaveLength(2);
    for (const [index, title] of titles.entries()) expect(heads[index]).toContain(title);
    await visible(comparePage.getByRole('rowheader', { name: /^EMI from/ }));
    await harness.screenshot(page, 'compare-page-375', { fullPage: true });

    // Kept in the browser: the listing shows both as being compared after a reload.
    await page.goto('/');
    await waitForHydration(page, 'main article form[action="/compare"] button');
    for (const title of titles) {
      await waitFor(
        () => compareToggle(main, title).getAttribute('aria-pressed'),
        (pressed) => pressed === 'true',
      );
    }
  });

  test('at 375 px /compare opened by its address shows the tray’s cars, and removing the last one leaves it empty', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/');
    const main = page.getByRole('region', { name: 'Vehicles for sale' });
    const cards = main.getByRole('article');
    await visible(cards.first());
    const titles = [...new Set((await cards.getByRole('heading', { level: 3 }).allTextContents()).map((title) => title.trim()))].slice(0, 3);
    await waitForHydration(page, 'main article form[action="/compare"] button');
    for (const title of titles) {
      const toggle = compareToggle(main, title).first();
      await toggle.click();
      await waitFor(
        () => toggle.getAttribute('aria-pressed'),
        (pressed) => pressed === 'true',
      );
    }

    // Typed, bookmarked or from the menu: no list in the address, the tray's three cars on the page.
    await page.goto('/compare');
    await page.waitForURL((url) => (url.searchParams.get('ids') ?? '').split(',').length === 3);
    const heads = page.getByRole('main').locator('thead th');
    await waitFor(
      () => heads.count(),
      (count) => count === 3,
    );
    for (const [index, title] of titles.entries()) expect(await heads.nth(index).textContent()).toContain(title);
    expect(await page.getByText('No cars to compare yet').count()).toBe(0);
    await harness.screenshot(page, 'compare-from-tray-375', { fullPage: true });

    // Removing every car empties the list and the tray: the page does not bring them back.
    for (const [index, title] of titles.entries()) {
      await page.getByRole('link', { name: `Remove ${title} from compare` }).click();
      const left = titles.length - index - 1;
      if (left > 0)
        await waitFor(
          () => heads.count(),
          (count) => count === left,
        );
    }
    await visible(page.getByText('No cars to compare yet'));
    expect(new URL(page.url()).searchParams.get('ids')).toBe('');
    await page.goto('/compare');
    await visible(page.getByText('No cars to compare yet'));
    await waitForHydration(page, 'main a[href="/"]');
    expect(new URL(page.url()).search).toBe('');
  });

  test('at 375 px nothing hides under the tray: the calculator’s answer after "Calculate your EMI", and three cars on the compare page', async () => {
    const response = await fetch(`${harness.baseUrl}/api/v1/vehicles?perPage=50`);
    const priced = ((await response.json()) as { items: Array<{ id: number; priceRupees: number | null }> }).items
      .filter((item) => item.priceRupees !== null)
      .slice(0, 3);
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto(`/vehicle/${priced[0]!.id}`);
    await waitForHydration(page, 'main form[action="/compare"] button');
    await page.getByRole('main').locator('form[action="/compare"] button').click();
    const tray = page.getByRole('complementary', { name: 'Cars to compare' });
    await visible(tray.getByText('1 of 3 cars'));
    await page.getByRole('link', { name: 'Calculate your EMI' }).click();
    await page.waitForURL((url) => url.hash === '#emi');
    const answer = page.getByRole('region', { name: 'EMI calculator' }).locator('[aria-live="polite"]');
    const trayTop = (await tray.locator('div').first().boundingBox())!.y;
    const box = await waitFor(
      async () => (await answer.boundingBox())!,
      (found) => found.y >= 0 && found.y + found.height <= trayTop,
    );
    expect(box.y + box.height).toBeLessThanOrEqual(trayTop);
    await harness.screenshot(page, 'emi-calculator-with-tray-375');

    // Three cars, a phone's most: every column is on screen, none behind a sideways scroll.
    await page.goto(`/compare?ids=${priced.map((car) => car.id).join(',')}`);
    const heads = page.getByRole('main').locator('thead th');
    expect(await heads.count()).toBe(3);
    for (const head of await heads.all()) {
      const { x, width } = (await head.boundingBox())!;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + width).toBeLessThanOrEqual(375);
    }
    const table = page.getByRole('main').locator('table');
    expect(await table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
    await harness.screenshot(page, 'compare-three-375', { fullPage: true });
  });

  for (const viewport of ['mobile', 'desktop'] as const) {
    test(`at ${viewport === 'mobile' ? '375' : '1280'} px the tray shows only where comparing belongs, and a car page has one EMI figure`, async () => {
      const car = await pricedCar();
      const cars = (await (await fetch(`${harness.baseUrl}/api/v1/rentals/cars`)).json()) as { items: Array<{ id: number }> };
      const rentalId = cars.items[0]!.id;
      const { page } = await harness.open({ viewport });
      await page.goto(`/vehicle/${car.id}`);
      await waitForHydration(page, 'main form[action="/compare"] button');
      await page.getByRole('main').locator('form[action="/compare"] button').click();
      const tray = page.getByRole('complementary', { name: 'Cars to compare' });
      await visible(tray);
      // The worked-out EMI at the top and in the Finance Options: one figure on the whole page.
      const figures = new Set((await page.getByRole('main').innerText()).match(/EMI from\s*₹[\d,]+/gi)!.map((text) => text.replace(/\s+/g, ' ').toLowerCase()));
      expect(figures.size).toBe(1);

      for (const path of ['/rent', `/rent/${rentalId}`, `/rent/${rentalId}/book`, '/sell-vehicle', '/request-vehicle', '/login', '/signup']) {
        await page.goto(path);
        await visible(page.getByRole('main'));
        expect(await tray.count(), path).toBe(0);
      }
      for (const path of ['/', `/vehicle/${car.id}`]) {
        await page.goto(path);
        await visible(tray);
      }
    });
  }

  for (const viewport of ['mobile', 'desktop'] as const) {
    test(`at ${viewport === 'mobile' ? '375' : '1280'} px the tray takes the three cars the empty compare page promises and refuses a fourth`, async () => {
      const { page } = await harness.open({ viewport });
      await page.goto('/compare?ids=');
      await visible(page.getByText('Tap “Compare” on up to 3 cars to see them side by side.'));
      await page.goto('/');
      const main = page.getByRole('region', { name: 'Vehicles for sale' });
      const cards = main.getByRole('article');
      await visible(cards.first());
      const titles = [...new Set((await cards.getByRole('heading', { level: 3 }).allTextContents()).map((title) => title.trim()))].slice(0, 4);
      expect(titles).toHaveLength(4);
      await waitForHydration(page, 'main article form[action="/compare"] button');
      const toggle = (title: string) => compareToggle(main, title).first();
      for (const title of titles.slice(0, 3)) {
        await toggle(title).click();
        await waitFor(
          () => toggle(title).getAttribute('aria-pressed'),
          (pressed) => pressed === 'true',
        );
      }
      await toggle(titles[3]!).click();
      const tray = page.getByRole('complementary', { name: 'Cars to compare' });
      await visible(tray.getByText('You can compare up to 3 cars. Remove one to add another.'));
      expect(await toggle(titles[3]!).getAttribute('aria-pressed')).toBe('false');
      await harness.screenshot(page, `compare-limit-${viewport === 'mobile' ? 375 : 1280}`);
    });
  }

  test('at 375 px a name longer than its column ("Volkswagen") wraps inside it, and the table fits the screen', async () => {
    const ids = await Promise.all(['swift', 'city', 'virtus'].map((query) => findVehicleId(harness.baseUrl, query)));
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto(`/compare?ids=${ids.join(',')}`);
    await visible(page.getByRole('columnheader', { name: /Volkswagen Virtus/ }));
    const spills = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main table :is(th, td)')].flatMap((cell) => {
        const box = cell.getBoundingClientRect();
        return [...cell.querySelectorAll<HTMLElement>(':is(a, p, span):not(.sr-only)')]
          .filter((inner) => inner.getBoundingClientRect().right > box.right + 0.5 || inner.scrollWidth > inner.clientWidth + 0.5)
          .map((inner) => `${inner.textContent?.trim()}: ${Math.round(inner.getBoundingClientRect().right)} > ${Math.round(box.right)}`);
      }),
    );
    expect(spills).toEqual([]);
    const table = await page.locator('main table').evaluate((element) => ({ width: element.scrollWidth, room: element.parentElement!.clientWidth }));
    expect(table.width).toBeLessThanOrEqual(table.room);
    await harness.screenshot(page, 'compare-long-name-375', { fullPage: true });
  });

  test('at 375 px an empty compare page offers the cars this phone opened, and nothing on a phone that opened none', async () => {
    const car = await pricedCar();
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto('/compare');
    await visible(page.getByText('No cars to compare yet'));
    await waitForHydration(page, 'main a[href="/"]');
    expect(await page.getByRole('heading', { name: 'Cars you opened recently' }).count()).toBe(0);

    await page.goto(`/vehicle/${car.id}`);
    const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
    await waitForHydration(page, 'main form[action="/compare"] button');
    await page.goto('/compare');
    const recent = page.getByRole('region', { name: 'Cars you opened recently' });
    await visible(recent);
    // Its name is the title and the price: a name given as a string matches a part of it.
    const link = recent.getByRole('link', { name: title });
    expect(await link.getAttribute('href')).toBe(`/vehicle/${car.id}`);
    await harness.screenshot(page, 'compare-empty-recent-375', { fullPage: true });
    // On a Hindi page the car opens in Hindi, inside the app.
    await page.goto('/hi/compare');
    const hindiRecent = page.getByRole('region', { name: 'हाल में खोली गई कारें' });
    await visible(hindiRecent);
    await waitForHydration(page, 'main a[href^="/hi/vehicle/"]');
    await hindiRecent.getByRole('link', { name: title }).click();
    await page.waitForURL(`**/hi/vehicle/${car.id}`);
    await visible(page.getByRole('heading', { level: 1, name: title }));
  });

  test('the calculator answers live as the buyer types', async () => {
    const car = await pricedCar();
    const { page } = await harness.open({ viewport: 'mobile' });
    await page.goto(`/vehicle/${car.id}`);
    const calculator = page.getByRole('region', { name: 'EMI calculator' });
    await visible(calculator);
    const start = calculatorDefaults(car.price, DEFAULT_FINANCE_TERMS);
    const emi = calculator.locator('output');
    expect((await emi.textContent())?.trim()).toBe(formatRupees(loanSummary(car.price, start.downPayment, start.ratePercent, start.tenureMonths).emi));
    await waitForHydration(page, '#emi-dp');

    const downPayment = Math.round(car.price / 4);
    await calculator.getByLabel('Down payment (₹)').fill(String(downPayment));
    await calculator.getByLabel('Interest rate (% a year)').fill('9.5');
    await calculator.getByLabel('Tenure (months)').selectOption('84');
    const expected = loanSummary(car.price, downPayment, 9.5, 84);
    await waitFor(
      async () => (await emi.textContent())?.trim(),
      (text) => text === formatRupees(expected.emi),
    );
    const text = (await calculator.textContent()) ?? '';
    expect(text).toContain(formatRupees(expected.totalInterest));
    expect(text).toContain(formatRupees(expected.totalPaid));
    // A value out of range says so at once.
    await calculator.getByLabel('Interest rate (% a year)').fill('25');
    await visible(calculator.getByText('Interest rate must be between 9% and 20% a year.'));
    await calculator.getByLabel('Interest rate (% a year)').fill('9.5');
    await calculator.scrollIntoViewIfNeeded();
    await harness.screenshot(page, 'emi-calculator-375');
    // A down payment above the price says so with the price, and the old EMI goes away with it.
    await calculator.getByLabel('Down payment (₹)').fill(String(car.price + 50_000));
    await visible(calculator.getByText(`The down payment cannot be more than the car’s price of ${formatRupees(car.price)}.`));
    await waitFor(
      async () => (await emi.textContent())?.trim(),
      (text) => text === '—',
    );
    expect(await calculator.textContent()).not.toContain(formatRupees(expected.totalPaid));
    await harness.screenshot(page, 'emi-calculator-over-price-375');
    // Back within the price, the figures are back.
    await calculator.getByLabel('Down payment (₹)').fill(String(downPayment));
    await waitFor(
      async () => (await emi.textContent())?.trim(),
      (text) => text === formatRupees(expected.emi),
    );
  });

  test('without JavaScript the calculator sends its form and the page shows the answer', async () => {
    const car = await pricedCar();
    const { page } = await harness.open({ viewport: 'desktop', context: { javaScriptEnabled: false } });
    await page.goto(`/vehicle/${car.id}`);
    const calculator = page.getByRole('region', { name: 'EMI calculator' });
    const downPayment = Math.round(car.price / 5);
    await calculator.getByLabel('Down payment (₹)').fill(String(downPayment));
    await calculator.getByLabel('Interest rate (% a year)').fill('10');
    await calculator.getByLabel('Tenure (months)').selectOption('36');
    await calculator.getByRole('button', { name: 'Calculate EMI' }).click();
    await page.waitForURL((url) => url.searchParams.get('dp') === String(downPayment) && url.hash === '#emi');
    const url = new URL(page.url());
    expect(url.searchParams.get('rate')).toBe('10');
    expect(url.searchParams.get('tenure')).toBe('36');
    const expected = loanSummary(car.price, downPayment, 10, 36);
    expect((await page.getByRole('region', { name: 'EMI calculator' }).locator('output').textContent())?.trim()).toBe(formatRupees(expected.emi));
    await harness.screenshot(page, 'emi-calculator-1280-no-js');

    // More than the price: the form is sent (not stopped by the browser's own check), and the page says what is wrong instead of an EMI.
    const over = car.price + 50_000;
    await calculator.getByLabel('Down payment (₹)').fill(String(over));
    await calculator.getByRole('button', { name: 'Calculate EMI' }).click();
    await page.waitForURL((url) => url.searchParams.get('dp') === String(over));
    const answered = page.getByRole('region', { name: 'EMI calculator' });
    await visible(answered.getByText(`The down payment cannot be more than the car’s price of ${formatRupees(car.price)}.`));
    expect((await answered.locator('output').textContent())?.trim()).toBe('—');
    expect(await answered.getByLabel('Down payment (₹)').inputValue()).toBe(String(over));
    await answered.scrollIntoViewIfNeeded();
    await harness.screenshot(page, 'emi-calculator-over-price-1280-no-js');
  });
});
