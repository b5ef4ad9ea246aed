import type { Hono } from 'hono';
import { publicStatus } from '../public-status.ts';
import type { z } from 'zod';
import { parseId } from '../../../app/lib/input.ts';
import { queryObject, vehiclesQuerySchema } from '../../../app/features/listing/schemas.ts';
import { settingsFor } from '../../admin/settings.ts';
import { financeTerms } from '../settings.ts';
import { emiFrom } from '../../../app/features/emi/emi.ts';
import { browseText as t } from '../../../app/lib/i18n/browse.ts';
import type { AppServices } from '../../services.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem } from '../../http/problem.ts';
import { categoryListSchema, vehicleListSchema, vehicleSchema } from '../../http/api-answers.ts';
import { modelYear } from '../dealer-text.ts';
import { categoryIdBySlug, getVehicle, listCategories } from '../vehicles.ts';
import { indiaIso } from '../../../app/lib/india-time.ts';

/** The catalogue in the JSON API (/api/v1): the listing with its filter counts, a car, the categories. */
export function catalogApi(api: Hono, services: AppServices) {
  const { database } = services;

  const listing = describeRoute({
    tag: 'Catalogue',
    summary: 'The listing: search, filters, sort, a page, and the count per filter value',
    description:
      'Parameters as the listing URLs write them (decision 023); a list parameter repeats or joins its values with commas. `category` is a category id or slug. A value that means nothing is refused with 400 naming the parameter.',
    query: vehiclesQuerySchema,
    ok: { status: 200, schema: vehicleListSchema, description: 'One page of cars, with the facet counts of the filters.' },
    refusals: { 400: '' },
  });
  api.get('/vehicles', listing, async (c) => {
    const settings = await settingsFor(services);
    // The listing pages' own reading (an odd page or page size falls back to the default), but
    // a filter value that means nothing, or a category that is not one, is a mistake the
    // caller must hear about.
    const { term, category, filters, sort, page, perPage, problems } = vehiclesQuerySchema.parse(queryObject(new URL(c.req.url).searchParams));
    // A category by id, or by the slug its page's URL carries (the filter sheet counts with it).
    const categoryId = !category ? undefined : /^\d+$/.test(category) ? parseId(category) : await categoryIdBySlug(database, category);
    if (categoryId === null)
      return problem(c, 400, 'category must be a category id (a whole number of 1 or more) or the slug of a category', {
        fields: { category: 'category must be a category id (a whole number of 1 or more) or the slug of a category' },
      });
    if (problems.length > 0) return problem(c, 400, problems.join('; '));
    const listing = { query: term, filters, ...(categoryId !== undefined ? { categoryId } : {}) };
    const { facets, ...result } = await services.listing.pageWithFacets({ ...listing, sort, page, perPage: perPage ?? settings.itemsPerPage });
    // Numbers an app can compare: the model year as a number (null when the dealer typed none).
    // The EMI the cards show, worked out by the one rule on the admin's terms (app/features/emi/emi.ts).
    const terms = financeTerms(settings);
    const items = result.items.map((item) => ({
      ...item,
      status: publicStatus(item.status),
      year: modelYear(item.year),
      emiFrom: emiFrom(item.status === 'sold' ? null : item.priceRupees, terms),
    }));
    return c.json({ ...result, items, facets } satisfies z.input<typeof vehicleListSchema>, 200, { 'Cache-Control': 'no-cache' });
  });

  const oneVehicle = describeRoute({
    tag: 'Catalogue',
    summary: 'One car, with its EMI and the finance terms it assumes',
    params: { id: 'The vehicle id.' },
    ok: { status: 200, schema: vehicleSchema, description: 'The car.' },
    refusals: { 404: '' },
  });
  api.get('/vehicles/:id', oneVehicle, async (c) => {
    const id = parseId(c.req.param('id'));
    const vehicle = id === null ? null : await getVehicle(database, id);
    if (!vehicle) return problem(c, 404, t('vehicleNotFound'));
    const terms = financeTerms(await settingsFor(services));
    // The car page's one EMI figure, and the terms it assumes, so the app shows the same.
    // Times in India time, as the API answers every time (docs/api.md).
    const body = {
      ...vehicle,
      status: publicStatus(vehicle.status),
      createdAt: indiaIso(Date.parse(vehicle.createdAt)),
      updatedAt: indiaIso(Date.parse(vehicle.updatedAt)),
      emiFrom: emiFrom(vehicle.status === 'sold' ? null : vehicle.priceRupees, terms),
      financeTerms: terms,
    } satisfies z.input<typeof vehicleSchema>;
    return c.json(body, 200, { 'Cache-Control': 'no-cache' });
  });

  const categories = describeRoute({
    tag: 'Catalogue',
    summary: 'The categories, with how many cars each holds',
    ok: { status: 200, schema: categoryListSchema, description: 'Every category.' },
  });
  api.get('/categories', categories, async (c) =>
    c.json((await listCategories(database)) satisfies z.input<typeof categoryListSchema>, 200, { 'Cache-Control': 'no-cache' }),
  );
}
