import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../support/shared.ts';
import { canonicalLinks, decodeEntities, metaContent, tags, titleOf } from '../support/html.ts';
import { productProblems } from '../support/rich-results.ts';
import { LANGUAGE_TAGS, LANGUAGES, pathInLanguage } from '../../app/lib/i18n/language.ts';

/**
 * What a link preview and a search engine read of every public page type (decision 086): the
 * share image (an absolute JPEG whose real size is the size the tags announce), the Open Graph
 * and Twitter tags, the canonical address, the JSON-LD of cars for sale and rental cars, and a
 * sitemap of canonical addresses only. The pages come from the sitemap and the site's own
 * links, never from English words, so a second language's pages go through the same rules.
 */

const { url: base, dataDir } = sharedServer();

type Page = { kind: string; path: string };
type Fetched = { status: number; html: string; head: string };

/**
 * A GET as a crawler makes it: a 503 (the shared server busy with the other test files, its
 * SQLite file locked a moment) is asked again after a second, as crawlers and preview clients do.
 */
async function crawl(url: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url);
    if (response.status !== 503 || attempt === 5) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const pages = new Map<string, Promise<Fetched>>();
/** Each page is fetched once for all the checks of this file. */
function fetchPage(pagePath: string): Promise<Fetched> {
  let page = pages.get(pagePath);
  if (!page) {
    page = crawl(base + pagePath).then(async (response) => {
      const html = await response.text();
      return { status: response.status, html, head: html.slice(0, html.indexOf('</head>')) };
    });
    pages.set(pagePath, page);
  }
  return page;
}

const images = new Map<
  string,
  Promise<{ status: number; type: string | null; bytes: number; width?: number; height?: number; format?: string; progressive?: boolean }>
>();
/** Each share image is fetched once and measured with sharp: its real pixels, not its name. */
function fetchImage(url: string) {
  let image = images.get(url);
  if (!image) {
    image = crawl(url).then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) return { status: response.status, type: response.headers.get('content-type'), bytes: body.byteLength };
      const { width, height, format, isProgressive } = await sharp(body).metadata();
      return { status: response.status, type: response.headers.get('content-type'), bytes: body.byteLength, width, height, format, progressive: isProgressive };
    });
    images.set(url, image);
  }
  return image;
}

function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script\b[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!) as unknown);
}

const localPath = (url: string) => {
  const address = new URL(url);
  return address.pathname + address.search;
};

/** `<link rel="alternate" hreflang>` of a page's head, by language tag. */
function alternates(head: string): Record<string, string> {
  return Object.fromEntries(
    tags(head, 'link')
      .filter((tag) => tag.rel === 'alternate' && tag.hreflang)
      .map((tag) => [tag.hreflang!, tag.href!]),
  );
}

