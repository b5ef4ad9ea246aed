import { describe, expect, it } from 'vitest';
import { LAST_INDEXED_PAGE } from '../../app/features/listing/listing-view.ts';
import { canonicalLinks, mainOf, metaContent, tags, visibleText } from '../support/html.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The listing page's part of the buyer's filters, read from the server-rendered HTML on the
 * shared server with the demo inventory (the API's part is listing-filters.test.ts): the form's
 * options and the counts they promise, the chips and their remove links, and what search
 * engines are told (robots and canonical) for each kind of listing.
 */

const { url: base } = sharedServer();

type Option = { name: string; value: string; type: string; checked: boolean; count: number | null };

async function listingPage(pathAndQuery: string) {
  const response = await fetch(base + pathAndQuery);
  expect(response.status, pathAndQuery).toBe(200);
  const html = await response.text();
  const main = mainOf(html);
  const text = visibleText(main);
  const found = /(\d[\d,]*)\+? vehicles? found/.exec(text);
  return {
    html,
    main,
    robots: metaContent(html, 'robots'),
    canonical: canonicalLinks(html).map((href) => href.slice(base.length)),
    /** "N vehicles found"; null on the plain listing, which does not say it. */
    found: found ? Number(found[1]!.replace(/,/g, '')) : null,
    options: formOptions(main),
    chips: chipsOf(main),
    cards: [...main.matchAll(/<h3\b[^>]*>[\s\S]*?href="\/vehicle\/(\d+)"/g)].map((match) => Number(match[1])),
  };
}

/** Each option of the filter form: its field, value, whether it is ticked and the count beside it. */
function formOptions(main: string): Option[] {
  const form = /<div[^>]*id="filters"[\s\S]*?<\/form>/.exec(main)?.[0] ?? '';
  return [...form.matchAll(/<label\b[^>]*>([\s\S]*?)<\/label>/g)].flatMap((match) => {
    const input = tags(match[1]!, 'input')[0];
    if (!input) return [];
    const count = /\(([\d,]+)\)\s*$/.exec(visibleText(match[1]!))?.[1];
    return [
      {
        name: input.name!,
        value: input.value!,
        type: input.type!,
        checked: 'checked' in input,
        count: count === undefined ? null : Number(count.replace(/,/g, '')),
      },
    ];
  });
}

function chipsOf(main: string): Array<{ label: string; href: string }> {
  const list = /<ul[^>]*aria-label="Active filters"[\s\S]*?<\/ul>/.exec(main)?.[0] ?? '';
  return tags(list, 'a')
    .filter((link) => link['aria-label']?.startsWith('Remove filter '))
    .map((link) => ({ label: link['aria-label']!.slice('Remove filter '.length), href: link.href! }));
}

/** The listing a ticked option leads to on its own: the page's filters with that filter set to the option alone. */
function promised(pathAndQuery: string, option: Option): string {
  const [path, query] = pathAndQuery.split('?');
  const params = new URLSearchParams(query ?? '');
  params.delete('page');
  params.set(option.name, option.value);
  return `${path}?${params}`;
}

type ApiListing = { total: number; pageCount: number; items: Array<{ id: number; categoryName: string; fuelType: string }> };
const api = async (query: string) => (await (await fetch(`${base}/api/v1/vehicles?${query}`)).json()) as ApiListing;

describe('the listing page’s filters', () => {
  it('shows each active filter as a chip whose link is the listing without it, and a Clear all', async () => {
    const page = await listingPage('/?fuel=diesel&budget=5-8,8-12&sort=price_asc');
    expect(page.chips).toEqual([
      { label: '₹5–8 lakh', href: '/?budget=8-12&fuel=diesel&sort=price_asc' },
      { label: '₹8–12 lakh', href: '/?budget=5-8&fuel=diesel&sort=price_asc' },
      { label: 'Diesel', href: '/?budget=5-8%2C8-12&sort=price_asc' },
    ]);
    expect(tags(page.main, 'a').some((link) => link.href === '/?sort=price_asc' && /Clear all/.test(page.main))).toBe(true);
    // Taking a whole filter off widens the listing (one budget off the two narrows it).
    expect((await listingPage(page.chips[2]!.href)).found!).toBeGreaterThan(page.found!);
    expect((await listingPage(page.chips[1]!.href)).found!).toBeLessThanOrEqual(page.found!);
    // The form shows the same choices ticked, and carries the sort along.
    expect(page.options.filter((option) => option.checked && option.value !== '').map((option) => `${option.name}=${option.value}`)).toEqual([
      'budget=5-8',
      'budget=8-12',
      'fuel=diesel',
    ]);
    expect(page.main).toMatch(/<input type="hidden" name="sort" value="price_asc"\/?>/);
    // Nothing is active on the plain listing.
    expect((await listingPage('/')).chips).toEqual([]);
  });

  it.each([
    '/',
    '/?fuel=diesel',
    '/?budget=5-8&fuel=diesel',
    '/?make=hyundai',
    '/?body=suv&trans=automatic&sort=km_asc',
    '/?q=maruti&owners=1',
    '/categories?category=suvs',
    '/categories?category=hatchbacks&fuel=petrol&sort=price_asc',
    '/categories?category=sedans&make=honda',
  ])('on %s every option’s count is the number of cars its listing then shows', async (pathAndQuery) => {
    const page = await listingPage(pathAndQuery);
    const counted = page.options.filter((option) => option.count !== null);
    expect(counted.length).toBeGreaterThan(3);
    if (pathAndQuery.includes('make=')) expect(counted.some((option) => option.name === 'model')).toBe(true);
    for (const option of counted) {
      const target = await listingPage(promised(pathAndQuery, option));
      expect(target.found, `${option.name}=${option.value} on ${pathAndQuery}`).toBe(option.count);
    }
  });

  it('reads a plain form’s repeated fields as the comma list a link writes', async () => {
    const repeated = await listingPage('/?fuel=diesel&fuel=petrol&budget=5-8');
    const joined = await listingPage('/?budget=5-8&fuel=diesel,petrol');
    expect(repeated.found).toBe(joined.found);
    expect(repeated.cards).toEqual(joined.cards);
    expect(repeated.canonical).toEqual(['/?budget=5-8&fuel=diesel%2Cpetrol']);
  });

  it('forgives a value that means nothing: the listing without it, and no chip', async () => {
    const page = await listingPage('/?fuel=steam&budget=lots&year=old');
    const plain = await listingPage('/?sort=newest');
    expect(page.chips).toEqual([]);
    expect(page.cards).toEqual(plain.cards);
  });

  describe('robots and canonical', () => {
    it.each([
      { path: '/', robots: 'index,follow', canonical: '/' },
      { path: '/?utm_source=whatsapp', robots: 'index,follow', canonical: '/' },
      { path: '/?fuel=diesel', robots: 'index,follow', canonical: '/?fuel=diesel' },
      { path: '/?body=suv&sort=price_asc', robots: 'index,follow', canonical: '/?body=suv' },
      { path: '/?q=creta', robots: 'index,follow', canonical: '/?q=creta' },
      { path: '/?page=2', robots: 'index,follow', canonical: '/?page=2' },
      { path: '/?fuel=diesel&budget=5-8', robots: 'noindex,follow', canonical: '/?budget=5-8&fuel=diesel' },
      { path: '/?fuel=diesel,petrol', robots: 'noindex,follow', canonical: '/?fuel=diesel%2Cpetrol' },
      { path: '/?q=creta&fuel=diesel', robots: 'noindex,follow', canonical: '/?q=creta&fuel=diesel' },
      { path: '/?q=zzzzqq', robots: 'noindex,follow', canonical: '/?q=zzzzqq' },
      { path: '/?fuel=electric&body=muv&budget=-3', robots: 'noindex,follow', canonical: '/?budget=-3&fuel=electric&body=muv' },
      // A category's page: the category is the page, not a filter.
      { path: '/categories', robots: 'index,follow', canonical: '/categories?category=hatchbacks' },
      { path: '/categories?category=suvs&sort=km_asc', robots: 'index,follow', canonical: '/categories?category=suvs' },
      { path: '/categories?category=suvs&fuel=diesel', robots: 'index,follow', canonical: '/categories?category=suvs&fuel=diesel' },
      { path: '/categories?category=suvs&fuel=diesel&trans=manual', robots: 'noindex,follow', canonical: '/categories?category=suvs&fuel=diesel&trans=manual' },
      { path: '/categories?category=suvs&q=creta&fuel=diesel', robots: 'noindex,follow', canonical: '/categories?category=suvs&q=creta&fuel=diesel' },
      { path: '/categories?category=luxury&budget=-3', robots: 'noindex,follow', canonical: '/categories?category=luxury&budget=-3' },
    ])('$path is $robots with canonical $canonical', async ({ path, robots, canonical }) => {
      const page = await listingPage(path);
      expect(page.robots).toBe(robots);
      expect(page.canonical).toEqual([canonical]);
    });

    it('a filter with no car is noindex,follow', async () => {
      const page = await listingPage('/?fuel=electric&budget=-3');
      expect(page.found).toBe(0);
      expect(page.robots).toBe('noindex,follow');
    });

    it(`page ${LAST_INDEXED_PAGE} of the listing is still index,follow (the rule for deeper pages: tests/unit/listing-view.test.ts)`, async () => {
      // The demo's 46 cars for sale fill exactly five pages at the default page size.
      const listing = (await (await fetch(`${base}/api/v1/vehicles`)).json()) as { pageCount: number };
      expect(listing.pageCount).toBeGreaterThanOrEqual(LAST_INDEXED_PAGE);
      const last = await listingPage(`/?page=${LAST_INDEXED_PAGE}`);
      expect(last.robots).toBe('index,follow');
      expect(last.canonical).toEqual([`/?page=${LAST_INDEXED_PAGE}`]);
    });
  });

  describe('on a category page', () => {
    it('narrows the category by the same parameters, with chips, form and pages that stay in the category', async () => {
      const page = await listingPage('/categories?category=suvs&fuel=diesel&sort=price_asc');
      const expected = await api('category=suvs&fuel=diesel&sort=price_asc&perPage=100');
      expect(expected.items.length).toBeGreaterThan(1);
      expect(expected.items.every((item) => item.categoryName === 'SUVs' && /diesel/i.test(item.fuelType))).toBe(true);
      expect(page.found).toBe(expected.total);
      expect(page.cards).toEqual(expected.items.slice(0, page.cards.length).map((item) => item.id));
      expect(page.chips).toEqual([{ label: 'Diesel', href: '/categories?category=suvs&sort=price_asc' }]);
      expect(tags(page.main, 'a').some((link) => link.href === '/categories?category=suvs&sort=price_asc')).toBe(true);
      // The filter and sort forms send the buyer back to this category's page.
      const forms = tags(/<div[^>]*id="filters"[\s\S]*?<\/form>/.exec(page.main)![0], 'form');
      expect(forms.map((form) => form.action)).toEqual(['/categories']);
      expect(page.main).toMatch(/<input type="hidden" name="category" value="suvs"\/?>/);
      // Another category keeps the order but not the filters.
      expect(page.main).toMatch(/<select id="category"[\s\S]*?<\/select><\/div><input type="hidden" name="sort" value="price_asc"\/?>/);
    });

    it('pages through a filtered category with the filters and the sort kept', async () => {
      const all = await api('category=suvs&sort=price_desc&trans=manual,automatic&perPage=100');
      const first = await listingPage('/categories?category=suvs&trans=manual,automatic&sort=price_desc');
      expect(first.html).toMatch(/href="\/categories\?category=suvs&amp;trans=manual%2Cautomatic&amp;sort=price_desc&amp;page=2"[^>]*>Next</);
      const second = await listingPage('/categories?category=suvs&trans=manual,automatic&sort=price_desc&page=2');
      expect([...first.cards, ...second.cards]).toEqual(all.items.slice(0, first.cards.length + second.cards.length).map((item) => item.id));
    });

    it('says no car matches and offers to clear the filters, keeping the category', async () => {
      const page = await listingPage('/categories?category=luxury&budget=-3');
      expect(page.found).toBe(0);
      expect(visibleText(page.main)).toContain('No vehicles match these filters');
      expect(tags(page.main, 'a').filter((link) => link.href === '/categories?category=luxury').length).toBeGreaterThan(0);
    });

    it('a search with no car and no filter on shows no filter or sort tools, only the message and its suggestions', async () => {
      const page = await listingPage('/?q=kretaa');
      expect(page.found).toBe(0);
      expect(page.main).not.toContain('id="filters"');
      expect(page.main).not.toContain('id="listing-sort"');
      expect(visibleText(page.main)).toContain('No vehicles found for “kretaa”');
      expect(visibleText(page.main)).toContain('Did you mean');
    });

    it('a search that finds cars until a filter leaves none says so and offers to clear the filters, keeping the search', async () => {
      const page = await listingPage('/?q=creta&fuel=electric');
      expect(page.found).toBe(0);
      const text = visibleText(page.main);
      expect(text).toContain('No vehicles match these filters');
      expect(text).not.toContain('Did you mean');
      // The tools stay: taking the filter off is the way back.
      expect(page.main).toContain('id="filters"');
      expect(page.chips.map((chip) => chip.href)).toEqual(['/?q=creta']);
      expect(tags(page.main, 'a').some((link) => link.href === '/?q=creta')).toBe(true);
    });

    it('the API takes the category by slug as by id; an unknown slug is refused with a message', async () => {
      const categories = (await (await fetch(`${base}/api/v1/categories`)).json()) as Array<{ id: number; slug: string }>;
      const suvs = categories.find((category) => category.slug === 'suvs')!;
      const bySlug = await api('category=suvs&fuel=diesel&perPage=100');
      expect(bySlug).toEqual(await api(`category=${suvs.id}&fuel=diesel&perPage=100`));
      for (const bad of ['no-such-category', 'SUVs%00', '%27%20or%201%3D1']) {
        const response = await fetch(`${base}/api/v1/vehicles?category=${bad}`);
        expect(response.status, bad).toBe(400);
        expect(((await response.json()) as { detail: string }).detail).toMatch(/category must be a category id .* or the slug of a category/);
      }
    });
  });
});
