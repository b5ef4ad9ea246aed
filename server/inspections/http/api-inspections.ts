import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { parseId } from '../../../app/lib/input.ts';
import { inspectionAnswerSchema, inspectionListSchema, inspectionSlotsSchema } from '../../http/api-answers.ts';
import { inspectionBodySchema, inspectionRescheduleSchema, inspectionSlotsQuerySchema } from '../../../app/features/appointments/inspection-schemas.ts';
import { settingsFor } from '../../admin/settings.ts';
import { currentUser } from '../../auth/session.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { answerOffer } from '../inspection-desk.ts';
import { bookInspection, cancelOwnInspection, inspectionMessages, inspectionSlots, listOwnInspections, rescheduleOwnInspection } from '../inspections.ts';
import { INSPECTION } from '../../appointments/kinds.ts';
import { sellText as t } from '../../../app/features/sell/sell-texts.ts';

/** Inspections of a seller's car in the JSON API (/api/v1), decision 081. Every refusal is problem+json. */
export function inspectionApi(api: Hono, services: AppServices) {
  const fallback = () => ({ fallback: t('inspectionFailed'), log: 'inspection request failed' });
  const NO_STORE = { 'Cache-Control': 'no-store' };

  /** The schema's messages, one per field ('car.km', 'slot'), and the first as the detail. */
  function invalid(c: Context, error: z.ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of error.issues) fields[issue.path.join('.') || 'body'] ??= issue.message;
    return problem(c, 400, Object.values(fields)[0] ?? t('checkRequest'), { fields });
  }
  const jsonBody = async (request: Request): Promise<Record<string, unknown> | null> => {
    const parsed: unknown = await request.json().catch(() => null);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  };

  const slots = describeRoute({
    tag: 'Selling',
    summary: 'Inspection slots on a day, with the places left in each',
    query: inspectionSlotsQuerySchema,
    ok: { status: 200, schema: inspectionSlotsSchema, description: 'The slots of the day (India time); none outside the days offered.' },
    refusals: { 400: '' },
  });
  api.get('/inspections/slots', slots, async (c) => {
    const parsed = inspectionSlotsQuerySchema.safeParse(c.req.query());
    if (!parsed.success) return invalid(c, parsed.error);
    try {
      const list = await inspectionSlots(services, INSPECTION.rules(await settingsFor(services)), parsed.data.date);
      return c.json({ date: parsed.data.date, slots: list } satisfies z.input<typeof inspectionSlotsSchema>, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, fallback());
    }
  });

  const book = describeRoute({
    tag: 'Selling',
    summary: "Book an inspection of a seller's car (at the hub, or at home: street address, optional landmark and a PIN code in an area we visit)",
    auth: true,
    body: { kind: 'json', schema: inspectionBodySchema },
    ok: { status: 201, schema: inspectionAnswerSchema, description: 'Booked with the car and its estimate; the confirmation mail and SMS are on their way.' },
    refusals: {
      400: '',
      409: 'The slot is full, you have an inspection then, or you already have three upcoming (the most one person may hold).',
      422: 'A step is missing (`reason`: phone).',
      429: 'More than three bookings or twenty changes of inspections within the hour.',
    },
  });
  api.post('/inspections', book, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInToBook'));
    const body = await jsonBody(c.req.raw);
    if (!body) return problem(c, 400, t('bodyMustBe', { shape: '{ car, mode, slot, pinCode?, street?, landmark? }' }));
    const parsed = inspectionBodySchema.safeParse(body);
    if (!parsed.success) return invalid(c, parsed.error);
    try {
      const inspection = await bookInspection(services, await settingsFor(services), { ...parsed.data, userId: user.id });
      return c.json({ inspection } satisfies z.input<typeof inspectionAnswerSchema>, 201, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, fallback());
    }
  });

  const mine = describeRoute({
    tag: 'Selling',
    summary: 'My inspections',
    auth: true,
    ok: { status: 200, schema: inspectionListSchema, description: 'Upcoming first (soonest first), then the rest, newest first.' },
  });
  api.get('/me/inspections', mine, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    return c.json({ inspections: await listOwnInspections(services, user.id) } satisfies z.input<typeof inspectionListSchema>, 200, NO_STORE);
  });

  /** The id of one's own inspection from the path, or null (answered 404 like someone else's). */
  const idOf = (c: Context) => parseId(c.req.param('id') ?? '');

  const cancel = describeRoute({
    tag: 'Selling',
    summary: 'Cancel my inspection',
    auth: true,
    params: { id: 'The inspection id.' },
    ok: { status: 200, schema: inspectionAnswerSchema, description: 'Cancelled.' },
    refusals: { 404: 'No such inspection of yours.', 409: 'It can no longer be changed.', 429: '' },
  });
  api.post('/me/inspections/:id/cancel', cancel, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const id = idOf(c);
    if (id === null) return problem(c, 404, inspectionMessages.notYours);
    try {
      return c.json(
        { inspection: await cancelOwnInspection(services, { id, userId: user.id }) } satisfies z.input<typeof inspectionAnswerSchema>,
        200,
        NO_STORE,
      );
    } catch (error) {
      return problemFromError(c, error, services.logger, fallback());
    }
  });

  /** The seller's answer to the desk's offer (decision 084): an expired or answered offer is 409, someone else's inspection 404. */
  for (const answer of ['accept', 'decline'] as const) {
    const route = describeRoute({
      tag: 'Selling',
      summary: answer === 'accept' ? "Accept the desk's offer for my car" : "Decline the desk's offer for my car",
      auth: true,
      params: { id: 'The inspection id.' },
      ok: {
        status: 200,
        schema: inspectionAnswerSchema,
        description: answer === 'accept' ? 'Accepted; the dealer is told and calls about the paperwork.' : 'Declined; the dealer is told.',
      },
      refusals: {
        404: 'No such inspection of yours.',
        409: 'There is no open offer: none made, already answered, or expired (the server checks its last day by its clock).',
        429: '',
      },
    });
    api.post(`/me/inspections/:id/offer/${answer}`, route, async (c) => {
      const user = await currentUser(services.auth, c.req.raw);
      if (!user) return problem(c, 401, t('signInFirst'));
      const id = idOf(c);
      if (id === null) return problem(c, 404, inspectionMessages.notYours);
      try {
        const inspection = await answerOffer(services, await settingsFor(services), { id, userId: user.id, answer });
        return c.json({ inspection } satisfies z.input<typeof inspectionAnswerSchema>, 200, NO_STORE);
      } catch (error) {
        return problemFromError(c, error, services.logger, { fallback: t('answerSaveFailed'), log: 'offer answer failed' });
      }
    });
  }

  const reschedule = describeRoute({
    tag: 'Selling',
    summary: 'Move my inspection to another slot',
    auth: true,
    params: { id: 'The inspection id.' },
    body: { kind: 'json', schema: inspectionRescheduleSchema },
    ok: { status: 200, schema: inspectionAnswerSchema, description: 'Moved; the new time is confirmed by mail and SMS.' },
    refusals: { 400: '', 404: 'No such inspection of yours.', 409: 'The slot is full, or it can no longer be changed.', 429: '' },
  });
  api.post('/me/inspections/:id/reschedule', reschedule, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const id = idOf(c);
    if (id === null) return problem(c, 404, inspectionMessages.notYours);
    const body = await jsonBody(c.req.raw);
    if (!body) return problem(c, 400, t('bodyMustBe', { shape: '{ slot }' }));
    const parsed = inspectionRescheduleSchema.safeParse(body);
    if (!parsed.success) return invalid(c, parsed.error);
    try {
      const inspection = await rescheduleOwnInspection(services, await settingsFor(services), { id, userId: user.id, slot: parsed.data.slot });
      return c.json({ inspection } satisfies z.input<typeof inspectionAnswerSchema>, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, fallback());
    }
  });
}
