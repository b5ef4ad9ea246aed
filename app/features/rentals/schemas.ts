import { z } from 'zod';
import { parseWith } from '../../lib/form-errors.ts';
import { pinCodeMessages, typedPinCode } from '../../lib/pin-code.ts';
import { typedRange, type AskedRange } from './rent-view.ts';
import { PAYMENT_METHODS, PICKUP_KINDS } from './rentals.ts';
import { idField } from '../../lib/schemas/fields.ts';
import { hasControlCharacters } from '../../lib/input.ts';
import { pageQuerySchema } from '../../lib/schemas/paging.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';
import { indiaDateTimeParam, parseIndiaDateTime, parseIndiaMonth } from '../../lib/india-time.ts';

/**
 * The renter's inputs as the rental pages and `/api/v1/rentals` read them: a pickup-and-return
 * range (India time as URLs write it, `2026-12-01T10:00`), a quote's question and a booking.
 * Whether a range is bookable (notice, horizon, length) depends on the settings and is the
 * booking service's to say (checkBookingRange).
 */

/** Read when a value is refused, in the language of that moment. */
export const rangeMessages = liveTexts(t, { unreadable: 'rangeUnreadable', reversed: 'rangeReversed', from: 'rangeFrom', to: 'rangeTo' });

/** A moment written in India time as the URLs do, to epoch milliseconds. */
function indiaDateTime(message: () => string) {
  return z
    .string({ error: message })
    .refine((text) => parseIndiaDateTime(text) !== null, { error: message })
    .transform((text) => parseIndiaDateTime(text) as number);
}

const rangeFields = { from: indiaDateTime(() => rangeMessages.from), to: indiaDateTime(() => rangeMessages.to) };

function returnAfterPickup(range: { from: number; to: number }, ctx: z.RefinementCtx): void {
  if (range.to <= range.from) ctx.addIssue({ code: 'custom', path: ['to'], message: rangeMessages.reversed });
}

const asRange = ({ from, to }: { from: number; to: number }): AskedRange => ({
  from: indiaDateTimeParam(from),
  to: indiaDateTimeParam(to),
  fromMs: from,
  toMs: to,
});

/** Pickup and return, both readable, the return after the pickup. */
export const rentalRangeSchema = z.object(rangeFields).superRefine(returnAfterPickup).transform(asRange);

/**
 * The range a rental page was opened for, from its URL: null without dates, or null with the
 * sentence to show when they cannot be used. A seconds part is dropped first, as some browsers
 * add one to `datetime-local` values.
 */
export function askedRange(params: URLSearchParams): { range: AskedRange | null; problem: string | null } {
  const typed = typedRange(params);
  if (!typed.from && !typed.to) return { range: null, problem: null };
  const parsed = parseWith(rentalRangeSchema, typed);
  if (parsed.ok) return { range: parsed.value, problem: null };
  const onlyReversed = !parsed.fields.from && parsed.fields.to === rangeMessages.reversed;
  return { range: null, problem: onlyReversed ? rangeMessages.reversed : rangeMessages.unreadable };
}

const pickup = z.enum(PICKUP_KINDS, { error: 'pickup must be "hub" or "delivery".' });

/** A query value left empty (`?from=`) says nothing, like one not given. */
const orBlank = <Field extends z.ZodType<number, string>>(field: Field, message: () => string) =>
  z
    .union([z.literal(''), field], { error: message })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/** The damage-protection plan, as a checkbox (`on`), a query (`true`, `1`) or JSON (a boolean) sends it. */
const protectionField = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])], { error: 'protection must be true or false.' })
  .optional()
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

/** The PIN code a car is delivered to; the service checks it against the served PIN codes. */
const pinCodeField = z
  .string({ error: () => pinCodeMessages.invalid })
  .nullish()
  .transform((value) => typedPinCode(value));

export const DELIVERY_ADDRESS_MAX = 300;
/** The address a car is delivered to: one or a few lines, required with delivery (the service says so). */
const deliveryAddressField = z
  .string({ error: 'deliveryAddress must be text.' })
  .max(DELIVERY_ADDRESS_MAX, { error: () => t('deliveryAddressTooLong', { max: DELIVERY_ADDRESS_MAX }) })
  .refine((text) => !hasControlCharacters(text), { error: () => t('deliveryAddressControl') })
  .nullish()
  .transform((value) => (value ?? '').trim());