// Every rule holds for each language's pages, found from that language's sitemap (decision 087).
for (const language of LANGUAGES) {
  const inLanguage = (pagePath: string) => pathInLanguage(pagePath, language);
  let sitemap: string[] = [];
  let publicPages: Page[] = [];

  describe.skipIf(!base)(`share previews and rich results (${language})`, () => {
    beforeAll(async () => {
      const xml = await (await crawl(`${base}${inLanguage('/sitemap.xml')}`)).text();
      sitemap = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => decodeEntities(match[1]!));
      const kindOf = (pagePath: string) => pagePath.replace(/\d+/g, ':id').replace(/=[^&]+/g, '=…');
      // One page of each kind the sitemap lists (home, category, car, rental car, rent, terms, about…).
      const byKind = new Map<string, Page>();
      for (const location of sitemap) {
        const pagePath = localPath(location);
        if (!byKind.has(kindOf(pagePath))) byKind.set(kindOf(pagePath), { kind: kindOf(pagePath), path: pagePath });
      }
      // Pages no sitemap lists but people share: a search, bare /categories, a compare list.
      const someCar = (await (await fetch(`${base}/api/v1/vehicles?perPage=1`)).json()) as { items: Array<{ id: number; make: string }> };
      const make = someCar.items[0]!.make;
      byKind.set('search', { kind: 'search', path: inLanguage(`/?q=${encodeURIComponent(make.toLowerCase())}`) });
      byKind.set('categories', { kind: 'categories', path: inLanguage('/categories') });
      byKind.set('compare', { kind: 'compare', path: inLanguage(`/compare?ids=${someCar.items[0]!.id}`) });
      publicPages = [...byKind.values()];
      expect(publicPages.length).toBeGreaterThanOrEqual(12);
    });

    it('gives every public page type an absolute JPEG share image with its size, type and alt, for Open Graph and Twitter', async () => {
      const problems: string[] = [];
      for (const { kind, path: pagePath } of publicPages) {
        const { status, head } = await fetchPage(pagePath);
        const say = (problem: string) => problems.push(`${kind} (${pagePath}): ${problem}`);
        if (status !== 200) {
          say(`answered ${status}`);
          continue;
        }
        const title = titleOf(head);
        const canonical = canonicalLinks(head);
        if (canonical.length !== 1) say(`has ${canonical.length} canonical links`);
        if (metaContent(head, 'og:url') !== canonical[0]) say('og:url is not the canonical address');
        if (!canonical[0]?.startsWith(`${base}/`)) say('the canonical address is not on the site');
        if (!title || metaContent(head, 'og:title') !== title) say('og:title is not the title');
        if (!metaContent(head, 'description') || metaContent(head, 'og:description') !== metaContent(head, 'description'))
          say('og:description is not the description');
        if (metaContent(head, 'twitter:title') !== title) say('twitter:title is not the title');
        if (metaContent(head, 'twitter:description') !== metaContent(head, 'description')) say('twitter:description is not the description');
        if (metaContent(head, 'twitter:card') !== 'summary_large_image') say('twitter:card is not summary_large_image');

        const image = metaContent(head, 'og:image') ?? '';
        if (!image.startsWith(`${base}/`)) say(`og:image ${image} is not an absolute address on the site's origin`);
        if (metaContent(head, 'twitter:image') !== image) say('twitter:image is not og:image');
        if (metaContent(head, 'og:image:type') !== 'image/jpeg') say('og:image:type is not image/jpeg');
        const alt = metaContent(head, 'og:image:alt') ?? '';
        if (alt.trim() === '') say('og:image:alt is empty');
        if (metaContent(head, 'twitter:image:alt') !== alt) say('twitter:image:alt is not og:image:alt');
        const width = Number(metaContent(head, 'og:image:width'));
        const height = Number(metaContent(head, 'og:image:height'));
        if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) say('og:image:width and og:image:height are not sizes');
        // Facebook's large card wants at least 600 wide; WhatsApp shows no picture over about 300 kB.
        if (width < 600 || width > 1200) say(`og:image is ${width} px wide`);
        if (!image.startsWith(`${base}/`)) continue;
        const fetched = await fetchImage(image);
        if (fetched.status !== 200) say(`og:image answered ${fetched.status}`);
        else {
          if (fetched.type !== 'image/jpeg') say(`og:image is served as ${fetched.type}`);
          if (fetched.format !== 'jpeg') say(`og:image is ${fetched.format}, not a JPEG`);
          if (fetched.width !== width || fetched.height !== height) say(`og:image is ${fetched.width}×${fetched.height}, its tags say ${width}×${height}`);
          if (fetched.bytes > 300_000) say(`og:image is ${fetched.bytes} bytes`);
          if (!fetched.progressive) say('og:image is not a progressive JPEG');
        }
      }
      expect(problems).toEqual([]);
    });

    it("shows a car's own photo, in its own ratio, on the car's and the rental car's pages", async () => {
      for (const kind of ['/vehicle/:id', '/rent/:id']) {
        const page = publicPages.find((candidate) => candidate.kind === inLanguage(kind))!;
        const { head } = await fetchPage(page.path);
        const image = metaContent(head, 'og:image')!;
        expect(image).toMatch(/\/media\/\S+-share-\d+x\d+\.jpg$/);
        const [, width, height] = /-share-(\d+)x(\d+)\.jpg$/.exec(image)!;
        expect(metaContent(head, 'og:image:width')).toBe(width);
        expect(metaContent(head, 'og:image:height')).toBe(height);
        expect(metaContent(head, 'og:type')).toBe('product');
      }
    });

    it('gives every car for sale and every rental car JSON-LD that passes the Product rich result rules', async () => {
      const carPages = sitemap.filter((location) => /\/(vehicle|rent)\/\d+$/.test(location));
      expect(carPages.length).toBeGreaterThan(5);
      const problems: string[] = [];
      let offered = 0;
      for (const location of carPages) {
        const { status, html } = await fetchPage(localPath(location));
        expect(status, location).toBe(200);
        const data = jsonLdOf(html);
        if (data.length !== 1) {
          problems.push(`${location}: ${data.length} JSON-LD scripts`);
          continue;
        }
        const ld = data[0] as { url?: string; image?: string[]; offers?: { price?: number } };
        // A car with a price in rupees must offer it; one "on request" has no Offer, and no rich result.
        const id = /\d+$/.exec(location)![0];
        const priced =
          location.includes('/rent/') || ((await (await fetch(`${base}/api/v1/vehicles/${id}`)).json()) as { priceRupees: number | null }).priceRupees !== null;
        if (priced) offered += 1;
        else if (ld.offers !== undefined) problems.push(`${location}: an Offer without a price`);
        problems.push(...productProblems(ld, { offersRequired: priced }).map((problem) => `${location}: ${problem}`));
        if (ld.url !== location) problems.push(`${location}: url is ${ld.url}`);
        const head = html.slice(0, html.indexOf('</head>'));
        if (ld.image?.[0] !== metaContent(head, 'og:image')) problems.push(`${location}: the first image is not the share image`);
      }
      expect(problems).toEqual([]);
      expect(offered).toBeGreaterThan(carPages.length / 2);
    });

    it('prices a rental car by the day, with its hour and week rates, as an offer for hire', async () => {
      const location = sitemap.find((candidate) => /\/rent\/\d+$/.test(candidate))!;
      const [ld] = jsonLdOf((await fetchPage(localPath(location))).html) as Array<{
        offers: { price: number; businessFunction: string; priceSpecification: Array<{ price: number; unitCode: string }> };
      }>;
      const response = await fetch(`${base}/api/v1/rentals/cars/${/\d+$/.exec(location)![0]}`);
      expect(response.status).toBe(200);
      const api = (await response.json()) as { dailyRate: number; hourlyRate: number };
      expect(ld!.offers.businessFunction).toBe('http://purl.org/goodrelations/v1#LeaseOut');
      expect(ld!.offers.price).toBe(api.dailyRate);
      expect(ld!.offers.priceSpecification.find((spec) => spec.unitCode === 'DAY')?.price).toBe(api.dailyRate);
      expect(ld!.offers.priceSpecification.find((spec) => spec.unitCode === 'HUR')?.price).toBe(api.hourlyRate);
    });

    it('lists only canonical addresses in the sitemap: each answers 200, indexable, with itself as its canonical', async () => {
      const problems = new Map<string, string[]>();
      for (const location of sitemap) {
        const { status, head } = await fetchPage(localPath(location));
        const say = (problem: string) => problems.set(location, [...(problems.get(location) ?? []), `${location} ${problem}`]);
        if (status !== 200) say(`answered ${status}`);
        const canonical = canonicalLinks(head);
        if (canonical.length !== 1 || canonical[0] !== location) say(`has the canonical ${canonical.join(', ')}`);
        if (!/^index/.test(metaContent(head, 'robots') ?? '')) say(`is ${metaContent(head, 'robots')}`);
      }
      // Other test files edit the shared server's cars meanwhile: a car deleted since is no longer listed.
      const now = decodeEntities(await (await crawl(`${base}${inLanguage('/sitemap.xml')}`)).text());
      expect([...problems].filter(([location]) => now.includes(`<loc>${location}</loc>`)).flatMap(([, found]) => found)).toEqual([]);
    });

    it('lists in the sitemap every indexable page whose canonical address is its own', async () => {
      for (const { kind, path: pagePath } of publicPages) {
        if (kind === 'search') continue; // searches are followed from the listing, not listed
        const { head } = await fetchPage(pagePath);
        const canonical = canonicalLinks(head)[0];
        if (metaContent(head, 'robots')?.startsWith('index') && canonical) expect(sitemap, kind).toContain(canonical);
      }
    });

    it('names each page in both languages, reciprocally, with the language of the page itself', async () => {
      const problems: string[] = [];
      for (const { kind, path: pagePath } of publicPages) {
        const { html, head } = await fetchPage(pagePath);
        const say = (problem: string) => problems.push(`${kind} (${pagePath}): ${problem}`);
        const own = alternates(head);
        const canonical = canonicalLinks(head)[0];
        if (!html.includes(`<html lang="${LANGUAGE_TAGS[language].html}"`)) say('<html lang> is not the page language');
        if (metaContent(head, 'og:locale') !== LANGUAGE_TAGS[language].og) say(`og:locale is ${metaContent(head, 'og:locale')}`);
        if (metaContent(head, 'robots')?.startsWith('noindex')) continue;
        if (own[LANGUAGE_TAGS[language].html] !== canonical) say('its own hreflang is not its canonical address');
        if (own['x-default'] !== own[LANGUAGE_TAGS.en.html]) say('x-default is not the English page');
        for (const other of LANGUAGES) {
          const address = own[LANGUAGE_TAGS[other].html];
          if (!address) {
            say(`names no ${other} page`);
            continue;
          }
          if (other === language) continue;
          const back = alternates((await fetchPage(localPath(address))).head);
          if (JSON.stringify(back) !== JSON.stringify(own)) say(`the ${other} page names ${JSON.stringify(back)}, this one ${JSON.stringify(own)}`);
        }
      }
      expect(problems).toEqual([]);
    });

    // Once, on the English pages: the photo and its share variant are the same for both languages.
    if (language === 'en')
      it('makes the share variant of a photo stored before share variants existed, once, from its WebP', async () => {
        const page = publicPages.find((candidate) => candidate.kind === '/vehicle/:id')!;
        const image = metaContent((await fetchPage(page.path)).head, 'og:image')!;
        const key = decodeURIComponent(new URL(image).pathname.replace(/^\/media\//, ''));
        const file = path.join(dataDir, 'media', key);
        await rm(file, { force: true });

        images.delete(image);
        const made = await fetchImage(image);
        expect(made).toMatchObject({
          status: 200,
          type: 'image/jpeg',
          format: 'jpeg',
          width: Number(metaContent((await fetchPage(page.path)).head, 'og:image:width')),
        });
        // Stored: the next request (this instance or another, or the bucket behind a CDN) is a read.
        expect((await stat(file)).size).toBe(made.bytes);

        // Only the size pages announce is made; a name for another size, or for no photo, is a 404.
        const [, width, height] = /-share-(\d+)x(\d+)\.jpg$/.exec(key)!;
        for (const wrong of [
          image.replace(`-share-${width}x${height}.jpg`, `-share-${width}x${Number(height) + 40}.jpg`),
          image.replace(`-share-${width}x${height}.jpg`, `-share-600x${Math.round(Number(height) / 2)}.jpg`),
          image.replace(`-share-${width}x${height}.jpg`, `-share-1600x${height}.jpg`),
          `${base}/media/vehicles/no-such-photo-share-1200x900.jpg`,
        ]) {
          const response = await fetch(wrong);
          expect(response.status, wrong).toBe(404);
          await response.arrayBuffer();
        }
      });

    it('draws the site card at 1200 × 630 for pages about no one car', async () => {
      const { head } = await fetchPage(inLanguage('/'));
      const image = metaContent(head, 'og:image')!;
      expect(await fetchImage(image)).toMatchObject({ status: 200, type: 'image/jpeg', width: 1200, height: 630 });
      expect(tags(head, 'meta').filter((tag) => tag.property === 'og:image:secure_url')).toHaveLength(base.startsWith('https:') ? 1 : 0);
    });
  });
}
