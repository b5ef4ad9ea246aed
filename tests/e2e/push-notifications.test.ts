import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findVehicleId, launchChromium, openPageOn, saveScreenshot, visible, waitFor, waitForHydration } from '../support/browser.ts';
import { openServerDatabase } from '../support/database.ts';
import { verifiedPerson } from '../support/people.ts';
import { startPushStandin, type PushDevice, type PushStandin } from '../support/push-standin.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import type { Database } from '../../server/db/connection.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';

/**
 * Notifications on the phone in Chromium (issue 45, decision 124): switch them on on the profile,
 * book a test drive, the notification arrives, the service worker shows it, and a tap opens the
 * booking on the profile.
 *
 * Chromium here reaches no real push service (FCM needs Google's servers and an API key), so an
 * init script replaces `PushManager.prototype.subscribe` and `getSubscription`: they answer a
 * subscription whose endpoint is the test's push stand-in and whose keys the test made
 * (tests/support/push-standin.ts). Everything else is real: the profile's switch asks the
 * permission and posts the subscription to the API, the server encrypts and signs the
 * notification, the stand-in verifies and decrypts it, and the decrypted payload is delivered to
 * the real service worker as a push message through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`), what the browser does with what FCM hands it.
 */

const PASSWORD = 'kaju-katli-2026';
let server: TestServer;
let database: Database;
let browser: Browser;
let standin: PushStandin;
const errors: string[] = [];

beforeAll(async () => {
  standin = await startPushStandin();
  server = await startTestServer({
    dialect: 'sqlite',
    seed: true,
    env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, PAGE_CACHE_SECONDS: '0', SETTINGS_CACHE_SECONDS: '0', JOB_POLL_MS: '50' },
  });
  database = openServerDatabase(server);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  await standin?.close();
});

/** The page's PushManager answering `device`'s subscription (see above); kept across reloads in localStorage. */
function fakePushManager(device: PushDevice) {
  return `(() => {
    const subscription = ${JSON.stringify(device.subscription)};
    const KEY = 'test-push-subscription';
    const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)).buffer;
    const made = () => {
      const held = localStorage.getItem(KEY);
      if (!held) return null;
      return {
        endpoint: subscription.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: fromBase64(held) },
        getKey: (name) => fromBase64(subscription.keys[name].replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(subscription.keys[name].length / 4) * 4, '=')),
        toJSON: () => subscription,
        unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
      };
    };
    PushManager.prototype.subscribe = async function (options) {
      if (!options || options.userVisibleOnly !== true) throw new DOMException('userVisibleOnly must be true', 'NotAllowedError');
      const key = new Uint8Array(options.applicationServerKey);
      localStorage.setItem(KEY, btoa(String.fromCharCode(...key)));
      return made();
    };
    PushManager.prototype.getSubscription = async function () { return made(); };
  })();`;
}

