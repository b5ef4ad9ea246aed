import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type BrowserServer,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { sharedServer } from './shared.ts';
import { adminPaths } from '../../app/lib/paths.ts';

/**
 * Browser tests drive Debian's Chromium through playwright-core (no browser download).
 * The browser project starts one Chromium for the run (global-browser.ts); `browserHarness()`
 * and `launchChromium()` connect a test file to it. Every page the harness opens records console
 * errors and uncaught page errors, and the test fails after it ends if there was one it did
 * not expect.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const viewports = {
  /** A common Android / iPhone size: the layout most visitors see. */
  mobile: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const satisfies Record<string, BrowserContextOptions>;

export type ViewportName = keyof typeof viewports;

export const screenshotDir = path.resolve(import.meta.dirname, '../../test-results/screenshots');

export type OpenOptions = {
  viewport?: ViewportName;
  /** Extra Playwright context options (permissions, bypassCSP, locale …). */
  context?: BrowserContextOptions;
  /** Console errors the test provokes on purpose (a blocked image, a 404 page). */
  allowConsoleErrors?: RegExp[];
  /** Scripts run in every page of the context before the app's own. */
  initScripts?: string[];
};

export type OpenedPage = {
  page: Page;
  context: BrowserContext;
  /** Unexpected console and page errors so far. */
  errors: string[];
};

export type BrowserHarness = {
  /** The seeded shared server's origin, e.g. http://127.0.0.1:41234 */
  readonly baseUrl: string;
  /** A fresh context and page; closed and checked for errors when the test ends. */
  open: (options?: OpenOptions) => Promise<OpenedPage>;
  /** Screenshot of the page into test-results/screenshots/<name>.png */
  screenshot: (page: Page, name: string, options?: { fullPage?: boolean }) => Promise<string>;
};

/** The run's Chromium, for the browser project's global setup to share. */
export async function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A connection to the run's Chromium (a Chromium of its own outside the browser project).
 * Its `close()` closes the contexts this file opened and leaves the browser to the others.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = (inject as unknown as (key: string) => string | undefined)('browserEndpoint');
  return endpoint ? chromium.connect(endpoint) : chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export function browserHarness(): BrowserHarness {
  let browser: Browser | undefined;
  let baseUrl = '';
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    baseUrl = sharedServer().url;
    if (!baseUrl) throw new Error('The shared test server is not running');
    browser = await launchChromium();
  });

  afterEach(async () => {
    const pages = opened.splice(0);
    const errors = pages.flatMap((entry) => entry.errors);
    await Promise.all(pages.map((entry) => entry.context.close().catch(() => {})));
    expect(errors, 'unexpected console or page errors').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    get baseUrl() {
      return baseUrl;
    },
    async open(options = {}) {
      if (!browser) throw new Error('browserHarness(): the browser is not running yet');
      const context = await browser.newContext({
        ...viewports[options.viewport ?? 'mobile'],
        baseURL: baseUrl,
        locale: 'en-IN',
        timezoneId: 'Asia/Kolkata',
        ...options.context,
      });
      context.setDefaultTimeout(15_000);
      context.setDefaultNavigationTimeout(30_000);
      for (const script of options.initScripts ?? []) await context.addInitScript(script);
      const page = await context.newPage();
      const entry: OpenedPage = { page, context, errors: [] };
      const allowed = options.allowConsoleErrors ?? [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = message.text();
        if (allowed.some((pattern) => pattern.test(text))) return;
        const location = message.location();
        entry.errors.push(`console.error: ${text}${location.url ? ` (${location.url}:${location.lineNumber})` : ''}`);
      });
      page.on('pageerror', (error) => entry.errors.push(`page error: ${error.stack ?? error.message}`));
      opened.push(entry);
      return entry;
    },
    async screenshot(page, name, options = {}) {
      await mkdir(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
      return file;
    },
  };
}

/**
 * For browser files that start their own server: a page in a new context on `baseUrl` (India
 * locale and time zone, 20-second waits) whose console and page errors are pushed to `errors`.
 * `storageState` carries another context's session; `cookies` a session an HttpClient made;
 * `bypassCSP` lets a test inject its own script (axe-core).
 */
export async function openPageOn(
  browser: Browser,
  baseUrl: string,
  viewport: ViewportName,
  errors: string[],
  options: {
    storageState?: Awaited<ReturnType<BrowserContext['storageState']>>;
    cookies?: Iterable<{ name: string; value: string }>;
    bypassCSP?: boolean;
  } = {},
): Promise<Page> {
  const context = await browser.newContext({
    ...viewports[viewport],
    baseURL: baseUrl,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    ...(options.storageState ? { storageState: options.storageState } : {}),
    ...(options.bypassCSP ? { bypassCSP: true } : {}),
  });
  context.setDefaultTimeout(20_000);
  if (options.cookies) {
    const domain = new URL(baseUrl).hostname;
    await context.addCookies(
      [...options.cookies].map((cookie) => ({ name: cookie.name, value: cookie.value, domain, path: '/', httpOnly: true, sameSite: 'Lax' as const })),
    );
  }
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return page;
}

