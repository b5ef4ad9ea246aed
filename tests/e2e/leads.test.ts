import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import sharp from 'sharp';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { downloadedText, hidden, launchChromium, screenshotDir, viewports, visible, waitForHydration, type ViewportName } from '../support/browser.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The lead forms in Chromium, as a visitor and an admin use them: the sell form with two
 * photos opening the WhatsApp chat in a new tab, the admin seeing the card with its
 * thumbnails, marking it contacted and exporting the CSV; the request form's success and
 * failure; and both forms and both admin views at 375 px and 1280 px (screenshots, axe).
 *
 * The shared e2e server has no demo admin, so this file starts its own (APP_MODE=demo).
 */

const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

let server: TestServer;
let browser: Browser;
let axeSource = '';
const opened: Array<{ context: BrowserContext; errors: string[] }> = [];

async function open(options: { viewport?: ViewportName; context?: BrowserContextOptions; allowConsoleErrors?: RegExp[] } = {}) {
  const context = await browser.newContext({
    ...viewports[options.viewport ?? 'mobile'],
    baseURL: server.url,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    ...options.context,
  });
  context.setDefaultTimeout(20_000);
  context.setDefaultNavigationTimeout(40_000);
  // The chat itself is WhatsApp's: answered here so the new tab keeps its wa.me address.
  await context.route('https://wa.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title><p>chat</p>' }));
  const entry = { context, errors: [] as string[] };
  const allowed = options.allowConsoleErrors ?? [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error' && !allowed.some((pattern) => pattern.test(message.text())))
        entry.errors.push(`console.error: ${message.text()} (${page.url()})`);
    });
    page.on('pageerror', (error) => entry.errors.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().includes('.data')) console.warn(`HTTP ${response.status()} ${response.url()}`);
    });
  };
  context.on('page', watch);
  opened.push(entry);
  const page = await context.newPage();
  return { page, context };
}

/** Submitting before the page has hydrated would post the plain form instead. */
const hydrated = (page: Page, selector = 'form[method="post"]') => waitForHydration(page, selector);

async function screenshot(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

async function seriousViolations(page: Page) {
  await page.addScriptTag({ content: axeSource });
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe.run(document),
  )) as AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** No element wider than the screen (nothing to scroll sideways on a phone). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function signIn(page: Page) {
  await page.goto('/admin-login');
  await hydrated(page);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/admin-panel$/);
}