async function workerInControl(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

it('a person switches notifications on, books a test drive, and the notification opens the booking', async () => {
  const person = await verifiedPerson(server.url, database, { label: 'push-e2e', name: 'Meera Iyer', password: PASSWORD });
  const device = standin.device('chromium');
  const page = await openPageOn(browser, server.url, 'mobile', errors, { cookies: person.client.jar.cookies.values() });
  const context = page.context();
  await context.grantPermissions(['notifications'], { origin: server.url });
  await context.addInitScript(fakePushManager(device));

  // The profile, once the service worker runs it: notifications are off on this device.
  await page.goto('/profile');
  await workerInControl(page);
  await page.reload();
  const section = page.locator('#notifications');
  const toggle = section.getByRole('switch', { name: 'Notifications on this device' });
  await waitForHydration(page, '#notifications [role="switch"]:not([disabled])');
  expect(await toggle.getAttribute('aria-checked')).toBe('false');
  await visible(section.getByText('Off: this device gets no notifications from us.'));

  // On: the switch posts the browser's subscription to the API.
  const posted = page.waitForRequest((request) => request.url().endsWith('/api/v1/me/push-subscriptions') && request.method() === 'POST');
  await toggle.click();
  expect((await posted).postDataJSON()).toEqual(device.subscription);
  await waitFor(
    () => toggle.getAttribute('aria-checked'),
    (checked) => checked === 'true',
  );
  await visible(section.getByText('On: this device shows our notifications, and tapping one opens its page.'));
  await section.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'push-switch-on-en-375', false);
  const rows = await database.db.selectFrom('push_subscriptions').select(['endpoint', 'user_id']).where('user_id', '=', person.userId).execute();
  expect(rows).toEqual([{ endpoint: device.subscription.endpoint, user_id: person.userId }]);
  // Still on after a reload: the server holds this device for this person.
  await page.reload();
  await waitForHydration(page, '#notifications [role="switch"]:not([disabled])');
  expect(await toggle.getAttribute('aria-checked')).toBe('true');

  // Book a test drive at the hub, two days ahead.
  const car = await findVehicleId(server.url, 'swift');
  const day = addDays(indiaDay(Date.now()), 2);
  await page.goto(`/vehicle/${car}/test-drive?date=${day}&slot=${encodeURIComponent(`${day}T12:00`)}`);
  await page.getByRole('radio', { name: /At our hub/ }).check();
  await page.getByRole('button', { name: 'Confirm test drive' }).click();
  await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('testDrive') === 'booked');

  // The push service receives it, signed with the site's key and readable with this device's keys only.
  const [push] = await standin.waitFor(device.id);
  expect(push!.payload).toMatchObject({ title: 'Gaadi Bazaar', url: '/profile#test-drives' });
  expect(push!.payload.body).toMatch(/^Test drive booked: /);

  // Delivered to the service worker as the browser delivers what its push service hands it.
  await page.goto('/');
  await workerInControl(page);
  const cdp = await context.newCDPSession(page);
  const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  const registration = await waitFor(
    async () => registrations.find((entry) => !entry.isDeleted && entry.scopeURL.startsWith(server.url)),
    (found) => found !== undefined,
  );
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: registration!.registrationId, data: JSON.stringify(push!.payload) });
  const shown = await waitFor(
    () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
          title: notification.title,
          body: notification.body,
          tag: notification.tag,
          data: notification.data as unknown,
        })),
      ),
    (list) => list.length > 0,
  );
  expect(shown).toEqual([{ title: push!.payload.title, body: push!.payload.body, tag: '/profile#test-drives', data: { url: '/profile#test-drives' } }]);

  // A tap: the service worker brings the site's window to the booking on the profile.
  const [worker] = context.serviceWorkers();
  expect(worker).toBeDefined();
  await worker!.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }));
  });
  await page.waitForURL((url) => url.pathname === '/profile' && url.hash === '#test-drives');
  await visible(page.locator('#test-drives'));
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length)).toBe(0);

  // Off: the switch tells the server, and the device is forgotten.
  await waitForHydration(page, '#notifications [role="switch"]:not([disabled])');
  const deleted = page.waitForRequest((request) => request.url().endsWith('/api/v1/me/push-subscriptions') && request.method() === 'DELETE');
  await page.locator('#notifications').getByRole('switch').click();
  expect((await deleted).postDataJSON()).toEqual({ endpoint: device.subscription.endpoint });
  await waitFor(
    () => page.locator('#notifications').getByRole('switch').getAttribute('aria-checked'),
    (checked) => checked === 'false',
  );
  expect(await database.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', person.userId).execute()).toEqual([]);
  expect(errors).toEqual([]);
});

it('shows the switch off on a first visit, and says so when notifications are blocked or the browser has none', async () => {
  const person = await verifiedPerson(server.url, database, { label: 'push-e2e-blocked', name: 'Meera Iyer', password: PASSWORD });
  const views = [
    ['en', 'mobile'],
    ['hi', 'mobile'],
    ['en', 'desktop'],
    ['hi', 'desktop'],
  ] as const;
  // Off, as a first visit finds it (the service worker registers after the page has loaded).
  for (const [language, viewport] of views) {
    const page = await openPageOn(browser, server.url, viewport, errors, { cookies: person.client.jar.cookies.values() });
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    await page.goto(language === 'hi' ? '/hi/profile' : '/profile');
    const section = page.locator('#notifications');
    await waitForHydration(page, '#notifications [role="switch"]:not([disabled])');
    expect(await section.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, `push-switch-off-${language}-${viewport === 'mobile' ? 375 : 1280}`, false);
    await page.context().close();
  }
  for (const [language, viewport] of views) {
    const page = await openPageOn(browser, server.url, viewport, errors, { cookies: person.client.jar.cookies.values() });
    const profile = language === 'hi' ? '/hi/profile' : '/profile';
    // Blocked: a context that was asked and said no.
    await page.context().addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
    });
    await page.goto(profile);
    await waitForHydration(page, '#notifications [role="switch"]');
    const section = page.locator('#notifications');
    await waitFor(
      async () => (await section.getByRole('status').textContent()) ?? '',
      (text) => (language === 'hi' ? /अनुमति दें/.test(text) : /Notifications are blocked/.test(text)),
    );
    expect(await section.getByRole('switch').isDisabled()).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, `push-switch-blocked-${language}-${viewport === 'mobile' ? 375 : 1280}`, false);
    await page.context().close();
  }
  // No push in this browser: it says what to use instead.
  const page = await openPageOn(browser, server.url, 'mobile', errors, { cookies: person.client.jar.cookies.values() });
  await page.context().addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await page.goto('/profile');
  const section = page.locator('#notifications');
  await waitFor(
    async () => (await section.getByRole('status').textContent()) ?? '',
    (text) => /cannot show notifications/.test(text),
  );
  await section.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'push-switch-unsupported-en-375', false);
  expect(errors).toEqual([]);
});
