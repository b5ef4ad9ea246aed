import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sharedServer } from '../support/shared.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { OFFLINE_PAGE, SERVICE_WORKER_PATH, WEB_MANIFEST_PATH } from '../../app/lib/offline.ts';
import { THEME_COLOR } from '../../app/features/install/web-manifest.ts';

/**
 * What makes the site an installable app and what lets its service worker keep pages
 * (decision 085): the manifest, the icons Android asks for, the worker script and its headers,
 * and `Cache-Control: public` only on pages rendered for nobody in particular.
 */

const { url: base } = sharedServer();

type Manifest = {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

describe.skipIf(!base)('installable app', () => {
  it('serves a web app manifest with the fields Android needs and icons of the sizes it names', async () => {
    const response = await fetch(base + WEB_MANIFEST_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(await response.text()) as Manifest;
    expect(manifest).toMatchObject({
      name: 'Gaadi Bazaar',
      short_name: 'Gaadi Bazaar',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: THEME_COLOR,
    });
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    const sizes = (purpose: string) => manifest.icons.filter((icon) => (icon.purpose ?? 'any') === purpose).map((icon) => icon.sizes);
    expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(sizes('maskable')).toEqual(['512x512']);
    for (const icon of manifest.icons) {
      const file = await fetch(new URL(icon.src, base));
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      const { width, height, format } = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      expect(format).toBe('png');
    }
  });

  it('names the manifest, the theme colour and the home-screen icon in every page', async () => {
    const html = await (await fetch(base + '/about')).text();
    expect(html).toContain(`<link rel="manifest" href="${WEB_MANIFEST_PATH}"/>`);
    expect(html).toContain(`<meta name="theme-color" content="${THEME_COLOR}"/>`);
    const touchIcon = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)?.[1];
    const icon = await fetch(new URL(touchIcon!, base));
    expect((await sharp(Buffer.from(await icon.arrayBuffer())).metadata()).width).toBe(180);
  });

  it('serves the service worker from the root, to be asked for again on every visit, allowed by the CSP', async () => {
    const response = await fetch(base + SERVICE_WORKER_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const source = await response.text();
    // The precache list of this build is in it: the offline page and the browser entry.
    expect(source).toContain(`"url":"${OFFLINE_PAGE}"`);
    expect(source).toMatch(/"url":"assets\/entry\.client-[\w-]+\.js"/);
    expect(source).not.toContain('self.__SW_MANIFEST');
    // A worker script is governed by the page's script-src: ours is 'self'.
    expect((await fetch(base + '/')).headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  });

  it('serves the offline page, the same for everyone and out of search engines', async () => {
    const response = await fetch(base + OFFLINE_PAGE);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    const html = await response.text();
    expect(html).toContain('You&#x27;re offline');
    expect(html).toContain('<meta name="robots" content="noindex,nofollow"/>');
  });

  it('marks a page public only when it is the same for everyone: a shared page, or one rendered without a session and setting no cookie', async () => {
    for (const path of ['/', '/about', '/categories']) {
      expect((await fetch(base + path)).headers.get('cache-control'), path).toBe('public, no-cache');
    }
    const client = new HttpClient(base);
    await signUp(client, uniqueEmail('installable'));
    // Shared pages are rendered for nobody, signed in or not (decision 127).
    for (const path of ['/', '/about', '/categories']) {
      expect((await client.get(path)).headers.get('cache-control'), path).toBe('public, no-cache');
    }
    for (const path of ['/profile', '/wishlist', '/profile-complete']) {
      const response = await client.get(path);
      expect(response.status, path).toBeLessThan(400);
      expect(response.headers.get('cache-control'), path).toBe('private, no-store');
    }
  });
});