async function jpeg(color: string): Promise<Buffer> {
  return sharp({ create: { width: 1000, height: 700, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

describe.skipIf(!sharedServer().url)('lead forms in the browser', () => {
  beforeAll(async () => {
    server = await startTestServer({ dialect: 'sqlite', seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: 'true' } });
    browser = await launchChromium();
    axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  });

  afterEach(async () => {
    const entries = opened.splice(0);
    await Promise.all(entries.map((entry) => entry.context.close().catch(() => {})));
    expect(
      entries.flatMap((entry) => entry.errors),
      'unexpected console or page errors',
    ).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('sell with two photos -> WhatsApp chat in a new tab -> admin sees the card and thumbnails -> marks it contacted -> CSV has it', async () => {
    const { page, context } = await open({ viewport: 'desktop' });
    await page.goto('/sell-vehicle');
    await visible(page.getByRole('heading', { name: 'Sell Your Vehicle', level: 1 }));
    await hydrated(page);

    await page.getByLabel('Your name').fill('Kavya Iyer');
    await page.getByLabel('Phone number').fill('98400 12345');
    await page.getByLabel('Vehicle model').fill('Tata Nexon XZ+');
    await page.getByLabel('Year', { exact: true }).fill('2020');
    await page.getByLabel('Expected price').fill('7,25,000');
    await page.getByLabel('Description (optional)').fill('Second owner, सर्विस रिकॉर्ड 🚗');
    await page.getByLabel('Photos (optional)').setInputFiles([
      { name: 'Front.jpg', mimeType: 'image/jpeg', buffer: await jpeg('#1d4ed8') },
      { name: 'Rear.jpg', mimeType: 'image/jpeg', buffer: await jpeg('#16a34a') },
    ]);
    expect(await page.getByRole('list', { name: 'Chosen photos' }).getByRole('img').count()).toBe(2);

    const button = page.getByRole('button', { name: 'Send via WhatsApp' });
    const [chat] = await Promise.all([context.waitForEvent('page'), button.click()]);
    // Busy while the photos go up.
    await chat.waitForURL(/^https:\/\/wa\.me\//, { timeout: 60_000 });
    const chatUrl = new URL(chat.url());
    expect(chatUrl.pathname).toBe('/919876543210');
    const text = chatUrl.searchParams.get('text') ?? '';
    const lines = text.split('\n');
    expect(lines.slice(0, 8)).toEqual([
      'Hello, I want to sell my vehicle.',
      'Name: Kavya Iyer',
      // The number as the site keeps it (decision 096), however it was typed.
      'Phone: +919840012345',
      'Vehicle: Tata Nexon XZ+',
      'Year: 2020',
      'Expected Price: ₹7,25,000',
      'Description: Second owner, सर्विस रिकॉर्ड 🚗',
      'Images:',
    ]);
    expect(lines.slice(8)).toHaveLength(2);
    for (const [index, line] of lines.slice(8).entries()) {
      expect(line).toMatch(
        new RegExp(`^${server.url.replace(/\./g, '\\.')}/media/sell_vehicles/\\d{13}_${index === 0 ? 'front' : 'rear'}-[0-9a-f]{10}-1000\\.webp$`),
      );
    }

    await visible(page.getByText('Thank you! We have received your vehicle details.'));
    await visible(page.getByRole('link', { name: 'Open WhatsApp chat' }));
    expect(await page.getByRole('link', { name: 'Open WhatsApp chat' }).getAttribute('href')).toBe(chat.url());
    expect(await page.getByLabel('Your name').inputValue()).toBe('');
    expect(await page.getByLabel('Photos (optional)').evaluate((input: HTMLInputElement) => input.files?.length)).toBe(0);
    expect(await button.isEnabled()).toBe(true);
    await chat.close();

    // The admin's view of it.
    await signIn(page);
    await page.goto('/admin-panel/selling-vehicles');
    await visible(page.getByRole('heading', { name: 'Selling Vehicles', level: 1 }));
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Tata Nexon XZ+' }) });
    await visible(card);
    for (const value of ['Kavya Iyer', '+919840012345', '2020', '7,25,000', 'Second owner, सर्विस रिकॉर्ड 🚗'])
      await visible(card.getByText(value, { exact: true }));
    await visible(card.getByText(/^ID: \d+$/));
    const thumbnails = card.getByRole('list', { name: 'Photos of Tata Nexon XZ+' }).getByRole('img');
    expect(await thumbnails.count()).toBe(2);
    for (const thumbnail of await thumbnails.all()) {
      const box = await thumbnail.boundingBox();
      expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([100, 70]);
      expect(await thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    }
    const [full] = await Promise.all([context.waitForEvent('page'), thumbnails.first().click()]);
    await full.waitForLoadState();
    expect(full.url()).toBe(lines[8]);
    await full.close();
    await visible(card.getByRole('link', { name: 'Call Customer' }));
    expect(await card.getByRole('link', { name: 'Call Customer' }).getAttribute('href')).toBe('tel:+919840012345');
    expect(await card.getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/919840012345\?text=/);

    // Mark it contacted.
    await card.getByLabel('Status').selectOption('contacted');
    await card.getByLabel('Notes').fill('Inspection booked for Saturday');
    await card.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('status').filter({ hasText: /saved as contacted/ }));
    await visible(card.locator('span', { hasText: /^Contacted$/ }));

    // Filter to contacted and export what is shown.
    await page.getByLabel('Status', { exact: true }).first().selectOption('contacted');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=contacted/);
    await visible(page.getByRole('heading', { name: 'Tata Nexon XZ+' }));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^sell-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await downloadedText(download);
    const row = csv.split('\r\n').find((line) => line.includes('Tata Nexon XZ+'));
    expect(row).toContain(`Kavya Iyer,'+919840012345,Tata Nexon XZ+,2020,"7,25,000","Second owner, सर्विस रिकॉर्ड 🚗",contacted,Inspection booked for Saturday`);
  });

  test('request form: the green text and empty fields on success', async () => {
    const { page } = await open({ viewport: 'mobile' });
    await page.goto('/request-vehicle');
    await hydrated(page);
    // The required rules, before anything is sent.
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await visible(page.getByText('Please enter your name'));
    await visible(page.getByText('Please enter a phone number'));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('request-name');

    await page.getByLabel('Your name').fill('Meera Nair');
    await page.getByLabel('Phone number').fill('98470 55555');
    await page.getByLabel('Preferred vehicle model').fill('Honda City');
    await page.getByLabel('Budget').fill('9 lakh');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    const success = await visible(page.getByText('Your request has been submitted successfully!'));
    expect(await success.getAttribute('class')).toContain('text-green-800');
    for (const label of ['Your name', 'Phone number', 'Preferred vehicle model', 'Budget']) expect(await page.getByLabel(label).inputValue()).toBe('');
    expect(await page.getByText('Please enter your name').count()).toBe(0);
  });

  test('request form: the red text with the fields kept when the submission fails', async () => {
    const { page } = await open({ viewport: 'mobile', allowConsoleErrors: [/Failed to load resource/, /ERR_FAILED/] });
    await page.goto('/request-vehicle');
    await hydrated(page);
    await page.route('**/request-vehicle.data**', (route) => route.abort('failed'));
    await page.getByLabel('Your name').fill('Meera Nair');
    await page.getByLabel('Phone number').fill('98470 66666');
    await page.getByLabel('Preferred vehicle model').fill('Honda Amaze');
    await page.getByLabel('Budget').fill('7 lakh');
    const button = page.getByRole('button', { name: 'Submit Request' });
    await button.click();
    const failure = await visible(page.getByText('Failed to submit request. Please try again.'));
    expect(await failure.getAttribute('class')).toContain('text-red-800');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Meera Nair');
    expect(await page.getByLabel('Preferred vehicle model').inputValue()).toBe('Honda Amaze');

    // A server error (500) is a failure too.
    await page.unroute('**/request-vehicle.data**');
    await page.route('**/request-vehicle.data**', (route) => route.fulfill({ status: 500, body: 'down' }));
    await button.click();
    await visible(page.getByText('Failed to submit request. Please try again.'));
    expect(await page.getByLabel('Budget').inputValue()).toBe('7 lakh');
  });

  test('sell form: when the save fails the chat still opens and the page says it was not saved, keeping the fields', async () => {
    const { page, context } = await open({ viewport: 'mobile', allowConsoleErrors: [/Failed to load resource/, /ERR_FAILED/] });
    await page.goto('/sell-vehicle');
    await hydrated(page);
    await page.route('**/sell-vehicle.data**', (route) => route.abort('failed'));
    await page.getByLabel('Your name').fill('Rahul Verma');
    await page.getByLabel('Phone number').fill('98100 77777');
    await page.getByLabel('Vehicle model').fill('Maruti Baleno');
    await page.getByLabel('Year', { exact: true }).fill('2017');
    await page.getByLabel('Expected price').fill('5 lakh');
    const [chat] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Send via WhatsApp' }).click()]);
    await chat.waitForURL(/^https:\/\/wa\.me\//);
    const text = new URL(chat.url()).searchParams.get('text') ?? '';
    expect(text).toContain('Name: Rahul Verma');
    expect(text).not.toContain('Images:');
    await visible(page.getByText(/Your submission could not be saved on our site\./));
    expect(await page.getByLabel('Your name').inputValue()).toBe('Rahul Verma');
    expect(await page.getByLabel('Expected price').inputValue()).toBe('5 lakh');
  });

  test('sell form: a file that is not a photo is refused before sending and no tab opens', async () => {
    const { page, context } = await open({ viewport: 'mobile' });
    await page.goto('/sell-vehicle');
    await hydrated(page);
    await page.getByLabel('Your name').fill('Rahul Verma');
    await page.getByLabel('Phone number').fill('98100 88888');
    await page.getByLabel('Vehicle model').fill('Maruti Baleno');
    await page.getByLabel('Year', { exact: true }).fill('2017');
    await page.getByLabel('Expected price').fill('5 lakh');
    await page.getByLabel('Photos (optional)').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await page.getByRole('button', { name: 'Send via WhatsApp' }).click();
    await visible(page.getByText('“notes.txt” is not a photo.', { exact: false }));
    expect(context.pages()).toHaveLength(1);
  });

  test.each(['mobile', 'desktop'] as const)('both forms and both admin views look right at %s width', async (viewport) => {
    // bypassCSP only to inject axe-core.
    const { page } = await open({ viewport, context: { bypassCSP: true } });
    for (const [pathname, heading] of [
      ['/request-vehicle', 'Request a Vehicle'],
      ['/sell-vehicle', 'Sell Your Vehicle'],
      ['/privacy', 'Privacy'],
    ] as const) {
      await page.goto(pathname);
      await visible(page.getByRole('heading', { name: heading, level: 1 }));
      expect(await horizontalOverflow(page), pathname).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), pathname).toEqual([]);
      await screenshot(page, `leads-${pathname.slice(1)}-${viewport}`);
    }
    await signIn(page);
    for (const [pathname, heading] of [
      ['/admin/requested-vehicles', 'Requested Vehicles'],
      ['/admin-panel/selling-vehicles', 'Selling Vehicles'],
    ] as const) {
      await page.goto(pathname);
      await visible(page.getByRole('heading', { name: heading, level: 1 }));
      await page.evaluate(async () => Promise.all([...document.images].map((image) => image.decode().catch(() => {}))));
      expect(await horizontalOverflow(page), pathname).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), pathname).toEqual([]);
      await screenshot(page, `leads-admin-${pathname.split('/').pop()}-${viewport}`);
    }

    // While a filter loads, the spec's loading texts.
    for (const [pathname, loadingText] of [
      ['/admin/requested-vehicles', 'Loading requests....'],
      ['/admin-panel/selling-vehicles', 'Loading selling vehicles...'],
    ] as const) {
      await page.goto(pathname);
      await hydrated(page, 'form[role="search"]');
      // The filter's data request is held until the loading text has been seen, then let go.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**${pathname}.data**`, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel('Status', { exact: true }).first().selectOption('closed');
      await page.getByRole('button', { name: 'Apply' }).click();
      await visible(page.getByRole('status').filter({ hasText: loadingText }));
      release();
      await page.waitForURL(/status=closed/);
      await hidden(page.getByText(loadingText));
      await page.unroute(`**${pathname}.data**`);
    }
  });
});