/** A screenshot into test-results/screenshots/<name>.png, the whole page unless told otherwise. */
export async function saveScreenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage, animations: 'disabled' });
}

/** A downloaded file's text, streamed from the run's Chromium (the file is on its side, not the test's). */
export async function downloadedText(download: Download): Promise<string> {
  return text(await download.createReadStream());
}

/** Ids from the JSON API, so the tests never hard-code database ids. */
export async function findVehicleId(baseUrl: string, query: string, pick: (item: VehicleListItem) => boolean = () => true): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/vehicles?perPage=50&q=${encodeURIComponent(query)}`);
  if (!response.ok) throw new Error(`Vehicle search for ${query} answered ${response.status}`);
  const body = (await response.json()) as { items: VehicleListItem[] };
  const match = body.items.find(pick);
  if (!match) throw new Error(`No demo vehicle matches ${query}`);
  return match.id;
}

export type VehicleListItem = { id: number; name: string; make: string; model: string; featured: boolean; cover: unknown };

/**
 * Waits until the page has hydrated and the element `selector` finds is there. 'networkidle'
 * is no such signal: on a busy machine the page's script may hydrate after the network went
 * quiet, and a change made before that is lost (or a form posts the plain way). The browser
 * runs Preact (decision 039), which hydrates the whole page in one synchronous pass that starts
 * by creating the router, so once the router exists, as seen from here, every handler is attached.
 */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((css) => {
    const hydrating = (window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter;
    return Boolean(hydrating && document.querySelector(css));
  }, selector);
}

/** Polls `read` until `check` passes (for values Playwright's locators cannot wait on). */
export async function waitFor<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** Waits until the locator is visible and returns it (playwright-core has no web-first `expect`). */
export async function visible(locator: Locator, timeout?: number): Promise<Locator> {
  await locator.waitFor({ state: 'visible', ...(timeout ? { timeout } : {}) });
  return locator;
}

/** Waits until the locator is hidden or gone. */
export async function hidden(locator: Locator, timeout?: number): Promise<void> {
  await locator.waitFor({ state: 'hidden', ...(timeout ? { timeout } : {}) });
}

/**
 * Taps (touch contexts) or clicks the middle of what the visitor sees, whatever element is on
 * top there: for things drawn under another element, such as a card's 'View Details' label
 * under the card's full-size link.
 */
export async function pressWhereShown(page: Page, locator: Locator): Promise<void> {
  // To the middle of the screen: an element just inside the bottom edge is under the phone's fixed bottom bar.
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = await locator.boundingBox();
  if (!box) throw new Error('pressWhereShown: the element has no box');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const touch = await page.evaluate(() => navigator.maxTouchPoints > 0);
  if (touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** Accepts every alert / confirm the page opens and records them as 'type: message'. */
export function acceptDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept().catch(() => {});
  });
  return seen;
}

/** A card's compare button for the car `title`: "Compare Honda City", "Comparing Honda City" once pressed. */
export function compareToggle(scope: Page | Locator, title: string): Locator {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return scope.getByRole('button', { name: new RegExp(`^Compar(?:e|ing) ${escaped}$`) });
}

/** Signs up on /signup with email and password and waits for the profile-completion page. */
export async function signUpInBrowser(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/signup');
  await visible(page.getByRole('heading', { name: 'Create your account', level: 1 }));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/profile-complete');
  await visible(page.getByRole('heading', { name: 'Complete your profile', level: 1 }));
}

/** Signs in on the admin login page and waits for the dashboard. */
export async function signInAdminInBrowser(page: Page, admin: { email: string; password: string }): Promise<void> {
  await page.goto(adminPaths.login);
  await waitForHydration(page, 'form');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === adminPaths.dashboard);
}

/** On /sell-vehicle: types the seller's 2019 Hyundai Creta (diesel, manual, 45,000 km, Maharashtra) and asks for the estimate. */
export async function estimateSellersCreta(page: Page): Promise<void> {
  await page.goto('/sell-vehicle');
  await waitForHydration(page, '#car-make');
  await page.locator('#car-make').fill('Hyundai');
  await page.locator('#car-model').fill('Creta');
  await page.locator('#car-year').fill('2019');
  await page.locator('#car-km').fill('45,000');
  await page.locator('#car-fuel').selectOption('Diesel');
  await page.locator('#car-transmission').selectOption('Manual');
  await page.locator('#car-state').selectOption('MH');
  await page.getByRole('button', { name: 'See my estimate' }).click();
}
