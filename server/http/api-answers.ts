import { z } from 'zod';
import { LANGUAGES } from '../../app/lib/i18n/language.ts';
import { FILTER_NAMES, type FilterName } from '../../app/lib/listing-filters/catalogue.ts';
import { BOOKING_STATUSES, PAYMENT_METHODS, PICKUP_KINDS } from '../../app/features/rentals/rentals.ts';
import { TEST_DRIVE_MODES, TEST_DRIVE_STATUSES } from '../../app/features/appointments/test-drives.ts';
import { RESERVATION_STATUSES } from '../../app/features/reservations/reservations.ts';
import { DOCUMENT_KINDS } from '../../app/features/sales/sale-rules.ts';

/**
 * What `/api/v1` answers, as zod schemas: the OpenAPI document (server/http/openapi.ts) is
 * generated from them, the handlers that build their JSON by hand are typed with them where
 * that is cheap, and the API tests parse real answers with them (decision 072). Objects the app
 * reads a few keys of (a vehicle's condition report, the export) are `looseObject`s: the keys
 * named here are promised, others may come.
 *
 * Each schema carries an `id`: the document lists it once under components.schemas.
 */

const LICENCE_STATUSES = ['pending', 'approved', 'refused'] as const;

/** Whole rupees (the product never sends paise to a client). */
const rupees = z.int();
/** ISO 8601 with an offset (+05:30 for India times). */
/** ISO 8601 in India time: the pattern makes the contract check of the tests fail any UTC `Z` time. */
const isoTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?\+05:30$/)
  .meta({ description: 'ISO 8601 date-time in India time, e.g. 2026-12-01T10:00:00+05:30' });
/** A page of a list that grows (`?page=&perPage=`, app/lib/schemas/paging.ts). */
const paging = {
  page: z.int(),
  perPage: z.int().meta({ description: 'The page size served (capped).' }),
  total: z.int().meta({ description: 'Items in the whole list.' }),
};

/**
 * Every refusal (4xx, 5xx) of /api/v1: RFC 9457 problem details, sent as
 * `application/problem+json` (server/http/problem.ts makes them).
 */
export const problemSchema = z
  .object({
    type: z.string().meta({ description: '`about:blank` (the status says it all), or `/api/docs#problem-{reason}` when `reason` is set.' }),
    title: z.string().meta({ description: "The status's short name (Bad Request, Not Found…)." }),
    status: z.int().min(400).max(599).meta({ description: 'The HTTP status, repeated.' }),
    detail: z.string().meta({ description: 'A sentence to show the person, as the site words it.' }),
    fields: z.record(z.string(), z.string()).optional().meta({ description: 'The message per invalid input (400), keyed by the field or parameter name.' }),
    reason: z
      .string()
      .optional()
      .meta({ description: 'A stable word for a refusal the app may branch on (409, 422: e.g. licence-pending, slot-taken). New words may come within v1.' }),
    instance: z.string().optional().meta({
      description:
        'This occurrence: `urn:request:{id}`, where `{id}` is the answer’s `X-Request-Id`. Quote it when reporting the problem; the server’s log lines for the request carry the same id.',
    }),
  })
  .meta({
    id: 'Problem',
    description: 'RFC 9457 problem details. Show `detail`; mark each of `fields`; branch on `status` and `reason`, never on the wording.',
  });

const imageRef = z
  .object({ key: z.string(), width: z.int(), height: z.int(), widths: z.array(z.int()) })
  .meta({ id: 'Image', description: 'A stored photo: WebP variants of each width live at /media/{key}-{width}.webp.' });

const vehicleStatus = z.enum(['available', 'reserved', 'sold']);

/** A card in the listing (VehicleSummary, with the model year as a number and the EMI). */
export const vehicleSummarySchema = z
  .object({
    id: z.int(),
    name: z.string(),
    make: z.string(),
    model: z.string(),
    variant: z.string(),
    year: z.int().nullable().meta({ description: 'The model year; null when the dealer typed none.' }),
    fuelType: z.string(),
    transmission: z.string(),
    bodyType: z.string(),
    price: z.string().meta({ description: 'The price as the dealer typed it.' }),
    priceRupees: rupees.nullable(),
    odometer: z.int().nullable(),
    featured: z.boolean(),
    status: vehicleStatus,
    categoryName: z.string(),
    cover: imageRef.nullable(),
    emiFrom: rupees.nullable().meta({ description: 'The monthly EMI the card shows, on the dealer terms; null when sold or unpriced.' }),
  })
  .meta({ id: 'VehicleSummary' });

const facetOption = z.object({ value: z.string(), label: z.string(), count: z.int() });

