import { Hono } from 'hono';
import type { AppServices } from '../services.ts';
import { getVehicle, listCategories, listVehicles } from '../catalog/vehicles.ts';
import { settingsFor } from '../admin/settings.ts';

/**
 * The JSON API the Android app (and the search overlay) reads. It calls the same services
 * as the pages, so the two never disagree.
 */
export function apiV1(services: AppServices) {
  const api = new Hono();
  const { database } = services;

  api.get('/vehicles', async (c) => {
    const page = Number(c.req.query('page') ?? '1');
    const { itemsPerPage } = await settingsFor(database, services.config);
    const perPage = Number(c.req.query('perPage') ?? String(itemsPerPage));
    const category = c.req.query('category');
    const result = await listVehicles(database, {
      query: c.req.query('q') ?? '',
      page: Number.isFinite(page) ? page : 1,
      perPage: Number.isFinite(perPage) ? perPage : itemsPerPage,
      ...(category && /^\d+$/.test(category) ? { categoryId: Number(category) } : {}),
    });
    return c.json(result, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/vehicles/:id', async (c) => {
    const id = c.req.param('id');
    const vehicle = /^\d{1,12}$/.test(id) ? await getVehicle(database, Number(id)) : null;
    if (!vehicle) return c.json({ error: 'Vehicle not found' }, 404);
    return c.json(vehicle, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/categories', async (c) => c.json(await listCategories(database), 200, { 'Cache-Control': 'no-cache' }));

  api.notFound((c) => c.json({ error: 'Not found' }, 404));
  return api;
}