/** A quote's question as a query: a range or none, how the car is picked up, protection. */
const quoteQueryFields = {
  from: orBlank(rangeFields.from, () => rangeMessages.from),
  to: orBlank(rangeFields.to, () => rangeMessages.to),
  pickup: pickup.optional(),
  pinCode: pinCodeField,
  protection: protectionField,
};

/** Both of from and to, or neither. */
function bothOrNeither(query: { from?: number; to?: number }, ctx: z.RefinementCtx): void {
  if (query.from === undefined && query.to !== undefined) ctx.addIssue({ code: 'custom', path: ['from'], message: rangeMessages.from });
  if (query.to === undefined && query.from !== undefined) ctx.addIssue({ code: 'custom', path: ['to'], message: rangeMessages.to });
}

type QuoteQuery = { from?: number; to?: number; pickup?: (typeof PICKUP_KINDS)[number]; pinCode: string; protection: boolean };
const asQuoteQuestion = ({ from, to, pickup: kind, pinCode, protection }: QuoteQuery) => ({
  range: from !== undefined && to !== undefined ? asRange({ from, to }) : null,
  delivery: kind === 'delivery',
  pinCode,
  protection,
});

/**
 * What a quote is asked with (`GET /api/v1/rentals/cars/:id`): a range or none (both or
 * neither of from and to), how the car is picked up (delivery with the PIN code it goes to),
 * and whether the damage-protection plan is chosen.
 */
export const rentalQuoteQuerySchema = z.object(quoteQueryFields).superRefine(bothOrNeither).transform(asQuoteQuestion);

/** `GET /api/v1/rentals/cars`: the same question, and the page of the fleet (one object, so the document lists every parameter). */
export const rentalFleetQuerySchema = z
  .object({ ...quoteQueryFields, ...pageQuerySchema.shape })
  .superRefine(bothOrNeither)
  .transform(({ page, perPage, ...question }) => ({ ...asQuoteQuestion(question), page, perPage }));

/** How the renter takes the car and pays, as the booking page's form and the app send it. */
const bookingChoiceFields = {
  pickup: pickup.default('hub'),
  payment: z.enum(PAYMENT_METHODS, { error: 'payment must be "pay-at-pickup" or "razorpay".' }).default('pay-at-pickup'),
  /** Required for delivery; the service checks it against the served PIN codes. */
  pinCode: pinCodeField,
  deliveryAddress: deliveryAddressField,
  protection: protectionField,
};

/** The booking page's form (the car and the range are in its URL). */
export const rentalBookingFormSchema = z.object(bookingChoiceFields);

/**
 * `GET /api/v1/rentals/cars/{id}/quote`: what the booking page prices, read as a booking is (the
 * range required, pickup, payment, PIN code and protection with the booking's own fields); the
 * delivery address is asked only when booking.
 */
export const rentalQuoteAskSchema = z
  .object({
    ...rangeFields,
    pickup: bookingChoiceFields.pickup,
    payment: bookingChoiceFields.payment,
    pinCode: bookingChoiceFields.pinCode,
    protection: bookingChoiceFields.protection,
  })
  .superRefine(returnAfterPickup)
  .transform(({ from, to, ...rest }) => ({ ...rest, ...asRange({ from, to }) }));

/** `POST /api/v1/rentals/bookings`: the car, the range and the choices. */
export const rentalBookingBodySchema = z
  .object({ carId: idField('carId must be the id of a rental car.'), ...rangeFields, ...bookingChoiceFields })
  .superRefine(returnAfterPickup)
  .transform(({ from, to, ...rest }) => ({ ...rest, ...asRange({ from, to }) }));

/** `GET /api/v1/rentals/cars/:id/availability`: the month to show, this month when not given. */
export const rentalMonthQuerySchema = z.object({
  month: z
    .string({ error: 'month must be a month such as 2026-12.' })
    .refine((text) => parseIndiaMonth(text) !== null, 'month must be a month such as 2026-12.')
    .optional(),
});

/**
 * Razorpay Checkout's answer, posted by the payment page and by the app. Never refused here: a
 * field missing or not text is empty, and the service refuses an answer whose signature is not
 * Razorpay's. Cut to bound the work on a crafted value.
 */
const checkoutText = z
  .string()
  .catch('')
  .transform((value) => value.slice(0, 200));
export const checkoutAnswerSchema = z
  .object({ razorpay_order_id: checkoutText, razorpay_payment_id: checkoutText, razorpay_signature: checkoutText })
  .transform((answer) => ({ orderId: answer.razorpay_order_id, paymentId: answer.razorpay_payment_id, signature: answer.razorpay_signature }));