export const vehicleListSchema = z
  .object({
    items: z.array(vehicleSummarySchema),
    total: z.int(),
    totalCapped: z.boolean().meta({ description: 'true when total stopped counting at the listing limit.' }),
    page: z.int(),
    pageCount: z.int(),
    perPage: z.int(),
    facets: z.object(Object.fromEntries(FILTER_NAMES.map((name) => [name, z.array(facetOption)])) as Record<FilterName, z.ZodArray<typeof facetOption>>),
    searchedFor: z.string().nullable().meta({
      description:
        'When `q` found nothing as typed and its spelling was corrected: the search whose cars these are (show “Showing results for …”); null otherwise.',
    }),
    suggestions: z
      .array(z.string())
      .meta({ description: 'When `q` found nothing even corrected: up to three models near a word typed, each worth searching for.' }),
  })
  .meta({ id: 'VehicleList' });

const financeTerms = z.object({ ratePercent: z.number(), tenureMonths: z.int(), financedPercent: z.number() }).meta({ id: 'FinanceTerms' });

/** A car's page: every field the dealer set (the condition lists are open-ended maps). */
export const vehicleSchema = z
  .looseObject({
    id: z.int(),
    name: z.string(),
    make: z.string(),
    model: z.string(),
    year: z.string().meta({ description: 'As the dealer typed it.' }),
    price: z.string(),
    priceRupees: rupees.nullable(),
    status: vehicleStatus,
    categoryId: z.int(),
    categoryName: z.string(),
    categorySlug: z.string(),
    images: z.array(imageRef),
    createdAt: isoTime,
    updatedAt: isoTime,
    emiFrom: rupees.nullable(),
    financeTerms,
  })
  .meta({ id: 'Vehicle' });

export const categoryListSchema = z
  .array(
    z
      .object({ id: z.int(), name: z.string(), slug: z.string(), image: imageRef.nullable(), vehicleCount: z.int(), fleetCount: z.int() })
      .meta({ id: 'Category' }),
  )
  .meta({ id: 'CategoryList' });

export const phoneCodeSentSchema = z
  .object({
    sent: z.literal(true),
    phone: z.string().meta({ description: 'E.164' }),
    channel: z.enum(['sms', 'whatsapp']).meta({ description: 'How the code went: by SMS, or on WhatsApp (the request’s `channel`).' }),
  })
  .meta({ id: 'PhoneCodeSent' });
export const phoneVerifiedSchema = z
  .object({ profile: z.object({ name: z.string(), phone: z.string().nullable(), phoneVerified: z.boolean() }) })
  .meta({ id: 'PhoneVerified' });
export const personalDataSchema = z
  .looseObject({})
  .meta({ id: 'PersonalData', description: 'Everything held about the person (DPDP export), sent as an attachment.' });
export const accountDeletedSchema = z.object({ deleted: z.literal(true), leadsErased: z.int() }).meta({ id: 'AccountDeleted' });

export const testDriveSlotsSchema = z
  .object({
    vehicleId: z.int(),
    date: z.string(),
    slots: z.array(z.object({ start: z.string().meta({ description: "India time, 'YYYY-MM-DDTHH:MM'" }), remaining: z.int() })),
  })
  .meta({ id: 'TestDriveSlots' });
export const testDriveSchema = z
  .object({
    id: z.int(),
    vehicleId: z.int().nullable(),
    vehicleTitle: z.string(),
    mode: z.enum(TEST_DRIVE_MODES),
    pinCode: z.string(),
    street: z.string().meta({ description: "A home test drive's house or flat, street and area; '' at the hub." }),
    landmark: z.string().meta({ description: "A home test drive's landmark, optional ('')." }),
    slot: z.string().meta({ description: "India time, 'YYYY-MM-DDTHH:MM'" }),
    status: z.enum(TEST_DRIVE_STATUSES),
    createdAt: isoTime,
  })
  .meta({ id: 'TestDrive' });
/** Where home visits and rental delivery go (decision 097): the areas by locality, and the hub for everyone else. */
export const serviceAreasSchema = z
  .object({
    areas: z.array(
      z.object({
        locality: z.string().meta({ description: 'The area as people name it (Andheri West); the PIN code itself when the desk gave no name.' }),
        pinCode: z.string(),
      }),
    ),
    hubAddress: z.string().meta({ description: 'Where a PIN code outside the areas is asked to come instead.' }),
  })
  .meta({ id: 'ServiceAreas' });
export const testDriveAnswerSchema = z.object({ testDrive: testDriveSchema }).meta({ id: 'TestDriveAnswer' });
/** One of my test drives: `changeable` says whether it can still be cancelled or moved. */
export const ownTestDriveSchema = testDriveSchema.extend({ changeable: z.boolean() }).meta({ id: 'OwnTestDrive' });
export const testDriveListSchema = z.object({ items: z.array(ownTestDriveSchema), ...paging }).meta({ id: 'TestDriveList' });

/** A term as a sentence: a stable key, its label and its text as the pages show it. */
const rentalFact = z.object({ key: z.string(), label: z.string(), text: z.string() }).meta({ id: 'RentalFact' });

