import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, logIn, signUp, uniqueEmail } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * English and Hindi (decision 087): each page has an address per language, the visitor's choice
 * (the switch, remembered in a cookie and the profile) or else their browser's language sends
 * them from an English address to the Hindi page, and nothing else ever moves.
 */

const { dialect, url: sharedUrl } = sharedServer();
const PAGE = { accept: 'text/html,application/xhtml+xml' };
const HINDI_BROWSER = { ...PAGE, 'accept-language': 'hi-IN,hi;q=0.9,en-US;q=0.8' };
const htmlLang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];

describe.skipIf(!sharedUrl)(`languages (${dialect})`, () => {
  let server: TestServer;
  let car: number;

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { TRUST_PROXY: 'true', PAGE_CACHE_SECONDS: '60' } });
    const listing = (await (await fetch(`${server.url}/api/v1/vehicles?perPage=1`)).json()) as { items: Array<{ id: number }> };
    car = listing.items[0]!.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers, redirect: 'manual' });

  it('serves each page in English at its address and in Hindi under /hi', async () => {
    for (const [path, lang] of [
      ['/', 'en-IN'],
      ['/hi', 'hi-IN'],
      [`/vehicle/${car}`, 'en-IN'],
      [`/hi/vehicle/${car}`, 'hi-IN'],
      ['/hi/rent', 'hi-IN'],
      ['/hi/login', 'hi-IN'],
    ] as const) {
      const response = await get(path, PAGE);
      expect(response.status, path).toBe(200);
      expect(htmlLang(await response.text()), path).toBe(lang);
    }
  });

  it("keeps a Hindi page's links, forms and redirects in Hindi", async () => {
    const html = await (await get(`/hi/vehicle/${car}`, PAGE)).text();
    const ownLinks = [...html.matchAll(/<a\b[^>]*\bhref="(\/[^"]*)"/g)].map((match) => match[1]!).filter((href) => !href.startsWith('/media/'));
    expect(ownLinks.length).toBeGreaterThan(5);
    expect(ownLinks.filter((href) => !href.startsWith('/hi'))).toEqual([]);
    // A page that sends the visitor elsewhere sends them to the Hindi page.
    const redirected = await get('/hi/logout', PAGE);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe('/hi');
  });

  it('sends a Hindi browser from an English address to the Hindi page, query kept', async () => {
    const response = await get(`/vehicle/${car}?from=share`, HINDI_BROWSER);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/hi/vehicle/${car}?from=share`);
    expect(response.headers.get('vary')).toMatch(/Accept-Language/);
    expect((await get('/', HINDI_BROWSER)).headers.get('location')).toBe('/hi');
  });

  it('follows the remembered choice over the browser language, both ways', async () => {
    const chosenEnglish = await get('/', { ...HINDI_BROWSER, cookie: 'lang=en' });
    expect(chosenEnglish.status).toBe(200);
    expect(htmlLang(await chosenEnglish.text())).toBe('en-IN');
    const chosenHindi = await get('/rent', { ...PAGE, 'accept-language': 'en-GB,en', cookie: 'lang=hi' });
    expect(chosenHindi.status).toBe(302);
    expect(chosenHindi.headers.get('location')).toBe('/hi/rent');
  });

  it('never moves a Hindi address, a form post, a file, media, the API or a data request', async () => {
    const english = { ...PAGE, 'accept-language': 'en', cookie: 'lang=en' };
    const hindiAddress = await get('/hi/about', english);
    expect(hindiAddress.status).toBe(200);
    expect(htmlLang(await hindiAddress.text())).toBe('hi-IN');
    for (const path of ['/robots.txt', '/sitemap.xml', `/api/v1/vehicles/${car}`, '/manifest.webmanifest', `/vehicle/${car}.data`]) {
      const response = await get(path, { ...HINDI_BROWSER, accept: '*/*' });
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    }
    const image = await get('/favicon.svg', { 'accept-language': 'hi', accept: 'image/avif,image/webp,*/*' });
    expect(image.status).toBe(200);
  });

  it("keeps each language's page in the page cache under its own address", async () => {
    for (let round = 0; round < 2; round++) {
      expect(htmlLang(await (await get('/about', PAGE)).text())).toBe('en-IN');
      expect(htmlLang(await (await get('/hi/about', PAGE)).text())).toBe('hi-IN');
    }
    // The cached English page is not given to a Hindi reader: they are sent to theirs.
    const hindiReader = await get('/about', HINDI_BROWSER);
    expect(hindiReader.status).toBe(302);
    expect(hindiReader.headers.get('location')).toBe('/hi/about');
  });

  it('switches language with a form post that remembers the choice and opens the same page', async () => {
    const client = new HttpClient(server.url);
    const switched = await client.postForm('/language', { language: 'hi', back: `/vehicle/${car}?tab=emi` });
    expect(switched.status).toBe(302);
    expect(switched.headers.get('location')).toBe(`/hi/vehicle/${car}?tab=emi`);
    const cookie = switched.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^lang=hi; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/);
    // The next English address this browser opens is the Hindi page.
    const next = await client.get('/about', { headers: { ...PAGE, 'accept-language': 'en' } });
    expect(next.headers.get('location')).toBe('/hi/about');

    const back = await client.postForm('/language', { language: 'en', back: '/hi/rent' });
    expect(back.headers.get('location')).toBe('/rent');
    expect(back.headers.get('set-cookie')).toMatch(/^lang=en;/);
  });

  it('refuses a foreign switch post, an unknown language, and a way off the site', async () => {
    const client = new HttpClient(server.url);
    expect((await client.postForm('/language', { language: 'hi', back: '/' }, { origin: 'https://evil.example' })).status).toBe(403);
    const unknown = await client.postForm('/language', { language: 'fr', back: '/' });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('set-cookie')).toBeNull();
    // Read by its schema (decision 109): the refusal says what to choose.
    expect(await unknown.text()).toContain('Choose English or Hindi.');
    // A NUL anywhere in a form is refused before any action reads it (decision 061).
    expect((await client.postForm('/language', { language: 'hi', back: '/a\u0000b' })).status).toBe(400);
    for (const back of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'x'.repeat(5000)]) {
      const response = await client.postForm('/language', { language: 'hi', back });
      expect(response.status, back).toBe(302);
      expect(response.headers.get('location'), back).toBe('/hi');
    }
    const huge = await client.postForm('/language', { language: 'hi', back: '/', filler: 'x'.repeat(100_000) });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
  });

  it("keeps a signed-in person's choice in their profile, for their next sign-in on another phone", async () => {
    const email = uniqueEmail('hindi');
    const first = new HttpClient(server.url);
    await signUp(first, email, 'correct-horse-7');
    await first.postForm('/language', { language: 'hi', back: '/' });

    const phone = new HttpClient(server.url);
    const signedIn = await logIn(phone, email, 'correct-horse-7');
    expect(signedIn.status).toBeLessThan(400);
    expect(phone.jar.get('lang')?.value).toBe('hi');
    expect((await phone.get('/', { headers: { ...PAGE, 'accept-language': 'en' } })).headers.get('location')).toBe('/hi');
  });

  it("makes a choice made on this phone before signing in the account's own, when it has none", async () => {
    const email = uniqueEmail('chose-first');
    await signUp(new HttpClient(server.url), email, 'correct-horse-7');
    // Another phone, where the person chose Hindi with the switch before signing in.
    const phone = new HttpClient(server.url);
    await phone.postForm('/language', { language: 'hi', back: '/' });
    expect((await logIn(phone, email, 'correct-horse-7')).status).toBeLessThan(400);
    // A third phone, choice-free, now gets Hindi at sign-in.
    const third = new HttpClient(server.url);
    await logIn(third, email, 'correct-horse-7');
    expect(third.jar.get('lang')?.value).toBe('hi');
    // An account's own choice is not overwritten by a phone's older cookie.
    const english = new HttpClient(server.url);
    await english.postForm('/language', { language: 'en', back: '/' });
    await logIn(english, email, 'correct-horse-7');
    const fourth = new HttpClient(server.url);
    await logIn(fourth, email, 'correct-horse-7');
    expect(fourth.jar.get('lang')?.value).toBe('hi');
  });

  it('has a Hindi sitemap, manifest and robots entry, and Hindi not-found pages', async () => {
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${server.url}/hi/sitemap.xml`);
    const sitemap = await (await get('/hi/sitemap.xml')).text();
    const locations = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
    expect(locations.length).toBeGreaterThan(5);
    expect(locations.filter((location) => !location.startsWith(`${server.url}/hi`))).toEqual([]);
    expect(sitemap).toContain(`hreflang="en-IN" href="${server.url}/vehicle/${car}"`);
    const manifest = (await (await get('/hi/manifest.webmanifest')).json()) as { start_url: string; lang: string; id: string };
    expect(manifest).toMatchObject({ start_url: '/hi', lang: 'hi-IN', id: '/' });
    for (const path of ['/hi/no-such-page', '/hi/vehicle/999999999', '/hindi']) {
      const response = await get(path, PAGE);
      expect(response.status, path).toBe(404);
      if (path.startsWith('/hi/')) expect(htmlLang(await response.text()), path).toBe('hi-IN');
    }
  });

  it("answers the app API's messages in the language it asks for", async () => {
    const hindi = await get('/api/v1/no-such-thing', { 'accept-language': 'hi' });
    expect(hindi.status).toBe(404);
    expect(((await hindi.json()) as { detail: string }).detail).toBe('नहीं मिला');
    const english = await get('/api/v1/no-such-thing', { 'accept-language': 'en-IN' });
    expect(((await english.json()) as { detail: string }).detail).toBe('Not found');
  });
});
