import { beforeAll, describe, expect, it } from 'vitest';
import { demoInsuranceValidity, type DemoVehicle } from '../../server/db/demo/inventory.ts';
import { demoSaleVehicles } from '../../server/db/demo/rental-fleet.ts';
import { sharedServer } from '../support/shared.ts';
import { DEFAULT_FINANCE_TERMS, emiFrom } from '../../app/features/emi/emi.ts';
import { formatDate, formatRupees } from '../../app/lib/format.ts';
import { validityOf } from '../../app/lib/validity.ts';
import { canonicalLinks, mainOf, metaContent, tags, titleOf, visibleText } from '../support/html.ts';
import { indiaDay } from '../../app/lib/india-time.ts';

/** The vehicle details page (/vehicle/:id) and its JSON twin (/api/v1/vehicles/:id). */

const { url: base } = sharedServer();

type Summary = { id: number; name: string; make: string; model: string; variant: string; year: number | null };

// ---------------------------------------------------------------- helpers

async function fetchPage(path: string): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(base + path);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The content of the one <meta name|property=key>. */

/** Links in <main> with their visible text. */
function links(html: string): Array<{ href: string; text: string; attributes: Record<string, string> }> {
  return [...mainOf(html).matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map((match) => {
    const attributes = tags(`<a${match[1]}>`, 'a')[0]!;
    return { href: attributes.href ?? '', text: visibleText(match[2]!), attributes };
  });
}

/** Label -> value of the definition lists (Key Specifications, Finance Options, …). */
function definitions(html: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const match of mainOf(html).matchAll(/<dt\b[^>]*>([\s\S]*?)<\/dt>\s*<dd\b[^>]*>([\s\S]*?)<\/dd>/g)) {
    pairs.set(visibleText(match[1]!), visibleText(match[2]!));
  }
  return pairs;
}

const headings = (html: string) => [...mainOf(html).matchAll(/<h[12]\b[^>]*>([\s\S]*?)<\/h[12]>/g)].map((match) => visibleText(match[1]!));

