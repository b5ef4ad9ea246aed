import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, openPageOn, saveScreenshot, signUpInBrowser, visible, waitFor, waitForHydration } from '../support/browser.ts';
import { uniqueEmail, uniqueMobile } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The WhatsApp choices in the browser (decision 126), at 375 px in English and Hindi: "Send the
 * code by: SMS / WhatsApp" on the verification screen, the code read from the WhatsApp message
 * in /dev/outbox, the box "Send me updates … on WhatsApp" ticked by the person, and the profile's
 * switch, on and off. Screenshots of both screens at 375 and 1280 px in both languages go to
 * test-results/screenshots/whatsapp-*.png.
 */

// A server of its own: its two sign-ups do not count against the shared server's five an hour from one address.
let server: TestServer;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ dialect: 'sqlite', seed: true, env: { APP_MODE: 'demo', PAGE_CACHE_SECONDS: '0', SETTINGS_CACHE_SECONDS: '0' } });
  browser = await launchChromium();
}, 300_000);

afterEach(() => {
  expect(errors.splice(0), 'unexpected console or page errors').toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});
const PASSWORD = 'kaju-katli-and-chai-9';

/** The code of the newest WhatsApp message to `phone`, read from /dev/outbox in a second tab. */
async function whatsappCode(page: Page, phone: string): Promise<string> {
  const outbox = await page.context().newPage();
  try {
    return await waitFor(
      async () => {
        await outbox.goto('/dev/outbox');
        const message = outbox.locator('li[data-channel="whatsapp"]', { hasText: phone }).first();
        const body = (await message.textContent({ timeout: 2000 }).catch(() => '')) ?? '';
        return /(\d{6}) (is your|आपका)/.exec(body)?.[1] ?? '';
      },
      (code) => code !== '',
    );
  } finally {
    await outbox.close();
  }
}

const TEXTS = {
  en: {
    prefix: '',
    codeBy: 'Send the code by',
    whatsapp: 'WhatsApp',
    box: /^Send me updates about my bookings and cars on WhatsApp/,
    name: 'Full name',
    mobile: 'Mobile number',
    send: 'Send OTP',
    sent: (phone: string) => `We sent a 6-digit code on WhatsApp to ${phone}.`,
    otp: 'OTP',
    verify: 'Verify and Save',
    switch: 'Updates on WhatsApp',
    onSince: /On since \d{1,2} \w{3} \d{4}/,
    off: 'WhatsApp updates are off. Updates come by SMS.',
    on: (phone: string) => `WhatsApp updates are on for ${phone}.`,
  },
  hi: {
    prefix: '/hi',
    codeBy: 'कोड भेजें',
    whatsapp: 'WhatsApp से',
    box: /^मेरी बुकिंग और कारों की जानकारी मुझे इस नंबर पर WhatsApp पर भेजें/,
    name: 'पूरा नाम',
    mobile: 'मोबाइल नंबर',
    send: 'OTP भेजें',
    sent: (phone: string) => `हमने ${phone} पर WhatsApp से 6 अंकों का कोड भेजा है।`,
    otp: 'OTP',
    verify: /वेरिफ़ाई/,
    switch: 'WhatsApp पर जानकारी',
    onSince: / से चालू।/,
    off: 'WhatsApp से जानकारी बंद है। जानकारी SMS से आएगी।',
    on: (phone: string) => `${phone} पर WhatsApp से जानकारी चालू है।`,
  },
} as const;

describe('WhatsApp: the code by WhatsApp and the profile’s switch', () => {
  test.each(['en', 'hi'] as const)('at 375 px (%s): code on WhatsApp, the box ticked, then the switch off and on', async (language) => {
    const text = TEXTS[language];
    // Home after Verify in Hindi asks React Router for /hi.data, which the server answers 404 (a gap
    // of the Hindi home's data request, reported): this journey goes back to the profile instead.
    const page = await openPageOn(browser, server.url, 'mobile', errors);
    const mobile = uniqueMobile();
    const phone = `+91${mobile}`;
    await page.goto('/');
    await signUpInBrowser(page, uniqueEmail(`whatsapp-${language}`), PASSWORD);

    await page.goto(`${text.prefix}/profile-complete?redirectTo=${encodeURIComponent(`${text.prefix}/profile`)}`);
    await waitForHydration(page, 'form');
    const main = page.getByRole('main');
    await visible(main.getByRole('group', { name: text.codeBy }));
    const box = main.getByRole('checkbox', { name: text.box });
    expect(await box.isChecked(), 'never pre-ticked').toBe(false);
    await main.getByLabel(text.name).fill(language === 'hi' ? 'दीपा नायर' : 'Deepa Nair');
    await main.getByLabel(text.mobile).fill(mobile);
    await main.getByRole('radio', { name: text.whatsapp }).check();
    await box.check();
    await saveScreenshot(page, `whatsapp-code-choice-${language}-375`);
    await main.getByRole('button', { name: text.send }).click();
    await visible(main.getByText(text.sent(phone)));
    expect(await box.isChecked(), 'the person’s own tick stays').toBe(true);
    await saveScreenshot(page, `whatsapp-code-sent-${language}-375`);
    const code = await whatsappCode(page, phone);
    await main.getByLabel(text.otp, { exact: true }).fill(code);
    await main.getByRole('button', { name: text.verify }).click();
    await page.waitForURL((url) => url.pathname === `${text.prefix}/profile`);

    // The box, ticked at verification, is the consent: the profile's switch is on.
    await waitForHydration(page, 'form');
    const toggle = main.getByRole('switch', { name: text.switch });
    await visible(toggle);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await visible(main.getByText(text.onSince));
    await saveScreenshot(page, `whatsapp-profile-on-${language}-375`);
    await toggle.click();
    await visible(main.getByText(text.off));
    await visible(main.getByRole('switch', { name: text.switch, checked: false }));
    await main.getByRole('switch', { name: text.switch }).click();
    await visible(main.getByText(text.on(phone)));
    await visible(main.getByRole('switch', { name: text.switch, checked: true }));

    // The wider screen, for a look.
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveScreenshot(page, `whatsapp-profile-on-${language}-1280`);
    await page.goto(`${text.prefix}/profile-complete`);
    await visible(main.getByRole('group', { name: text.codeBy }));
    await saveScreenshot(page, `whatsapp-code-choice-${language}-1280`);
  });
});
