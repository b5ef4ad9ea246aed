import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppServices } from '../services.ts';
import { categoryIdBySlug, getVehicle, listCategories, listVehiclesWithFacets } from '../catalog/vehicles.ts';
import { modelYear, parseListingQuery } from '../../app/lib/listing-filters.ts';
import { settingsFor } from '../admin/settings.ts';
import { parseId, parsePage, parseWholeNumber } from '../../app/lib/input.ts';
import { deleteAccountLimited, exportFileName, exportPersonalData, passwordVerifier } from '../accounts/privacy.ts';
import { currentUser, forwardCookies } from '../auth/session.ts';
import { parseDeleteConfirmation, privacyMessages } from '../../app/lib/privacy.ts';
import { answerError } from './action-errors.ts';
import { readFormOrJson } from './forms.ts';
import { listOwnTestDrives, slotsFor, testDriveRules } from '../test-drives/test-drives.ts';
import { bookAndConfirm, cancelOwn, rescheduleAndConfirm } from '../test-drives/booking.ts';
import { parseIstDate, testDriveMessages } from '../../app/lib/test-drives.ts';
import { testDriveBodySchema, testDriveRescheduleSchema } from '../../app/lib/schemas/test-drives.ts';
import { formError, parseWith } from '../../app/lib/form-errors.ts';
import { rentalApi } from './api-rentals.ts';
import { apiLicence } from './api-licence.ts';

/** The most vehicles one page of the API holds (the listing's own limit). */
const MAX_PER_PAGE = 100;


/**
 * The JSON API the Android app (and the search overlay) reads. It calls the same services
 * as the pages, so the two never disagree.
 */