/** A quote: its lines (rent, protection, delivery, GST) sum to `total`; the deposit is apart. */
export const rentalQuoteSchema = z
  .object({
    hours: z.int(),
    lines: z.array(z.object({ kind: z.enum(['rent', 'protection', 'delivery', 'gst']), label: z.string(), amount: rupees })),
    rent: rupees,
    protection: rupees,
    deliveryFee: rupees,
    gstPercent: z.number(),
    gst: rupees,
    total: rupees,
    deposit: rupees,
    depositAt: z.enum(['pickup', 'online']),
    payableNow: rupees,
    dueAtPickup: rupees,
    kmIncluded: z.int().nullable(),
    extraKmRate: rupees,
  })
  .meta({ id: 'RentalQuote' });

export const rentalCarSchema = z
  .object({
    facts: z.array(rentalFact).meta({ description: "The car's own terms as sentences." }),
    id: z.int(),
    name: z.string(),
    make: z.string(),
    model: z.string(),
    year: z.string(),
    fuelType: z.string(),
    transmission: z.string(),
    seats: z.int(),
    hourlyRate: rupees,
    dailyRate: rupees,
    weeklyRate: rupees.nullable(),
    deposit: rupees,
    kmPerDay: z.int().nullable(),
    extraKmRate: rupees,
    fuelPolicy: z.string(),
    minAge: z.int(),
    minHours: z.int(),
    delivery: z.boolean(),
    available: z.boolean().meta({ description: 'Free for the asked range (true when no range was asked).' }),
    nextFree: isoTime.nullable(),
    quote: rentalQuoteSchema.nullable(),
  })
  .meta({ id: 'RentalCar' });
export const rentalCarListSchema = z.object({ items: z.array(rentalCarSchema), ...paging }).meta({ id: 'RentalCarList' });
export const rentalTermsSchema = z.object({ facts: z.array(rentalFact), policy: z.looseObject({}) }).meta({ id: 'RentalTerms' });
export const rentalAvailabilitySchema = z
  .object({ carId: z.int(), month: z.string(), taken: z.array(z.object({ kind: z.enum(['booking', 'block']), from: isoTime, to: isoTime })) })
  .meta({ id: 'RentalAvailability' });

/** Money that moved at the rental desk or through the gateway, and the sentence the renter reads about it. */
const deskMoney = z.object({
  amountPaise: z.int().min(0).meta({ description: 'Paise (₹2,200 is 220000).' }),
  method: z
    .enum(['cash', 'upi', 'card', 'online'])
    .nullable()
    .meta({ description: '`online`: through the payment gateway, to or from the card or UPI paid with; null when nothing moved.' }),
  reference: z.string().nullable().meta({ description: 'The UPI transaction reference (UTR) or card approval code the desk recorded.' }),
  text: z.string().meta({ description: 'How the money moved, in the request’s language, as the site words it.' }),
});

export const rentalBookingSchema = z
  .object({
    id: z.int(),
    carId: z.int(),
    carName: z.string(),
    status: z.enum(BOOKING_STATUSES),
    from: isoTime,
    to: isoTime,
    pickup: z.enum(PICKUP_KINDS),
    pinCode: z.string().nullable(),
    deliveryAddress: z.string().nullable(),
    protection: z.boolean(),
    quote: rentalQuoteSchema,
    paymentMethod: z.enum(PAYMENT_METHODS),
    amountPaid: rupees,
    amountRefunded: rupees,
    holdExpiresAt: isoTime.nullable(),
    charges: z
      .looseObject({ total: rupees, depositRefund: rupees, amountDue: rupees })
      .nullable()
      .meta({ description: 'What the return cost; null before the return.' }),
    depositRefund: rupees.nullable(),
    handedOverAt: isoTime
      .nullable()
      .meta({ description: 'When the car actually went out, as the desk entered it (may be before the booked `from`); null before the handover.' }),
    returnedAt: isoTime.nullable().meta({ description: 'When the car actually came back, as the desk entered it; null before the return.' }),
    handoverMoney: deskMoney
      .extend({ direction: z.literal('paid') })
      .nullable()
      .meta({
        description:
          'What the renter paid at the handover and how (`online`: everything was paid online before, nothing at the desk); null before the handover.',
      }),
    settlement: deskMoney
      .extend({
        direction: z.enum(['returned', 'collected', 'none']).meta({
          description: '`returned`: the deposit (or part) went back to the renter; `collected`: charges beyond the deposit were paid; `none`: nothing moved.',
        }),
      })
      .nullable()
      .meta({ description: 'What moved at the settlement after the return and how; null before it.' }),
    createdAt: isoTime,
  })
  .meta({ id: 'RentalBooking' });

const checklist = z
  .object({
    odometer: z.int(),
    fuelEighths: z.int(),
    recordedAt: isoTime,
    photos: z.array(z.object({ item: z.string(), note: z.string().nullable(), newDamage: z.boolean(), charge: rupees, url: z.string() })),
  })
  .meta({ id: 'Checklist' });

/** A booking with its handover and return checklists. */
export const rentalBookingDetailSchema = rentalBookingSchema
  .extend({
    handover: checklist.nullable(),
    return: checklist.nullable(),
    comparison: z.object({ kmDriven: z.int(), fuelDifference: z.int() }).nullable(),
    chargeLines: z.array(
      z.object({ kind: z.enum(['extra-km', 'late', 'fuel', 'damage']), label: z.string(), amount: rupees, photoUrl: z.string().nullable() }),
    ),
  })
  .meta({ id: 'RentalBookingDetail' });
