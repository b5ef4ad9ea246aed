import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, saveScreenshot, visible, waitForHydration } from '../support/browser.ts';
import { uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer.ts';
import { startMsg91StandIn, type Msg91StandIn } from '../support/sms-standins.ts';
import { freePort, startTestServer, type TestServer } from '../support/server.ts';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * The documented production deployment (docs/deployment.md): nginx terminating TLS with the
 * guide's own site configuration (docs/nginx-site.conf) in front of the app in production mode
 * with SITE_ORIGIN on https and TRUST_PROXY on; two instances on one PostgreSQL database, one on
 * SQLite (several instances need PostgreSQL). A browser that reaches the site only through the
 * proxy signs up, verifies its email from the mail, verifies its phone by OTP, signs out and in
 * again, sends a lead and books a test drive, and every cookie it holds is Secure. Until the app
 * saw the request at the site's https origin, React Router refused every page form with 400.
 */

const shared = sharedServer();
const HOSTNAME = 'www.example.test';
const PASSWORD = 'masala-dosa-on-tls-9';
const servers: TestServer[] = [];
let proxy: TlsProxy;
let smtp: SmtpPeer;
let sms: Msg91StandIn;
let browser: Browser;

describe.skipIf(!shared.url)(`the site behind nginx with TLS (${shared.dialect})`, () => {
  beforeAll(async () => {
    [smtp, sms] = await Promise.all([startSmtpPeer(), startMsg91StandIn()]);
    // The proxy's port is part of the site's origin: chosen first, the instances started with it, then the proxy.
    const port = await freePort();
    const env = {
      APP_MODE: 'production',
      SITE_ORIGIN: `https://${HOSTNAME}:${port}`,
      TRUST_PROXY: 'true',
      AUTH_SECRET: 'tls-proxy-test-secret-0123456789abcdefghij',
      SMTP_URL: smtp.url,
      SMS_PROVIDER: 'msg91',
      MSG91_AUTH_KEY: sms.authKey,
      MSG91_TEMPLATE_ID: sms.templateId,
      MSG91_API_URL: sms.url,
      PAGE_CACHE_SECONDS: '0',
      // Production refuses the suite's shortcuts: passwords hashed and bot checks solved at full strength.
      PASSWORD_HASHING: 'standard',
      BOT_CHECK_WORK: 'standard',
    };
    const first = await startTestServer({ dialect: shared.dialect, seed: true, childProcess: true, env });
    servers.push(first);
    if (shared.dialect === 'postgres')
      servers.push(await startTestServer({ dialect: 'postgres', seed: true, childProcess: true, databaseUrl: first.databaseUrl, env }));
    proxy = await startTlsProxy({ hostname: HOSTNAME, port, upstreams: servers.map((server) => new URL(server.url).host) });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${HOSTNAME} 127.0.0.1`] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    // The second instance first: the first drops the database they share.
    for (const server of servers.reverse()) await server.stop();
    await Promise.all([smtp?.close(), sms?.close()]);
  });

  it('a buyer signs up, verifies, signs in again, sends a lead and books a test drive, with Secure cookies only', async () => {
    const errors: string[] = [];
    const context = await browser.newContext({
      baseURL: proxy.origin,
      ignoreHTTPSErrors: true,
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      locale: 'en-IN',
      timezoneId: 'Asia/Kolkata',
    });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') statuses.push(response.status());
    });
    const email = uniqueEmail('behind.proxy');
    const mobile = uniqueMobile();

    // Sign up on the page's form.
    await page.goto('/signup');
    await waitForHydration(page, 'form[method="post"]');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/profile-complete');

    // The verification mail links to the public https origin, and its link verifies through the proxy.
    const mail = await smtp.waitForMessage((message) => message.to.includes(email), 15_000);
    const link = /https:\/\/[^\s"<>]+\/api\/auth\/verify-email\?token=[^\s"<>]+/.exec(mail.text)?.[0];
    expect(link && new URL(link).origin).toBe(proxy.origin);

    // The phone, by the code the SMS gateway was asked to send.
    await waitForHydration(page, 'form[method="post"]');
    await page.getByLabel('Full name').fill('Ishaan Kapoor');
    await page.getByLabel('Mobile number').fill(mobile);
    await page.getByRole('button', { name: 'Send OTP' }).click();
    await visible(page.getByText(`We sent a 6-digit code by SMS to +91${mobile}.`));
    const code = sms.messages.findLast((message) => message.mobiles === `91${mobile}`)?.otp;
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('OTP').fill(code!);
    await page.getByRole('button', { name: 'Verify and Save' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto(link!);
    await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('verified') === '1');
    await visible(page.getByText('Your email address is verified.'));

    // Out, and in again on the sign-in form.
    await waitForHydration(page, 'header');
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await visible(page.getByRole('banner').getByRole('link', { name: 'Login' }));
    await page.goto('/login');
    await waitForHydration(page, 'form[method="post"]');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click();
    await visible(page.getByRole('banner').getByRole('button', { name: 'Logout' }));

    // A lead on the request form.
    await page.goto('/request-vehicle');
    await waitForHydration(page, 'form[method="post"]');
    await page.getByLabel('Your name').fill('Ishaan Kapoor');
    await page.getByLabel('Phone number').fill(mobile);
    await page.getByLabel('Preferred vehicle model').fill('Hyundai Creta');
    await page.getByLabel('Budget').fill('12 lakh');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await visible(page.getByText('Your request has been submitted successfully!'));

    // A test drive at the hub tomorrow, at the first hour with places left.
    const car = await firstCarId(page);
    await page.goto(`/vehicle/${car}/test-drive`);
    await visible(page.getByRole('heading', { name: 'Book a test drive', level: 1 }));
    await waitForHydration(page, 'form');
    const tomorrow = addDays(indiaDay(Date.now()), 1);
    await page.getByRole('radio', { name: /At our hub/ }).check();
    await page.locator(`button[name="date"][value="${tomorrow}"]`).click();
    await page.waitForURL((url) => url.searchParams.get('date') === tomorrow);
    await page.getByRole('button', { name: /left/ }).first().click();
    await page.waitForURL((url) => url.searchParams.get('slot')?.startsWith(`${tomorrow}T`) === true);
    await page.getByRole('button', { name: 'Confirm test drive' }).click();
    await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('testDrive') === 'booked');
    await visible(page.getByText('Your test drive is booked.'));
    await saveScreenshot(page, `behind-tls-proxy-${shared.dialect}-booked-375`);

    // Every form answered without a refusal, and the session's cookies only travel over TLS.
    expect(statuses.filter((status) => status >= 400)).toEqual([]);
    const cookies = await context.cookies();
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.filter((cookie) => !cookie.secure).map((cookie) => cookie.name)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** A car for sale, asked of the API by the page itself (only the browser resolves the site's name). */
async function firstCarId(page: Page): Promise<number> {
  const answer = await page.evaluate(async () => {
    const response = await fetch('/api/v1/vehicles?perPage=5');
    return { status: response.status, body: (await response.json()) as { items: Array<{ id: number }> } };
  });
  expect(answer.status).toBe(200);
  return answer.body.items[0]!.id;
}
