import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCategories } from '../../server/db/demo/inventory.ts';
import { demoFleetVehicles, demoSaleVehicles } from '../../server/db/demo/rental-fleet.ts';
import { sharedServer } from '../support/shared.ts';
import { canonicalLinks, decodeEntities, mainOf, metaContent, tags, titleOf, visibleText } from '../support/html.ts';
import { rawGet } from '../support/http-client.ts';

/**
 * The rest of the public catalogue: categories page, meta tags, sitemap, robots.txt, media,
 * security headers, health check and unknown pages.
 */

const { url: base, dataDir } = sharedServer();

// ---------------------------------------------------------------- helpers

async function fetchPage(pathAndQuery: string): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(base + pathAndQuery);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

const cardIds = (html: string) => [...mainOf(html).matchAll(/<a\b[^>]*href="\/vehicle\/(\d+)"/g)].map((match) => Number(match[1]));

const hatchbacks = demoSaleVehicles.filter((vehicle) => vehicle.category === 'Hatchbacks');
const suvs = demoSaleVehicles.filter((vehicle) => vehicle.category === 'SUVs');

/** The options of the category picker (the sort has options too). */
/** The heading over the chosen category's cars: its name, not "Hatchbacks Vehicles". */
const resultsHeading = (html: string) => visibleText(/<h2 id="results-heading"[^>]*>([\s\S]*?)<\/h2>/.exec(html)?.[1] ?? '');
/** What the category picker's options say. */
const categoryLabels = (html: string) =>
  [...(/<select id="category"[\s\S]*?<\/select>/.exec(mainOf(html))?.[0] ?? '').matchAll(/<option\b[^>]*>([^<]*)<\/option>/g)].map((match) =>
    decodeEntities(match[1]!),
  );
const categoryOptions = (html: string) => tags(/<select id="category"[\s\S]*?<\/select>/.exec(mainOf(html))?.[0] ?? '', 'option');