export const rentalBookingListSchema = z.object({ items: z.array(rentalBookingDetailSchema), ...paging }).meta({ id: 'RentalBookingList' });

const checkoutStart = z
  .object({
    provider: z.literal('razorpay'),
    keyId: z.string(),
    orderId: z.string(),
    amount: z.int().meta({ description: 'Paise, as Razorpay Checkout takes it (the same as `amountPaise`).' }),
    amountPaise: z.int(),
    amountRupees: rupees,
    currency: z.literal('INR'),
    bookingId: z.int(),
  })
  .meta({ id: 'CheckoutStart' });
export const rentalBookingCreatedSchema = z
  .object({
    booking: rentalBookingSchema,
    quote: rentalQuoteSchema,
    payment: checkoutStart.nullable().meta({ description: 'Razorpay Checkout to open when paying online; null at pickup.' }),
  })
  .meta({ id: 'RentalBookingCreated' });
const cancellationRefund = z.looseObject({ rentKept: rupees, refund: rupees }).meta({ id: 'CancellationRefund' });
export const cancellationPreviewSchema = z.object({ refund: cancellationRefund }).meta({ id: 'CancellationPreview' });
export const bookingCancelledSchema = z.object({ booking: rentalBookingSchema, refund: cancellationRefund }).meta({ id: 'BookingCancelled' });
export const bookingAnswerSchema = z.object({ booking: rentalBookingSchema }).meta({ id: 'BookingAnswer' });

export const licenceAnswerSchema = z
  .object({
    licence: z
      .object({
        number: z.string(),
        dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD' }),
        status: z.enum(LICENCE_STATUSES),
        refusalReason: z.string().nullable(),
        updatedAt: isoTime,
        frontUrl: z.string(),
        backUrl: z.string(),
      })
      .nullable()
      .meta({ description: 'null when no licence is on file.' }),
  })
  .meta({ id: 'LicenceAnswer' });

export const openApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.looseObject({})) })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });

// ------------------------------------------------------------------ the buyer: profile, wishlist, leads

/** GET /me/summary (decision 127): what a shared page fills in after it loaded. */
export const personalSummarySchema = z
  .object({
    signedIn: z.boolean(),
    name: z.string().nullable().meta({ description: 'The profile’s name, else the account’s; null signed out or when neither has one.' }),
    wishlist: z.array(z.number().int().positive()).meta({ description: 'The ids of the cars on the person’s wishlist (the filled hearts); empty signed out.' }),
  })
  .meta({ id: 'PersonalSummary' });

export const profileAnswerSchema = z
  .object({
    profile: z.object({
      email: z.string(),
      emailVerified: z.boolean(),
      name: z.string().meta({ description: 'The profile’s name, else the account’s; empty when neither has one.' }),
      photoUrl: z.string().meta({ description: 'The account’s picture (Google), or empty.' }),
      phone: z.string().meta({ description: 'E.164, or empty when none is on file. Changed only by /me/phone/code then /me/phone/verify.' }),
      phoneVerified: z.boolean(),
      complete: z.boolean().meta({ description: 'A name and a verified phone: what booking a test drive or a rental car needs.' }),
      createdAt: isoTime.nullable(),
      lastLoginAt: isoTime.nullable(),
      updatedAt: isoTime.nullable(),
      language: z.enum(LANGUAGES).nullable().meta({
        description:
          'The language the person chose (`en`, `hi`): their mails, SMS and pages on every device are in it. Null before they chose; the API then answers in its request’s `Accept-Language`.',
      }),
    }),
  })
  .meta({ id: 'ProfileAnswer' });

/** The "Updates on WhatsApp" switch of the profile's number (decision 126). */
export const whatsappUpdatesSchema = z
  .object({
    whatsapp: z.object({
      phone: z
        .string()
        .meta({ description: 'The profile’s number (E.164), empty when none is on file. Consent belongs to the number: a new number starts off.' }),
      phoneVerified: z.boolean().meta({ description: 'Only a verified number can be switched on (422, `reason` phone, otherwise).' }),
      optedIn: z.boolean().meta({ description: 'Whether customer updates go to this number on WhatsApp (else by SMS).' }),
      source: z
        .enum(['profile', 'form', 'reply'])
        .nullable()
        .meta({ description: 'Where the latest choice was made: this switch, the verification form’s box, or a STOP replied on WhatsApp. Null before any.' }),
      changedAt: isoTime.nullable().meta({ description: 'When the latest choice was made ("On since …", "Off: you replied STOP on …").' }),
      wording: z.string().nullable().meta({ description: 'The sentence recorded with the latest choice, as it was shown (or the STOP reply’s text).' }),
      language: z.enum(LANGUAGES).nullable().meta({ description: 'The language the recorded sentence was shown in.' }),
      optInWording: z.string().meta({ description: 'The sentence a person agrees to by switching on, in the request’s language: show it under the switch.' }),
    }),
  })
  .meta({ id: 'WhatsAppUpdates' });

