import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeProfile, HttpClient, mainText, signUp, uniqueEmail, uniqueMobile, visibleText } from '../support/http-client.ts';
import { openServerSql } from '../support/database.ts';
import { addFleetCarOn, param, sendLicence } from '../support/rentals.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The booking page and the booking service agree on who may book (issue: rules written twice),
 * on SQLite and PostgreSQL: for each state of the renter's licence (none, awaiting review,
 * approved, refused, a date of birth that cannot be read, too young for the car) and a phone
 * not verified, the page's steps say "ready" exactly when the app's API books (201), the
 * refusal names the step the page marks, and the page's own Book button gets the same answer.
 */

const shared = sharedServer();
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

type StepState = 'done' | 'waiting for review' | 'needs attention' | 'to do';
type Step = { label: string; state: StepState; detail: string };

/** The steps of the booking page as a person reads them (label, state for screen readers, detail). */
function stepsOf(html: string): Step[] {
  const list = /<ol[^>]*aria-label="Booking steps"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? '';
  return list
    .split('<li')
    .slice(1)
    .map((item) => {
      const match = /<p class="font-semibold">([\s\S]*?)<span class="sr-only">([\s\S]*?)<\/span><\/p><p[^>]*>([\s\S]*?)<\/p>/.exec(item);
      if (!match) throw new Error(`a booking step that does not read as one: ${item}`);
      return { label: visibleText(match[1]!), state: visibleText(match[2]!).replace(/^:\s*/, '') as StepState, detail: visibleText(match[3]!) };
    });
}

/** India's calendar date `years` years and a month before now, as a date of birth. */
function bornYearsAgo(years: number): string {
  const date = new Date(Date.now() - 30 * DAY_MS);
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return date.toISOString().slice(0, 10);
}

type Case = {
  name: string;
  phone: boolean;
  /** What the licence on file is; null: none. */
  licence: null | { dateOfBirth: string; status: 'pending' | 'approved' | 'refused'; storedDateOfBirth?: string };
  /** The page's licence step, and the refusal's reason when the API must refuse. */
  licenceStep: StepState;
  detail: RegExp;
  refusal: string | null;
};

const cases: Case[] = [
  { name: 'no licence', phone: true, licence: null, licenceStep: 'to do', detail: /Number, date of birth and photos/, refusal: 'licence' },
  {
    name: 'a licence awaiting review',
    phone: true,
    licence: { dateOfBirth: '1990-05-17', status: 'pending' },
    licenceStep: 'waiting for review',
    detail: /you can book now/,
    refusal: null,
  },
  {
    name: 'an approved licence',
    phone: true,
    licence: { dateOfBirth: '1988-11-02', status: 'approved' },
    licenceStep: 'done',
    detail: /^Approved$/,
    refusal: null,
  },
  {
    name: 'a refused licence',
    phone: true,
    licence: { dateOfBirth: '1991-01-09', status: 'refused' },
    licenceStep: 'needs attention',
    detail: /^Not accepted: The photo is blurred$/,
    refusal: 'licence-refused',
  },
  {
    name: 'a date of birth that cannot be read',
    phone: true,
    licence: { dateOfBirth: '1992-07-21', status: 'pending', storedDateOfBirth: '21/07/1992' },
    licenceStep: 'needs attention',
    detail: /date of birth on your driving licence cannot be read/,
    refusal: 'licence-date-of-birth',
  },
  {
    name: 'too young for the car',
    phone: true,
    licence: { dateOfBirth: bornYearsAgo(19), status: 'approved' },
    licenceStep: 'needs attention',
    detail: /at least 21/,
    refusal: 'age',
  },
  {
    name: 'a phone not verified (licence approved)',
    phone: false,
    licence: { dateOfBirth: '1985-03-30', status: 'approved' },
    licenceStep: 'done',
    detail: /^Approved$/,
    refusal: 'phone',
  },
];

