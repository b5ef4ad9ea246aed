import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateSellersCreta, launchChromium, openPageOn, saveScreenshot, visible, waitFor, waitForHydration } from '../support/browser.ts';
import { completeProfile, HttpClient, signUp, uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { googleIdentity, startOidcProvider, type OidcProvider } from '../support/oidc.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * A signed-out visitor who taps, inside the app, a link to a page that needs an account comes
 * back to that page after signing in, whichever way: a password, or a new account with its
 * phone verified by OTP, or Google (a local OpenID provider standing in for it); a seller's typed
 * car comes back with them. The app asks for such a
 * page's data at `….data`, and the sign-in once kept that address: the visitor landed on
 * "Page not found" and the seller's car was gone.
 */

const PASSWORD = 'gulab-jamun-77';
let server: TestServer;
let google: OidcProvider;
let browser: Browser;
let member: { email: string };
const errors: string[] = [];

beforeAll(async () => {
  google = await startOidcProvider();
  server = await startTestServer({ dialect: 'sqlite', seed: true, env: { APP_MODE: 'demo', PAGE_CACHE_SECONDS: '0', ...google.env } });
  const client = new HttpClient(server.url, { address: null });
  member = { email: uniqueEmail('returning') };
  await signUp(client, member.email, PASSWORD);
  await completeProfile(client, 'Farah Khan', uniqueMobile());
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await google?.stop();
});

/** Signs in on the login page the app sent the visitor to. */
async function signInHere(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/login');
  expect(new URL(page.url()).searchParams.get('redirectTo')).not.toMatch(/\.data/);
  await waitForHydration(page, 'form[method="post"]');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click();
}

/** The 6-digit code of the newest SMS to `mobile`, from /dev/outbox in a second tab. */
async function codeFor(page: Page, mobile: string): Promise<string> {
  const outbox = await page.context().newPage();
  try {
    return await waitFor(
      async () => {
        await outbox.goto('/dev/outbox');
        const body =
          (await outbox
            .locator('li[data-channel="sms"]', { hasText: mobile })
            .first()
            .locator('p', { hasText: 'verification code' })
            .textContent({ timeout: 2000 })
            .catch(() => '')) ?? '';
        return /(\d{6}) is your/.exec(body)?.[1] ?? '';
      },
      (code) => code !== '',
    );
  } finally {
    await outbox.close();
  }
}

describe('signing in from a page that needs an account brings the visitor back to it', () => {
  it('a car\'s "Book a test drive", with a password', async () => {
    const page = await openPageOn(browser, server.url, 'mobile', errors);
    await page.goto('/');
    await waitForHydration(page, 'main a[href^="/vehicle/"]');
    await page.locator('main a[href^="/vehicle/"]').first().click();
    await page.waitForURL(/\/vehicle\/\d+$/);
    const car = /\/vehicle\/(\d+)$/.exec(page.url())![1];
    await waitForHydration(page, 'main');
    await page.getByRole('link', { name: 'Book a test drive' }).click();
    await signInHere(page);
    await page.waitForURL((url) => url.pathname === `/vehicle/${car}/test-drive`);
    await visible(page.getByRole('heading', { name: 'Book a test drive', level: 1 }));
    await page.context().close();
  });

  it("the bottom bar's Wishlist, with a new account whose phone is verified by OTP", async () => {
    const page = await openPageOn(browser, server.url, 'mobile', errors);
    await page.goto('/');
    await waitForHydration(page, 'nav');
    await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'Wishlist', exact: true }).click();
    await signInHereOrSignUp(page);
    await page.waitForURL((url) => url.pathname === '/wishlist');
    await visible(page.getByRole('heading', { level: 1 }));
    expect(await page.getByText('Page not found').count()).toBe(0);
    await page.context().close();
  });

  it('a seller\'s "Book an inspection", with the typed car kept', async () => {
    const page = await openPageOn(browser, server.url, 'mobile', errors);
    await estimateSellersCreta(page);
    await (await visible(page.getByRole('link', { name: 'Book an inspection' }))).click();
    await signInHere(page);
    await page.waitForURL((url) => url.pathname === '/sell-vehicle/inspection');
    const query = new URL(page.url()).searchParams;
    expect([query.get('make'), query.get('model'), query.get('year')]).toEqual(['Hyundai', 'Creta', '2019']);
    await visible(page.getByRole('heading', { level: 1, name: 'Book an inspection' }));
    await visible(page.getByText(/Hyundai Creta/).first());
    await saveScreenshot(page, 'sign-in-returns-inspection-375');
    await page.context().close();
  });

  it('a car\'s "Book a test drive", with Google for the first time and the phone verified by OTP', async () => {
    google.identity = googleIdentity(uniqueEmail('google-newcomer'), 'Meera Pillai');
    const page = await openPageOn(browser, server.url, 'mobile', errors);
    await page.goto('/');
    await waitForHydration(page, 'main a[href^="/vehicle/"]');
    await page.locator('main a[href^="/vehicle/"]').nth(1).click();
    await page.waitForURL(/\/vehicle\/\d+$/);
    const car = /\/vehicle\/(\d+)$/.exec(page.url())![1];
    await waitForHydration(page, 'main');
    await page.getByRole('link', { name: 'Book a test drive' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForHydration(page, 'form[method="post"]');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // The stand-in answers /authorize at once, as Google does for a person already signed in to it.
    await page.waitForURL((url) => url.pathname === '/profile-complete');
    const mobile = uniqueMobile();
    await waitForHydration(page, 'form[method="post"]');
    await expect(page.getByLabel('Full name').inputValue()).resolves.toBe('Meera Pillai');
    await page.getByLabel('Mobile number').fill(mobile);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
    await page.getByLabel('OTP').fill(await codeFor(page, mobile));
    await page.getByRole('button', { name: 'Verify and Save' }).click();
    await page.waitForURL((url) => url.pathname === `/vehicle/${car}/test-drive`);
    await visible(page.getByRole('heading', { name: 'Book a test drive', level: 1 }));
    await page.context().close();
  });

  it('a seller\'s "Book an inspection", with Google again, the typed car kept', async () => {
    // The same Google account as above, its phone verified now: straight back to the page.
    const page = await openPageOn(browser, server.url, 'mobile', errors);
    await estimateSellersCreta(page);
    await (await visible(page.getByRole('link', { name: 'Book an inspection' }))).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await waitForHydration(page, 'form[method="post"]');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL((url) => url.pathname === '/sell-vehicle/inspection');
    const query = new URL(page.url()).searchParams;
    expect([query.get('make'), query.get('model'), query.get('year')]).toEqual(['Hyundai', 'Creta', '2019']);
    await visible(page.getByText(/Hyundai Creta/).first());
    await page.context().close();
    expect(errors).toEqual([]);
  });
});

/** From the login page the app sent the visitor to: "Create an account", sign up, verify the phone. */
async function signInHereOrSignUp(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/login');
  await waitForHydration(page, 'form[method="post"]');
  await page.getByRole('main').getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL((url) => url.pathname === '/signup');
  expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/wishlist');
  await waitForHydration(page, 'form[method="post"]');
  await page.getByLabel('Email').fill(uniqueEmail('newcomer'));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/profile-complete');
  const mobile = uniqueMobile();
  await waitForHydration(page, 'form[method="post"]');
  await page.getByLabel('Full name').fill('Nikhil Rao');
  await page.getByLabel('Mobile number').fill(mobile);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
  await page.getByLabel('OTP').fill(await codeFor(page, mobile));
  await page.getByRole('button', { name: 'Verify and Save' }).click();
}
