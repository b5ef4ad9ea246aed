import type { Context, Hono } from 'hono';
import { publicStatus } from '../../catalog/public-status.ts';
import type { z } from 'zod';
import { emiFrom } from '../../../app/features/emi/emi.ts';
import { browseText as t } from '../../../app/lib/i18n/browse.ts';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { parseId } from '../../../app/lib/input.ts';
import { cardTitle } from '../../../app/lib/vehicle.ts';
import { wishlistChangeSchema, wishlistPageSchema } from '../../http/api-answers.ts';
import { pageQuerySchema } from '../../../app/lib/schemas/paging.ts';
import { wishlistAddSchema, wishlistNotFound } from '../../../app/features/wishlist/schemas.ts';
import { settingsFor } from '../../admin/settings.ts';
import { financeTerms } from '../../catalog/settings.ts';
import { currentUser } from '../../auth/session.ts';
import { modelYear } from '../../catalog/dealer-text.ts';
import { bodyTimeoutMessage, BodyTimeoutError, BodyTooLargeError, tooLargeMessage } from '../../http/body-limit.ts';
import { readFormOrJson } from '../../http/forms.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { countWishlist, listWishlist, setWishlisted } from '../wishlist.ts';
import { indiaIso } from '../../../app/lib/india-time.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The edge's body error, itself or as the `cause` a stream reader wrapped it in. */
function edgeError<Kind extends Error>(error: unknown, kind: new (...args: never[]) => Kind): Kind | null {
  if (error instanceof kind) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof kind ? cause : null;
}

/**
 * The body as key and value: a JSON object as sent (so `vehicleId` may be a number), a form's
 * fields as text. A refusal is a Response to answer with.
 */
async function readBody(c: Context): Promise<Record<string, unknown> | Response> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return Object.fromEntries(await readFormOrJson(c.req.raw));
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    const tooLarge = edgeError(error, BodyTooLargeError);
    if (tooLarge) return problem(c, 413, tooLargeMessage(tooLarge.maxBytes));
    if (edgeError(error, BodyTimeoutError)) return problem(c, 408, bodyTimeoutMessage(), { headers: { Connection: 'close' } });
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return problem(c, 400, t('malformedJson'));
  }
}

/**
 * The signed-in person's wishlist in the app's API (/api/v1): a page of it, add a car, remove
 * one. The same service as the heart on a car's page and the /wishlist page; the database's key
 * (person, car) keeps a car on the list once however often it is added.
 */
export function wishlistApi(api: Hono, services: AppServices) {
  const { database, clock } = services;

  const list = describeRoute({
    tag: 'Account',
    summary: 'My wishlist, a page at a time, newest first',
    description:
      'Each car as a /vehicles card as it is now; a car no longer on the site keeps its title and has `vehicle` null, as the wishlist page shows it.',
    auth: true,
    query: pageQuerySchema,
    ok: { status: 200, schema: wishlistPageSchema, description: 'One page of the wishlist.' },
    refusals: { 400: '' },
  });
  api.get('/me/wishlist', list, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const parsed = parseWith(pageQuerySchema, c.req.query());
    if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
    const { page, perPage } = parsed.value;
    const [entries, total, settings] = await Promise.all([
      listWishlist(database, user.id, { limit: perPage, offset: (page - 1) * perPage }),
      countWishlist(database, user.id),
      settingsFor(services),
    ]);
    // The cards' numbers as /vehicles gives them: the model year as a number, the EMI on the dealer's terms.
    const terms = financeTerms(settings);
    const items = entries.map((entry) =>
      entry.available
        ? {
            vehicleId: entry.vehicle.id,
            title: cardTitle(entry.vehicle),
            addedAt: indiaIso(Date.parse(entry.addedAt)),
            vehicle: {
              ...entry.vehicle,
              status: publicStatus(entry.vehicle.status),
              year: modelYear(entry.vehicle.year),
              emiFrom: emiFrom(entry.vehicle.status === 'sold' ? null : entry.vehicle.priceRupees, terms),
            },
          }
        : { vehicleId: entry.vehicleId, title: entry.title, addedAt: indiaIso(Date.parse(entry.addedAt)), vehicle: null },
    );
    return c.json({ items, page, perPage, total } satisfies z.input<typeof wishlistPageSchema>, 200, NO_STORE);
  });

  const add = describeRoute({
    tag: 'Account',
    summary: 'Add a car to my wishlist',
    description: 'JSON (or a form). Adding a car already on the list changes nothing and answers the same.',
    auth: true,
    body: { kind: 'form', schema: wishlistAddSchema },
    ok: { status: 200, schema: wishlistChangeSchema, description: 'The car is on the wishlist.' },
    refusals: { 400: '', 404: 'No such car on the site.' },
  });
  api.post('/me/wishlist', add, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    try {
      const body = await readBody(c);
      if (body instanceof Response) return body;
      const parsed = parseWith(wishlistAddSchema, body);
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      const wishlisted = await setWishlisted(database, user.id, parsed.value.vehicleId, true, clock.now());
      return c.json(
        { vehicleId: parsed.value.vehicleId, wishlisted, message: t('addedToWishlist') } satisfies z.input<typeof wishlistChangeSchema>,
        200,
        NO_STORE,
      );
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('wishlistChangeFailed'), log: 'wishlist change failed' });
    }
  });

  const remove = describeRoute({
    tag: 'Account',
    summary: 'Remove a car from my wishlist',
    description: 'Removing a car that is not on the list changes nothing and answers the same.',
    auth: true,
    params: { vehicleId: 'The car’s id.' },
    ok: { status: 200, schema: wishlistChangeSchema, description: 'The car is not on the wishlist.' },
    refusals: { 404: 'The id cannot be a car’s.' },
  });
  api.delete('/me/wishlist/:vehicleId', remove, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const vehicleId = parseId(c.req.param('vehicleId'));
    if (vehicleId === null) return problem(c, 404, wishlistNotFound());
    try {
      await setWishlisted(database, user.id, vehicleId, false, clock.now());
      return c.json({ vehicleId, wishlisted: false, message: t('removedFromWishlist') } satisfies z.input<typeof wishlistChangeSchema>, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('wishlistChangeFailed'), log: 'wishlist change failed' });
    }
  });
}