export const wishlistItemSchema = z
  .object({
    vehicleId: z.int(),
    title: z.string().meta({ description: 'The car’s title when it was added (shown when the car is gone).' }),
    addedAt: isoTime,
    vehicle: vehicleSummarySchema.nullable().meta({ description: 'The car as it is now, like a /vehicles card; null when it is no longer on the site.' }),
  })
  .meta({ id: 'WishlistItem' });

export const wishlistPageSchema = z
  .object({ items: z.array(wishlistItemSchema), page: z.int(), perPage: z.int(), total: z.int() })
  .meta({ id: 'WishlistPage', description: 'Newest first.' });

export const wishlistChangeSchema = z
  .object({ vehicleId: z.int(), wishlisted: z.boolean(), message: z.string() })
  .meta({ id: 'WishlistChange', description: 'Whether the car is on the wishlist after the change, and the sentence the site shows.' });

export const vehicleRequestSentSchema = z
  .object({ sent: z.literal(true), message: z.string() })
  .meta({ id: 'VehicleRequestSent', description: 'The request was received; the dealer is told by mail.' });

export const sellOfferSentSchema = z
  .object({
    sent: z.literal(true),
    chatUrl: z.string().meta({ description: 'The WhatsApp chat with the dealer, prefilled with the offer and its photos’ addresses (as the site opens it).' }),
    imageUrls: z.array(z.string()).meta({ description: 'The stored photos’ addresses.' }),
    imagesFailed: z.boolean().meta({ description: 'true when the offer was saved but its photos could not be stored.' }),
  })
  .meta({ id: 'SellOfferSent' });

// ------------------------------------------------------------------ compare, EMI, rental quote, paying

const compareRowSchema = z
  .object({
    label: z.string(),
    values: z
      .array(z.string().nullable())
      .meta({ description: 'One value per entry of `items`, as the page writes it; null for an entry no longer available.' }),
    differs: z.boolean().meta({ description: 'The page highlights the row: the available cars differ in it.' }),
    group: z.enum(['specs', 'inspection']),
  })
  .meta({ id: 'CompareRow' });

export const compareAnswerSchema = z
  .object({
    items: z.array(
      z
        .object({
          id: z.int(),
          available: z.boolean().meta({ description: 'false for a sold car or an id with no car behind it.' }),
          title: z.string().nullable().meta({ description: 'The name the page shows; null for an id with no car behind it.' }),
          status: vehicleStatus.nullable(),
          price: z.string().nullable().meta({ description: 'The price as the dealer typed it; null when not available.' }),
          priceRupees: rupees.nullable(),
          emiFrom: rupees.nullable(),
          image: imageRef.nullable(),
        })
        .meta({ id: 'CompareItem' }),
    ),
    rows: z.array(compareRowSchema),
    notice: z.string().nullable().meta({ description: 'What the page says of ids it left out (not cars, or past the limit).' }),
    unreadable: z.int().meta({ description: 'Entries of `ids` that are not car ids.' }),
    leftOut: z.int().meta({ description: 'Cars left out past `max`.' }),
    max: z.int().meta({ description: 'Cars compared at most.' }),
  })
  .meta({ id: 'Compare' });

export const vehicleEmiSchema = z
  .object({
    vehicleId: z.int(),
    price: rupees,
    downPayment: rupees,
    ratePercent: z.number(),
    tenureMonths: z.int(),
    loan: rupees.meta({ description: 'The price less the down payment.' }),
    emi: rupees.meta({ description: 'The monthly instalment, to the nearest rupee.' }),
    totalInterest: rupees,
    totalPaid: rupees.meta({ description: 'Down payment plus every instalment.' }),
    financeTerms,
    limits: z.object({
      downPayment: z.object({ min: rupees, max: rupees }),
      ratePercent: z.object({ min: z.number(), max: z.number(), step: z.number() }),
      tenureMonths: z.array(z.int()),
    }),
    note: z.string().meta({ description: 'The sentence the page shows under the calculator.' }),
  })
  .meta({ id: 'VehicleEmi' });

export const rentalQuoteAnswerSchema = z
  .object({
    carId: z.int(),
    carName: z.string(),
    from: isoTime,
    to: isoTime,
    pickup: z.enum(PICKUP_KINDS),
    pinCode: z.string().nullable(),
    protection: z.boolean(),
    payment: z.enum(PAYMENT_METHODS),
    available: z.boolean().meta({ description: 'Free for the range now (booking may still find it taken).' }),
    nextFree: isoTime.nullable(),
    quote: rentalQuoteSchema,
    totals: z
      .array(z.object({ key: z.enum(['total', 'deposit', 'now', 'pickup']), label: z.string(), amount: rupees }))
      .meta({ description: 'The rows under the lines as the pages show them: total, deposit (apart), payable now, at pickup.' }),
  })
  .meta({ id: 'RentalQuoteAnswer' });

