import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { parseId } from '../../../app/lib/input.ts';
import { testDriveMessages } from '../../../app/features/appointments/test-drives.ts';
import { testDriveText as t } from '../../../app/features/appointments/test-drive-texts.ts';
import { testDriveBodySchema, testDriveRescheduleSchema, testDriveSlotsQuerySchema } from '../../../app/features/appointments/test-drive-schemas.ts';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { settingsFor } from '../../admin/settings.ts';
import { currentUser } from '../../auth/session.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { describeRoute } from '../../http/openapi.ts';
import { serviceAreasSchema, testDriveAnswerSchema, testDriveListSchema, testDriveSlotsSchema } from '../../http/api-answers.ts';
import { sortedAreas } from '../../../app/lib/service-areas.ts';
import type { AppServices } from '../../services.ts';
import { bookAndConfirm, cancelOwn, rescheduleAndConfirm } from '../booking.ts';
import { ownTestDrivesPage, slotsFor } from '../test-drives.ts';
import { TEST_DRIVE } from '../../appointments/kinds.ts';
import { pageQuerySchema } from '../../../app/lib/schemas/paging.ts';

/** Test drives in the JSON API (/api/v1). */
export function testDriveApi(api: Hono, services: AppServices) {
  // Test drives (decision 025). Times are India time, 'YYYY-MM-DDTHH:MM', as in the pages' URLs.
  /** A refusal as problem+json with its status; anything unexpected is logged and answered with a fixed sentence. */
  const refusal = (c: Context, error: unknown, log: string) => problemFromError(c, error, services.logger, { fallback: testDriveMessages.failed, log });
  /** A JSON object body, or null when the body is not one. */
  const jsonBody = async (request: Request): Promise<Record<string, unknown> | null> => {
    const parsed: unknown = await request.json().catch(() => null);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  };

  const slots = describeRoute({
    tag: 'Test drives',
    summary: "A car's test-drive slots on a day, with the places left in each",
    query: testDriveSlotsQuerySchema,
    ok: { status: 200, schema: testDriveSlotsSchema, description: 'The slots of the day (India time).' },
    refusals: { 400: '', 404: 'No such car, or it cannot be test-driven.', 409: 'The car is no longer for sale.' },
  });
  api.get('/test-drives/slots', slots, async (c) => {
    const parsed = parseWith(testDriveSlotsQuerySchema, c.req.query());
    if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
    const { vehicleId, date } = parsed.value;
    try {
      const slots = await slotsFor(services, TEST_DRIVE.rules(await settingsFor(services)), { vehicleId, date });
      return c.json({ vehicleId, date, slots } satisfies z.input<typeof testDriveSlotsSchema>, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      return refusal(c, error, 'test-drive slots failed');
    }
  });

  // The areas belong to the test drives' settings; inspections and rental delivery read them too.
  const areas = describeRoute({
    tag: 'Test drives',
    summary: 'The areas we visit at home (test drives, inspections) and deliver rental cars to',
    description:
      'Shown before a person types a PIN code. A PIN code outside them is refused with the nearest area we visit (same sorting district, closest code) and the hub.',
    ok: { status: 200, schema: serviceAreasSchema, description: 'The areas by locality, and the hub.' },
  });
  api.get('/service-areas', areas, async (c) => {
    const settings = await settingsFor(services);
    const answer = { areas: sortedAreas(settings.serviceAreas), hubAddress: services.config.contactAddress } satisfies z.input<typeof serviceAreasSchema>;
    // The same for everyone and changed rarely by the desk: kept by browsers and caches for five minutes.
    return c.json(answer, 200, { 'Cache-Control': 'public, max-age=300' });
  });

  const book = describeRoute({
    tag: 'Test drives',
    summary: 'Book a test drive (at the hub, or at home: street address, optional landmark and a PIN code in an area we visit)',
    auth: true,
    body: { kind: 'json', schema: testDriveBodySchema },
    ok: { status: 201, schema: testDriveAnswerSchema, description: 'Booked; a confirmation mail is on its way.' },
    refusals: { 400: '', 404: 'No such car.', 409: 'The slot is full or already booked by you.', 422: 'A step is missing (`reason`: phone).', 429: '' },
  });
  api.post('/test-drives', book, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, testDriveMessages.signInFirst);
    const body = await jsonBody(c.req.raw);
    if (!body) return problem(c, 400, 'The body must be a JSON object: { vehicleId, slot, mode, pinCode?, street?, landmark? }');
    const parsed = parseWith(testDriveBodySchema, body);
    if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
    try {
      const booking = await bookAndConfirm(services, { ...parsed.value, userId: user.id });
      const { name: _name, phone: _phone, email: _email, remindedAt: _remindedAt, ...testDrive } = booking;
      return c.json({ testDrive } satisfies z.input<typeof testDriveAnswerSchema>, 201, { 'Cache-Control': 'no-store' });
    } catch (error) {
      return refusal(c, error, 'test-drive booking failed');
    }
  });

  const mine = describeRoute({
    tag: 'Test drives',
    summary: 'My test drives',
    auth: true,
    query: pageQuerySchema,
    ok: { status: 200, schema: testDriveListSchema, description: 'Upcoming first (soonest first), then the rest (newest first), a page at a time.' },
    refusals: { 400: '' },
  });
  api.get('/me/test-drives', mine, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirstApi'));
    const asked = parseWith(pageQuerySchema, c.req.query());
    if (!asked.ok) return problem(c, 400, asked.error, { fields: asked.fields });
    const { items, total } = await ownTestDrivesPage(services, user.id, asked.value);
    return c.json({ items, ...asked.value, total } satisfies z.input<typeof testDriveListSchema>, 200, { 'Cache-Control': 'no-store' });
  });

  /** Cancelling or moving one's own test drive: one handler, a route (and a description) each. */
  const changeOwn = (change: 'cancel' | 'reschedule') => async (c: Context) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirstApi'));
    const id = parseId(c.req.param('id'));
    if (id === null) return problem(c, 404, testDriveMessages.notYours);
    try {
      if (change === 'cancel')
        return c.json({ testDrive: await cancelOwn(services, { id, userId: user.id }) } satisfies z.input<typeof testDriveAnswerSchema>, 200, {
          'Cache-Control': 'no-store',
        });
      const parsed = parseWith(testDriveRescheduleSchema, (await jsonBody(c.req.raw)) ?? {});
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      const {
        name: _name,
        phone: _phone,
        email: _email,
        remindedAt: _remindedAt,
        ...testDrive
      } = await rescheduleAndConfirm(services, { id, userId: user.id, slot: parsed.value.slot });
      return c.json({ testDrive } satisfies z.input<typeof testDriveAnswerSchema>, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      return refusal(c, error, 'test-drive change failed');
    }
  };
  const ownChange = {
    tag: 'Test drives',
    auth: true,
    params: { id: 'The test drive id.' },
    ok: { status: 200, schema: testDriveAnswerSchema, description: 'The test drive as it now is.' },
  } as const;
  // Moving and cancelling count against the person's twenty changes an hour, as booking does (booking.ts).
  const cancel = describeRoute({ ...ownChange, summary: 'Cancel my test drive', refusals: { 404: '', 409: 'It can no longer be cancelled.', 429: '' } });
  api.post('/me/test-drives/:id/cancel', cancel, changeOwn('cancel'));
  const reschedule = describeRoute({
    ...ownChange,
    summary: 'Move my test drive to another slot',
    body: { kind: 'json', schema: testDriveRescheduleSchema },
    refusals: { 400: '', 404: '', 409: 'The slot is full, or it can no longer be moved.', 429: '' },
  });
  api.post('/me/test-drives/:id/reschedule', reschedule, changeOwn('reschedule'));
}
