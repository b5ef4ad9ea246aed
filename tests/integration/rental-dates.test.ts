import { beforeAll, describe, expect, it } from 'vitest';
import { mainOf, visibleText } from '../support/html.ts';
import { sharedServer } from '../support/shared.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';

/**
 * Dates a renter can get wrong in the URL of /rent, /rent/:id and /rent/:id/book (they do not
 * parse, are reversed, have passed, or lie beyond the booking horizon): the page still shows
 * the cars or the car, with the reason next to the date pickers, never a bare error page. The
 * JSON API answers 400 with the reason. On the shared demo server (its fleet is seeded).
 */

const { url: base, dialect } = sharedServer();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Fleet = { items: Array<{ id: number; name: string }> };

async function page(path: string) {
  const response = await fetch(base + path, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), type: response.headers.get('content-type') ?? '' };
}

/** The text of the pickers' form: the reason must be inside it, under the pickers. */
function pickerForm(html: string): string {
  const main = mainOf(html);
  const start = main.indexOf('id="rent-from"');
  expect(start, 'the date pickers are on the page').toBeGreaterThan(-1);
  const formStart = main.lastIndexOf('<form', start);
  const formEnd = main.indexOf('</form>', start);
  return main.slice(formStart, formEnd);
}

const query = (from: string, to: string) => `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

describe.skipIf(!base)(`rental dates a renter can get wrong (${dialect})`, () => {
  let car: { id: number; name: string };
  const now = Date.now();
  const soon = (ms: number) => indiaDateTimeParam(Math.ceil((now + ms) / HOUR) * HOUR);
  let cases: Array<{ name: string; from: string; to: string; message: string }>;

  beforeAll(async () => {
    const fleet = (await (await fetch(`${base}/api/v1/rentals/cars`)).json()) as Fleet;
    car = fleet.items[0]!;
    expect(car).toBeDefined();
    cases = [
      { name: 'unreadable', from: 'next tuesday', to: soon(3 * DAY), message: 'Please choose both a pickup and a return date and time.' },
      { name: 'an impossible day', from: '2026-02-30T10:00', to: soon(3 * DAY), message: 'Please choose both a pickup and a return date and time.' },
      {
        name: 'a NUL byte',
        from: `${soon(2 * DAY).slice(0, 10)}\u0000T10:00`,
        to: soon(3 * DAY),
        message: 'Please choose both a pickup and a return date and time.',
      },
      { name: 'reversed', from: soon(3 * DAY), to: soon(2 * DAY), message: 'The return time must be after the pickup time.' },
      { name: 'passed', from: '2021-03-01T10:00', to: '2021-03-02T10:00', message: 'This pickup time has passed.' },
      { name: 'beyond the horizon', from: soon(200 * DAY), to: soon(202 * DAY), message: 'Cars can be booked up to 90 days ahead.' },
    ];
  });

  it('shows the car page with the reason inside the date pickers, for each kind of wrong date', async () => {
    for (const wrong of cases) {
      const answer = await page(`/rent/${car.id}${query(wrong.from, wrong.to)}`);
      expect(answer.status, wrong.name).toBe(400);
      expect(answer.type).toMatch(/^text\/html/);
      const text = visibleText(mainOf(answer.html));
      expect(text, wrong.name).toContain(car.name);
      expect(text, wrong.name).toContain('Pickup (India time)');
      const form = pickerForm(answer.html);
      expect(visibleText(form), wrong.name).toContain(wrong.message);
      expect(form).toMatch(/id="rent-from"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="rent-from"/);
      expect(form).toContain('aria-describedby="rent-dates-problem"');
      // No quote and no Book button for dates that cannot be booked.
      expect(text, wrong.name).not.toContain('Your price');
    }
  });

  it('keeps the dates the renter typed in the pickers when they can be read, so only the wrong part needs changing', async () => {
    for (const name of ['passed', 'reversed', 'beyond the horizon']) {
      const wrong = cases.find((candidate) => candidate.name === name)!;
      for (const path of [`/rent/${car.id}`, '/rent']) {
        const form = pickerForm((await page(`${path}${query(wrong.from, wrong.to)}`)).html);
        expect(form, `${name} on ${path}`).toContain(`value="${wrong.from}"`);
        expect(form, `${name} on ${path}`).toContain(`value="${wrong.to}"`);
      }
    }
  });

  it('opens the calendar on this month when the dates were refused', async () => {
    const passed = cases.find((wrong) => wrong.name === 'passed')!;
    const text = visibleText(mainOf((await page(`/rent/${car.id}${query(passed.from, passed.to)}`)).html));
    expect(text).not.toContain('March 2021');
    expect(text).toContain(new Intl.DateTimeFormat('en-IN', { month: 'long', year: 'numeric', timeZone: 'Asia/Kolkata' }).format(now));
  });

  it('shows the whole fleet on /rent with the reason inside the date pickers', async () => {
    for (const wrong of cases) {
      const answer = await page(`/rent${query(wrong.from, wrong.to)}`);
      expect(answer.status, wrong.name).toBe(400);
      expect(visibleText(pickerForm(answer.html)), wrong.name).toContain(wrong.message);
      expect(visibleText(mainOf(answer.html)), wrong.name).toContain(car.name);
    }
  });

  it('sends the booking page back to the car page with the dates, where the reason is shown', async () => {
    for (const wrong of cases) {
      const answer = await page(`/rent/${car.id}/book${query(wrong.from, wrong.to)}`);
      expect(answer.status, wrong.name).toBe(302);
      const target = new URL(answer.location!, base);
      expect(target.pathname).toBe(`/rent/${car.id}`);
      const shown = await page(target.pathname + target.search);
      expect(shown.status, wrong.name).toBe(400);
      expect(visibleText(pickerForm(shown.html)), wrong.name).toContain(wrong.message);
    }
  });

  it('answers the API with 400 and the reason', async () => {
    for (const wrong of cases) {
      for (const path of ['/api/v1/rentals/cars', `/api/v1/rentals/cars/${car.id}`]) {
        const response = await fetch(`${base}${path}${query(wrong.from, wrong.to)}`);
        expect(response.status, `${wrong.name} ${path}`).toBe(400);
        const body = (await response.json()) as { detail: string };
        expect(body.detail.length, wrong.name).toBeGreaterThan(10);
      }
    }
  });
});
