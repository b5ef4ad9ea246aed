import { Hono } from 'hono';
import type { AppServices } from '../services.ts';
import { getVehicle, listCategories, listVehicleFacets, listVehicles } from '../catalog/vehicles.ts';
import { modelYear, parseListingQuery } from '../../app/lib/listing-filters.ts';
import { settingsFor } from '../admin/settings.ts';
import { parseId, parsePage, parseWholeNumber } from '../../app/lib/input.ts';
import { deleteAccountLimited, exportFileName, exportPersonalData, passwordVerifier } from '../accounts/privacy.ts';
import { currentUser, forwardCookies } from '../auth/session.ts';

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
    // not an id is a mistake the caller must hear about.
    const page = parsePage(c.req.query('page'));
    const perPage = parseWholeNumber(c.req.query('perPage'), { min: 1, max: MAX_PER_PAGE }) ?? itemsPerPage;
    const categoryParam = c.req.query('category');
    const categoryId = categoryParam ? parseId(categoryParam) : undefined;
    if (categoryId === null) return c.json({ error: 'category must be a category id (a whole number of 1 or more)' }, 400);
    const { filters, sort, problems } = parseListingQuery(new URL(c.req.url).searchParams);
    if (problems.length > 0) return c.json({ error: problems.join('; ') }, 400);
    const listing = {
      // Not cleaned: a search with a control character matches nothing (catalog/search.ts).
      query: c.req.query('q') ?? '',
      filters,
      ...(categoryId !== undefined ? { categoryId } : {}),
    };
    const [result, facets] = [await listVehicles(database, { ...listing, sort, page, perPage }), await listVehicleFacets(database, listing)];
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
    // JSON or a form; anything else is simply an empty confirmation.
    const parsed: unknown = await (c.req.header('content-type')?.includes('json') ? c.req.json() : c.req.parseBody()).catch(() => null);
    const body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');
    const result = await deleteAccountLimited(
      { ...services, verifyPassword: passwordVerifier(services.auth) },
      { userId: user.id, password: text(body.password), confirmationWord: text(body.confirm) },
    );
    if (!result.ok) return c.json({ error: result.message, reason: result.reason }, result.reason === 'rate-limited' ? 429 : result.reason === 'last-admin' ? 409 : 400);
    const signedOut = await services.auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
    // The sessions are gone already; this also clears the app's cookie.
    const headers = forwardCookies(signedOut.headers, new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }));
    return new Response(JSON.stringify({ deleted: true, leadsErased: result.leadsErased }), { status: 200, headers });
  });

  api.notFound((c) => c.json({ error: 'Not found' }, 404));
  return api;
}