describe.skipIf(!base)('public site', () => {
  describe('categories page', () => {
    it('selects the first category by default', async () => {
      const page = await fetchPage('/categories');
      expect(page.status).toBe(200);
      const text = visibleText(mainOf(page.html));
      expect(text).toContain('Browse by Category');
      expect(text).toContain('Select a Category:');
      expect(resultsHeading(page.html)).toBe(demoCategories[0]!.name);
      expect(resultsHeading(page.html)).toBe('Hatchbacks');
      expect(text).not.toContain('Hatchbacks Vehicles');
      // Nor "हैचबैक गाड़ियाँ" in Hindi: the category's name says it, in Hindi for the demo's categories (decision 101).
      expect(resultsHeading((await fetchPage('/hi/categories')).html)).toBe('हैचबैक');
      const options = categoryOptions(page.html);
      expect(options.map((option) => option.value)).toEqual(['hatchbacks', 'sedans', 'suvs', 'muvs', 'luxury', 'rental-cars']);
      expect(options.filter((option) => 'selected' in option).map((option) => option.value)).toEqual(['hatchbacks']);
      expect(cardIds(page.html)).toHaveLength(Math.min(10, hatchbacks.length));
    });

    it('names every category in the dropdown with its vehicle count, a category of rental cars with its fleet', async () => {
      const page = await fetchPage('/categories');
      const labels = categoryLabels(page.html);
      expect(labels).toHaveLength(demoCategories.length);
      for (const category of demoCategories) {
        const count = demoSaleVehicles.filter((vehicle) => vehicle.category === category.name).length;
        const fleet = demoFleetVehicles.filter((vehicle) => vehicle.category === category.name).length;
        expect(labels).toContain(fleet === 0 ? `${category.name} (${count})` : `${category.name} (${fleet} for rent)`);
      }
      // Not "Rental Cars (0)" while seven cars rent.
      expect(labels).toContain('Rental Cars (7 for rent)');
      expect(labels).not.toContain('Rental Cars (0)');
      const hindi = categoryLabels((await fetchPage('/hi/categories')).html);
      expect(hindi).toContain('किराये की कारें (किराये पर 7)');
    });

    it('sends a visitor from a category of rental cars only to the rental fleet', async () => {
      const page = await fetchPage('/categories?category=rental-cars');
      expect(page.status).toBe(200);
      expect(cardIds(page.html)).toEqual([]);
      expect(visibleText(mainOf(page.html))).toContain('The cars of this category are rented out self-drive, not sold.');
      expect(mainOf(page.html)).toMatch(/<a\b[^>]*href="\/rent"[^>]*>See the rental cars<\/a>/);
    });

    it('titles a category of rental cars only for rent, not "for sale", in both languages', async () => {
      const page = await fetchPage('/categories?category=rental-cars');
      expect(titleOf(page.html)).toBe('Rental Cars for self-drive rent | Gaadi Bazaar');
      expect(metaContent(page.html, 'description')).toBe('Self-drive rental cars for rent: photos and rates in rupees.');
      const hindi = await fetchPage('/hi/categories?category=rental-cars');
      expect(titleOf(hindi.html)).toBe('सेल्फ़-ड्राइव के लिए किराये की कारें | Gaadi Bazaar');
      expect(titleOf(hindi.html)).not.toContain('बिकाऊ');
      // A category of cars for sale keeps its title, and says no more than it holds.
      const suvs = await fetchPage('/categories?category=suvs');
      expect(titleOf(suvs.html)).toBe('SUVs for sale | Gaadi Bazaar');
      expect(metaContent(suvs.html, 'description')).toBe('Refurbished and used suvs for sale: photos, prices in rupees and inspection reports.');
    });

    it('selects the category named in ?category=', async () => {
      const page = await fetchPage('/categories?category=suvs');
      expect(page.status).toBe(200);
      const text = visibleText(mainOf(page.html));
      expect(resultsHeading(page.html)).toBe('SUVs');
      const options = categoryOptions(page.html);
      expect(options.filter((option) => 'selected' in option).map((option) => option.value)).toEqual(['suvs']);
      expect(cardIds(page.html)).toHaveLength(10);
      expect(text).toContain(`Page 1 of ${Math.ceil(suvs.length / 10)}`);
    });

    it('lists only the vehicles of the chosen category, page by page', async () => {
      const api = (await (await fetch(`${base}/api/v1/vehicles?q=&perPage=100`)).json()) as { items: Array<{ id: number; categoryName: string }> };
      const suvIds = api.items.filter((item) => item.categoryName === 'SUVs').map((item) => item.id);
      expect(suvIds).toHaveLength(suvs.length);
      const first = await fetchPage('/categories?category=suvs');
      const second = await fetchPage('/categories?category=suvs&page=2');
      expect([...cardIds(first.html), ...cardIds(second.html)]).toEqual(suvIds);
      expect(mainOf(first.html)).toMatch(/<a\b[^>]*href="\/categories\?category=suvs&amp;page=2"[^>]*>Next<\/a>/);
    });

    it('falls back to the first category for an unknown one', async () => {
      const page = await fetchPage('/categories?category=no-such-category');
      expect(page.status).toBe(200);
      expect(resultsHeading(page.html)).toBe('Hatchbacks');
    });
  });

  describe('meta tags', () => {
    const pages = [
      { path: '/', canonical: '/', title: 'Gaadi Bazaar | Premium Car Rentals & Certified Refurbished Cars' },
      { path: '/categories', canonical: '/categories?category=hatchbacks', title: 'Hatchbacks for sale | Gaadi Bazaar' },
      { path: '/categories?category=luxury', canonical: '/categories?category=luxury', title: 'Luxury for sale | Gaadi Bazaar' },
      { path: '/about', canonical: '/about', title: 'About Us | Gaadi Bazaar' },
      { path: '/contact', canonical: '/contact', title: 'Contact Us | Gaadi Bazaar' },
      { path: '/?q=creta', canonical: '/?q=creta', title: 'creta — used cars for sale | Gaadi Bazaar' },
      { path: '/?page=2', canonical: '/?page=2', title: 'Gaadi Bazaar | Premium Car Rentals & Certified Refurbished Cars' },
    ];

    it('promises self-drive rentals only, as the product offers, in both languages', async () => {
      const home = await fetchPage('/');
      expect(metaContent(home.html, 'description')).toBe(
        'Buy inspected, serviced refurbished cars and rent self-drive cars. Transparent prices in rupees, finance options and a dealer you can call or WhatsApp.',
      );
      const hindi = await fetchPage('/hi');
      expect(metaContent(hindi.html, 'description')).toContain('सेल्फ़-ड्राइव कारें किराये पर लें');
      for (const page of [home, hindi, await fetchPage('/about'), await fetchPage('/hi/about')]) {
        expect(page.html).not.toMatch(/chauffeur|with a driver|ड्राइवर के साथ/i);
      }
    });

    it.each(pages)('sets title, description, keywords, canonical, Open Graph, Twitter and robots on $path', async ({ path: pagePath, canonical, title }) => {
      const page = await fetchPage(pagePath);
      expect(page.status).toBe(200);
      const { html } = page;
      expect(titleOf(html)).toBe(title);
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(metaContent(html, 'description')?.length).toBeGreaterThan(30);
      expect(metaContent(html, 'keywords')).toBeTruthy();
      expect(metaContent(html, 'robots')).toBe('index,follow');
      expect(canonicalLinks(html)).toEqual([`${base}${canonical}`]);
      expect(metaContent(html, 'og:title')).toBe(title);
      expect(metaContent(html, 'og:description')).toBe(metaContent(html, 'description'));
      expect(metaContent(html, 'og:url')).toBe(`${base}${canonical}`);
      expect(metaContent(html, 'og:site_name')).toBe('Gaadi Bazaar');
      expect(metaContent(html, 'og:locale')).toBe('en_IN');
      expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
      expect(metaContent(html, 'twitter:title')).toBe(title);
      expect(metaContent(html, 'twitter:description')).toBe(metaContent(html, 'description'));
      expect(tags(html, 'html')[0]?.lang).toBe('en-IN');
    });

    it('uses the default description and keywords on the home page', async () => {
      const { html } = await fetchPage('/');
      expect(metaContent(html, 'description')).toMatch(/refurbished cars/);
      expect(metaContent(html, 'keywords')).toMatch(/used cars/);
    });

    it('keeps unknown pages out of search engines', async () => {
      const page = await fetchPage('/no-such-page');
      expect(page.status).toBe(404);
      expect(metaContent(page.html, 'robots')).toBe('noindex,nofollow');
      expect(titleOf(page.html)).toBe('Page not found | Gaadi Bazaar');
    });
  });

  describe('sitemap and robots', () => {
    it('lists the pages, every category and every vehicle with absolute URLs', async () => {
      const response = await fetch(`${base}/sitemap.xml`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
      const xml = await response.text();
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
      const locations = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => decodeEntities(match[1]!));
      for (const location of locations) expect(location.startsWith(`${base}/`), location).toBe(true);
      expect(new Set(locations).size).toBe(locations.length);
      for (const pagePath of ['/', '/about', '/contact', '/rent', '/rent/terms']) expect(locations).toContain(`${base}${pagePath}`);
      // Bare /categories shows the first category, whose own address is the canonical one.
      expect(locations).not.toContain(`${base}/categories`);
      for (const slug of ['hatchbacks', 'sedans', 'suvs', 'muvs', 'luxury', 'rental-cars']) expect(locations).toContain(`${base}/categories?category=${slug}`);

      const api = (await (await fetch(`${base}/api/v1/vehicles?perPage=100`)).json()) as { items: Array<{ id: number }> };
      const vehiclePages = locations.filter((location) => location.startsWith(`${base}/vehicle/`));
      expect(vehiclePages.sort()).toEqual(api.items.map((item) => `${base}/vehicle/${item.id}`).sort());
      expect(vehiclePages).toHaveLength(demoSaleVehicles.length);
      // The rental fleet is listed by its rental pages, never as sale vehicles.
      expect(locations.filter((location) => /\/rent\/\d+$/.test(location))).toHaveLength(demoFleetVehicles.length);
      expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
    });

    it('lists the sitemap in robots.txt', async () => {
      const response = await fetch(`${base}/robots.txt`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const lines = (await response.text()).split('\n');
      expect(lines).toContain('User-agent: *');
      expect(lines).toContain(`Sitemap: ${base}/sitemap.xml`);
      expect(lines).toContain('Disallow: /api/');
    });
  });

  describe('card images and media', () => {
    let cardImages: Array<Record<string, string>> = [];
    beforeAll(async () => {
      const { html } = await fetchPage('/');
      cardImages = tags(mainOf(html), 'img');
    });

    it('gives every card image srcset, sizes, width and height', () => {
      expect(cardImages.length).toBeGreaterThanOrEqual(1);
      for (const image of cardImages) {
        expect(image.src).toMatch(/^\/media\/\S+\.webp$/);
        expect(image.srcset).toMatch(/^(\/media\/\S+\.webp \d+w)(, \/media\/\S+\.webp \d+w)*$/);
        expect(image.sizes).toBeTruthy();
        expect(Number(image.width)).toBeGreaterThan(0);
        expect(Number(image.height)).toBeGreaterThan(0);
        expect(image.alt).toBeTruthy();
      }
    });

    it('loads the first card image eagerly and the rest lazily', () => {
      expect(cardImages[0]?.loading).toBe('eager');
      expect(cardImages.slice(1).every((image) => image.loading === 'lazy')).toBe(true);
    });

    it('serves every srcset variant as a year-long immutable WebP', async () => {
      const urls = new Set(cardImages.slice(0, 2).flatMap((image) => image.srcset!.split(', ').map((candidate) => candidate.split(' ')[0]!)));
      for (const url of urls) {
        const response = await fetch(base + url);
        expect(response.status, url).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/webp');
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect(body.subarray(8, 12).toString('latin1')).toBe('WEBP');
        expect(Number(response.headers.get('content-length'))).toBe(body.length);
      }
    });

    it('answers 404 for media that does not exist or is not an image', async () => {
      for (const missing of [
        '/media/vehicles/no-such-photo-400.webp',
        '/media/nothing.jpg',
        '/media/gaadi-bazaar.sqlite',
        '/media/',
        '/media/%ZZ.webp',
        '/media/%E0%A4%A.webp',
      ]) {
        const response = await rawGet(base, missing);
        expect(response.status, missing).toBe(404);
      }
    });
  });

  describe.skipIf(!dataDir)('media path traversal', () => {
    // A file just outside the media directory that a traversal would reach.
    const secret = 'TRAVERSAL-SECRET-9b1f';
    beforeAll(async () => {
      await writeFile(path.join(dataDir, 'outside.webp'), secret);
    });
    afterAll(async () => {
      await rm(path.join(dataDir, 'outside.webp'), { force: true });
    });

    it.each([
      '/media/../outside.webp',
      '/media/vehicles/../../outside.webp',
      '/media/..%2foutside.webp',
      '/media/..%2Foutside.webp',
      '/media/%2e%2e/outside.webp',
      '/media/%2e%2e%2foutside.webp',
      '/media/..%252foutside.webp',
      '/media/vehicles%2f..%2f..%2foutside.webp',
      '/media/..\\outside.webp',
      '/media/..%5coutside.webp',
      '/media//outside.webp',
      '/media/%2Foutside.webp',
      '/media/../gaadi-bazaar.sqlite',
      '/media/..%2fgaadi-bazaar.sqlite',
      '/media/../../../../etc/passwd',
      '/media/..%2f..%2f..%2f..%2fetc%2fpasswd',
    ])('%s is refused and never the file', async (rawPath) => {
      const response = await rawGet(base, rawPath);
      // Node's HTTP parser itself refuses some malformed paths with 400; all others must be 404.
      expect(response.status).toBe(rawPath.includes('\\') ? 400 : 404);
      expect(response.body.toString('latin1')).not.toContain(secret);
      expect(response.body.toString('latin1')).not.toContain('root:');
      expect(response.body.toString('latin1')).not.toContain('SQLite format');
    });
  });

  describe('security headers', () => {
    it('sends a Content-Security-Policy whose nonce is on every inline script', async () => {
      const page = await fetchPage('/');
      const csp = page.headers.get('content-security-policy') ?? '';
      const nonce = /script-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const scripts = tags(page.html, 'script');
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script.nonce, JSON.stringify(script)).toBe(nonce);
    });

    it('uses a fresh nonce for every response', async () => {
      const nonceOf = async () => /'nonce-([^']+)'/.exec((await fetch(`${base}/`)).headers.get('content-security-policy') ?? '')?.[1];
      const [first, second] = [await nonceOf(), await nonceOf()];
      expect(first).toBeTruthy();
      expect(first).not.toBe(second);
    });

    it.each(['/', '/categories', '/vehicle/1', '/no-such-page', '/api/v1/vehicles', '/sitemap.xml'])('sends the protective headers on %s', async (pagePath) => {
      const response = await fetch(base + pagePath);
      await response.arrayBuffer();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    });
  });

  describe('health and unknown routes', () => {
    it('answers /healthz with ok', async () => {
      const response = await fetch(`${base}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('answers /readyz with ready while it serves and its database answers', async () => {
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready' });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it.each(['/no-such-page', '/vehicle/1/extra', '/deep/nested/unknown/path', '/categories/suvs/unknown'])(
      '%s answers 404 with "Page not found"',
      async (pagePath) => {
        const page = await fetchPage(pagePath);
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(visibleText(mainOf(page.html))).toContain('Page not found');
      },
    );

    it('answers unknown API paths with a 404 problem', async () => {
      const response = await fetch(`${base}/api/v1/no-such-thing`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Not found',
        instance: expect.stringMatching(/^urn:request:/),
      });
    });
  });
});