describe.skipIf(!shared.url)(`the booking page and the booking service agree on who may book (${shared.dialect})`, () => {
  let server: TestServer;
  let carId: number;
  const people = new Map<string, HttpClient>();

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: false, env: { TRUST_PROXY: 'true' } });
    carId = await addFleetCarOn(server, 'Readiness Swift');
    const sql = await openServerSql(server);
    try {
      await Promise.all(
        cases.map(async (row, index) => {
          const client = new HttpClient(server.url);
          const email = uniqueEmail(`ready${index}`);
          await signUp(client, email);
          await completeProfile(client, `Renter ${index}`, uniqueMobile());
          const [user] = await sql.all<{ id: string }>('SELECT id FROM "user" WHERE email = ?', [email]);
          if (!row.phone) await sql.run('UPDATE profiles SET phone_verified = 0 WHERE user_id = ?', [user!.id]);
          if (row.licence) {
            const sent = await sendLicence(client, `MH02201900${String(index).padStart(5, '0')}`, row.licence.dateOfBirth);
            expect(sent.status, row.name).toBe(201);
            // States only the desk (or older data) can bring: set in the database as they would be stored.
            await sql.run('UPDATE driving_licences SET status = ?, refusal_reason = ?, date_of_birth = ? WHERE user_id = ?', [
              row.licence.status,
              row.licence.status === 'refused' ? 'The photo is blurred' : null,
              row.licence.storedDateOfBirth ?? row.licence.dateOfBirth,
              user!.id,
            ]);
          }
          people.set(row.name, client);
        }),
      );
    } finally {
      await sql.close();
    }
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  /** A day-long range `daysAhead` days from now, on the hour, as the booking URLs write it. */
  function range(daysAhead: number): { from: string; to: string; query: string } {
    const fromMs = Math.ceil((Date.now() + daysAhead * DAY_MS) / HOUR_MS) * HOUR_MS;
    const from = param(fromMs);
    const to = param(fromMs + DAY_MS);
    return { from, to, query: `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}` };
  }

  it.each(cases.map((row, index) => [row.name, row, index] as const))('%s', async (_name, row, index) => {
    const client = people.get(row.name)!;
    const dates = range(3 + 4 * index);
    const page = await client.get(`/rent/${carId}/book?${dates.query}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const steps = stepsOf(html);
    expect(steps.map((step) => step.label)).toEqual(['Sign in', 'Verify your phone', 'Driving licence']);
    expect(steps[0]!.state).toBe('done');
    expect(steps[1]!.state).toBe(row.phone ? 'done' : 'to do');
    expect(steps[2]!.state).toBe(row.licenceStep);
    expect(steps[2]!.detail).toMatch(row.detail);
    const pageSaysReady = !mainText(html).includes('Finish the steps above to book.');
    expect(pageSaysReady).toBe(row.refusal === null);

    // The app's API (the booking service) books exactly when the page says ready.
    const answer = await client.request('/api/v1/rentals/bookings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ carId, from: dates.from, to: dates.to, pickup: 'hub' }),
    });
    const body = (await answer.json()) as { detail?: string; reason?: string };
    if (row.refusal === null) {
      expect(answer.status, body.detail).toBe(201);
    } else {
      expect(answer.status).toBe(422);
      expect(body.reason).toBe(row.refusal);
      // The page marks the very step the service refused by.
      const refusedStep = row.refusal === 'phone' ? steps[1]! : steps[2]!;
      expect(refusedStep.state).not.toMatch(/^(done|waiting for review)$/);
    }

    // The page's Book button gets the same answer for the next free range.
    const next = range(5 + 4 * index);
    const posted = await client.postForm(`/rent/${carId}/book?${next.query}`, { pickup: 'hub' });
    if (row.refusal === null) {
      expect(posted.status).toBe(302);
    } else {
      expect(posted.status).toBe(422);
      expect(mainText(await posted.text())).toContain(body.detail!);
    }
  });
});
