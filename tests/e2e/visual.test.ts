import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserHarness, findVehicleId, signUpInBrowser, visible, waitForHydration, signInAdminInBrowser, type ViewportName } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { CHANGED_SHARE_LIMIT, compareWithBaseline, describeDifference } from '../support/visual.ts';
import { paths } from '../../app/lib/paths.ts';

/**
 * Visual regression: home, a car's page, /rent, the profile and the admin dashboard at 375 px
 * and 1280 px look as their committed baselines (tests/e2e/baselines/) do. Text that changes by
 * the day (dates, a new account's email) is masked. A difference writes the screenshot and a
 * map of the changed pixels to test-results/visual/; `UPDATE_BASELINES=1` accepts the new look.
 */

const harness = browserHarness();
const VIEWPORTS: ViewportName[] = ['mobile', 'desktop'];
const width = (viewport: ViewportName) => (viewport === 'mobile' ? 375 : 1280);
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

let featuredId = 0;

beforeAll(async () => {
  featuredId = await findVehicleId(harness.baseUrl, 'swift', (item) => item.featured && item.name === 'Maruti Suzuki Swift VXi');
});

/** Every image on the screen has arrived and the fonts are in: nothing left to change the picture. */
async function settled(page: Page) {
  await page.waitForLoadState('load');
  await page.evaluate(async () => {
    await document.fonts.ready;
    const onScreen = [...document.images].filter((image) => image.getBoundingClientRect().top < window.innerHeight);
    for (const image of onScreen) image.loading = 'eager';
    await Promise.all(onScreen.map((image) => image.decode().catch(() => {})));
  });
}

async function expectBaseline(page: Page, name: string, mask: Parameters<typeof compareWithBaseline>[2] = {}) {
  await settled(page);
  const result = await compareWithBaseline(page, name, mask);
  expect(result.changedShare, describeDifference(name, result)).toBeLessThanOrEqual(CHANGED_SHARE_LIMIT);
}

describe('pages look as their baselines', () => {
  test.each(VIEWPORTS)('home, a car and /rent (%s)', async (viewport) => {
    const { page } = await harness.open({ viewport });
    await page.goto(paths.home);
    await waitForHydration(page, 'header button');
    await expectBaseline(page, `home-${width(viewport)}`);

    await page.goto(paths.vehicle(featuredId));
    await visible(page.getByRole('heading', { name: 'Maruti Suzuki Swift VXi', level: 1 }));
    await expectBaseline(page, `vehicle-${width(viewport)}`);

    await page.goto(paths.rent());
    await visible(page.locator('main h1'));
    // The suggested pickup and return are tomorrow's.
    await expectBaseline(page, `rent-${width(viewport)}`, { mask: [page.locator('main input')] });
  });

  // A server of its own: the shared one's sign-ups per address (5 an hour) go to the other browser tests.
  describe('a new account and the admin dashboard', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dialect: 'sqlite', seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password } });
    });
    afterAll(async () => {
      await server?.stop();
    });

    test.each(VIEWPORTS)('the profile of a new account (%s)', async (viewport) => {
      const { page } = await harness.open({ viewport, context: { baseURL: server.url } });
      const email = `visual-${viewport}-${Date.now()}@example.in`;
      await signUpInBrowser(page, email, 'visual-check-1');
      await page.goto(paths.profile);
      await visible(page.getByText(email).first());
      await expectBaseline(page, `profile-${width(viewport)}`, { mask: [page.getByText(email), page.getByText(/\d{1,2} \w{3} \d{4}/)] });
    });

    test.each(VIEWPORTS)("today's work and the cards (%s)", async (viewport) => {
      const { page } = await harness.open({ viewport, context: { baseURL: server.url } });
      await signInAdminInBrowser(page, ADMIN);
      await visible(page.getByRole('heading', { name: "Today's work" }));
      // The coming week's days are named by the calendar: masked, as other dates are.
      await expectBaseline(page, `dashboard-${width(viewport)}`, { mask: [page.locator('section[aria-labelledby="week-heading"] li > span:first-child')] });
    });
  });
});
