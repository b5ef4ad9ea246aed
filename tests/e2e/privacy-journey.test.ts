import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { browserHarness, downloadedText, findVehicleId, visible, signUpInBrowser } from '../support/browser.ts';
import { uniqueEmail } from '../support/http-client.ts';

/**
 * A buyer uses their DPDP rights in the browser at 375 px: sign up, wishlist a car, download
 * their data (the file holds their email and the car), delete the account after confirming
 * with the password, and find that signing in again fails. Screenshots of /profile, the
 * confirmation and the privacy page at both widths go to test-results/screenshots.
 */

const harness = browserHarness();
const PASSWORD = 'gulab-jamun-77';

/** How far the page sticks out sideways (0 or less: no sideways scrolling on a phone). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('my data and my account', () => {
  test('sign up -> wishlist a car -> download my data -> delete the account -> signing in again fails', async () => {
    // The wrong password on purpose answers 400, which Chromium reports in the console.
    const { page } = await harness.open({ viewport: 'mobile', allowConsoleErrors: [/status of 400 \(Bad Request\)/] });
    const email = uniqueEmail('privacy');
    await signUpInBrowser(page, email, PASSWORD);
    // The phone form says where the privacy rules are.
    await visible(page.getByRole('main').getByRole('link', { name: 'How we handle your details' }));

    const vehicleId = await findVehicleId(harness.baseUrl, '');
    await page.goto(`/vehicle/${vehicleId}`);
    const title = (await (await visible(page.getByRole('heading', { level: 1 }))).textContent())?.trim() ?? '';
    await page.getByRole('button', { name: 'Add to wishlist' }).click();
    // The heart turns at once; the message comes when the server has saved it.
    await visible(page.getByText('Added to wishlist!'));

    await page.goto('/profile');
    await visible(page.getByRole('heading', { name: 'Your data', level: 2 }));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await harness.screenshot(page, 'privacy-profile-375', { fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await downloadedText(download));
    expect(file.account.email).toBe(email);
    expect(file.wishlist).toEqual([expect.objectContaining({ vehicleId, available: true })]);
    expect(title).toContain(file.wishlist[0].name);

    await page.getByRole('link', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/delete');
    await visible(page.getByRole('heading', { name: 'Delete my account', level: 1 }));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await harness.screenshot(page, 'privacy-delete-375', { fullPage: true });
    // A wrong password deletes nothing and says why.
    await page.getByLabel('Your password').fill('not-the-password');
    await page.getByRole('button', { name: 'Delete my account permanently' }).click();
    await visible(page.getByText('That password is not right.'));
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account permanently' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/delete' && url.searchParams.get('done') === '1');
    await visible(page.getByRole('heading', { name: 'Account deleted', level: 1 }));
    await visible(page.getByText('Your account and your data have been deleted. You are signed out.'));
    await harness.screenshot(page, 'privacy-deleted-375', { fullPage: true });
    await visible(page.getByRole('banner').getByRole('link', { name: 'Login' }));

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await visible(page.getByText('Invalid email or password'));
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('the privacy page states every period and the rights, at 375 and 1280 px', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const { page } = await harness.open({ viewport });
      await page.goto('/privacy');
      const main = page.getByRole('main');
      await visible(main.getByRole('heading', { name: 'Privacy', level: 1 }));
      for (const text of [
        '12 months from the day you send them',
        'Until you delete your account',
        '30 days from your last visit',
        '10 minutes',
        'Up to one hour',
        '2 years',
        'demonstration site',
      ]) {
        await visible(main.getByText(text).first());
      }
      await visible(main.getByRole('link', { name: 'Profile', exact: true }));
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await harness.screenshot(page, `privacy-page-${viewport === 'mobile' ? 375 : 1280}`, { fullPage: true });

      if (viewport === 'desktop') {
        await page.goto('/signup');
        await page.getByLabel('Email').fill(uniqueEmail('privacy-wide'));
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
        await page.waitForURL((url) => url.pathname === '/profile-complete');
        await harness.screenshot(page, 'privacy-profile-complete-1280');
        await page.goto('/profile');
        await visible(page.getByRole('link', { name: 'Download my data' }));
        await harness.screenshot(page, 'privacy-profile-1280', { fullPage: true });
        await page.goto('/profile/delete');
        await visible(page.getByLabel('Your password'));
        await harness.screenshot(page, 'privacy-delete-1280', { fullPage: true });
      }
    }
  });
});
