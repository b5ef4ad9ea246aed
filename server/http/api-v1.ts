import { Hono } from 'hono';
import type { AppServices } from '../services.ts';
import { getVehicle, listCategories, listVehicles } from '../catalog/vehicles.ts';
import { settingsFor } from '../admin/settings.ts';
import { parseId, parsePage, parseWholeNumber } from '../../app/lib/input.ts';

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
    const { itemsPerPage } = await settingsFor(database, services.config);
    // An odd page or page size falls back to the default, as the pages do; a category that is
    // not an id is a mistake the caller must hear about.
    const page = parsePage(c.req.query('page'));
    const perPage = parseWholeNumber(c.req.query('perPage'), { min: 1, max: MAX_PER_PAGE }) ?? itemsPerPage;
    const categoryParam = c.req.query('category');
    const categoryId = categoryParam ? parseId(categoryParam) : undefined;
    if (categoryId === null) return c.json({ error: 'category must be a category id (a whole number of 1 or more)' }, 400);
    const result = await listVehicles(database, {
      // Not cleaned: a search with a control character matches nothing (catalog/search.ts).
      query: c.req.query('q') ?? '',
      page,
      perPage,
      ...(categoryId !== undefined ? { categoryId } : {}),
    });
    return c.json(result, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/vehicles/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const vehicle = id === null ? null : await getVehicle(database, id);
    if (!vehicle) return c.json({ error: 'Vehicle not found' }, 404);
    return c.json(vehicle, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/categories', async (c) => c.json(await listCategories(database), 200, { 'Cache-Control': 'no-cache' }));

  api.notFound((c) => c.json({ error: 'Not found' }, 404));
  return api;
}
