import type { Context, Hono } from 'hono';
import { rentalDeskText as t } from '../../../app/features/rentals/rental-desk-texts.ts';
import { parseId } from '../../../app/lib/input.ts';
import type { z } from 'zod';
import { parseWith } from '../../../app/lib/form-errors.ts';
import {
  checkoutAnswerSchema,
  rentalBookingBodySchema,
  rentalFleetQuerySchema,
  rentalMonthQuerySchema,
  rentalQuoteQuerySchema,
} from '../../../app/features/rentals/schemas.ts';
import { pageOf, pageQuerySchema } from '../../../app/lib/schemas/paging.ts';
import type { RentalQuote } from '../../../app/features/rentals/rental-price.ts';
import { currentUser } from '../../auth/session.ts';
import { InvalidInputError } from '../../errors.ts';
import type { AppServices } from '../../services.ts';
import { consumeRateLimit } from '../../security/rate-limit.ts';
import { carAvailability, fleetAvailability, getOwnBooking, ownBookingsPage, takenRanges, type CarAvailability } from '../bookings.ts';
import { cancelBooking, cancellationPreview, requestBooking } from '../lifecycle.ts';
import { rentalPolicy, type Booking } from '../store.ts';
import { carFacts, generalFacts } from '../../../app/features/rentals/rental-facts.ts';
import type { Database } from '../../db/connection.ts';
import { bookingCondition } from '../checklists.ts';
import { paths } from '../../../app/lib/paths.ts';
import { checklistComparison, type ChecklistView } from '../../../app/features/rentals/rental-checklist.ts';
import { jsonObjectBody } from '../../http/json-body.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { describeRoute } from '../../http/openapi.ts';
import {
  bookingAnswerSchema,
  bookingCancelledSchema,
  cancellationPreviewSchema,
  rentalAvailabilitySchema,
  rentalBookingCreatedSchema,
  rentalBookingDetailSchema,
  rentalBookingListSchema,
  type rentalBookingSchema,
  rentalCarListSchema,
  rentalCarSchema,
  type rentalQuoteSchema,
  rentalTermsSchema,
} from '../../http/api-answers.ts';
import { confirmCheckoutPayment, startOnlinePayment } from '../payments.ts';
import { handoverMoneyText, settlementMoneyText } from '../../../app/features/rentals/rental-money.ts';
import { indiaDay, indiaIso, parseIndiaMonth } from '../../../app/lib/india-time.ts';
import { paiseToRupees } from '../../../app/lib/money.ts';

/**
 * Self-drive rental in the Android app's JSON API (/api/v1), calling the same services as the
 * pages: the fleet with quotes, a car's taken ranges, booking, my bookings and cancelling.
 * Date-times in requests are India time as in the URLs (`2026-12-01T10:00`); answers give
 * ISO 8601 with +05:30.
 */

const NO_STORE = { 'Cache-Control': 'no-store' };
/** Bookings one person may request in an hour (a double-tapping app and a few retries fit easily). */
const BOOKINGS_PER_HOUR = 30;

/**
 * A quote as the pages show it: its lines (rent, protection, delivery, GST) whose sum is `total`,
 * the refundable deposit apart (never in `total`), what is paid now and what at pickup.
 */
export function quoteJson(quote: RentalQuote | null): z.input<typeof rentalQuoteSchema> | null {
  return (
    quote && {
      hours: quote.hours,
      lines: quote.lines.map(({ kind, label, amount }) => ({ kind, label, amount })),
      rent: quote.rent,
      protection: quote.protection,
      deliveryFee: quote.deliveryFee,
      gstPercent: quote.gstPercent,
      gst: quote.gst,
      total: quote.total,
      deposit: quote.deposit,
      depositAt: quote.depositAt,
      payableNow: quote.payableNow,
      dueAtPickup: quote.dueAtPickup,
      kmIncluded: quote.kmIncluded,
      extraKmRate: quote.extraKmRate,
    }
  );
}

function carJson(car: CarAvailability): z.input<typeof rentalCarSchema> {
  const terms = car.terms!;
  return {
    /** The car's own terms as sentences, as its page says them; the settings' are at /rentals/terms. */
    facts: carFacts(terms),
    id: car.id,
    name: car.name,
    make: car.make,
    model: car.model,
    year: car.year,
    fuelType: car.fuelType,
    transmission: car.transmission,
    seats: terms.seats,
    hourlyRate: terms.hourlyRate,
    dailyRate: terms.dailyRate,
    weeklyRate: terms.weeklyRate,
    deposit: terms.deposit,
    kmPerDay: terms.kmPerDay,
    extraKmRate: terms.extraKmRate,
    fuelPolicy: terms.fuelPolicy,
    minAge: terms.minAge,
    minHours: terms.minHours,
    delivery: terms.deliveryAvailable,
    available: car.available,
    nextFree: car.nextFree,
    quote: quoteJson(car.quote),
  };
}

