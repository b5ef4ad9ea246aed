import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_FINANCE_TERMS, emiFrom, type FinanceTerms } from '../../app/features/emi/emi.ts';
import { loanSummary } from '../../app/features/emi/calculator.ts';
import { formatRupees, priceDigits } from '../../app/lib/format.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { openServerDatabase } from '../support/database.ts';
import { mainOf, metaContent, tags, visibleText } from '../support/html.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The buyer's tools on the server-rendered pages, on SQLite and on PostgreSQL: "EMI from" on
 * every card and vehicle page worked out by the one EMI function on the admin's saved terms,
 * the settings that hold those terms, the calculator as a form sent without JavaScript, the
 * compare page (sold and missing cars, hostile `ids`, noindex), and the heart and the Reserved
 * badge on the cards.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = { email: 'admin@gaadibazaar.in', password: 'secret123' };

type Card = { id: number; title: string; price: string; emi: string | null; html: string };

/** The cards of a listing page, read from its HTML. */
function cards(html: string): Card[] {
  return [...mainOf(html).matchAll(/<article\b[\s\S]*?<\/article>/g)].map((match) => {
    const card = match[0];
    const id = Number(/href="\/vehicle\/(\d+)"/.exec(card)?.[1]);
    const title = visibleText(/<h3\b[\s\S]*?<\/h3>/.exec(card)?.[0] ?? '');
    const text = read(card);
    return {
      id,
      title,
      price: /On-road price ₹[\d,]+|Price on request/.exec(text)?.[0] ?? '',
      emi: /EMI from (₹[\d,]+)\/month/.exec(text)?.[1] ?? null,
      html: card,
    };
  });
}

/** Visible text, with "₹X /month" (two elements) read as one "₹X/month". */
const read = (html: string) => visibleText(html).replace(/ \/month/g, '/month');
/** The car page's EMI calculator, as read. */
const calculatorOf = (html: string) => read(/<section id="emi"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '');

