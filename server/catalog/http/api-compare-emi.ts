import type { Hono } from 'hono';
import { publicStatus } from '../public-status.ts';
import type { z } from 'zod';
import { COMPARE_MAX, compareIdsNotice } from '../../../app/features/compare/compare.ts';
import { compareRows } from '../../../app/features/compare/compare-rows.ts';
import { emiFrom, TENURE_OPTIONS } from '../../../app/features/emi/emi.ts';
import { browseText as t } from '../../../app/lib/i18n/browse.ts';
import { CALCULATOR_LIMITS, calculatorDefaults, calculatorMessages, calculatorNote, loanSummary } from '../../../app/features/emi/calculator.ts';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { parseId } from '../../../app/lib/input.ts';
import { compareAnswerSchema, vehicleEmiSchema } from '../../http/api-answers.ts';
import { compareQuerySchema } from '../../../app/features/compare/schemas.ts';
import { emiQuerySchema } from '../../../app/features/emi/schemas.ts';
import { cardTitle } from '../../../app/lib/vehicle.ts';
import { settingsFor } from '../../admin/settings.ts';
import { financeTerms } from '../settings.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem } from '../../http/problem.ts';
import { vehiclePurpose } from '../../rentals/fleet.ts';
import type { AppServices } from '../../services.ts';
import { carsToCompare } from '../compare.ts';
import { getVehicle } from '../vehicles.ts';
import { indiaDay } from '../../../app/lib/india-time.ts';

/**
 * The compare page and the car page's EMI calculator in the JSON API (/api/v1), each worked out
 * by the page's own rules (app/features/compare/, app/features/emi/) on the admin's finance terms.
 */
export function compareAndEmiApi(api: Hono, services: AppServices) {
  const { database } = services;

  const compare = describeRoute({
    tag: 'Catalogue',
    summary: 'Cars side by side, with the compare page’s rows',
    description: `\`ids\`: car ids joined by commas, in the order to show them, at most ${COMPARE_MAX}. As on the page, nothing is refused: an entry that is not a car id, or one past the limit, is left out and \`notice\` says so; a sold car, or an id with no car, stays as an entry no longer available.`,
    query: compareQuerySchema,
    ok: { status: 200, schema: compareAnswerSchema, description: 'The cars and the rows.' },
  });
  api.get('/compare', compare, async (c) => {
    // The documented schema is the one that reads the query; it refuses no text (the page does not).
    const query = parseWith(compareQuerySchema, c.req.query());
    if (!query.ok) return problem(c, 400, query.error, { fields: query.fields });
    const parsed = query.value.ids;
    const [entries, settings] = await Promise.all([carsToCompare(database, parsed.ids), settingsFor(services)]);
    const terms = financeTerms(settings);
    const available = entries.flatMap((entry) => (entry.available ? [entry.vehicle] : []));
    const rows = compareRows(available, terms, indiaDay(services.clock.now()));
    // The rows' values are the available cars'; each entry's column, null where it has none.
    const column = entries.map((entry) => (entry.available ? available.indexOf(entry.vehicle) : -1));
    const body = {
      items: entries.map((entry) =>
        entry.available
          ? {
              id: entry.id,
              available: true,
              title: cardTitle(entry.vehicle),
              status: publicStatus(entry.vehicle.status),
              price: entry.vehicle.price,
              priceRupees: entry.vehicle.priceRupees,
              emiFrom: emiFrom(entry.vehicle.priceRupees, terms),
              image: entry.vehicle.images[0] ?? null,
            }
          : { id: entry.id, available: false, title: entry.title, status: null, price: null, priceRupees: null, emiFrom: null, image: null },
      ),
      rows: rows.map((row) => ({
        label: row.label,
        values: column.map((index) => (index < 0 ? null : row.values[index]!)),
        differs: row.differs,
        group: row.group,
      })),
      notice: compareIdsNotice(parsed),
      unreadable: parsed.unreadable,
      leftOut: parsed.leftOut,
      max: COMPARE_MAX,
    } satisfies z.input<typeof compareAnswerSchema>;
    return c.json(body, 200, { 'Cache-Control': 'no-cache' });
  });

  const { min, max, step } = CALCULATOR_LIMITS.rate;
  const emi = describeRoute({
    tag: 'Catalogue',
    summary: 'The car page’s EMI calculator for a down payment, rate and tenure',
    description:
      'Each value not given is the calculator’s starting value (the admin’s terms, the rate brought into the calculator’s range). Whole rupees; the instalment is rounded to the nearest rupee and the totals are worked out from it.',
    params: { id: 'The vehicle id.' },
    query: emiQuerySchema,
    ok: { status: 200, schema: vehicleEmiSchema, description: 'The loan, the instalment and the totals.' },
    refusals: { 400: '', 404: '', 409: 'The car has no price to finance: sold, or price on request (`reason` sold or no-price).' },
  });
  api.get('/vehicles/:id/emi', emi, async (c) => {
    const id = parseId(c.req.param('id'));
    // A rental fleet car has no sale page, so no calculator (the page redirects to /rent).
    const vehicle = id === null || (await vehiclePurpose(database, id)) === 'rental' ? null : await getVehicle(database, id);
    if (!vehicle) return problem(c, 404, t('vehicleNotFound'));
    if (vehicle.status === 'sold') return problem(c, 409, t('soldNoEmi'), { reason: 'sold' });
    const price = vehicle.priceRupees;
    if (!price) return problem(c, 409, t('priceOnRequestNoEmi'), { reason: 'no-price' });
    const asked = parseWith(emiQuerySchema, c.req.query());
    // The one rule the schema cannot know is this car's price, the down payment's ceiling: a down
    // payment refused or over it is said as the car page says it, with the price.
    const overPrice = asked.ok && asked.value.downPayment !== undefined && asked.value.downPayment > price;
    if (overPrice || (!asked.ok && asked.fields.downPayment !== undefined)) {
      const message = calculatorMessages.downPayment(price, c.req.query('downPayment') ?? '');
      return problem(c, 400, message, { fields: { ...(asked.ok ? {} : asked.fields), downPayment: message } });
    }
    if (!asked.ok) return problem(c, 400, asked.error, { fields: asked.fields });
    const terms = financeTerms(await settingsFor(services));
    const defaults = calculatorDefaults(price, terms);
    const downPayment = asked.value.downPayment ?? defaults.downPayment;
    const ratePercent = asked.value.ratePercent ?? defaults.ratePercent;
    const tenureMonths = asked.value.tenureMonths ?? defaults.tenureMonths;
    const body = {
      vehicleId: vehicle.id,
      price,
      downPayment,
      ratePercent,
      tenureMonths,
      ...loanSummary(price, downPayment, ratePercent, tenureMonths),
      financeTerms: terms,
      limits: { downPayment: { min: 0, max: price }, ratePercent: { min, max, step }, tenureMonths: [...TENURE_OPTIONS] },
      note: calculatorNote(),
    } satisfies z.input<typeof vehicleEmiSchema>;
    return c.json(body, 200, { 'Cache-Control': 'no-cache' });
  });
}