function jsonLd(html: string): Record<string, unknown> {
  const scripts = [...html.matchAll(/<script\b[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  return JSON.parse(scripts[0]![1]!) as Record<string, unknown>;
}

// ---------------------------------------------------------------- the demo vehicles used

let listing: Summary[] = [];

function demo(predicate: (vehicle: DemoVehicle) => boolean): DemoVehicle {
  const found = demoSaleVehicles.filter(predicate);
  if (found.length !== 1) throw new Error(`expected one demo vehicle, found ${found.length}`);
  return found[0]!;
}

function idOf(vehicle: DemoVehicle): number {
  const found = listing.filter(
    (item) =>
      item.make === vehicle.make &&
      item.model === vehicle.model &&
      item.variant === vehicle.variant &&
      String(item.year) === vehicle.year &&
      item.name === vehicle.name,
  );
  expect(found).toHaveLength(1);
  return found[0]!.id;
}

const creta = () => demo((vehicle) => vehicle.name === 'Hyundai Creta SX 1.5 CRDi');
const tiago = () => demo((vehicle) => vehicle.name === 'Tata Tiago XZ+');
const kwid = () => demo((vehicle) => vehicle.name === 'Renault Kwid RXT 1.0');
const eClass = () => demo((vehicle) => vehicle.model === 'E-Class');
const wagonR = () => demo((vehicle) => vehicle.model === 'WagonR');
const q3 = () => demo((vehicle) => vehicle.model === 'Q3');

describe.skipIf(!base)('vehicle details page', () => {
  beforeAll(async () => {
    const response = await fetch(`${base}/api/v1/vehicles?perPage=100`);
    listing = ((await response.json()) as { items: Summary[] }).items;
    expect(listing).toHaveLength(demoSaleVehicles.length);
    // The demo data these tests rely on.
    expect(creta()).toMatchObject({ featured: true, fitnessFC: 'Valid till Jul 2036', price: '1395000' });
    expect(creta().videoUrl).toMatch(/youtube/);
    expect(kwid().images).toHaveLength(0);
    expect(eClass().price).toBe('');
    expect(wagonR().name).toBe('');
    expect(tiago().financial?.Exchange).toBe(false);
  });

  describe('a fully described vehicle', () => {
    let html = '';
    let csp = '';
    let id = 0;
    beforeAll(async () => {
      id = idOf(creta());
      const page = await fetchPage(`/vehicle/${id}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      html = page.html;
      csp = page.headers.get('content-security-policy') ?? '';
    });

    it('shows the name as title with the Featured badge and the subtitle', () => {
      expect(headings(html)).toContain('Hyundai Creta SX 1.5 CRDi');
      const text = visibleText(mainOf(html));
      expect(text).toContain('Featured');
      expect(text).toContain('SX 1.5 CRDi • 2021 • Diesel • Manual');
    });

    it('says where Reserve would be that online reservation is not offered, on a site without online payment (this one), in English and Hindi', async () => {
      expect(visibleText(mainOf(html))).toContain('Online reservation is not offered on this site; call or WhatsApp the dealer to hold this car.');
      expect(html).not.toContain('/reserve"');
      expect(visibleText(mainOf((await fetchPage(`/hi/vehicle/${id}`)).html))).toContain(
        'इस साइट पर ऑनलाइन रिज़र्वेशन की सुविधा नहीं है; यह कार अपने लिए रुकवाने के लिए डीलर को कॉल या WhatsApp करें।',
      );
    });

    it('shows the on-road price in rupees, with what it includes', () => {
      expect(visibleText(mainOf(html))).toMatch(/On-road price ₹13,95,000 Includes RC transfer and insurance/);
    });

    it('lists the Key Specifications', () => {
      expect(headings(html)).toContain('Key Specifications');
      const specs = definitions(html);
      expect(specs.get('Odometer')).toBe('48,000 km');
      expect(specs.get('Owners')).toBe('1st Owner');
      expect(specs.get('Registration')).toBe(creta().registration);
      // Counted from the day the demo was seeded (this run's, today or just before midnight yesterday).
      const seeded = [0, 1].map((back) => formatDate(demoInsuranceValidity(creta(), indiaDay(Date.now() - back * 86_400_000))));
      expect(seeded).toContain(specs.get('Insurance'));
      expect(specs.get('Fitness / FC')).toBe('Valid till Jul 2036');
      // The tyres' condition, said as what is left of the tread, not "Tyre Point 80%".
      expect(specs.get('Tyres')).toBe('80% left');
      expect(specs.has('Tyre Point')).toBe(false);
    });

    it('says the tyres’ condition in Hindi too', async () => {
      const hindi = definitions((await fetchPage(`/hi/vehicle/${id}`)).html);
      expect(hindi.get('टायर')).toBe('80% बाकी');
    });

    it('shows the demo car insured for months to come, with no Expired beside "includes insurance"; a past date would say Expired', () => {
      const insurance = [...mainOf(html).matchAll(/<dt\b[^>]*>Insurance<\/dt>\s*<dd\b[^>]*>[\s\S]*?<\/dd>\s*(?:<dd\b[^>]*>([\s\S]*?)<\/dd>)?/g)][0]!;
      expect(creta().insuranceDaysLeft).toBeGreaterThan(30);
      expect(insurance[1] ? visibleText(insurance[1]) : null).toBeNull();
      expect(validityOf('2026-08-01', '2026-11-25')?.label).toBe('Expired');
    });

    it('shows the Vehicle Condition Report with each status styled by its lower-cased name', () => {
      expect(headings(html)).toContain('Vehicle Condition Report');
      const text = visibleText(mainOf(html));
      for (const [item, status] of Object.entries(creta().inspection!)) expect(text).toContain(`${item} ${status}`);
      expect(mainOf(html)).toMatch(/class="[^"]*\bstatus-excellent\b[^"]*"[^>]*>Excellent</);
      expect(mainOf(html)).toMatch(/class="[^"]*\bstatus-good\b[^"]*"[^>]*>Good</);
    });

    it('shows the Refurbishment Details with lists as bullet lists', () => {
      expect(headings(html)).toContain('Refurbishment Details');
      const workDone = creta().refurbishment!['Work Done'] as string[];
      const list = new RegExp(`<ul\\b[^>]*>${workDone.map((entry) => `<li>${entry}</li>`).join('')}</ul>`);
      expect(mainOf(html)).toMatch(list);
      expect(definitions(html).get('Warranty')).toBe(creta().refurbishment!.Warranty);
    });

    it('shows the Finance Options with yes as "Available"', () => {
      expect(headings(html)).toContain('Finance Options');
      const finance = definitions(html);
      expect(finance.get('Loan Available')).toBe('Available');
    });

    it('shows one EMI figure: the worked-out one at the top and in the Finance Options, never the typed one', () => {
      const price = Number(String(creta().price).replace(/\D/g, ''));
      const expected = emiFrom(price, DEFAULT_FINANCE_TERMS)!;
      const finance = definitions(html);
      expect(finance.get('EMI from')).toBe(`${formatRupees(expected)}/month`);
      expect(finance.get('Down payment from')).toBe(formatRupees(price - Math.round((price * DEFAULT_FINANCE_TERMS.financedPercent) / 100)));
      // The demo car's typed rows ('EMI From', 'Down Payment') disagree with the price: they are not shown.
      expect(creta().financial!['EMI From']).toBeDefined();
      expect(finance.has('EMI From')).toBe(false);
      expect(finance.has('Down Payment')).toBe(false);
      const figures = new Set([...visibleText(html).matchAll(/EMI from ₹([\d,]+)/gi)].map((match) => match[1]));
      expect([...figures]).toEqual([formatRupees(expected).slice(1)]);
    });

    it("gives the app's API the page's EMI figure, on the car and on the listing", async () => {
      const expected = emiFrom(Number(String(creta().price).replace(/\D/g, '')), DEFAULT_FINANCE_TERMS);
      const car = (await (await fetch(`${base}/api/v1/vehicles/${id}`)).json()) as { emiFrom: number; financeTerms: unknown };
      expect(car.emiFrom).toBe(expected);
      expect(car.financeTerms).toEqual(DEFAULT_FINANCE_TERMS);
      const listed = ((await (await fetch(`${base}/api/v1/vehicles?perPage=100`)).json()) as { items: Array<{ id: number; emiFrom: number | null }> }).items;
      expect(listed.find((item) => item.id === id)?.emiFrom).toBe(expected);
    });

    it('embeds the Video Walkthrough without cookies', () => {
      expect(headings(html)).toContain('Video Walkthrough');
      const frames = tags(mainOf(html), 'iframe');
      expect(frames).toHaveLength(1);
      expect(frames[0]!.src).toBe(`https://www.youtube-nocookie.com/embed/${creta().videoUrl.split('/').at(-1)}`);
    });

    it('has a Call Seller phone link', () => {
      const call = links(html).filter((link) => link.text === 'Call Seller');
      expect(call).toHaveLength(1);
      expect(call[0]!.href).toMatch(/^tel:\+?\d{10,15}$/);
    });

    it('has a Chat on WhatsApp link with the vehicle name and the page address', () => {
      const chat = links(html).filter((link) => link.text === 'Chat on WhatsApp');
      expect(chat).toHaveLength(1);
      const url = new URL(chat[0]!.href);
      expect(url.origin).toBe('https://wa.me');
      expect(url.pathname).toMatch(/^\/\d{10,15}$/);
      const text = url.searchParams.get('text') ?? '';
      expect(text).toContain('Hyundai Creta SX 1.5 CRDi');
      expect(text).toContain(`${base}/vehicle/${id}`);
      expect(chat[0]!.attributes.target).toBe('_blank');
      expect(chat[0]!.attributes.rel).toContain('noopener');
    });

    it('shows every photo, the first one responsive', () => {
      const images = tags(mainOf(html), 'img');
      const main = images.find((image) => image.srcset);
      expect(main).toBeDefined();
      expect(main!.srcset).toMatch(/\/media\/\S+-400\.webp 400w/);
      expect(main!.sizes).toBeTruthy();
      expect(Number(main!.width)).toBeGreaterThan(0);
      expect(Number(main!.height)).toBeGreaterThan(0);
      expect(visibleText(mainOf(html))).not.toContain('No Images Available');
    });

    it('sets the page meta tags for search engines and link previews', async () => {
      const title = titleOf(html);
      expect(title).toBe('Hyundai Creta SX 1.5 CRDi 2021 | Gaadi Bazaar');
      expect(metaContent(html, 'og:title')).toBe(title);
      expect(metaContent(html, 'twitter:title')).toBe(title);
      expect(metaContent(html, 'description')).toMatch(/^Hyundai Creta SX 1\.5 CRDi .*₹13,95,000/);
      expect(metaContent(html, 'og:description')).toBe(metaContent(html, 'description'));
      expect(metaContent(html, 'keywords')).toContain('Hyundai');
      expect(metaContent(html, 'keywords')).toContain('Creta');
      expect(metaContent(html, 'robots')).toBe('index,follow');
      expect(metaContent(html, 'og:type')).toBe('product');
      expect(metaContent(html, 'og:url')).toBe(`${base}/vehicle/${id}`);
      expect(canonicalLinks(html)).toEqual([`${base}/vehicle/${id}`]);
      expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');

      const image = metaContent(html, 'og:image')!;
      // The cover's JPEG share variant: preview clients show no WebP (decision 086).
      expect(image).toMatch(new RegExp(`^${base.replace(/[.]/g, '\\.')}/media/\\S+-share-\\d+x\\d+\\.jpg$`));
      expect(metaContent(html, 'twitter:image')).toBe(image);
      expect(metaContent(html, 'og:image:type')).toBe('image/jpeg');
      expect(metaContent(html, 'og:image:alt')).toBe('Hyundai Creta SX 1.5 CRDi');
      const photo = await fetch(image);
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/jpeg');
    });

    it('describes the car for search engines as a schema.org Car with an Offer in INR', () => {
      const data = jsonLd(html);
      expect(data['@context']).toBe('https://schema.org');
      expect(data['@type']).toBe('Car');
      expect(data.name).toBe('Hyundai Creta SX 1.5 CRDi');
      expect(data.url).toBe(`${base}/vehicle/${id}`);
      expect(data.brand).toEqual({ '@type': 'Brand', name: 'Hyundai' });
      expect(data.vehicleModelDate).toBe('2021');
      expect((data.image as string[])[0]).toBe(metaContent(html, 'og:image'));
      expect(data.offers).toMatchObject({ '@type': 'Offer', priceCurrency: 'INR', price: 1395000, availability: 'https://schema.org/InStock' });
    });

    it('gives the JSON-LD script the nonce of the Content-Security-Policy', () => {
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      const ld = tags(html, 'script').find((script) => script.type === 'application/ld+json');
      expect(ld?.nonce).toBe(nonce);
    });
  });

  describe('optional parts appear only when the vehicle has them', () => {
    it('shows "Not Available" for finance options that are not offered, and hides absent sections', async () => {
      const page = await fetchPage(`/vehicle/${idOf(tiago())}`);
      expect(page.status).toBe(200);
      const finance = definitions(page.html);
      expect(finance.get('Loan Available')).toBe('Available');
      expect(finance.get('Exchange')).toBe('Not Available');
      const sections = headings(page.html);
      expect(sections).toContain('Finance Options');
      expect(sections).toContain('Refurbishment Details');
      expect(sections).not.toContain('Vehicle Condition Report');
      expect(sections).not.toContain('Video Walkthrough');
      expect(definitions(page.html).has('Fitness / FC')).toBe(false);
      expect(visibleText(mainOf(page.html))).not.toContain('Featured');
    });

    it('shows the placeholder and dashes for a bare vehicle without photos', async () => {
      const vehicle = kwid();
      const page = await fetchPage(`/vehicle/${idOf(vehicle)}`);
      expect(page.status).toBe(200);
      const main = mainOf(page.html);
      const text = visibleText(main);
      expect(text).toContain('No Images Available');
      expect(tags(main, 'img')).toHaveLength(0);
      const specs = definitions(page.html);
      expect([...specs.keys()]).toEqual(['Odometer', 'Owners', 'Registration', 'Insurance']);
      expect(specs.get('Insurance')).toBe('—');
      const sections = headings(page.html);
      for (const absent of ['Vehicle Condition Report', 'Refurbishment Details', 'Finance Options', 'Video Walkthrough'])
        expect(sections).not.toContain(absent);
      expect(text).not.toContain('Featured');
      // Link previews and the JSON-LD fall back to the site's card (decision 086).
      expect(metaContent(page.html, 'og:image')).toBe(`${base}/share/site-card-1200x630.jpg`);
      expect(metaContent(page.html, 'twitter:card')).toBe('summary_large_image');
      expect(jsonLd(page.html).image).toEqual([`${base}/share/site-card-1200x630.jpg`]);
    });

    it('shows a dash for an odometer that is not known', async () => {
      const page = await fetchPage(`/vehicle/${idOf(q3())}`);
      expect(definitions(page.html).get('Odometer')).toBe('—');
    });

    it('shows a dash for an empty price and makes no offer without a price', async () => {
      const page = await fetchPage(`/vehicle/${idOf(eClass())}`);
      expect(page.status).toBe(200);
      expect(visibleText(mainOf(page.html))).toMatch(/On-road price —/);
      // An Offer without a price breaks the rich result rules (decision 086): the car is described, not offered.
      const data = jsonLd(page.html);
      expect(data['@type']).toBe('Car');
      expect(data).not.toHaveProperty('offers');
    });

    it('sends the address of a rental fleet car to its rental page: it has no sale page', async () => {
      const fleet = (await (await fetch(`${base}/api/v1/rentals/cars`)).json()) as { items: Array<{ id: number }> };
      expect(fleet.items.length).toBeGreaterThan(0);
      for (const { id } of fleet.items) {
        const response = await fetch(`${base}/vehicle/${id}`, { redirect: 'manual' });
        expect(response.status).toBe(301);
        expect(new URL(response.headers.get('location')!, base).pathname).toBe(`/rent/${id}`);
      }
    });

    it('titles a vehicle without a name by make and model, also in the chat text', async () => {
      const id = idOf(wagonR());
      const page = await fetchPage(`/vehicle/${id}`);
      expect(headings(page.html)).toContain('Maruti Suzuki WagonR');
      expect(titleOf(page.html)).toBe('Maruti Suzuki WagonR 2020 | Gaadi Bazaar');
      const chat = links(page.html).find((link) => link.text === 'Chat on WhatsApp');
      const text = new URL(chat!.href).searchParams.get('text') ?? '';
      expect(text).toContain('Maruti Suzuki WagonR');
      expect(text).toContain(`${base}/vehicle/${id}`);
    });
  });

  describe('a vehicle that does not exist', () => {
    it.each(['/vehicle/999999', '/vehicle/0', '/vehicle/abc', '/vehicle/12abc', '/vehicle/-1', '/vehicle/1.5', '/vehicle/99999999999999999999'])(
      '%s answers 404 with the Vehicle Not Found card',
      async (path) => {
        const page = await fetchPage(path);
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        const text = visibleText(mainOf(page.html));
        expect(text).toContain('Vehicle Not Found');
        expect(text).toContain("The vehicle you're looking for doesn't exist or may have been removed.");
        const browse = links(page.html).find((link) => link.text === 'Browse Available Vehicles');
        expect(browse?.href).toBe('/');
        expect(metaContent(page.html, 'robots')).toBe('noindex,nofollow');
        expect(page.html).not.toContain('application/ld+json');
      },
    );
  });

  describe('the JSON API', () => {
    it('answers a vehicle with all its details', async () => {
      const id = idOf(creta());
      const response = await fetch(`${base}/api/v1/vehicles/${id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const vehicle = (await response.json()) as Record<string, unknown>;
      expect(vehicle).toMatchObject({
        id,
        name: 'Hyundai Creta SX 1.5 CRDi',
        make: 'Hyundai',
        model: 'Creta',
        categoryName: 'SUVs',
        categorySlug: 'suvs',
        price: '1395000',
        priceRupees: 1395000,
        featured: true,
        fitnessFC: 'Valid till Jul 2036',
        inspection: creta().inspection,
        refurbishment: creta().refurbishment,
        financial: creta().financial,
        videoUrl: creta().videoUrl,
      });
      expect(vehicle.images).toHaveLength(creta().images.length);
    });

    it.each(['999999', '0', 'abc', '-1', '1.5', '0x10', '1e1', '99999999999999999999'])('answers a 404 problem for /api/v1/vehicles/%s', async (id) => {
      const response = await fetch(`${base}/api/v1/vehicles/${id}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Vehicle not found',
        instance: expect.stringMatching(/^urn:request:/),
      });
    });
  });
});