/** A booking as the renter sees it (no internal fields). */
export function bookingJson(booking: Booking): z.input<typeof rentalBookingSchema> {
  return {
    id: booking.id,
    carId: booking.vehicleId,
    carName: booking.carName,
    status: booking.status,
    from: booking.from,
    to: booking.to,
    pickup: booking.pickup,
    pinCode: booking.pinCode || null,
    deliveryAddress: booking.deliveryAddress || null,
    protection: booking.protection,
    quote: quoteJson(booking.quote)!,
    paymentMethod: booking.paymentMethod,
    amountPaid: booking.amountPaid,
    amountRefunded: booking.amountRefunded,
    holdExpiresAt: booking.holdExpiresAt,
    charges: booking.charges,
    depositRefund: booking.depositRefund,
    handedOverAt: booking.handedOverAt,
    returnedAt: booking.returnedAt,
    handoverMoney: booking.handoverMoney && {
      direction: 'paid',
      amountPaise: booking.handoverMoney.paise,
      method: booking.handoverMoney.method,
      reference: booking.handoverMoney.reference,
      text: handoverMoneyText(booking.handoverMoney),
    },
    settlement: booking.settlement && {
      direction: booking.settlement.direction,
      amountPaise: booking.settlement.paise,
      method: booking.settlement.method,
      reference: booking.settlement.reference,
      text: settlementMoneyText(booking.settlement, { deposit: booking.quote.deposit }),
    },
    // Stored in UTC; answered in India time with its offset, as every other time here.
    createdAt: indiaIso(Date.parse(booking.createdAt)),
  };
}

function checklistJson(bookingId: number, record: ChecklistView | null) {
  return (
    record && {
      odometer: record.odometer,
      fuelEighths: record.fuel,
      recordedAt: indiaIso(Date.parse(record.recordedAt)),
      photos: record.photos.map((photo) => ({
        item: photo.item,
        note: photo.note || null,
        newDamage: photo.isNew,
        charge: photo.charge,
        url: paths.rentalPhoto(bookingId, photo.id),
      })),
    }
  );
}

/**
 * A booking with its handover and return checklists and its charges each with its photo's URL
 * (read-only; the photo URLs answer the renter and admins only). The caller checked whose it is.
 */
async function bookingWithCondition(database: Database, booking: Booking): Promise<z.input<typeof rentalBookingDetailSchema>> {
  const condition = booking.odometerOut !== null ? await bookingCondition(database, booking) : { handover: null, return: null, charges: [] };
  return {
    ...bookingJson(booking),
    handover: checklistJson(booking.id, condition.handover),
    return: checklistJson(booking.id, condition.return),
    comparison: checklistComparison(condition.handover, condition.return),
    chargeLines: condition.charges.map((line) => ({
      kind: line.kind,
      label: line.label,
      amount: line.amount,
      photoUrl: line.photoId ? paths.rentalPhoto(booking.id, line.photoId) : null,
    })),
  };
}

/** The query or body read with a schema; an InvalidInputError (400, per field) when it does not fit. */
function readWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = parseWith(schema, input);
  if (!parsed.ok) throw new InvalidInputError(parsed.error, parsed.fields);
  return parsed.value;
}