export function apiV1(services: AppServices) {
  const api = new Hono();
  const { database } = services;

  api.get('/vehicles', async (c) => {
    const { itemsPerPage } = await settingsFor(services);
    // An odd page or page size falls back to the default, as the pages do; a category that is
    // not one is a mistake the caller must hear about.
    const page = parsePage(c.req.query('page'));
    const perPage = parseWholeNumber(c.req.query('perPage'), { min: 1, max: MAX_PER_PAGE }) ?? itemsPerPage;
    // A category by id, or by the slug its page's URL carries (the filter sheet counts with it).
    const categoryParam = c.req.query('category');
    const categoryId = !categoryParam ? undefined : /^\d+$/.test(categoryParam) ? parseId(categoryParam) : await categoryIdBySlug(database, categoryParam);
    if (categoryId === null) return c.json({ error: 'category must be a category id (a whole number of 1 or more) or the slug of a category' }, 400);
    const { filters, sort, problems } = parseListingQuery(new URL(c.req.url).searchParams);
    if (problems.length > 0) return c.json({ error: problems.join('; ') }, 400);
    const listing = {
      // Not cleaned: a search with a control character matches nothing (catalog/search.ts).
      query: c.req.query('q') ?? '',
      filters,
      ...(categoryId !== undefined ? { categoryId } : {}),
    };
    const { facets, ...result } = await listVehiclesWithFacets(database, { ...listing, sort, page, perPage }, services.listingTotals);
    // Numbers an app can compare: the model year as a number (null when the dealer typed none).
    const items = result.items.map((item) => ({ ...item, year: modelYear(item.year) }));
    return c.json({ ...result, items, facets }, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/vehicles/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const vehicle = id === null ? null : await getVehicle(database, id);
    if (!vehicle) return c.json({ error: 'Vehicle not found' }, 404);
    return c.json(vehicle, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/categories', async (c) => c.json(await listCategories(database), 200, { 'Cache-Control': 'no-cache' }));

  // DPDP rights for the app's signed-in person (cookie session), the same services as /profile.
  api.get('/me/data', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401, { 'Cache-Control': 'no-store' });
    const now = new Date();
    const body = await exportPersonalData({ database, siteOrigin: services.config.siteOrigin, userId: user.id }, now);
    return c.json(body, 200, { 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${exportFileName(now)}"` });
  });

  api.post('/me/delete', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401);
    let result;
    try {
      // JSON or a form, read like every other body.
      const form = await readFormOrJson(c.req.raw);
      result = await deleteAccountLimited({ ...services, verifyPassword: passwordVerifier(services.auth) }, { userId: user.id, ...parseDeleteConfirmation(form) });
    } catch (error) {
      const answer = answerError(error, services.logger, { fallback: privacyMessages.deleteFailed, log: 'account deletion failed' });
      return c.json({ error: answer.message, ...(answer.reason ? { reason: answer.reason } : {}) }, answer.status as ContentfulStatusCode, Object.fromEntries(answer.headers));
    }
    const signedOut = await services.auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
    // The sessions are gone already; this also clears the app's cookie.
    const headers = forwardCookies(signedOut.headers, new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }));
    return new Response(JSON.stringify({ deleted: true, leadsErased: result.leadsErased }), { status: 200, headers });
  });

  // Test drives (decision 025). Times are India time, 'YYYY-MM-DDTHH:MM', as in the pages' URLs.
  /** A refusal as JSON with its status; anything unexpected is logged and answered with a fixed sentence. */
  const refusal = (error: unknown, log: string) => {
    const answer = answerError(error, services.logger, { fallback: testDriveMessages.failed, log });
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    answer.headers.forEach((value, name) => (headers[name] = value));
    return { body: { error: answer.message, ...(Object.keys(answer.fields).length ? { fields: answer.fields } : {}), ...(answer.reason ? { reason: answer.reason } : {}) }, status: answer.status as 400, headers };
  };
  /** A JSON object body, or null when the body is not one. */
  const jsonBody = async (request: Request): Promise<Record<string, unknown> | null> => {
    const parsed: unknown = await request.json().catch(() => null);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  };

  api.get('/test-drives/slots', async (c) => {
    const vehicleId = parseId(c.req.query('vehicleId') ?? '');
    if (vehicleId === null) return c.json({ error: 'vehicleId must be a vehicle id (a whole number of 1 or more)' }, 400);
    const date = parseIstDate(c.req.query('date'));
    if (!date) return c.json({ error: 'date must be a calendar date written YYYY-MM-DD (India time)' }, 400);
    try {
      const slots = await slotsFor(services, testDriveRules(await settingsFor(services)), { vehicleId, date });
      return c.json({ vehicleId, date, slots }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      const answer = refusal(error, 'test-drive slots failed');
      return c.json(answer.body, answer.status, answer.headers);
    }
  });

  api.post('/test-drives', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: testDriveMessages.signInFirst }, 401, { 'Cache-Control': 'no-store' });
    const body = await jsonBody(c.req.raw);
    if (!body) return c.json({ error: 'The body must be a JSON object: { vehicleId, slot, mode, pinCode? }' }, 400);
    const parsed = parseWith(testDriveBodySchema, body);
    if (!parsed.ok) return c.json(formError(parsed.error, parsed.fields), 400);
    try {
      const booking = await bookAndConfirm(services, { ...parsed.value, userId: user.id });
      const { name: _name, phone: _phone, email: _email, remindedAt: _remindedAt, ...testDrive } = booking;
      return c.json({ testDrive }, 201, { 'Cache-Control': 'no-store' });
    } catch (error) {
      const answer = refusal(error, 'test-drive booking failed');
      return c.json(answer.body, answer.status, answer.headers);
    }
  });

  api.get('/me/test-drives', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401, { 'Cache-Control': 'no-store' });
    return c.json({ testDrives: await listOwnTestDrives(services, user.id) }, 200, { 'Cache-Control': 'no-store' });
  });

  api.post('/me/test-drives/:id/:change{cancel|reschedule}', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401, { 'Cache-Control': 'no-store' });
    const id = parseId(c.req.param('id'));
    if (id === null) return c.json({ error: testDriveMessages.notYours }, 404);
    try {
      if (c.req.param('change') === 'cancel') return c.json({ testDrive: await cancelOwn(services, { id, userId: user.id }) }, 200, { 'Cache-Control': 'no-store' });
      const parsed = parseWith(testDriveRescheduleSchema, (await jsonBody(c.req.raw)) ?? {});
      if (!parsed.ok) return c.json(formError(parsed.error, parsed.fields), 400);
      const { name: _name, phone: _phone, email: _email, remindedAt: _remindedAt, ...testDrive } = await rescheduleAndConfirm(services, { id, userId: user.id, slot: parsed.value.slot });
      return c.json({ testDrive }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      const answer = refusal(error, 'test-drive change failed');
      return c.json(answer.body, answer.status, answer.headers);
    }
  });
  // Self-drive rental: the fleet, availability, bookings (server/http/api-rentals.ts).
  rentalApi(api, services);
  api.route('/', apiLicence(services));

  api.notFound((c) => c.json({ error: 'Not found' }, 404));
  return api;
}
