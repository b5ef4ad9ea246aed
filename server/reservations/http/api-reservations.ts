import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { parseId } from '../../../app/lib/input.ts';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { reservationText as t } from '../../../app/features/reservations/reservation-texts.ts';
import { reservationMessages } from '../../../app/features/reservations/reservations.ts';
import { reservationAnswerSchema, reservationCancelledSchema, reservationListSchema, reservationStartedSchema } from '../../http/api-answers.ts';
import { checkoutAnswerSchema } from '../../../app/features/rentals/schemas.ts';
import { reservationListQuerySchema } from '../../../app/features/reservations/schemas.ts';
import { currentUser } from '../../auth/session.ts';
import { describeRoute } from '../../http/openapi.ts';
import { jsonObjectBody } from '../../http/json-body.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { cancelOwnReservation, confirmReservationPayment, listOwnReservations, startReservation } from '../reservations.ts';
import { findOwnReservation, type DeskReservation } from '../store.ts';

/** Car reservations in the JSON API (/api/v1, decision 080); every refusal is problem+json. */

const NO_STORE = { 'Cache-Control': 'no-store' };
const PER_PAGE = 20;

function ownView(reservation: DeskReservation) {
  const { name: _name, phone: _phone, email: _email, userId: _userId, ...own } = reservation;
  return own;
}

export function reservationApi(api: Hono, services: AppServices) {
  const fail = (c: Context, error: unknown, log: string) => problemFromError(c, error, services.logger, { fallback: reservationMessages.failed, log });
  const signedIn = async (c: Context) => currentUser(services.auth, c.req.raw);
  const notSignedIn = (c: Context) => problem(c, 401, t('signInFirstApi'));

  const start = describeRoute({
    tag: 'Reservations',
    summary: 'Reserve a car for sale with a refundable token (answers the Razorpay Checkout to open)',
    description:
      'The car must be for sale and available, and the person must have a verified phone. One live reservation per car: while another buyer holds it or is paying, the answer is 409 (`reason` reserved). Pay within 15 minutes with Checkout; its answer goes to POST /me/reservations/{id}/payment.',
    auth: true,
    params: { id: 'The car id.' },
    ok: { status: 201, schema: reservationStartedSchema, description: 'Waiting for payment.' },
    refusals: {
      400: 'Online payment is not available.',
      404: 'No such car, or it is not for sale.',
      409: 'Reserved by someone else, or being paid for.',
      422: 'A step is missing (`reason`: phone).',
      429: '',
      502: '',
    },
  });
  api.post('/vehicles/:id/reservation', start, async (c) => {
    const user = await signedIn(c);
    if (!user) return notSignedIn(c);
    const vehicleId = parseId(c.req.param('id'));
    if (vehicleId === null) return problem(c, 404, reservationMessages.notForSale);
    try {
      const payment = await startReservation(services, { userId: user.id, vehicleId });
      const reservation = await findOwnReservation(services.database, user.id, payment.reservationId);
      return c.json({ reservation: ownView(reservation), payment } satisfies z.input<typeof reservationStartedSchema>, 201, NO_STORE);
    } catch (error) {
      return fail(c, error, 'api: reservation failed');
    }
  });

  const own = { tag: 'Reservations', auth: true, params: { id: 'The reservation id.' } } as const;
  api.post(
    '/me/reservations/:id/payment',
    describeRoute({
      ...own,
      summary: "Razorpay Checkout's answer for my reservation (checked by its signature)",
      description:
        'A forged signature, or the answer of another order, is refused with 403. What was paid is asked of Razorpay; a replay of the same payment answers the reservation as it is.',
      body: { kind: 'json', schema: checkoutAnswerSchema },
      ok: { status: 200, schema: reservationAnswerSchema, description: 'The reservation, active: the car is reserved until `heldUntil`.' },
      refusals: {
        400: 'Not a JSON object, or a value is missing.',
        404: '',
        409: 'Not the token amount, or the car was reserved by someone else first: the payment is refunded.',
        502: '',
      },
    }),
    async (c) => {
      const user = await signedIn(c);
      if (!user) return notSignedIn(c);
      const reservationId = parseId(c.req.param('id'));
      if (reservationId === null) return problem(c, 404, reservationMessages.notYours);
      const body = await jsonObjectBody(c.req.raw);
      if (!body) return problem(c, 400, 'The request body must be a JSON object: { razorpay_order_id, razorpay_payment_id, razorpay_signature }.');
      try {
        const reservation = await confirmReservationPayment(services, { userId: user.id, reservationId, ...checkoutAnswerSchema.parse(body) });
        return c.json({ reservation } satisfies z.input<typeof reservationAnswerSchema>, 200, NO_STORE);
      } catch (error) {
        return fail(c, error, 'api: reservation payment failed');
      }
    },
  );

  api.get(
    '/me/reservations',
    describeRoute({
      tag: 'Reservations',
      auth: true,
      summary: 'My reservations',
      query: reservationListQuerySchema,
      ok: { status: 200, schema: reservationListSchema, description: `Newest first, ${PER_PAGE} a page; unpaid attempts left out.` },
      refusals: { 400: '' },
    }),
    async (c) => {
      const user = await signedIn(c);
      if (!user) return notSignedIn(c);
      const query = parseWith(reservationListQuerySchema, c.req.query());
      if (!query.ok) return problem(c, 400, query.error, { fields: query.fields });
      const { items, total } = await listOwnReservations(services, user.id, { page: query.value.page, perPage: PER_PAGE });
      return c.json({ items, page: query.value.page, perPage: PER_PAGE, total } satisfies z.input<typeof reservationListSchema>, 200, NO_STORE);
    },
  );

  api.post(
    '/me/reservations/:id/cancel',
    describeRoute({
      ...own,
      summary: 'Cancel my reservation (the token is refunded in full)',
      ok: { status: 200, schema: reservationCancelledSchema, description: 'Cancelled; the car is listed again.' },
      refusals: { 404: '', 409: 'It is no longer active.' },
    }),
    async (c) => {
      const user = await signedIn(c);
      if (!user) return notSignedIn(c);
      const reservationId = parseId(c.req.param('id'));
      if (reservationId === null) return problem(c, 404, reservationMessages.notYours);
      try {
        const result = await cancelOwnReservation(services, { userId: user.id, reservationId });
        return c.json(result satisfies z.input<typeof reservationCancelledSchema>, 200, NO_STORE);
      } catch (error) {
        return fail(c, error, 'api: reservation cancel failed');
      }
    },
  );
}
