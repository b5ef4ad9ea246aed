import type { Hono } from 'hono';
import { parseId } from '../../../app/lib/input.ts';
import { queryObject, vehiclesQuerySchema } from '../../../app/lib/schemas/listing.ts';
import { financeTerms, settingsFor } from '../../admin/settings.ts';
import { emiFrom } from '../../../app/lib/emi.ts';
import type { AppServices } from '../../services.ts';
import { modelYear } from '../dealer-text.ts';
import { categoryIdBySlug, getVehicle, listCategories } from '../vehicles.ts';

/** The catalogue in the JSON API (/api/v1): the listing with its filter counts, a car, the categories. */
export function catalogApi(api: Hono, services: AppServices) {
  const { database } = services;

  api.get('/vehicles', async (c) => {
    const settings = await settingsFor(services);
    // The listing pages' own reading (an odd page or page size falls back to the default), but
    // a filter value that means nothing, or a category that is not one, is a mistake the
    // caller must hear about.
    const { term, category, filters, sort, page, perPage, problems } = vehiclesQuerySchema.parse(queryObject(new URL(c.req.url).searchParams));
    // A category by id, or by the slug its page's URL carries (the filter sheet counts with it).
    const categoryId = !category ? undefined : /^\d+$/.test(category) ? parseId(category) : await categoryIdBySlug(database, category);
    if (categoryId === null) return c.json({ error: 'category must be a category id (a whole number of 1 or more) or the slug of a category' }, 400);
    if (problems.length > 0) return c.json({ error: problems.join('; ') }, 400);
    const listing = { query: term, filters, ...(categoryId !== undefined ? { categoryId } : {}) };
    const { facets, ...result } = await services.listing.pageWithFacets({ ...listing, sort, page, perPage: perPage ?? settings.itemsPerPage });
    // Numbers an app can compare: the model year as a number (null when the dealer typed none).
    // The EMI the cards show, worked out by the one rule on the admin's terms (app/lib/emi.ts).
    const terms = financeTerms(settings);
    const items = result.items.map((item) => ({ ...item, year: modelYear(item.year), emiFrom: emiFrom(item.status === 'sold' ? null : item.priceRupees, terms) }));
    return c.json({ ...result, items, facets }, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/vehicles/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    const vehicle = id === null ? null : await getVehicle(database, id);
    if (!vehicle) return c.json({ error: 'Vehicle not found' }, 404);
    const terms = financeTerms(await settingsFor(services));
    // The car page's one EMI figure, and the terms it assumes, so the app shows the same.
    return c.json({ ...vehicle, emiFrom: emiFrom(vehicle.status === 'sold' ? null : vehicle.priceRupees, terms), financeTerms: terms }, 200, { 'Cache-Control': 'no-cache' });
  });

  api.get('/categories', async (c) => c.json(await listCategories(database), 200, { 'Cache-Control': 'no-cache' }));
}
