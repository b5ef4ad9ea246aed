import type { Kysely, Selectable } from 'kysely';
import { sendClaimedReminders } from '../appointments/reminders.ts';
import { homeAddressLine } from '../../app/features/appointments/home-address.ts';
import type { InspectionRequest } from '../../app/features/appointments/inspection-schemas.ts';
import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import { slotLabel, type SlotRules, type TestDriveMode } from '../../app/features/appointments/test-drives.ts';
import { bookingContact, getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import {
  book,
  cancelUpcoming,
  checkUpcomingLimit,
  freeSlots,
  isUpcoming,
  reschedule,
  slotRefusal,
  slotStartMs,
  upcomingFirst,
  type FreeSlot,
} from '../appointments/appointments.ts';
import { checkPlace, homeVisitColumns, homeVisitOf } from '../appointments/home-visit.ts';
import { INSPECTION } from '../appointments/kinds.ts';
import type { Settings } from '../admin/settings.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import type { DB, InspectionTable } from '../db/schema.ts';
import { CannotBookYetError, ConflictError, InvalidInputError, NotFoundError, RateLimitedError } from '../errors.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import type { AppServices } from '../services.ts';
import { paths } from '../../app/lib/paths.ts';
import { estimateLine, type SellEstimate } from '../leads/sell-estimate.ts';
import { queueNewLeadAlerts } from '../leads/notify.ts';
import { carFromCatalogue, estimateForSeller } from '../leads/sell-estimates.ts';
import { offerOf, type InspectionReport, type Offer } from '../../app/features/appointments/inspection-desk.ts';
import { sellText as t } from '../../app/features/sell/sell-texts.ts';
import { liveTexts } from '../../app/lib/i18n/texts.ts';
import { inLanguage } from '../i18n.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { isLanguage, pathInLanguage, type Language } from '../../app/lib/i18n/language.ts';
import type { TextValues } from '../../app/lib/i18n/texts.ts';
import { indiaDateTimeParam, indiaIso } from '../../app/lib/india-time.ts';
import { transition } from '../transitions.ts';
import { INSPECTION_TRANSITIONS } from './inspection-transitions.ts';

/**
 * Inspections of a seller's car (decision 081), booked from the estimate. What is an inspection's
 * own is here (the car, its estimate, the lead on the desk, the messages); slots, seats, moves,
 * cancels and reminders are the appointments module's (decision 107) with the inspections' rules
 * (server/appointments/kinds.ts: their own hours and capacity, at most three upcoming per
 * person); a seat per slot below the capacity is kept by the unique index of migration 025, so
 * concurrent bookings never pass it on either database.
 */

/** The inspections' refusals, in the language of the request being answered. */
export const inspectionMessages = liveTexts(t, ['verifyPhoneFirst', 'slotFull', 'youAreBusy', 'notYours', 'notChangeable', 'tooManyInspectionRequests']);

/**
 * The per-person limits every path shares (the page, its `.data` request and the API call these
 * services): any change (book, move, cancel, answer an offer) counts against the test drives'
 * rule, twenty an hour (each sends a mail and an SMS), under a key of its own.
 */
export async function limitInspectionChanges(deps: Deps, userId: string): Promise<void> {
  const result = await consumeRateLimit(deps.database, { key: `inspection:${userId}`, ...rateLimits.testDriveChange, now: deps.clock.now() });
  if (!result.allowed) throw new RateLimitedError(inspectionMessages.tooManyInspectionRequests, result.retryAfterSeconds);
}

/** A new booking also counts against the inspections' own, lower hourly limit (rate-limit.ts). */
async function limitBookings(deps: Deps, userId: string): Promise<void> {
  const result = await consumeRateLimit(deps.database, { key: `inspection-booking:${userId}`, ...rateLimits.inspectionBooking, now: deps.clock.now() });
  if (!result.allowed) throw new RateLimitedError(t('tooManyInspectionBookings', { limit: rateLimits.inspectionBooking.limit }), result.retryAfterSeconds);
}

type Deps = { database: Database; clock: Clock };
type Row = Selectable<InspectionTable>;

export type Inspection = {
  id: number;
  car: SellCar;
  estimate: SellEstimate;
  mode: TestDriveMode;
  pinCode: string;
  /** A home inspection's house or flat, street and area, and its optional landmark (decision 097); '' at the hub. */
  street: string;
  landmark: string;
  /** India time, 'YYYY-MM-DDTHH:MM'. */
  slot: string;
  status: InspectionTable['status'];
  createdAt: string;
  /** The desk's offer after the inspection (decision 084), or null. */
  offer: Offer | null;
  /** What the desk found, once the inspection is recorded: the seller reads what the offer rests on. */
  report: InspectionReport | null;
};

function reportOf(row: Row): InspectionReport | null {
  if (row.recorded_at === null) return null;
  const condition = row.condition ? (JSON.parse(row.condition) as Record<string, string>) : {};
  return {
    condition: Object.entries(condition).map(([item, status]) => ({ item, status })),
    odometer: row.odometer,
    notes: row.notes ?? '',
    recordedAt: indiaIso(Date.parse(row.recorded_at)),
  };
}

export function toInspection(row: Row, nowMs: number): Inspection {
  return {
    id: row.id,
    car: JSON.parse(row.car) as SellCar,
    estimate: JSON.parse(row.estimate) as SellEstimate,
    ...homeVisitOf(row),
    slot: indiaDateTimeParam(row.slot_start_ms),
    status: row.status,
    createdAt: indiaIso(Date.parse(row.created_at)),
    offer: offerOf(row, nowMs),
    report: reportOf(row),
  };
}

/** Refuses a time the inspections' rules do not offer (InvalidInputError naming the field). */
function checkSlot(slot: string, rules: SlotRules, nowMs: number) {
  const problem = slotRefusal(INSPECTION, rules, slot, nowMs);
  if (problem) throw new InvalidInputError(problem, { slot: problem });
}

/** The slots of one day (India time) still bookable, each with the places left. */
export async function inspectionSlots(deps: Deps, rules: SlotRules, date: string): Promise<FreeSlot[]> {
  return freeSlots(deps.database, INSPECTION, rules, date, deps.clock.now());
}

type NotifyServices = Pick<AppServices, 'database' | 'jobs' | 'config' | 'clock' | 'mailer' | 'logger'>;

function carTitle(car: SellCar): string {
  return `${car.year} ${car.make} ${car.model}`;
}

/** The person's language choice, read in the transaction the mail is queued in; English without one. */
async function languageOf(db: Kysely<DB>, userId: string): Promise<Language> {
  const row = await db.selectFrom('profiles').select('language').where('user_id', '=', userId).executeTakeFirst();
  return isLanguage(row?.language) ? row.language : 'en';
}

/** The confirmation by mail and on the phone (WhatsApp or SMS, and push), queued in `trx` (decisions 069, 123). */
async function queueConfirmation(services: NotifyServices, kind: 'booked' | 'rescheduled' | 'reminder', row: Row, db: Kysely<DB>) {
  const inspection = toInspection(row, services.clock.now());
  // A reminder is written by a job, outside the customer's request: in their own language then.
  const language = kind === 'reminder' ? await languageOf(db, row.user_id) : currentLanguage();
  const when = inLanguage(language, () => slotLabel(inspection.slot));
  const say = (key: Parameters<typeof t>[0], values?: TextValues) => t(key, values, language);
  const where =
    inspection.mode === 'home'
      ? say('mailWhereHome', { address: homeAddressLine(inspection, language) })
      : say('mailWhereHub', { address: services.config.contactAddress });
  // The SMS names the PIN code only: the mail has the full address.
  const shortWhere = inspection.mode === 'home' ? say('smsWhereHome', { pin: inspection.pinCode }) : say('mailWhereHubShort');
  const link = new URL(pathInLanguage(paths.profile, language), services.config.siteOrigin).href;
  const heading = say(({ booked: 'mailHeadingBooked', rescheduled: 'mailHeadingRescheduled', reminder: 'mailHeadingReminder' } as const)[kind]);
  const smsHeading = say(({ booked: 'smsHeadingBooked', rescheduled: 'smsHeadingRescheduled', reminder: 'smsHeadingReminder' } as const)[kind]);
  const text = [
    row.name ? say('mailGreetingName', { name: row.name }) : say('mailGreeting'),
    '',
    `${heading}.`,
    '',
    say('mailCar', { car: carTitle(inspection.car) }),
    say('mailWhen', { when }),
    say('mailWhere', { where }),
    say('mailInspectionId', { id: row.id }),
    '',
    say('mailPapers'),
    '',
    say('mailManage', { link }),
    '',
    say('mailRegards'),
    say('mailTeam', { site: services.config.siteName }),
  ].join('\n');
  if (row.email) await queueMail(db, services, { to: row.email, subject: say('mailSubject', { heading, car: carTitle(inspection.car), when }), text });
  const sms = say('sms', { site: services.config.siteName, heading: smsHeading, car: carTitle(inspection.car).slice(0, 40), when, where: shortWhere, link });
  await queuePhoneMessage(db, services, {
    userId: row.user_id,
    phone: row.phone || null,
    language,
    sms,
    whatsapp: whatsappTemplate(({ booked: 'inspection_booked', rescheduled: 'inspection_moved', reminder: 'inspection_reminder' } as const)[kind], {
      car: carTitle(inspection.car),
      when,
      where,
      link,
    }),
    push: pushOfSms(services.config.siteName, sms, `${paths.profile}#inspections`, language),
  });
}

/**
 * Books an inspection for a signed-in person with a verified phone (CannotBookYetError, 422,
 * otherwise). The car's estimate is worked out again and kept with it; the confirmation is
 * queued in the same transaction as the booking. At most MAX_UPCOMING_INSPECTIONS upcoming per
 * person (ConflictError, 409) and the per-person limits above (RateLimitedError, 429).
 */
export async function bookInspection(services: NotifyServices, settings: Settings, input: InspectionRequest & { userId: string }): Promise<Inspection> {
  const { db } = services.database;
  await limitInspectionChanges(services, input.userId);
  const profile = await getProfile(services.database, input.userId);
  if (!profile || !hasVerifiedPhone(profile)) throw new CannotBookYetError('phone', inspectionMessages.verifyPhoneFirst);
  const rules = INSPECTION.rules(settings);
  const nowMs = services.clock.now();
  checkPlace(INSPECTION, input, settings.serviceAreas, services.config.contactAddress);
  checkSlot(input.slot, rules, nowMs);
  // The car as the catalogue names it (decision 098): the app may send 'hundai' as the page's seller typed it.
  const car = await carFromCatalogue(services.database, input.car);
  // Said before the hourly limit counts a try: holding the most already is no booking attempt.
  await checkUpcomingLimit(db, INSPECTION, input.userId, nowMs);
  await limitBookings(services, input.userId);
  // Kept for the desk (the desk's pages and the new-lead mail read it): worded in English.
  const estimate = await inLanguage('en', () => estimateForSeller(services, settings, car));
  const contact = await bookingContact(services.database, profile);
  const startMs = slotStartMs(input.slot);
  const now = new Date(nowMs).toISOString();
  // A seat taken meanwhile rolls back this transaction, the queued confirmation with it; the
  // most upcoming per person is counted again in it, under the person's lock.
  const row = await book(services.database, INSPECTION, { userId: input.userId, startMs, capacity: rules.capacity, nowMs }, async (trx, seat) => {
    const inserted = await trx
      .insertInto('inspections')
      .values({
        user_id: input.userId,
        car: JSON.stringify(car),
        estimate: JSON.stringify(estimate),
        ...homeVisitColumns(input),
        ...contact,
        slot_start_ms: startMs,
        seat,
        status: 'booked',
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await queueConfirmation(services, 'booked', inserted, trx);
    // The desk's lead and mail are English, whatever the seller's page (the slot's day name too).
    await inLanguage('en', () => addInspectionLead(trx, services, settings, inserted, car, estimate));
    return inserted;
  });
  services.jobs.wake();
  return toInspection(row, nowMs);
}

/**
 * The booking as a lead on the desk's Selling Vehicles, with the car and its estimate, and the
 * new-lead mail as the sell form sends it: the desk works sellers from one list (migration 030).
 */
async function addInspectionLead(trx: Kysely<DB>, services: NotifyServices, settings: Settings, inspection: Row, car: SellCar, estimate: SellEstimate) {
  const where =
    inspection.mode === 'home'
      ? `at the seller's home: ${homeAddressLine({ street: inspection.street, landmark: inspection.landmark, pinCode: inspection.pin_code }, 'en')}`
      : 'at our hub';
  const lead = {
    name: inspection.name,
    phone: inspection.phone,
    vehicle: `${car.make} ${car.model}`,
    year: String(car.year),
    price: '',
    description: `Inspection #${inspection.id} booked for ${slotLabel(indiaDateTimeParam(inspection.slot_start_ms))} (India time), ${where}.`,
  };
  const { id } = await trx
    .insertInto('sell_submissions')
    .values({
      ...lead,
      car: JSON.stringify(car),
      estimate: JSON.stringify(estimate),
      inspection_id: inspection.id,
      status: 'new',
      notes: '',
      created_at: inspection.created_at,
      updated_at: inspection.created_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await queueNewLeadAlerts(trx, services, settings, { kind: 'sell', id, ...lead, imageUrls: [], estimate: estimateLine(estimate) });
}

async function findOwn(deps: Deps, id: number, userId: string): Promise<Row> {
  const row = await deps.database.db.selectFrom('inspections').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFoundError(inspectionMessages.notYours);
  return row;
}

/** Moves one's own upcoming inspection to another slot (the seat rules as for a new one); the new time is confirmed again. */
export async function rescheduleOwnInspection(
  services: NotifyServices,
  settings: Settings,
  input: { id: number; userId: string; slot: string },
): Promise<Inspection> {
  await limitInspectionChanges(services, input.userId);
  const row = await findOwn(services, input.id, input.userId);
  const nowMs = services.clock.now();
  const to = transition(INSPECTION_TRANSITIONS, row.status, 'reschedule', 'customer');
  if (!isUpcoming(row, nowMs) || to === null) throw new ConflictError(inspectionMessages.notChangeable);
  const rules = INSPECTION.rules(settings);
  checkSlot(input.slot, rules, nowMs);
  const moved = await reschedule(
    services.database,
    INSPECTION,
    row,
    { startMs: slotStartMs(input.slot), capacity: rules.capacity, status: to, nowMs },
    (trx, updated) => queueConfirmation(services, 'rescheduled', updated, trx),
  );
  services.jobs.wake();
  return toInspection(moved, nowMs);
}

export async function cancelOwnInspection(deps: Deps, input: { id: number; userId: string }): Promise<Inspection> {
  await limitInspectionChanges(deps, input.userId);
  const row = await findOwn(deps, input.id, input.userId);
  if (transition(INSPECTION_TRANSITIONS, row.status, 'cancel', 'customer') === null) throw new ConflictError(inspectionMessages.notChangeable);
  // The appointments' cancel of upcoming bookings (test drives too) makes this same move: the table's unit test holds them together.
  const updated = await cancelUpcoming(deps.database, INSPECTION, row, deps.clock.now());
  return toInspection(updated, deps.clock.now());
}

/** A person's inspections, soonest upcoming first, then past and cancelled ones newest first. */
export async function listOwnInspections(deps: Deps, userId: string): Promise<Array<Inspection & { changeable: boolean }>> {
  const rows = await deps.database.db.selectFrom('inspections').selectAll().where('user_id', '=', userId).orderBy('slot_start_ms', 'desc').limit(100).execute();
  const nowMs = deps.clock.now();
  return upcomingFirst(rows.map((row) => ({ ...toInspection(row, nowMs), changeable: isUpcoming(row, nowMs) })));
}

/**
 * Sends the reminder of every upcoming inspection starting within the kind's reminder window
 * (two hours: time to find the RC and the insurance papers) and not reminded
 * yet, each claimed first (reminded_at set only where still empty) in the transaction that
 * queues its mail and SMS, so two runs or two instances never send one twice (as test drives').
 * Returns how many were sent.
 */
export async function sendDueInspectionReminders(services: NotifyServices, nowMs: number): Promise<number> {
  const sent = await sendClaimedReminders(services.database.db, INSPECTION, nowMs, (trx, row) => queueConfirmation(services, 'reminder', row, trx));
  if (sent > 0) {
    services.jobs.wake();
    services.logger.info({ sent }, 'inspections: reminders sent');
  }
  return sent;
}
