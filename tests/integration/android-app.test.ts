import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The Android app (decision 121): the site vouches for the app built from its manifest at
 * /.well-known/assetlinks.json only when the dealer names it, and "Download App" goes to the
 * dealer's store listing when one is set, to the install steps otherwise.
 */

const { dialect, url: sharedUrl } = sharedServer();
const FINGERPRINT = Array.from({ length: 32 }, (_, index) => (index * 7).toString(16).padStart(2, '0').toUpperCase()).join(':');
const STORE = 'https://play.google.com/store/apps/details?id=in.gaadibazaar.twa';

describe.skipIf(!sharedUrl)(`the Android app's links (${dialect})`, () => {
  let named: TestServer;
  let plain: TestServer;

  beforeAll(async () => {
    [named, plain] = await Promise.all([
      startTestServer({ dialect, seed: false, env: { ANDROID_PACKAGE: 'in.gaadibazaar.twa', ANDROID_CERT_SHA256: FINGERPRINT, ANDROID_APP_URL: STORE } }),
      startTestServer({ dialect, seed: false }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([named?.stop(), plain?.stop()]);
  });

  it('states the app and its certificate for the link check, as Android reads it', async () => {
    const answer = await fetch(`${named.url}/.well-known/assetlinks.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(await answer.json()).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: { namespace: 'android_app', package_name: 'in.gaadibazaar.twa', sha256_cert_fingerprints: [FINGERPRINT] },
      },
    ]);
  });

  it('answers 404 when no app is named', async () => {
    expect((await fetch(`${plain.url}/.well-known/assetlinks.json`)).status).toBe(404);
  });

  it('links "Download App" to the store listing when set, and to the install steps when not', async () => {
    const withStore = await (await fetch(`${named.url}/about`)).text();
    expect(withStore).toContain(`href="${STORE.replace(/&/g, '&amp;')}"`);
    const without = await (await fetch(`${plain.url}/about`)).text();
    expect(without).toContain('href="/app"');
    expect(without).not.toContain('play.google.com');
    const steps = await fetch(`${plain.url}/app`);
    expect(steps.status).toBe(200);
    expect(await steps.text()).toContain('Add to Home Screen');
  });
});