export const paymentStartSchema = z
  .object({
    provider: z.literal('razorpay'),
    keyId: z.string().meta({ description: 'Razorpay’s public key id for Checkout.' }),
    orderId: z.string().meta({ description: 'The Razorpay order to open Checkout with; the same order however often it is asked.' }),
    amountPaise: z.int().meta({ description: 'What Checkout charges, in paise (Checkout’s `amount`).' }),
    amountRupees: rupees.meta({ description: 'The same amount in whole rupees, to show.' }),
    currency: z.literal('INR'),
    bookingId: z.int(),
    prefill: z
      .object({ name: z.string(), email: z.string(), contact: z.string() })
      .meta({ description: 'Checkout’s prefill, as the site’s payment page gives it.' }),
    booking: rentalBookingSchema,
  })
  .meta({ id: 'PaymentStart' });

// ------------------------------------------------------------------ app sign-in and devices (decision 074)

const signedInUser = z
  .object({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean(), image: z.string().nullable() })
  .meta({ id: 'SignedInUser' });
export const appTokenSchema = z
  .object({
    token: z.string().meta({ description: 'Send it as `Authorization: Bearer <token>` on /api/v1. It is the session: keep it like a password.' }),
    expiresAt: isoTime.meta({ description: 'When the token stops working unless used: each day of use moves it 30 days on.' }),
    user: signedInUser,
  })
  .meta({ id: 'AppToken' });
export const emailVerifiedSchema = z
  .object({
    verified: z.literal(true),
    token: z.string().optional().meta({ description: 'A new token, when verifying signed the person in (no token of theirs came with the request).' }),
    expiresAt: isoTime.optional(),
    user: signedInUser.optional(),
  })
  .meta({ id: 'EmailVerified' });
export const signedOutSchema = z.object({ signedOut: z.literal(true) }).meta({ id: 'SignedOut' });
export const deviceSchema = z
  .object({
    id: z.string().meta({ description: 'Opaque; names the device for DELETE /me/devices/{id} and nothing else (it cannot sign in).' }),
    kind: z.enum(['app', 'site']),
    label: z.string().meta({ description: 'Read from the device’s user agent: “Chrome on Android”, “Android app”…' }),
    createdAt: isoTime,
    lastSeenAt: isoTime.meta({ description: 'When the session was last renewed by use: accurate to a day.' }),
    current: z.boolean().meta({ description: 'The device this request came from.' }),
  })
  .meta({ id: 'Device' });
export const deviceListSchema = z.object({ items: z.array(deviceSchema) }).meta({ id: 'DeviceList' });
export const deviceRevokedSchema = z.object({ revoked: z.literal(true) }).meta({ id: 'DeviceRevoked' });

// Car reservations (docs/decisions/080): a refundable token holds a car for sale.
export const reservationSchema = z
  .object({
    id: z.int(),
    vehicleId: z.int().nullable(),
    vehicleTitle: z.string(),
    status: z.enum(RESERVATION_STATUSES),
    amount: rupees.meta({ description: 'The token, whole rupees.' }),
    holdHours: z.int(),
    paymentOrderId: z.string().nullable().meta({ description: 'The Checkout order while the reservation waits for payment.' }),
    payBy: isoTime,
    heldUntil: isoTime.nullable(),
    amountRefunded: rupees,
    refundOwed: rupees.meta({ description: 'Refunds asked of Razorpay and not yet confirmed.' }),
    paymentProblem: z.string().nullable(),
    salePrice: rupees.nullable(),
    createdAt: isoTime,
    paidAt: isoTime.nullable(),
    endedAt: isoTime.nullable(),
  })
  .meta({ id: 'Reservation' });
export const reservationStartedSchema = z
  .object({
    reservation: reservationSchema,
    payment: z.object({
      provider: z.literal('razorpay'),
      keyId: z.string(),
      orderId: z.string(),
      amount: z.int().meta({ description: 'Paise, as Razorpay Checkout takes it.' }),
      currency: z.literal('INR'),
      reservationId: z.int(),
    }),
  })
  .meta({ id: 'ReservationStarted' });
export const reservationAnswerSchema = z.object({ reservation: reservationSchema }).meta({ id: 'ReservationAnswer' });
export const reservationCancelledSchema = z
  .object({ reservation: reservationSchema, refund: rupees.meta({ description: 'Refunded in full to the way the buyer paid.' }) })
  .meta({ id: 'ReservationCancelled' });
// Razorpay's webhook (decision 106): the acknowledgement of an event.
export const webhookAnswerSchema = z
  .object({ ok: z.literal(true), handled: z.boolean().meta({ description: 'Whether the event settled a payment of one of our orders.' }) })
  .meta({ id: 'WebhookAnswer' });
export const reservationListSchema = z
  .object({ items: z.array(reservationSchema), page: z.int(), perPage: z.int(), total: z.int() })
  .meta({ id: 'ReservationList' });

