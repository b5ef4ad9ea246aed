import type { Hono } from 'hono';
import type { z } from 'zod';
import { carCatalogueSchema } from '../../http/api-answers.ts';
import { describeRoute } from '../../http/openapi.ts';
import type { AppServices } from '../../services.ts';
import { carCatalogue } from '../car-models.ts';

/** The catalogue of cars sold in India in the JSON API (decision 098): the app's make, model and variant pickers. */
export function carModelsApi(api: Hono, services: AppServices) {
  const catalogue = describeRoute({
    tag: 'Selling',
    summary: 'Makes, models and variants of cars sold in India, with their Hindi names',
    description:
      'The shipped list with the dealer’s additions. The app filters it as the seller types; POST /sell-estimates reads typed names against the same list.',
    ok: { status: 200, schema: carCatalogueSchema, description: 'Every make with its models and their variants.' },
  });
  api.get('/car-models', catalogue, async (c) => {
    const makes = await carCatalogue(services.database);
    // An admin's addition shows within minutes; the list is otherwise the same for everyone.
    return c.json({ makes } satisfies z.input<typeof carCatalogueSchema>, 200, { 'Cache-Control': 'public, max-age=300' });
  });
}
