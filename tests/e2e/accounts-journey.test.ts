import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { browserHarness, findVehicleId, hidden, visible, waitFor, signUpInBrowser } from '../support/browser.ts';
import { uniqueEmail, uniqueMobile } from '../support/http-client.ts';

/**
 * A buyer's account in the browser at 375 px (SPEC 2 Sign Up, Complete profile, Wishlist,
 * Profile; SPEC 4 Phone verification and Wishlist toggle): sign up, verify the email from the
 * mail in /dev/outbox, verify the phone with the code from the SMS there, wishlist a car, see
 * the profile verified, and log out. And the Resend countdown, with the page's clock driven
 * by the test.
 */

const harness = browserHarness();
const PASSWORD = 'rasmalai-and-jalebi-8';

/** The 6-digit code of the newest SMS to `phone`, read from /dev/outbox in a second tab. */
async function codeFromOutbox(page: Page, phone: string, notCode?: string): Promise<string> {
  const outbox = await page.context().newPage();
  try {
    return await waitFor(
      async () => {
        await outbox.goto('/dev/outbox');
        const sms = outbox.locator('li[data-channel="sms"]', { hasText: phone }).first();
        const body =
          (await sms
            .locator('p', { hasText: 'verification code' })
            .textContent({ timeout: 2000 })
            .catch(() => '')) ?? '';
        return /^\s*(\d{6}) is your/.exec(body)?.[1] ?? '';
      },
      (code) => code !== '' && code !== notCode,
    );
  } finally {
    await outbox.close();
  }
}

/** Every code the outbox holds for `phone`, newest first. */
async function outboxCodes(page: Page, phone: string): Promise<string[]> {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto('/dev/outbox');
    const bodies = await outbox.locator('li[data-channel="sms"]', { hasText: phone }).locator('p', { hasText: 'verification code' }).allTextContents();
    return bodies.map((body) => /^\s*(\d{6}) is your/.exec(body)?.[1] ?? body);
  } finally {
    await outbox.close();
  }
}

/** The "Resend OTP in mm:ss" seconds shown, or null when it says plain "Resend OTP". */
async function resendSeconds(page: Page): Promise<number | null> {
  const text = (await page.getByRole('button', { name: /^Resend OTP/ }).textContent())?.trim() ?? '';
  const match = /^Resend OTP in (\d\d):(\d\d)$/.exec(text);
  if (match) return Number(match[1]) * 60 + Number(match[2]);
  expect(text).toBe('Resend OTP');
  return null;
}