// The seller's estimate (decision 081): a range with what it is based on, or an honest "not enough data".
const sellEstimateSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('range'),
      low: rupees,
      high: rupees,
      summary: z.string(),
      basis: z.object({
        similarCars: z.int().meta({ description: 'Cars of the same make and model, sold or in stock, the range is made from.' }),
        sold: z.int(),
        inStock: z.int(),
        bought: z.int().meta({ description: 'Of them, cars the dealer bought from sellers in the last two years, at what it paid (decision 118).' }),
        fromYear: z.int(),
        toYear: z.int(),
        segment: z.string().meta({ description: 'Body type key whose cars gave the depreciation.' }),
        segmentCars: z.int(),
        yearlyDepreciationPercent: z.number(),
        marginPercent: z.number(),
      }),
    }),
    z.object({ kind: z.literal('not-enough-data'), similarCars: z.int(), summary: z.string() }),
  ])
  .meta({ id: 'SellEstimate' });
const sellCarAnswerSchema = z
  .object({
    make: z.string(),
    model: z.string(),
    variant: z.string().optional().meta({ description: "One of the model's variants, or empty." }),
    unlisted: z.boolean().optional().meta({ description: 'True when the seller said the car is not in the catalogue: make and model are as typed.' }),
    year: z.int(),
    fuel: z.string(),
    transmission: z.string(),
    km: z.int(),
    owners: z.int(),
    registrationState: z.string(),
  })
  .meta({ id: 'SellCar' });
export const sellEstimateAnswerSchema = z
  .object({
    estimate: sellEstimateSchema,
    car: sellCarAnswerSchema.meta({ description: "The car as read against the catalogue: 'hundai' 'cretta' comes back as Hyundai Creta." }),
  })
  .meta({ id: 'SellEstimateAnswer' });

// The catalogue of cars sold in India (decision 098): the shipped list with the admin's additions.
const catalogueModelSchema = z
  .object({
    id: z.string().meta({ description: "'hyundai-creta': accepted as `model` by POST /sell-estimates." }),
    name: z.string(),
    hi: z.string().meta({ description: 'The name in Hindi (Devanagari), or empty.' }),
    body: z.string().meta({ description: "Body type key ('suv'), or empty." }),
    fuels: z.array(z.string()),
    variants: z.array(z.string()),
  })
  .meta({ id: 'CatalogueModel' });
export const carCatalogueSchema = z
  .object({
    makes: z.array(
      z
        .object({
          id: z.string().meta({ description: "'hyundai': accepted as `make` by POST /sell-estimates." }),
          name: z.string(),
          hi: z.string(),
          models: z.array(catalogueModelSchema),
        })
        .meta({ id: 'CatalogueMake' }),
    ),
  })
  .meta({ id: 'CarCatalogue' });
const inspectionOfferSchema = z
  .object({
    rupees: z.int().meta({ description: 'Whole rupees: what the dealer pays for the car.' }),
    validUntil: z.string().meta({ description: "India date 'YYYY-MM-DD': the last day the offer can be accepted." }),
    state: z
      .enum(['open', 'accepted', 'declined', 'expired'])
      .meta({ description: "'expired': still open, but past its last day (India time); it can no longer be accepted." }),
    madeAt: isoTime,
    answeredAt: isoTime.nullable(),
  })
  .meta({ id: 'InspectionOffer' });
const inspectionSchema = z
  .object({
    id: z.int(),
    car: sellCarAnswerSchema,
    estimate: sellEstimateSchema,
    mode: z.enum(['hub', 'home']),
    pinCode: z.string(),
    street: z.string().meta({ description: "A home inspection's house or flat, street and area; '' at the hub." }),
    landmark: z.string().meta({ description: "A home inspection's landmark, optional ('')." }),
    slot: z.string().meta({ description: "India time, 'YYYY-MM-DDTHH:MM'" }),
    status: z.enum(['booked', 'confirmed', 'done', 'no_show', 'cancelled']),
    createdAt: isoTime,
    offer: inspectionOfferSchema.nullable().meta({ description: 'The offer the desk made after the inspection, or null (decision 084).' }),
    report: z
      .object({
        condition: z
          .array(z.object({ item: z.string(), status: z.string() }))
          .meta({ description: 'Each item checked and what was found (English keys, as on the vehicle form).' }),
        odometer: z.int().nullable(),
        notes: z.string(),
        recordedAt: isoTime,
      })
      .nullable()
      .meta({ id: 'InspectionReport', description: 'What the desk found, once the inspection is recorded; null before.' }),
  })
  .meta({ id: 'Inspection' });
export const inspectionSlotsSchema = z
  .object({ date: z.string(), slots: z.array(z.object({ start: z.string().meta({ description: "India time, 'YYYY-MM-DDTHH:MM'" }), remaining: z.int() })) })
  .meta({ id: 'InspectionSlots' });
export const inspectionAnswerSchema = z.object({ inspection: inspectionSchema }).meta({ id: 'InspectionAnswer' });
export const inspectionListSchema = z.object({ inspections: z.array(inspectionSchema.extend({ changeable: z.boolean() })) }).meta({ id: 'InspectionList' });

