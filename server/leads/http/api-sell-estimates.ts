import type { Hono } from 'hono';
import type { z } from 'zod';
import { sellEstimateAnswerSchema } from '../../http/api-answers.ts';
import { sellCarSchema, type SellCarField } from '../../../app/features/sell/estimate-schemas.ts';
import { settingsFor } from '../../admin/settings.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { carFromCatalogue, estimateForSeller } from '../sell-estimates.ts';
import { sellText as t } from '../../../app/features/sell/sell-texts.ts';

/** The seller's estimate in the JSON API (/api/v1): the same schema and service as the sell page's first step (decision 081). */
export function sellEstimateApi(api: Hono, services: AppServices) {
  const estimate = describeRoute({
    tag: 'Selling',
    summary: "An instant price range for a seller's car, from the dealer's own cars",
    body: { kind: 'json', schema: sellCarSchema },
    ok: { status: 200, schema: sellEstimateAnswerSchema, description: 'A range and what it is based on, or `not-enough-data` with why.' },
    description:
      "`make`, `model` and `variant` are read against the catalogue (GET /car-models) by name, Hindi name or id, with the search's typo tolerance: 'hundai' 'cretta' is Hyundai Creta. A name it does not know is refused with the closest names in `fields`; with `unlisted: true` they are taken as typed.",
    refusals: { 400: 'A field is missing or wrong, or a make, model or variant is not in the catalogue (`fields` names each).' },
  });
  api.post('/sell-estimates', estimate, async (c) => {
    const body: unknown = await c.req.json().catch(() => null);
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return problem(c, 400, t('bodyMustBe', { shape: '{ make, model, variant?, unlisted?, year, fuel, transmission, km, owners, registrationState }' }));
    }
    const parsed = sellCarSchema.safeParse(body);
    if (!parsed.success) {
      const fields: Partial<Record<SellCarField, string>> = {};
      for (const issue of parsed.error.issues) fields[issue.path[0] as SellCarField] ??= issue.message;
      return problem(c, 400, Object.values(fields)[0] ?? t('checkCarDetails'), { fields: fields as Record<string, string> });
    }
    try {
      const car = await carFromCatalogue(services.database, parsed.data);
      const result = await estimateForSeller(services, await settingsFor(services), car);
      return c.json({ estimate: result, car } satisfies z.input<typeof sellEstimateAnswerSchema>, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('estimateFailed'), log: 'sell estimate failed' });
    }
  });
}