describe('a buyer’s account, start to finish', () => {
  test('sign up -> verify the email from the outbox -> verify the phone -> wishlist a car -> profile Verified -> log out', async () => {
    const { page } = await harness.open({ viewport: 'mobile' });
    expect(page.viewportSize()?.width).toBe(375);
    const email = uniqueEmail('journey');
    const mobile = uniqueMobile();
    const header = page.getByRole('banner');

    // Sign up.
    await page.goto('/');
    await visible(header.getByRole('link', { name: 'Login' }));
    await signUpInBrowser(page, email, PASSWORD);
    await visible(header.getByRole('button', { name: 'Logout' }));

    // The verification mail, opened from the outbox.
    await page.goto('/dev/outbox');
    const mail = page.locator('li[data-channel="email"]', { hasText: email }).first();
    await visible(mail.getByText('Verify your email address for Gaadi Bazaar'));
    const link = mail.getByRole('link', { name: /\/api\/auth\/verify-email\?token=/ });
    expect(new URL((await link.getAttribute('href'))!).origin).toBe(harness.baseUrl);
    await link.click();
    await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('verified') === '1');
    await visible(page.getByText('Your email address is verified.'));
    await visible(page.getByRole('main').getByText(email));
    await visible(page.getByRole('main').getByText('Not set'));

    // Complete the profile with the code from the SMS.
    await page.getByRole('main').getByRole('link', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/profile-complete');
    expect(await page.getByLabel('Code').inputValue()).toBe('+91');
    await page.getByLabel('Full name').fill('Deepa Nair');
    await page.getByLabel('Mobile number').fill(mobile);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
    // Resend waits two minutes (SPEC 4, 9): never more than 02:00 (soft, so the journey goes on).
    const countdown = await resendSeconds(page);
    expect(countdown).not.toBeNull();
    expect(countdown!).toBeGreaterThan(100);
    expect.soft(countdown!, 'the countdown starts at 02:00 at most').toBeLessThanOrEqual(120);
    expect(await page.getByRole('button', { name: /^Resend OTP/ }).isDisabled()).toBe(true);
    const code = await codeFromOutbox(page, `+91${mobile}`);
    await page.getByLabel('OTP').fill(code);
    await page.getByRole('button', { name: 'Verify and Save' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await visible(page.getByRole('heading', { name: 'Available Vehicles', level: 1 }));

    // Wishlist a car: the message shows for about two seconds.
    const vehicleId = await findVehicleId(harness.baseUrl, '');
    await page.goto(`/vehicle/${vehicleId}`);
    const title = (await (await visible(page.getByRole('heading', { level: 1 }))).textContent())?.trim() ?? '';
    expect(title).not.toBe('');
    await page.getByRole('button', { name: 'Add to wishlist' }).click();
    const added = await visible(page.getByText('Added to wishlist!'));
    const shownAt = Date.now();
    await visible(page.getByRole('button', { name: 'Remove from wishlist', pressed: true }));
    await hidden(added, 5000);
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(1200);
    expect(shownFor).toBeLessThan(4000);

    // While it is added, /wishlist shows it.
    await page.goto('/wishlist');
    await visible(page.getByRole('heading', { name: 'My Wishlist', level: 1 }));
    await visible(
      page
        .getByRole('main')
        .getByRole('article')
        .filter({ hasText: title.split(' ')[0]! })
        .first(),
    );
    expect(await page.getByRole('main').getByText('Your wishlist is empty!').count()).toBe(0);

    // Remove it again.
    await page.goto(`/vehicle/${vehicleId}`);
    await page.getByRole('button', { name: 'Remove from wishlist', pressed: true }).click();
    const removed = await visible(page.getByText('Removed from wishlist'));
    await visible(page.getByRole('button', { name: 'Add to wishlist', pressed: false }));
    await hidden(removed, 5000);
    await page.goto('/wishlist');
    await visible(page.getByText('Your wishlist is empty!'));

    // The profile: name, email, phone and the Verified badge.
    await page.goto('/profile');
    const main = page.getByRole('main');
    await visible(main.getByText('Deepa Nair'));
    await visible(main.getByText(email));
    await visible(main.getByText(`+91${mobile}`));
    await visible(main.getByText('Verified', { exact: true }));
    expect(await main.getByRole('link', { name: 'Verify' }).count()).toBe(0);

    // Log out from the top bar: the Login icon is back and the profile is for visitors again.
    await header.getByRole('button', { name: 'Logout' }).click();
    await visible(header.getByRole('link', { name: 'Login' }));
    expect(await header.getByRole('button', { name: 'Logout' }).count()).toBe(0);
    await page.goto('/profile');
    await visible(page.getByRole('heading', { name: 'Welcome!', level: 1 }));
    await visible(page.getByText('Please log in or sign up to view your profile.'));
  });

  test('Resend OTP counts down from 2 minutes, disabled, then can be pressed; the server still holds its own 2 minutes and the code works', async () => {
    // The server's refusal of the early resend is a 429 (with Retry-After), which the browser notes in its console.
    const { page } = await harness.open({ viewport: 'mobile', allowConsoleErrors: [/status of 429 \(Too Many Requests\)/] });
    // The page's timers and Date run on a clock the test can move forward.
    await page.clock.install();
    const mobile = uniqueMobile();
    await signUpInBrowser(page, uniqueEmail('countdown'), PASSWORD);

    await page.getByLabel('Full name').fill('Farhan Ali');
    await page.getByLabel('Mobile number').fill(mobile);
    // Before sending there is no Resend and no OTP field.
    expect(await page.getByRole('button', { name: /^Resend OTP/ }).count()).toBe(0);
    expect(await page.getByLabel('OTP').count()).toBe(0);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
    const first = await codeFromOutbox(page, `+91${mobile}`);

    // The Send button has made way for Verify and Resend; Resend waits 120 s.
    expect(await page.getByRole('button', { name: 'Send OTP', exact: true }).count()).toBe(0);
    await visible(page.getByLabel('OTP'));
    expect(await page.getByLabel('OTP').getAttribute('placeholder')).toMatch(/6-digit code/);
    const resend = page.getByRole('button', { name: /^Resend OTP/ });
    const start = await resendSeconds(page);
    expect(start).not.toBeNull();
    expect(start!).toBeGreaterThanOrEqual(100);
    expect.soft(start!, 'the countdown starts at 02:00 at most').toBeLessThanOrEqual(120);
    expect(await resend.isDisabled()).toBe(true);

    // It counts down.
    await page.clock.runFor(5_000);
    const later = await waitFor(
      () => resendSeconds(page),
      (seconds) => seconds !== null && seconds <= start! - 4,
    );
    expect(later!).toBeGreaterThanOrEqual(start! - 7);
    expect(await resend.isDisabled()).toBe(true);

    // Two minutes later it is plain "Resend OTP" and enabled.
    await page.clock.fastForward(120_000);
    await waitFor(
      () => resendSeconds(page),
      (seconds) => seconds === null,
    );
    expect((await resend.textContent())?.trim()).toBe('Resend OTP');
    expect(await resend.isEnabled()).toBe(true);

    // The server keeps its own 120 seconds: the page's clock was moved, the server's was not, so
    // pressing it now is refused there with the time still to wait, and no SMS goes out. (That a
    // resend after two real minutes sends a working code is proven in
    // tests/integration/accounts-phone.test.ts.)
    const outboxBefore = await outboxCodes(page, `+91${mobile}`);
    await resend.click();
    await visible(page.getByText(/^Please wait 0[12]:\d\d before asking for another OTP\.$/));
    expect(await outboxCodes(page, `+91${mobile}`)).toEqual(outboxBefore);

    // The refused resend left the first code in force: it verifies.
    await page.getByLabel('OTP').fill(first);
    await page.getByRole('button', { name: 'Verify and Save' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
  });
});
