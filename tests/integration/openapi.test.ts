import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  categoryListSchema,
  licenceAnswerSchema,
  problemSchema,
  rentalAvailabilitySchema,
  rentalBookingListSchema,
  rentalCarListSchema,
  rentalCarSchema,
  rentalTermsSchema,
  testDriveListSchema,
  testDriveSlotsSchema,
  vehicleListSchema,
  vehicleSchema,
} from '../../server/http/api-answers.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Real answers of the running server, on SQLite and PostgreSQL, against the schemas the OpenAPI
 * document is made from (decision 072): each answer parses, and parsing keeps every key (an
 * answer schema has no transforms and `z.object` drops unknown keys, so a key the handler
 * sends and the document does not name fails too). The document itself is served public and
 * briefly cacheable.
 */

const shared = sharedServer();

/** The body of `response`, checked: its status, JSON, and that `schema` reads it whole. */
async function answerOf<Schema extends z.ZodType>(response: Response, status: number, schema: Schema): Promise<z.output<Schema>> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  // A refusal is a problem (RFC 9457); an answer is JSON.
  expect(response.headers.get('content-type')).toMatch(status >= 400 ? /^application\/problem\+json/ : /^application\/json/);
  const body: unknown = JSON.parse(text);
  const parsed = schema.safeParse(body);
  expect(parsed.success ? null : parsed.error.issues.slice(0, 3), text.slice(0, 300)).toBeNull();
  expect(parsed.data).toEqual(body);
  return parsed.data as z.output<Schema>;
}

describe.skipIf(!shared.url)(`the OpenAPI document against real answers (${shared.dialect})`, () => {
  let server: TestServer;
  let person: HttpClient;

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, env: { APP_MODE: 'demo' } });
    person = new HttpClient(server.url);
    await signUp(person, uniqueEmail('openapi'));
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('serves the document at /api/v1/openapi.json, public and briefly cacheable', async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/vehicles', '/vehicles/{id}', '/rentals/bookings', '/me/licence', '/openapi.json']));
  });

  it('the catalogue answers as documented: the listing with its facets, a car, the categories', async () => {
    const listing = await answerOf(await fetch(`${server.url}/api/v1/vehicles?perPage=5`), 200, vehicleListSchema);
    expect(listing.items.length).toBeGreaterThan(0);
    await answerOf(await fetch(`${server.url}/api/v1/vehicles/${listing.items[0]!.id}`), 200, vehicleSchema);
    await answerOf(await fetch(`${server.url}/api/v1/categories`), 200, categoryListSchema);
    await answerOf(await fetch(`${server.url}/api/v1/vehicles?fuel=steam`), 400, problemSchema);
    await answerOf(await fetch(`${server.url}/api/v1/vehicles/99999999999`), 404, problemSchema);
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await answerOf(await fetch(`${server.url}/api/v1/test-drives/slots?vehicleId=${listing.items[0]!.id}&date=${day}`), 200, testDriveSlotsSchema);
  });

  it('the rentals answer as documented: the fleet with quotes, a car, its month, the terms', async () => {
    const from = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    const fleet = await answerOf(await fetch(`${server.url}/api/v1/rentals/cars?from=${from}T10:00&to=${to}T10:00`), 200, rentalCarListSchema);
    expect(fleet.items.length).toBeGreaterThan(0);
    expect(fleet.items.some((car) => car.quote !== null)).toBe(true);
    const carId = fleet.items[0]!.id;
    await answerOf(await fetch(`${server.url}/api/v1/rentals/cars/${carId}`), 200, rentalCarSchema);
    await answerOf(await fetch(`${server.url}/api/v1/rentals/cars/${carId}/availability`), 200, rentalAvailabilitySchema);
    await answerOf(await fetch(`${server.url}/api/v1/rentals/terms`), 200, rentalTermsSchema);
    await answerOf(await fetch(`${server.url}/api/v1/rentals/cars?from=${from}T10:00`), 400, problemSchema);
  });

  it('a signed-in person’s reads answer as documented; without a session, 401 with the error shape', async () => {
    await answerOf(await person.get('/api/v1/me/licence'), 200, licenceAnswerSchema);
    await answerOf(await person.get('/api/v1/me/test-drives'), 200, testDriveListSchema);
    await answerOf(await person.get('/api/v1/me/bookings'), 200, rentalBookingListSchema);
    await answerOf(await fetch(`${server.url}/api/v1/me/bookings`), 401, problemSchema);
    const refused = await person.request('/api/v1/test-drives', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vehicleId: 'x', mode: 'boat' }),
    });
    const error = await answerOf(refused, 400, problemSchema);
    expect(Object.keys(error.fields ?? {})).toEqual(expect.arrayContaining(['vehicleId', 'mode']));
  });
});
