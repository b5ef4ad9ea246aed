import type { Kysely, Selectable } from 'kysely';
import { sendClaimedReminders } from '../notify/slot-reminders.ts';
import { servedAreaProblem } from '../../app/lib/service-areas.ts';
import { homeAddressLine, homeAddressMessages } from '../../app/lib/home-address.ts';
import type { InspectionRequest } from '../../app/lib/schemas/inspections.ts';
import type { SellCar } from '../../app/lib/schemas/sell-estimate.ts';
import { bookableDays, daySlots, hourLabel, slotInstant, slotProblem, UPCOMING_STATUSES, type TestDriveMode, type TestDriveRules } from '../../app/lib/test-drives.ts';
import { bookingContact, getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import { homeVisitColumns, homeVisitOf } from '../db/home-visit-columns.ts';
import type { Settings } from '../admin/settings.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import { cancelUpcoming, isUpcoming, upcomingFirst, withFreeSeat, type SeatedTable } from '../db/seats.ts';
import type { DB, InspectionTable } from '../db/schema.ts';
import { CannotBookYetError, ConflictError, InvalidInputError, NotFoundError, RateLimitedError } from '../errors.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import { queueMail, queueSms } from '../notify/outgoing.ts';
import type { AppServices } from '../services.ts';
import { slotLabel } from '../../app/lib/test-drives.ts';
import { paths } from '../../app/lib/paths.ts';
import { estimateLine, type SellEstimate } from './sell-estimate.ts';
import { queueNewLeadMail } from './notify.ts';
import { carFromCatalogue, estimateForSeller } from './sell-estimates.ts';
import { offerOf, type Offer } from '../../app/lib/inspection-desk.ts';
import { sellText as t } from '../../app/features/sell/sell-texts.ts';
import { liveTexts } from '../../app/lib/i18n/texts.ts';
import { inLanguage } from '../i18n.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { isLanguage, pathInLanguage, type Language } from '../../app/lib/i18n/language.ts';
import type { TextValues } from '../../app/lib/i18n/texts.ts';
import { addDays, indiaDateTimeParam, indiaIso } from '../../app/lib/india-time.ts';
import { transition } from '../transitions.ts';
import { INSPECTION_TRANSITIONS } from './inspection-transitions.ts';

/**
 * Inspections of a seller's car (decision 081), booked from the estimate: slots come from the
 * test drives' engine (app/lib/test-drives.ts: one-hour slots, notice, days ahead) with the
 * inspections' own hours and capacity; a seat per slot below the capacity, kept by the unique
 * index of migration 025, so concurrent bookings never pass it on either database.
 */

/** The inspections' refusals, in the language of the request being answered. */
export const inspectionMessages = liveTexts(t, ['verifyPhoneFirst', 'slotFull', 'youAreBusy', 'notYours', 'notChangeable', 'tooManyInspectionRequests']);

/**
 * Upcoming inspections one person may hold at once. A seller brings one car, two at most (a
 * family's second car); three leaves room for that and a spare, and stops one account from
 * taking a week's slots (an outside probe booked 35 of 40 from one account through the page).
 */
export const MAX_UPCOMING_INSPECTIONS = 3;

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

/** The person's inspections still to come (booked or confirmed, not begun), read in `db` (a transaction holding the person's lock, or the database). */
async function upcomingCount(db: Kysely<DB>, userId: string, nowMs: number): Promise<number> {
  const row = await db
    .selectFrom('inspections')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('status', 'in', [...UPCOMING_STATUSES])
    .where('slot_start', '>', new Date(nowMs).toISOString())
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

function tooManyUpcoming(): ConflictError {
  return new ConflictError(t('tooManyUpcomingInspections', { limit: MAX_UPCOMING_INSPECTIONS }));
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

export type InspectionReport = { condition: Array<{ item: string; status: string }>; odometer: number | null; notes: string; recordedAt: string };

function reportOf(row: Row): InspectionReport | null {
  if (row.recorded_at === null) return null;
  const condition = row.condition ? (JSON.parse(row.condition) as Record<string, string>) : {};
  return { condition: Object.entries(condition).map(([item, status]) => ({ item, status })), odometer: row.odometer, notes: row.notes ?? '', recordedAt: indiaIso(Date.parse(row.recorded_at)) };
}

export function inspectionRules(settings: Settings): TestDriveRules {
  return {
    openingHour: settings.inspectionOpeningHour,
    closingHour: Math.max(settings.inspectionOpeningHour, settings.inspectionClosingHour),
    capacity: settings.inspectionCapacity,
    leadHours: settings.testDriveLeadHours,
    daysAhead: settings.testDriveDaysAhead,
  };
}

export function toInspection(row: Row, nowMs: number): Inspection {
  return {
    id: row.id,
    car: JSON.parse(row.car) as SellCar,
    estimate: JSON.parse(row.estimate) as SellEstimate,
    ...homeVisitOf(row),
    slot: indiaDateTimeParam(row.slot_start),
    status: row.status,
    createdAt: indiaIso(Date.parse(row.created_at)),
    offer: offerOf(row, nowMs),
    report: reportOf(row),
  };
}

/** The test drives' slot rule, worded for inspections. */
function slotRefusal(slot: string, nowMs: number, rules: TestDriveRules): string | null {
  const problem = slotProblem(slot, nowMs, rules);
  if (problem === null) return null;
  const hour = Number(slot.slice(11, 13));
  const outsideHours = bookableDays(nowMs, rules).includes(slot.slice(0, 10)) && (hour < rules.openingHour || hour + 1 > rules.closingHour);
  return outsideHours ? t('inspectionsRun', { from: hourLabel(rules.openingHour), to: hourLabel(rules.closingHour) }) : problem;
}

/** Inspections' seats (migration 025): one inspection per person at a time. */
const INSPECTION_SEATS: SeatedTable<'user'> = {
  table: 'inspections',
  rules: { seat: { constraint: 'inspections_seat_uq', column: 'seat' }, user: { constraint: 'inspections_user_slot_uq', column: 'user_id' } },
  refusals: { user: () => inspectionMessages.youAreBusy },
  slotFull: () => inspectionMessages.slotFull,
};

export type InspectionSlot = { start: string; remaining: number };

/** The slots of one day (India time) still bookable, each with the places left. */
export async function inspectionSlots(deps: Deps, rules: TestDriveRules, date: string): Promise<InspectionSlot[]> {
  const slots = daySlots(date, deps.clock.now(), rules);
  if (slots.length === 0) return [];
  const rows = await deps.database.db
    .selectFrom('inspections')
    .select('slot_start')
    .where('slot_start', '>=', slotInstant(`${date}T00:00`).toISOString())
    .where('slot_start', '<', slotInstant(`${addDays(date, 1)}T00:00`).toISOString())
    .where('status', '<>', 'cancelled')
    .execute();
  const perSlot = new Map<string, number>();
  for (const row of rows) perSlot.set(row.slot_start, (perSlot.get(row.slot_start) ?? 0) + 1);
  return slots.map((start) => ({ start, remaining: Math.max(0, rules.capacity - (perSlot.get(slotInstant(start).toISOString()) ?? 0)) }));
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

/** The confirmation by mail and SMS, queued in `trx` (decision 069). */
async function queueConfirmation(services: NotifyServices, kind: 'booked' | 'rescheduled' | 'reminder', row: Row, db: Kysely<DB>) {
  const inspection = toInspection(row, services.clock.now());
  // A reminder is written by a job, outside the customer's request: in their own language then.
  const language = kind === 'reminder' ? await languageOf(db, row.user_id) : currentLanguage();
  const when = inLanguage(language, () => slotLabel(inspection.slot));
  const say = (key: Parameters<typeof t>[0], values?: TextValues) => t(key, values, language);
  const where = inspection.mode === 'home' ? say('mailWhereHome', { address: homeAddressLine(inspection, language) }) : say('mailWhereHub', { address: services.config.contactAddress });
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
  if (row.phone) await queueSms(db, services, row.phone, say('sms', { site: services.config.siteName, heading: smsHeading, car: carTitle(inspection.car).slice(0, 40), when, where: shortWhere, link }));
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
  const rules = inspectionRules(settings);
  const nowMs = services.clock.now();
  const home = input.mode === 'home';
  if (home && !input.street.trim()) throw new InvalidInputError(homeAddressMessages.streetRequired, { street: homeAddressMessages.streetRequired });
  const pinProblem = home ? servedAreaProblem(input.pinCode, settings.serviceAreas, services.config.contactAddress) : null;
  if (pinProblem) throw new InvalidInputError(pinProblem, { pinCode: pinProblem });
  const problem = slotRefusal(input.slot, nowMs, rules);
  if (problem) throw new InvalidInputError(problem, { slot: problem });
  // The car as the catalogue names it (decision 098): the app may send 'hundai' as the page's seller typed it.
  const car = await carFromCatalogue(services.database, input.car);
  // Said before the hourly limit counts a try: holding the most already is no booking attempt.
  if ((await upcomingCount(db, input.userId, nowMs)) >= MAX_UPCOMING_INSPECTIONS) throw tooManyUpcoming();
  await limitBookings(services, input.userId);
  // Kept for the desk (the desk's pages and the new-lead mail read it): worded in English.
  const estimate = await inLanguage('en', () => estimateForSeller(services, settings, car));
  const contact = await bookingContact(services.database, profile);
  const slotStart = slotInstant(input.slot).toISOString();
  const now = new Date(nowMs).toISOString();
  const row = await withFreeSeat(services.database, INSPECTION_SEATS, { start: slotStart, capacity: rules.capacity }, (seat) =>
    // A seat taken meanwhile rolls back this transaction, the queued confirmation with it.
    db.transaction().execute(async (trx) => {
      // Counted again under the person's lock, so bookings sent at once cannot pass the most
      // together: PostgreSQL locks their profile row; SQLite runs one transaction at a time.
      if (services.database.dialect === 'postgres') await trx.selectFrom('profiles').select('user_id').where('user_id', '=', input.userId).forUpdate().execute();
      if ((await upcomingCount(trx, input.userId, nowMs)) >= MAX_UPCOMING_INSPECTIONS) throw tooManyUpcoming();
      const inserted = await trx
        .insertInto('inspections')
        .values({
          user_id: input.userId,
          car: JSON.stringify(car),
          estimate: JSON.stringify(estimate),
          ...homeVisitColumns(input),
          ...contact,
          slot_start: slotStart,
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
    }),
  );
  services.jobs.wake();
  return toInspection(row, nowMs);
}

/**
 * The booking as a lead on the desk's Selling Vehicles, with the car and its estimate, and the
 * new-lead mail as the sell form sends it: the desk works sellers from one list (migration 030).
 */
async function addInspectionLead(trx: Kysely<DB>, services: NotifyServices, settings: Settings, inspection: Row, car: SellCar, estimate: SellEstimate) {
  const where = inspection.mode === 'home' ? `at the seller's home: ${homeAddressLine({ street: inspection.street, landmark: inspection.landmark, pinCode: inspection.pin_code }, 'en')}` : 'at our hub';
  const lead = {
    name: inspection.name,
    phone: inspection.phone,
    vehicle: `${car.make} ${car.model}`,
    year: String(car.year),
    price: '',
    description: `Inspection #${inspection.id} booked for ${slotLabel(indiaDateTimeParam(inspection.slot_start))} (India time), ${where}.`,
  };
  const { id } = await trx
    .insertInto('sell_submissions')
    .values({ ...lead, car: JSON.stringify(car), estimate: JSON.stringify(estimate), inspection_id: inspection.id, status: 'new', notes: '', created_at: inspection.created_at, updated_at: inspection.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await queueNewLeadMail(trx, services, settings, { kind: 'sell', id, ...lead, imageUrls: [], estimate: estimateLine(estimate) });
}

async function findOwn(deps: Deps, id: number, userId: string): Promise<Row> {
  const row = await deps.database.db.selectFrom('inspections').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new NotFoundError(inspectionMessages.notYours);
  return row;
}

/** Moves one's own upcoming inspection to another slot (the seat rules as for a new one); the new time is confirmed again. */
export async function rescheduleOwnInspection(services: NotifyServices, settings: Settings, input: { id: number; userId: string; slot: string }): Promise<Inspection> {
  await limitInspectionChanges(services, input.userId);
  const row = await findOwn(services, input.id, input.userId);
  const nowMs = services.clock.now();
  const to = transition(INSPECTION_TRANSITIONS, row.status, 'reschedule', 'customer');
  if (!isUpcoming(row, nowMs) || to === null) throw new ConflictError(inspectionMessages.notChangeable);
  const rules = inspectionRules(settings);
  const problem = slotRefusal(input.slot, nowMs, rules);
  if (problem) throw new InvalidInputError(problem, { slot: problem });
  const slotStart = slotInstant(input.slot).toISOString();
  if (slotStart === row.slot_start) return toInspection(row, nowMs);
  const now = new Date(nowMs).toISOString();
  const moved = await withFreeSeat(services.database, INSPECTION_SEATS, { start: slotStart, capacity: rules.capacity }, (seat) =>
    services.database.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('inspections')
        .set({ slot_start: slotStart, seat, status: to, reminded_at: null, updated_at: now })
        .where('id', '=', row.id)
        // Only if nobody changed it meanwhile (a cancel, another move).
        .where('slot_start', '=', row.slot_start)
        .where('status', '=', row.status)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new ConflictError(inspectionMessages.notChangeable);
      await queueConfirmation(services, 'rescheduled', updated, trx);
      return updated;
    }),
  );
  services.jobs.wake();
  return toInspection(moved, nowMs);
}

export async function cancelOwnInspection(deps: Deps, input: { id: number; userId: string }): Promise<Inspection> {
  await limitInspectionChanges(deps, input.userId);
  const row = await findOwn(deps, input.id, input.userId);
  if (!isUpcoming(row, deps.clock.now()) || transition(INSPECTION_TRANSITIONS, row.status, 'cancel', 'customer') === null) throw new ConflictError(inspectionMessages.notChangeable);
  // The shared cancel of upcoming bookings (test drives too) makes this same move: the table's unit test holds them together.
  const updated = await cancelUpcoming(deps.database, 'inspections', row.id, new Date(deps.clock.now()).toISOString(), inspectionMessages.notChangeable);
  return toInspection(updated, deps.clock.now());
}

/** A person's inspections, soonest upcoming first, then past and cancelled ones newest first. */
export async function listOwnInspections(deps: Deps, userId: string): Promise<Array<Inspection & { changeable: boolean }>> {
  const rows = await deps.database.db.selectFrom('inspections').selectAll().where('user_id', '=', userId).orderBy('slot_start', 'desc').limit(100).execute();
  const nowMs = deps.clock.now();
  return upcomingFirst(rows.map((row) => ({ ...toInspection(row, nowMs), changeable: isUpcoming(row, nowMs) })));
}

/** An inspection's reminder goes out when it starts within this long: time to find the RC and the insurance papers. */
export const INSPECTION_REMINDER_BEFORE_MS = 2 * 60 * 60 * 1000;

/**
 * Sends the reminder of every upcoming inspection starting within two hours and not reminded
 * yet, each claimed first (reminded_at set only where still empty) in the transaction that
 * queues its mail and SMS, so two runs or two instances never send one twice (as test drives').
 * Returns how many were sent.
 */
export async function sendDueInspectionReminders(services: NotifyServices, nowMs: number): Promise<number> {
  const sent = await sendClaimedReminders(services.database.db, 'inspections', { nowMs, beforeMs: INSPECTION_REMINDER_BEFORE_MS }, (trx, row) =>
    queueConfirmation(services, 'reminder', row, trx),
  );
  if (sent > 0) {
    services.jobs.wake();
    services.logger.info({ sent }, 'inspections: reminders sent');
  }
  return sent;
}