describe.skipIf(!sharedUrl)(`buyer's tools: EMI, compare, hearts on cards (${dialect})`, () => {
  let server: TestServer;
  let admin: HttpClient;
  const visitor = () => new HttpClient(server.url);

  async function page(client: HttpClient, path: string) {
    const response = await client.get(path);
    return { status: response.status, html: await response.text() };
  }

  async function saveTerms(fields: Record<string, string>) {
    const settings = await page(admin, '/admin/settings');
    const value = (id: string) => tags(settings.html, 'input').find((tag) => tag.id === id)?.value ?? '';
    return admin.postForm('/admin/settings', {
      intent: 'save',
      siteName: value('siteName'),
      adminEmail: value('adminEmail'),
      itemsPerPage: '10',
      emailNotifications: 'on',
      ...fields,
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: ADMIN.password, PAGE_CACHE_SECONDS: '0' } });
    admin = new HttpClient(server.url);
    const signedIn = await admin.postForm('/admin-login', { ...ADMIN, botCheck: await admin.botToken('LOGIN') });
    expect(signedIn.status).toBe(302);
  });
  afterAll(async () => {
    await server?.stop();
  });

  function expectCardEmi(html: string, terms: FinanceTerms) {
    const listed = cards(html);
    expect(listed.length).toBeGreaterThan(0);
    let priced = 0;
    for (const card of listed) {
      const price = priceDigits(card.price);
      const expected = emiFrom(price, terms);
      expect(card.emi, card.title).toBe(expected === null ? null : formatRupees(expected));
      if (expected !== null) priced += 1;
    }
    expect(priced).toBeGreaterThan(0);
  }

  test('every card with a price shows "EMI from" by the EMI function on the default terms, with the assumptions', async () => {
    const home = await page(visitor(), '/');
    expect(home.status).toBe(200);
    expectCardEmi(home.html, DEFAULT_FINANCE_TERMS);
    expect(read(mainOf(home.html))).toContain('Assumes 85% of the price financed at 12% a year for 60 months.');
  });

  test('saved EMI terms change every card, the vehicle page and the calculator’s starting values', async () => {
    const terms: FinanceTerms = { ratePercent: 10.5, tenureMonths: 36, financedPercent: 80 };
    const saved = await saveTerms({ emiRatePercent: '10.5', emiTenureMonths: '36', emiFinancedPercent: '80' });
    expect(saved.status).toBe(302);
    try {
      const home = await page(visitor(), '/');
      expectCardEmi(home.html, terms);
      expect(read(mainOf(home.html))).toContain('Assumes 80% of the price financed at 10.5% a year for 36 months.');

      const card = cards(home.html).find((entry) => entry.emi !== null)!;
      const vehicle = await page(visitor(), `/vehicle/${card.id}`);
      const price = priceDigits(card.price)!;
      const text = read(mainOf(vehicle.html));
      expect(text).toContain(`EMI from ${formatRupees(emiFrom(price, terms)!)}/month`);
      // The calculator starts from 20% down, 10.5%, 36 months.
      const inputs = tags(vehicle.html, 'input');
      expect(inputs.find((tag) => tag.id === 'emi-dp')?.value).toBe(String(price - Math.round(price * 0.8)));
      expect(inputs.find((tag) => tag.id === 'emi-rate')?.value).toBe('10.5');
      expect(text).toContain(`EMI ${formatRupees(loanSummary(price, price - Math.round(price * 0.8), 10.5, 36).emi)}/month`);
    } finally {
      expect((await saveTerms({ emiRatePercent: '12', emiTenureMonths: '60', emiFinancedPercent: '85' })).status).toBe(302);
    }
  });

  test('EMI settings refuse wrong values with a message each and keep the terms in force', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ emiRatePercent: 'abc' }, 'Interest rate must be a number'],
      [{ emiRatePercent: '0.5' }, 'Interest rate must be between 1% and 30%'],
      [{ emiRatePercent: '31' }, 'Interest rate must be between 1% and 30%'],
      [{ emiRatePercent: '10.125' }, 'Interest rate may have at most two decimals'],
      [{ emiTenureMonths: '13' }, 'Tenure must be 12, 24, 36, 48, 60, 72, 84 months'],
      [{ emiTenureMonths: '99999999999999999999' }, 'Tenure must be 12, 24, 36, 48, 60, 72, 84 months'],
      [{ emiFinancedPercent: '5' }, 'Share financed must be between 10% and 100%'],
      [{ emiFinancedPercent: '101' }, 'Share financed must be between 10% and 100%'],
      [{ emiFinancedPercent: '85.5' }, 'Share financed must be a whole percentage'],
    ];
    for (const [fields, message] of cases) {
      const response = await saveTerms(fields);
      expect(response.status, JSON.stringify(fields)).toBe(200);
      const text = visibleText(await response.text());
      expect(text, JSON.stringify(fields)).toContain('Please correct the highlighted fields.');
      expect(text, JSON.stringify(fields)).toContain(message);
    }
    // A control character is refused at the edge, before anything reads the form (decision 061).
    expect((await saveTerms({ emiRatePercent: '1\u00002' })).status).toBe(400);
    const home = await page(visitor(), '/');
    expectCardEmi(home.html, DEFAULT_FINANCE_TERMS);
  });

  test('the calculator works as a form sent without JavaScript, and says what is wrong with a value', async () => {
    const home = await page(visitor(), '/');
    const card = cards(home.html).find((entry) => entry.emi !== null)!;
    const price = priceDigits(card.price)!;
    const downPayment = Math.round(price / 5);
    const answer = await page(visitor(), `/vehicle/${card.id}?dp=${downPayment}&rate=9.5&tenure=84`);
    expect(answer.status).toBe(200);
    const summary = loanSummary(price, downPayment, 9.5, 84);
    const text = read(mainOf(answer.html));
    expect(text).toContain(`EMI ${formatRupees(summary.emi)}/month`);
    expect(text).toContain(`Total interest ${formatRupees(summary.totalInterest)}`);
    expect(text).toContain(`Total paid ${formatRupees(summary.totalPaid)}`);
    // The form sends itself back to the calculator.
    expect(tags(answer.html, 'form').some((form) => form.method === 'get' && form.action === `/vehicle/${card.id}#emi`)).toBe(true);

    const wrong = await page(visitor(), `/vehicle/${card.id}?dp=-5&rate=25&tenure=13%00`);
    expect(wrong.status).toBe(200);
    const wrongText = read(mainOf(wrong.html));
    expect(wrongText).toContain('Down payment must be a whole number of rupees');
    expect(wrongText).toContain('Interest rate must be between 9% and 20% a year.');
    expect(wrongText).toContain('Tenure must be 12, 24, 36, 48, 60, 72, 84 months.');
    // No figures for values other than the ones in the fields: the defaults' EMI would be a stale answer.
    expect(calculatorOf(wrong.html)).toMatch(/^EMI calculator EMI — Down payment must be/);
    expect(calculatorOf(wrong.html)).not.toMatch(/Loan amount|Total interest|\/month/);
  });

  test('a down payment above the price, sent without JavaScript, says the price and shows no EMI, in English and Hindi', async () => {
    const home = await page(visitor(), '/');
    const card = cards(home.html).find((entry) => entry.emi !== null)!;
    const price = priceDigits(card.price)!;
    const over = price + 100_000;
    const answer = await page(visitor(), `/vehicle/${card.id}?dp=${over}&rate=10&tenure=36`);
    expect(answer.status).toBe(200);
    // What is wrong stands where the figures were, and no EMI is shown.
    expect(calculatorOf(answer.html)).toMatch(
      new RegExp(`^EMI calculator EMI — The down payment cannot be more than the car’s price of ${formatRupees(price)}\\. Down payment`),
    );
    expect(calculatorOf(answer.html)).not.toMatch(/Loan amount|Total interest|\/month/);
    // The field keeps what was typed, so the message is about what the buyer sees.
    expect(tags(answer.html, 'input').find((tag) => tag.id === 'emi-dp')?.value).toBe(String(over));
    // The form is sent as typed: the browser's own check (in its language) does not stop it first.
    expect(tags(answer.html, 'form').find((form) => form.action === `/vehicle/${card.id}#emi`)).toHaveProperty('novalidate');

    const hindi = calculatorOf((await page(visitor(), `/hi/vehicle/${card.id}?dp=${over}`)).html);
    expect(hindi).toContain(`EMI — डाउन पेमेंट कार की कीमत ${formatRupees(price)} से ज़्यादा नहीं हो सकता।`);
    expect(hindi).not.toContain('कुल ब्याज');
  });

  test('compare shows the cars side by side, a sold car and a missing id as no longer available, noindex', async () => {
    const listed = cards((await page(visitor(), '/')).html).filter((card) => card.emi !== null);
    const [first, second, third] = listed;
    const database = openServerDatabase(server);
    try {
      await database.db.updateTable('vehicles').set({ status: 'sold' }).where('id', '=', third!.id).execute();
      // Three cars, the most compared at once: one on sale, one sold, one id with no car.
      const compare = await page(visitor(), `/compare?ids=${first!.id},${third!.id},2147483647`);
      expect(compare.status).toBe(200);
      expect(metaContent(compare.html, 'robots')).toMatch(/noindex/);
      const main = mainOf(compare.html);
      const text = visibleText(main);
      expect(text).toContain(first!.title);
      expect(text.match(/This car is no longer available\./g)).toHaveLength(2);
      for (const label of [
        'On-road price',
        'EMI from',
        'Year',
        'Kilometres',
        'Fuel',
        'Transmission',
        'Owners',
        'Body type',
        'Registration state',
        'Insurance valid till',
        'Colour',
      ]) {
        expect(main, label).toMatch(new RegExp(`<th scope="row"[^>]*>${label}`));
      }
      expect(text).toContain(`${formatRupees(emiFrom(priceDigits(first!.price), DEFAULT_FINANCE_TERMS)!)}/month`);
      // Removing a car is a link to the list without it.
      expect(tags(main, 'a').some((link) => link.href === `/compare?ids=${third!.id},2147483647`)).toBe(true);
      // Hide common rows keeps only rows that differ.
      const differing = await page(visitor(), `/compare?ids=${first!.id},${second!.id}&hide=common`);
      const rowsAll = [...mainOf(compare.html).matchAll(/<th scope="row"/g)].length;
      const rowsDiffering = [...mainOf(differing.html).matchAll(/<th scope="row"/g)].length;
      expect(rowsDiffering).toBeLessThan(rowsAll);
      expect(read(mainOf(differing.html))).toContain('Show all rows');
    } finally {
      await database.db.updateTable('vehicles').set({ status: 'available' }).where('id', '=', third!.id).execute();
      await database.close();
    }
  });

  test('hostile ids get a clear page, never an error', async () => {
    const client = visitor();
    const many = Array.from({ length: 500 }, (_, index) => index + 1).join(',');
    const cases: Array<[string, RegExp]> = [
      ['', /No cars to compare yet Tap “Compare” on up to 3 cars/],
      ['abc', /One entry in this link is not a car and was left out\./],
      ['1%002', /not a car/],
      ['%00', /not a car/],
      ['99999999999999999999', /not a car/],
      ['2147483648', /not a car/],
      ['-1,0,1.5,0x10,1e3', /5 entries in this link are not cars/],
      [many, /Up to 3 cars can be compared at a time; the first 3 are shown\./],
      ['x'.repeat(5000), /not a car/],
      ['1,1,1,1', /./],
    ];
    for (const [ids, expected] of cases) {
      const response = await page(client, `/compare?ids=${ids}`);
      expect(response.status, ids.slice(0, 40)).toBe(200);
      expect(read(mainOf(response.html)), ids.slice(0, 40)).toMatch(expected);
      expect(metaContent(response.html, 'robots')).toMatch(/noindex/);
    }
    const repeated = await page(client, '/compare?ids=1,1,1,1');
    expect([...mainOf(repeated.html).matchAll(/<th scope="col"/g)]).toHaveLength(1);
    const doubled = await page(client, '/compare?ids=1&ids=2&hide=%00');
    expect(doubled.status).toBe(200);
  });

  test('a heart on every card: signed out it leads to sign-in; signed in it adds and removes with the vehicle page’s messages', async () => {
    const signedOut = cards((await page(visitor(), '/')).html);
    for (const card of signedOut) {
      const heart = tags(card.html, 'a').find((link) => link['aria-label'] === `Add ${card.title} to wishlist`);
      // Signing in brings the visitor back to the listing they were on.
      expect(heart?.href, card.title).toBe('/login?redirectTo=%2F');
    }

    const user = new HttpClient(server.url);
    await signUp(user, uniqueEmail('hearts'));
    // The home page is shared (decision 127): rendered for nobody, its hearts the signed-out ones;
    // the browser fills the person's in after it loaded, from GET /api/v1/me/summary.
    const before = cards((await page(user, '/')).html);
    const card = before[0]!;
    expect(before.map((entry) => entry.html)).toEqual(signedOut.map((entry) => entry.html));
    const summary = async () => ((await (await user.get('/api/v1/me/summary')).json()) as { wishlist: number[] }).wishlist;
    expect(await summary()).toEqual([]);

    // What the heart's form sends (the vehicle page's own action).
    const added = await user.postForm(`/vehicle/${card.id}`, { intent: 'wishlist', wishlisted: 'true' });
    expect(added.status).toBe(200);
    expect(await summary()).toEqual([card.id]);
    // The wishlist page is the person's own: rendered for them, its hearts filled, each a form to the car's page.
    const wishlist = cards((await page(user, '/wishlist')).html);
    expect(wishlist.map((entry) => entry.id)).toEqual([card.id]);
    expect(tags(wishlist[0]!.html, 'form').some((form) => form.method === 'post' && form.action === `/vehicle/${card.id}`)).toBe(true);
    expect(tags(wishlist[0]!.html, 'button').find((button) => button['aria-label'] === `Remove ${card.title} from wishlist`)?.['aria-pressed']).toBe('true');

    // The same answers the vehicle page's heart gets, as the fetcher reads them.
    const data = await user.postForm(`/vehicle/${card.id}.data`, { intent: 'wishlist', wishlisted: 'false' });
    expect(data.status).toBe(200);
    expect(await data.text()).toContain('Removed from wishlist');
    expect(await summary()).toEqual([]);

    // The heart's form is read by its schema (decision 109): anything but on or off is refused with the wishlist's message, nothing changed.
    const odd = await user.postForm(`/vehicle/${card.id}.data`, { intent: 'wishlist', wishlisted: 'maybe' });
    expect(odd.status).toBe(400);
    expect(await odd.text()).toContain('Your wishlist could not be changed. Please try again.');

    // Signed out, posting the heart's form leads to sign-in, as on the vehicle page.
    const anonymous = await visitor().postForm(`/vehicle/${card.id}`, { intent: 'wishlist', wishlisted: 'true' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login');
  });

  test('a reserved car carries "Reserved" on its card, its EMI kept', async () => {
    const listed = cards((await page(visitor(), '/')).html);
    const target = listed.find((card) => card.emi !== null)!;
    const database = openServerDatabase(server);
    try {
      await database.db.updateTable('vehicles').set({ status: 'reserved' }).where('id', '=', target.id).execute();
      const card = cards((await page(visitor(), '/')).html).find((entry) => entry.id === target.id)!;
      expect(visibleText(card.html)).toContain('Reserved');
      expect(card.emi).toBe(target.emi);
    } finally {
      await database.db.updateTable('vehicles').set({ status: 'available' }).where('id', '=', target.id).execute();
      await database.close();
    }
  });
});