export function rentalApi(api: Hono, services: AppServices) {
  const { database, logger } = services;

  const fail = (c: Context, error: unknown, log: string) => problemFromError(c, error, logger, { fallback: t('somethingWrong'), log });

  const rangeNote = 'Times in India time as `2026-12-01T10:00`; give both `from` and `to`, or neither.';
  const fleet = describeRoute({
    tag: 'Rentals',
    summary: 'The rental fleet, each car free or not for a range, with its quote',
    description: rangeNote,
    query: rentalFleetQuerySchema,
    ok: { status: 200, schema: rentalCarListSchema, description: 'The rentable cars, a page at a time.' },
    refusals: { 400: 'The range cannot be read or booked (notice, horizon, length).' },
  });
  api.get('/rentals/cars', fleet, async (c) => {
    try {
      const { range, page, perPage } = readWith(rentalFleetQuerySchema, c.req.query());
      // The fleet's availability is worked out in one query for every car; the page is cut from it.
      const cars = await fleetAvailability(services, range);
      return c.json(pageOf(cars.map(carJson), { page, perPage }) satisfies z.input<typeof rentalCarListSchema>, 200, { 'Cache-Control': 'no-cache' });
    } catch (error) {
      return fail(c, error, 'api: rental fleet failed');
    }
  });

  /** The terms of every car (the settings'), as the terms page says them, and the figures they name. */
  const terms = describeRoute({
    tag: 'Rentals',
    summary: 'The rental terms every car shares, as sentences and as figures',
    ok: { status: 200, schema: rentalTermsSchema, description: 'The terms.' },
  });
  api.get('/rentals/terms', terms, async (c) => {
    const policy = await rentalPolicy(services);
    return c.json({ facts: generalFacts(policy), policy } satisfies z.input<typeof rentalTermsSchema>, 200, { 'Cache-Control': 'no-cache' });
  });

  const oneCar = describeRoute({
    tag: 'Rentals',
    summary: 'One rental car, with its quote for a range (delivery, protection)',
    description: rangeNote,
    params: { id: 'The rental car id.' },
    query: rentalQuoteQuerySchema,
    ok: { status: 200, schema: rentalCarSchema, description: 'The car, with `quote` when a range was given.' },
    refusals: { 400: '', 404: '' },
  });
  api.get('/rentals/cars/:id', oneCar, async (c) => {
    try {
      const id = parseId(c.req.param('id'));
      const { range, delivery, pinCode, protection } = readWith(rentalQuoteQuerySchema, c.req.query());
      if (id === null) return problem(c, 404, t('carNotFound'));
      if (range) return c.json(carJson(await carAvailability(services, id, range, { delivery, pinCode, protection })), 200, { 'Cache-Control': 'no-cache' });
      const car = (await fleetAvailability(services, null)).find((item) => item.id === id);
      if (!car) return problem(c, 404, t('carNotFound'));
      return c.json(carJson(car), 200, { 'Cache-Control': 'no-cache' });
    } catch (error) {
      return fail(c, error, 'api: rental car failed');
    }
  });

  const availability = describeRoute({
    tag: 'Rentals',
    summary: "A rental car's taken ranges in a month",
    params: { id: 'The rental car id.' },
    query: rentalMonthQuerySchema,
    ok: { status: 200, schema: rentalAvailabilitySchema, description: 'Bookings and blocks overlapping the month.' },
    refusals: { 400: '', 404: '' },
  });
  api.get('/rentals/cars/:id/availability', availability, async (c) => {
    const id = parseId(c.req.param('id'));
    const query = parseWith(rentalMonthQuerySchema, c.req.query());
    if (!query.ok) return problem(c, 400, query.error, { fields: query.fields });
    const monthText = query.value.month ?? indiaDay(services.clock.now()).slice(0, 7);
    const month = parseIndiaMonth(monthText)!;
    const car = id === null ? undefined : (await fleetAvailability(services, null)).find((item) => item.id === id);
    if (!car) return problem(c, 404, t('carNotFound'));
    const taken = await takenRanges(services, car.id, month);
    const body = { carId: car.id, month: monthText, taken: taken.map((range) => ({ kind: range.kind, from: range.from, to: range.to })) } satisfies z.input<
      typeof rentalAvailabilitySchema
    >;
    return c.json(body, 200, { 'Cache-Control': 'no-cache' });
  });

  const bookCar = describeRoute({
    tag: 'Rentals',
    summary: 'Book a rental car (pay at pickup, or online through Razorpay Checkout)',
    description: `${rangeNote} With \`payment: razorpay\` the answer carries the Checkout to open; its answer goes to POST /me/bookings/{id}/payment.`,
    auth: true,
    body: { kind: 'json', schema: rentalBookingBodySchema },
    ok: { status: 201, schema: rentalBookingCreatedSchema, description: 'Requested (or confirmed); held until `holdExpiresAt`.' },
    refusals: {
      400: '',
      404: 'No such rental car.',
      409: 'The car is taken for that range.',
      422: 'A step is missing: `reason` phone, licence, licence-refused, licence-date-of-birth or age.',
      429: '',
      502: '',
    },
  });
  api.post('/rentals/bookings', bookCar, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const body = await jsonObjectBody(c.req.raw);
    if (!body) return problem(c, 400, t('bodyNotJsonObject'));
    try {
      const limited = await consumeRateLimit(database, {
        key: `rental-booking:${user.id}`,
        limit: BOOKINGS_PER_HOUR,
        windowMs: 60 * 60 * 1000,
        now: services.clock.now(),
      });
      if (!limited.allowed) return problem(c, 429, t('tooManyBookings'), { headers: { 'Retry-After': String(limited.retryAfterSeconds) } });
      const { carId, fromMs, toMs, pickup, payment, pinCode, deliveryAddress, protection } = readWith(rentalBookingBodySchema, body);
      const booking = await requestBooking(services, {
        userId: user.id,
        vehicleId: carId,
        fromMs,
        toMs,
        pickup,
        paymentMethod: payment,
        pinCode,
        deliveryAddress,
        protection,
      });
      const started = booking.paymentMethod === 'razorpay' ? await startOnlinePayment(services, { userId: user.id, bookingId: booking.id }) : null;
      // The amount named in both units, as POST /me/bookings/{id}/pay answers it (`amount` stays: paise).
      const checkout = started && { ...started, amountPaise: started.amount, amountRupees: paiseToRupees(started.amount) };
      return c.json(
        { booking: bookingJson(booking), quote: quoteJson(booking.quote)!, payment: checkout } satisfies z.input<typeof rentalBookingCreatedSchema>,
        201,
        NO_STORE,
      );
    } catch (error) {
      return fail(c, error, 'api: booking failed');
    }
  });

  const myBookings = describeRoute({
    tag: 'Rentals',
    summary: 'My rental bookings, with their checklists',
    auth: true,
    query: pageQuerySchema,
    ok: { status: 200, schema: rentalBookingListSchema, description: 'Latest pickup first, a page at a time.' },
    refusals: { 400: '' },
  });
  api.get('/me/bookings', myBookings, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const asked = parseWith(pageQuerySchema, c.req.query());
    if (!asked.ok) return problem(c, 400, asked.error, { fields: asked.fields, headers: NO_STORE });
    const { items, total } = await ownBookingsPage(database, user.id, asked.value);
    const body = { items: await Promise.all(items.map((booking) => bookingWithCondition(database, booking))), ...asked.value, total };
    return c.json(body satisfies z.input<typeof rentalBookingListSchema>, 200, NO_STORE);
  });

  /**
   * A route about one of the signed-in renter's bookings: 401 without a session, 404 for an id
   * that cannot be one; what `handle` throws is answered by `fail` and logged as `log`.
   */
  const ownBooking = (log: string, handle: (c: Context, userId: string, bookingId: number) => Promise<Response>) => async (c: Context) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const id = parseId(c.req.param('id'));
    if (id === null) return problem(c, 404, t('bookingNotFound'));
    try {
      return await handle(c, user.id, id);
    } catch (error) {
      return fail(c, error, log);
    }
  };

  const own = { tag: 'Rentals', auth: true, params: { id: 'The booking id.' } } as const;
  api.get(
    '/me/bookings/:id',
    describeRoute({
      ...own,
      summary: 'One of my bookings, with its handover and return checklists',
      ok: { status: 200, schema: rentalBookingDetailSchema, description: 'The booking.' },
      refusals: { 404: '' },
    }),
    ownBooking('api: booking read failed', async (c, userId, bookingId) =>
      c.json(await bookingWithCondition(database, await getOwnBooking(database, userId, bookingId)), 200, NO_STORE),
    ),
  );

  /** What cancelling now would refund, before the renter confirms. */
  api.get(
    '/me/bookings/:id/cancel',
    describeRoute({
      ...own,
      summary: 'What cancelling now would refund',
      ok: { status: 200, schema: cancellationPreviewSchema, description: 'The refund, before confirming.' },
      refusals: { 404: '', 409: 'It can no longer be cancelled.' },
    }),
    ownBooking('api: cancellation preview failed', async (c, userId, bookingId) =>
      c.json({ refund: await cancellationPreview(services, { userId, bookingId }) } satisfies z.input<typeof cancellationPreviewSchema>, 200, NO_STORE),
    ),
  );

  api.post(
    '/me/bookings/:id/cancel',
    describeRoute({
      ...own,
      summary: 'Cancel my booking',
      ok: { status: 200, schema: bookingCancelledSchema, description: 'Cancelled, with the refund.' },
      refusals: { 404: '', 409: 'It can no longer be cancelled.', 502: '' },
    }),
    ownBooking('api: cancellation failed', async (c, userId, bookingId) => {
      const result = await cancelBooking(services, { userId, bookingId });
      return c.json({ booking: bookingJson(result.booking), refund: result.refund } satisfies z.input<typeof bookingCancelledSchema>, 200, NO_STORE);
    }),
  );

  /** Checkout's callback values, checked by their signature: the browser's word alone never marks a booking paid. */
  api.post(
    '/me/bookings/:id/payment',
    describeRoute({
      ...own,
      summary: "Razorpay Checkout's answer for my booking (checked by its signature)",
      body: { kind: 'json', schema: checkoutAnswerSchema },
      ok: { status: 200, schema: bookingAnswerSchema, description: 'The booking, paid.' },
      refusals: { 400: 'Not a JSON object.', 403: 'The signature is not Razorpay’s.', 404: '', 409: 'Already paid, or the hold lapsed.', 502: '' },
    }),
    ownBooking('api: payment confirmation failed', async (c, userId, bookingId) => {
      const body = await jsonObjectBody(c.req.raw);
      if (!body) return problem(c, 400, t('bodyNotJsonObject'));
      const booking = await confirmCheckoutPayment(services, { userId, bookingId, ...checkoutAnswerSchema.parse(body) });
      return c.json({ booking: bookingJson(booking) } satisfies z.input<typeof bookingAnswerSchema>, 200, NO_STORE);
    }),
  );
}