// The documents the dealer issued to the person (decisions 114, 116, 119): invoices, credit notes and delivery notes of cars bought, a rental's agreement and tax invoice.
const issuedDocumentSchema = z
  .object({
    id: z.int(),
    kind: z.enum(DOCUMENT_KINDS),
    number: z.string().meta({
      description:
        "The document's number, as on it: an invoice's (GB/2026-27/00123, RI/2026-27/00001), a credit note's, a delivery note's (DN-GB/2026-27/00123), a rental agreement's (RA-42).",
    }),
    language: z.enum(['en', 'hi']),
    bytes: z.int(),
    sha256: z.string().meta({ description: "The PDF's SHA-256, hex: the file downloaded is the one issued." }),
    createdAt: z.string(),
  })
  .meta({ id: 'IssuedDocument' });
export const documentListSchema = z.object({ items: z.array(issuedDocumentSchema) }).meta({ id: 'DocumentList' });

// The person's purchases and the registration transfer of each (decision 117).
const rcStepSchema = z
  .object({
    step: z.enum(['forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered']),
    doneAt: z.string().nullable().meta({ description: 'When the desk recorded the step (ISO 8601, UTC); null while it is to come.' }),
  })
  .meta({ id: 'RcTransferStep' });
export const purchaseListSchema = z
  .object({
    items: z.array(
      z
        .object({
          saleId: z.int(),
          car: z.string(),
          registration: z.string().meta({ description: 'The registration at the sale.' }),
          invoiceNumber: z.string(),
          invoiceDate: z.string().meta({ description: "India's date of the invoice, YYYY-MM-DD." }),
          transfer: z
            .object({
              state: z
                .enum(['sold', 'forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered'])
                .meta({ description: "The last step done: 'sold' before the first, 'delivered' once the buyer has the new RC." }),
              next: z.enum(['forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered']).nullable(),
              steps: z.array(rcStepSchema).meta({ description: 'Every step in the order they happen.' }),
              applicationNumber: z.string().nullable().meta({ description: "The RTO's application number, from submission on." }),
              feePaise: z.int().nullable().meta({ description: 'The transfer fee paid at the RTO, in paise.' }),
              feeReceipt: z.string().nullable(),
              newRegistration: z.string().nullable().meta({ description: 'The registration on the new RC when it changed.' }),
              form35Needed: z.boolean().meta({ description: "Form 35: the loan's hypothecation is ended with the transfer." }),
              form28Needed: z.boolean().meta({ description: "A Form 28 NOC from another state's RTO is needed." }),
            })
            .meta({ id: 'RcTransfer' }),
        })
        .meta({ id: 'Purchase' }),
    ),
  })
  .meta({ id: 'PurchaseList' });

// A sale as the desk sees it (decision 120): what the tax invoice says, money in paise.
const taxLineSchema = z.object({
  kind: z.enum(['cgst', 'sgst', 'igst', 'cess']),
  rateBasisPoints: z.int().meta({ description: '900 is 9%.' }),
  amountPaise: z.int(),
});
export const deskSaleSchema = z
  .object({
    id: z.int(),
    status: z.enum(['recorded', 'cancelled']),
    source: z.enum(['reservation', 'desk']),
    vehicleId: z.int().nullable(),
    reservationId: z.int().nullable(),
    vehicle: z.object({
      title: z.string(),
      make: z.string(),
      model: z.string(),
      variant: z.string(),
      year: z.string(),
      registration: z.string(),
      chassisNumber: z.string(),
      engineNumber: z.string(),
    }),
    buyer: z.object({ name: z.string(), address: z.string(), phone: z.string(), email: z.string(), pan: z.string() }),
    supplyState: z.string().meta({ description: "The place of supply's GST state code ('27' is Maharashtra)." }),
    language: z.enum(['en', 'hi']),
    pricePaise: z.int(),
    tokenPaise: z.int(),
    paidPaise: z.int(),
    paidMethod: z.string(),
    loanPaise: z.int(),
    lender: z.string(),
    purchasePricePaise: z.int().nullable(),
    invoiceNumber: z.string(),
    invoiceDate: z.string(),
    scheme: z.enum(['margin', 'normal']),
    taxablePaise: z.int(),
    taxPaise: z.int(),
    taxLines: z.array(taxLineSchema),
    creditNoteNumber: z.string().nullable(),
    creditNoteDate: z.string().nullable(),
    cancelReason: z.string().nullable(),
    documents: z.array(issuedDocumentSchema),
  })
  .meta({ id: 'DeskSale' });
export const deskSaleAnswerSchema = z.object({ sale: deskSaleSchema }).meta({ id: 'DeskSaleAnswer' });

/** Notifications on the phone (Web Push, decision 124). */
export const pushKeySchema = z
  .object({
    publicKey: z.string().meta({ description: "The site's VAPID public key, base64url: the `applicationServerKey` of `pushManager.subscribe`." }),
  })
  .meta({ id: 'PushKey' });
export const pushSubscriptionStateSchema = z
  .object({
    on: z.boolean().meta({ description: 'Whether notifications are now on for this device.' }),
    devices: z.int().meta({ description: 'How many of the person’s devices have notifications on.' }),
  })
  .meta({ id: 'PushSubscriptionState' });
