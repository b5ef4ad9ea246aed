import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { formatRupees } from '../../app/lib/format.ts';
import { OFFER_LIMITS, offerMessages, offerOf, type DeskStatus } from '../../app/features/appointments/inspection-desk.ts';
import { deskInspectionsText as t } from '../../app/features/appointments/desk-inspections-texts.ts';
import { pathInLanguage, type Language } from '../../app/lib/i18n/language.ts';
import { adminPaths, paths } from '../../app/lib/paths.ts';
import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import { dayLabel } from '../../app/features/appointments/test-drives.ts';
import { dayRange } from '../appointments/appointments.ts';
import { MAX_VEHICLE_IMAGES } from '../../app/lib/vehicle-schema.ts';
import type { ImageRef } from '../../app/lib/vehicle.ts';
import { languageOfPerson } from '../accounts/profiles.ts';
import type { Settings } from '../admin/settings.ts';
import { discardImages, storeUploads } from '../catalog/admin-images.ts';
import { imageRows, vehicleColumns } from '../catalog/vehicles.ts';
import type { DB, InspectionTable } from '../db/schema.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.ts';
import type { Upload } from '../media/images.ts';
import type { Storage } from '../media/storage.ts';
import { changeAndQueue, queueMail } from '../notify/outgoing.ts';
import { pushOfSms, queuePhoneMessage } from '../notify/phone-message.ts';
import { whatsappTemplate } from '../notify/whatsapp-templates.ts';
import type { AppServices } from '../services.ts';
import { inspectionMessages, limitInspectionChanges, toInspection, type Inspection } from './inspections.ts';
import { addDays, indiaDay } from '../../app/lib/india-time.ts';
import { bulkMove, transition } from '../transitions.ts';
import { INSPECTION_TRANSITIONS } from './inspection-transitions.ts';
import { OFFER_TRANSITIONS, offerStatusOf, storedOfferStatus } from './offer-transitions.ts';

/**
 * The desk's side of a seller's inspection (decision 084): the schedule, confirm and no-show,
 * recording what was found, the offer, the seller's answer and the inventory draft. Every
 * change of state is a conditional update (the row as it was read), so two admins, or two
 * taps of Accept, never both go through; messages are queued in the change's transaction.
 */

type Row = Selectable<InspectionTable>;
type Services = Pick<AppServices, 'database' | 'jobs' | 'config' | 'clock' | 'mailer' | 'logger'>;

/** The services' refusals, in the language of the request being answered (decision 087). */
export const deskMessages = {
  notFound: () => t('notFound'),
  cannotConfirm: () => t('cannotConfirm'),
  cannotNoShow: () => t('cannotNoShow'),
  cannotRecord: () => t('cannotRecord'),
  recordFirst: () => t('recordFirst'),
  offerAnswered: () => t('offerAnswered'),
  noOffer: () => t('noOffer'),
  offerExpired: (validUntil: string) => t('offerExpired', { day: dayLabel(validUntil) }),
  notAccepted: () => t('notAccepted'),
  tooManyPhotos: (room: number) => (room <= 0 ? t('tooManyPhotos', { max: MAX_VEHICLE_IMAGES }) : t('tooManyPhotosRoom', { max: MAX_VEHICLE_IMAGES, room })),
  changedMeanwhile: () => t('changedMeanwhile'),
} as const;

/** What the desk sees of an inspection: the seller, what was found, the offer, the draft. */
export type DeskInspection = Inspection & {
  name: string;
  phone: string;
  email: string;
  condition: Record<string, string>;
  notes: string;
  odometer: number | null;
  photos: ImageRef[];
  recordedAt: string | null;
  draftVehicleId: number | null;
};

function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toDeskInspection(row: Row, nowMs: number): DeskInspection {
  return {
    ...toInspection(row, nowMs),
    name: row.name,
    phone: row.phone,
    email: row.email,
    condition: parseJson<Record<string, string>>(row.condition, {}),
    notes: row.notes ?? '',
    odometer: row.odometer === null ? null : Number(row.odometer),
    photos: parseJson<ImageRef[]>(row.photos, []),
    recordedAt: row.recorded_at,
    draftVehicleId: row.draft_vehicle_id === null ? null : Number(row.draft_vehicle_id),
  };
}

async function findRow(services: Pick<AppServices, 'database'>, id: number): Promise<Row> {
  const row = await services.database.db.selectFrom('inspections').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError(deskMessages.notFound());
  return row;
}

export async function getDeskInspection(services: Pick<AppServices, 'database' | 'clock'>, id: number): Promise<DeskInspection> {
  return toDeskInspection(await findRow(services, id), services.clock.now());
}

/** One India day's inspections, earliest first, optionally of one status. */
export async function inspectionsOn(
  services: Pick<AppServices, 'database' | 'clock'>,
  date: string,
  status: DeskStatus | null = null,
): Promise<DeskInspection[]> {
  const { fromMs, toMs } = dayRange(date);
  let query = services.database.db.selectFrom('inspections').selectAll().where('slot_start_ms', '>=', fromMs).where('slot_start_ms', '<', toMs);
  if (status) query = query.where('status', '=', status);
  const rows = await query.orderBy('slot_start_ms').orderBy('id').limit(200).execute();
  const nowMs = services.clock.now();
  return rows.map((row) => toDeskInspection(row, nowMs));
}

export type DeskStatusAction = 'confirm' | 'no_show';

/** Confirm (booked only) or no-show (booked or confirmed); answers the row before and after. */
export async function changeInspectionStatus(
  services: Pick<AppServices, 'database' | 'clock'>,
  id: number,
  action: DeskStatusAction,
): Promise<{ before: DeskInspection; after: DeskInspection }> {
  const row = await findRow(services, id);
  const to = transition(INSPECTION_TRANSITIONS, row.status, action === 'confirm' ? 'confirm' : 'mark_no_show', 'desk');
  if (to === null) throw new ConflictError(action === 'confirm' ? deskMessages.cannotConfirm() : deskMessages.cannotNoShow());
  const nowMs = services.clock.now();
  const updated = await services.database.db
    .updateTable('inspections')
    .set({ status: to, updated_at: new Date(nowMs).toISOString() })
    .where('id', '=', id)
    .where('status', '=', row.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new ConflictError(deskMessages.changedMeanwhile());
  return { before: toDeskInspection(row, nowMs), after: toDeskInspection(updated, nowMs) };
}

export type InspectionRecord = {
  /** Item -> status, only the items checked; any item name and status text, as the vehicle form allows. */
  condition: Record<string, string>;
  notes: string;
  odometer: number | null;
};

/**
 * Records what was found: condition items, notes, odometer and new photos (stored through the
 * vehicle photos' pipeline and limits, added after those already kept). The inspection becomes
 * 'done'. Recording again replaces the items, notes and reading; refused once the offer was accepted.
 */
export async function recordInspection(
  services: Pick<AppServices, 'database' | 'clock'> & { storage: Storage },
  id: number,
  record: InspectionRecord,
  uploads: Upload[],
): Promise<{ before: DeskInspection; after: DeskInspection }> {
  const row = await findRow(services, id);
  const to = transition(INSPECTION_TRANSITIONS, row.status, 'record', 'desk');
  if (to === null || row.offer_status === 'accepted') throw new ConflictError(deskMessages.cannotRecord());
  const kept = parseJson<ImageRef[]>(row.photos, []);
  const room = MAX_VEHICLE_IMAGES - kept.length;
  if (uploads.length > room) throw new InvalidInputError(deskMessages.tooManyPhotos(room), { images: deskMessages.tooManyPhotos(room) });
  const nowMs = services.clock.now();
  const stored = uploads.length > 0 ? await storeUploads(services.storage, uploads, `inspections/${id}`, nowMs) : [];
  const now = new Date(nowMs).toISOString();
  const updated = await services.database.db
    .updateTable('inspections')
    .set({
      status: to,
      condition: JSON.stringify(record.condition),
      notes: record.notes,
      odometer: record.odometer,
      photos: JSON.stringify([...kept, ...stored]),
      recorded_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    // As read: another admin's photos saved meanwhile are not overwritten.
    .where('updated_at', '=', row.updated_at)
    .where('status', '=', row.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    await discardImages(services.storage, stored);
    throw new ConflictError(deskMessages.changedMeanwhile());
  }
  return { before: toDeskInspection(row, nowMs), after: toDeskInspection(updated, nowMs) };
}

function carTitle(car: SellCar): string {
  return `${car.year} ${car.make} ${car.model}`;
}

/** The offer's last day: from today (India time), at most OFFER_LIMITS.maxDaysValid ahead. */
function validUntilProblem(validUntil: string, nowMs: number): string | null {
  const today = indiaDay(nowMs);
  const parsed = new Date(`${validUntil}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== validUntil) return offerMessages().validUntil;
  if (validUntil < today || validUntil > addDays(today, OFFER_LIMITS.maxDaysValid)) return offerMessages().validUntil;
  return null;
}

/**
 * Makes (or replaces) the offer on a recorded inspection whose offer is not answered yet; the
 * seller's mail and SMS are queued in the same transaction.
 */
export async function makeOffer(
  services: Services,
  id: number,
  input: { rupees: number; validUntil: string },
): Promise<{ before: DeskInspection; after: DeskInspection }> {
  const row = await findRow(services, id);
  if (row.status !== 'done' || row.recorded_at === null) throw new ConflictError(deskMessages.recordFirst());
  if (transition(OFFER_TRANSITIONS, offerStatusOf(row.offer_status), 'make', 'desk') === null) throw new ConflictError(deskMessages.offerAnswered());
  const nowMs = services.clock.now();
  const problem = validUntilProblem(input.validUntil, nowMs);
  if (problem) throw new InvalidInputError(problem, { validUntil: problem });
  if (!Number.isSafeInteger(input.rupees) || input.rupees < OFFER_LIMITS.minRupees || input.rupees > OFFER_LIMITS.maxRupees)
    throw new InvalidInputError(offerMessages().amount, { amount: offerMessages().amount });
  const now = new Date(nowMs).toISOString();
  // The seller reads the offer in their own language, looked up before the transaction holds the database.
  const language = await languageOfPerson(services.database, row.user_id);
  // Any offer not yet answered, as it is now: one the desk made meanwhile is replaced too.
  const make = bulkMove(OFFER_TRANSITIONS, 'make', 'desk');
  const updated = await changeAndQueue(services, async (trx) => {
    const changed = await trx
      .updateTable('inspections')
      .set({
        offer_rupees: input.rupees,
        offer_valid_until: input.validUntil,
        offer_status: storedOfferStatus(make.to),
        offer_made_at: now,
        offer_answered_at: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where((eb) => eb.or(make.from.map((from) => (from === 'none' ? eb('offer_status', 'is', null) : eb('offer_status', '=', from)))))
      .where('status', '=', 'done')
      .returningAll()
      .executeTakeFirst();
    if (!changed) throw new ConflictError(deskMessages.offerAnswered());
    await queueOfferMade(trx, services, changed, language);
    await moveLead(trx, id, 'contacted', `Offer of ${formatRupees(input.rupees)} made on ${now.slice(0, 10)}, valid until ${input.validUntil}.`, now);
    return changed;
  });
  return { before: toDeskInspection(row, nowMs), after: toDeskInspection(updated, nowMs) };
}

/**
 * The inspection's lead on Selling Vehicles moves with its offer, in the offer's transaction:
 * contacted once an offer is made (never back from closed), closed once the seller answers; each
 * step is added to the lead's notes, so the desk's list says where the seller stands.
 */
async function moveLead(db: Kysely<DB>, inspectionId: number, status: 'contacted' | 'closed', note: string, now: string): Promise<void> {
  let update = db
    .updateTable('sell_submissions')
    .set((eb) => ({
      status,
      notes: sql<string>`case when ${eb.ref('notes')} = '' then ${note} else ${eb.ref('notes')} || ${'\n' + note} end`,
      updated_at: now,
    }))
    .where('inspection_id', '=', inspectionId);
  if (status === 'contacted') update = update.where('status', '=', 'new');
  await update.execute();
}

/** The seller's mail and phone message (WhatsApp or SMS, and push) about the offer (decision 069: in the offer's transaction), in the seller's language. */
async function queueOfferMade(db: Kysely<DB>, services: Services, row: Row, language: Language) {
  const inspection = toInspection(row, services.clock.now());
  const amount = formatRupees(Number(row.offer_rupees));
  const until = dayLabel(row.offer_valid_until ?? '');
  const link = new URL(pathInLanguage(`${paths.profile}#inspections`, language), services.config.siteOrigin).href;
  const car = carTitle(inspection.car);
  const text = [
    row.name ? t('mailGreetingName', { name: row.name }, language) : t('mailGreeting', {}, language),
    '',
    t('offerMailIntro', { car, amount }, language),
    '',
    t('offerMailHolds', { until }, language),
    t('offerMailAnswer', { link }, language),
    '',
    t('mailRegards', {}, language),
    t('mailTeam', { site: services.config.siteName }, language),
  ].join('\n');
  if (row.email) await queueMail(db, services, { to: row.email, subject: t('offerMailSubject', { car, amount }, language), text });
  const sms = t('offerSms', { site: services.config.siteName, amount, car: car.slice(0, 40), until, link }, language);
  await queuePhoneMessage(db, services, {
    userId: row.user_id,
    phone: row.phone || null,
    language,
    sms,
    whatsapp: whatsappTemplate('inspection_offer', { amount, car, until, link }),
    push: pushOfSms(services.config.siteName, sms, `${paths.profile}#inspections`, language),
  });
}

/** The dealer's mail about the seller's answer, when notifications are on (as for new leads). */
async function queueOfferAnswered(db: Kysely<DB>, services: Services, settings: Settings, row: Row) {
  if (!settings.emailNotifications || !settings.adminEmail) return;
  const inspection = toInspection(row, services.clock.now());
  const accepted = row.offer_status === 'accepted';
  const link = new URL(adminPaths.inspection(row.id), services.config.siteOrigin).href;
  const car = carTitle(inspection.car);
  // The desk's mail: English, as every mail to the dealer.
  const text = [
    t(
      accepted ? 'answeredAccepted' : 'answeredDeclined',
      { who: row.name || t('theSeller', {}, 'en'), amount: formatRupees(Number(row.offer_rupees)), car, id: row.id },
      'en',
    ),
    '',
    t('phoneLine', { phone: row.phone }, 'en'),
    t('emailLine', { email: row.email }, 'en'),
    '',
    t(accepted ? 'answeredNextAccepted' : 'answeredNextDeclined', { link }, 'en'),
  ].join('\n');
  await queueMail(db, services, {
    to: settings.adminEmail,
    subject: t(accepted ? 'answeredSubjectAccepted' : 'answeredSubjectDeclined', { id: row.id, car }, 'en'),
    text,
  });
}

/**
 * The seller accepts or declines the offer on their own inspection (someone else's is not
 * found). Only an open offer whose last day (India time, by the server's clock) has not passed;
 * the conditional update makes two answers at once give one.
 */
export async function answerOffer(
  services: Services,
  settings: Settings,
  input: { id: number; userId: string; answer: 'accept' | 'decline' },
): Promise<Inspection> {
  await limitInspectionChanges(services, input.userId);
  const row = await services.database.db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(inspectionMessages.notYours);
  const nowMs = services.clock.now();
  const offer = offerOf(row, nowMs);
  if (!offer) throw new ConflictError(deskMessages.noOffer());
  if (offer.state === 'expired') throw new ConflictError(deskMessages.offerExpired(offer.validUntil));
  const from = offerStatusOf(row.offer_status);
  const to = transition(OFFER_TRANSITIONS, from, input.answer, 'customer');
  if (to === null) throw new ConflictError(deskMessages.offerAnswered());
  const now = new Date(nowMs).toISOString();
  const today = indiaDay(nowMs);
  const updated = await changeAndQueue(services, async (trx) => {
    const changed = await trx
      .updateTable('inspections')
      .set({ offer_status: storedOfferStatus(to), offer_answered_at: now, updated_at: now })
      .where('id', '=', row.id)
      .where('offer_status', '=', storedOfferStatus(from))
      // The same offer as read (the desk may have replaced it meanwhile), still within its days.
      .where('offer_made_at', '=', row.offer_made_at)
      .where('offer_valid_until', '>=', today)
      .returningAll()
      .executeTakeFirst();
    if (!changed) throw new ConflictError(deskMessages.offerAnswered());
    await queueOfferAnswered(trx, services, settings, changed);
    const rupees = formatRupees(changed.offer_rupees ?? 0);
    await moveLead(
      trx,
      row.id,
      'closed',
      input.answer === 'accept'
        ? `The seller accepted the offer of ${rupees} on ${now.slice(0, 10)}.`
        : `The seller declined the offer of ${rupees} on ${now.slice(0, 10)}.`,
      now,
    );
    return changed;
  });
  return toInspection(updated, nowMs);
}

/**
 * An accepted offer becomes a vehicle in the inventory with status 'draft' (not public until an
 * admin publishes it, decision 084): the car's details, the condition items as its condition
 * report, copies of the inspection's photos (the vehicle's own files, so deleting one never
 * breaks the other). No price: the offer is what the dealer pays, not the selling price.
 * Twice, or twice at once, gives one draft: the inspection takes the draft's id only while it
 * has none, and the losing transaction is rolled back with its vehicle.
 */
export async function createVehicleDraft(
  services: Pick<AppServices, 'database' | 'clock'> & { storage: Storage },
  id: number,
  categoryId: number,
): Promise<{ vehicleId: number; created: boolean; inspection: DeskInspection }> {
  const row = await findRow(services, id);
  if (row.draft_vehicle_id !== null)
    return { vehicleId: Number(row.draft_vehicle_id), created: false, inspection: toDeskInspection(row, services.clock.now()) };
  if (row.offer_status !== 'accepted') throw new ConflictError(deskMessages.notAccepted());
  const category = await services.database.db.selectFrom('categories').select(['id', 'name', 'slug']).where('id', '=', categoryId).executeTakeFirst();
  if (!category) throw new InvalidInputError(t('chooseCategoryForVehicle'), { categoryId: t('chooseCategory') });
  const desk = toDeskInspection(row, services.clock.now());
  const car = desk.car;
  const nowMs = services.clock.now();
  const photos = await copyPhotos(services.storage, desk.photos, `vehicles/${category.slug}`, nowMs);
  const input = {
    name: `${car.make} ${car.model}`,
    make: car.make,
    model: car.model,
    variant: '',
    year: String(car.year),
    fuelType: car.fuel,
    transmission: car.transmission,
    bodyType: '',
    colour: '',
    price: '',
    owners: String(car.owners),
    registration: car.registrationState,
    insuranceValidity: '',
    fitnessFC: '',
    tyrePoint: '',
    description: desk.notes,
    videoUrl: '',
    categoryId: category.id,
    odometer: desk.odometer ?? car.km,
    featured: false,
    inspection: Object.keys(desk.condition).length > 0 ? desk.condition : null,
    refurbishment: null,
    financial: null,
  };
  const now = new Date(nowMs).toISOString();
  try {
    const vehicleId = await services.database.db.transaction().execute(async (trx) => {
      const vehicle = await trx
        .insertInto('vehicles')
        .values({ ...vehicleColumns(input, category.name), status: 'draft', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (photos.length > 0)
        await trx
          .insertInto('vehicle_images')
          .values(imageRows(vehicle.id, photos, 0, now))
          .execute();
      const claimed = await trx
        .updateTable('inspections')
        .set({ draft_vehicle_id: vehicle.id, updated_at: now })
        .where('id', '=', id)
        .where('draft_vehicle_id', 'is', null)
        .where('offer_status', '=', 'accepted')
        .returning('id')
        .executeTakeFirst();
      if (!claimed) throw new DraftTakenError();
      return vehicle.id;
    });
    return { vehicleId, created: true, inspection: await getDeskInspection(services, id) };
  } catch (error) {
    await discardImages(services.storage, photos);
    if (!(error instanceof DraftTakenError) && !isDraftUniqueViolation(error)) throw error;
    const again = await findRow(services, id);
    if (again.draft_vehicle_id === null) throw new ConflictError(deskMessages.changedMeanwhile());
    return { vehicleId: Number(again.draft_vehicle_id), created: false, inspection: toDeskInspection(again, services.clock.now()) };
  }
}

class DraftTakenError extends Error {}

/** Whether the claim broke "one draft car per inspection" (migration 027). */
function isDraftUniqueViolation(error: unknown): boolean {
  return brokenUniqueRule(error, 'inspections', { draft: { constraint: 'inspections_draft_uq', column: 'draft_vehicle_id' } }) !== null;
}

/** Copies stored photos (every WebP variant) under new keys of `prefix`. */
async function copyPhotos(storage: Storage, photos: ImageRef[], prefix: string, nowMs: number): Promise<ImageRef[]> {
  const copied: ImageRef[] = [];
  const attempt = randomUUID().slice(0, 8);
  try {
    for (const [index, photo] of photos.entries()) {
      // Unique per attempt: two drafts asked at once copy side by side, and the one rolled back
      // deletes only its own copies, never the winner's.
      const key = `${prefix}/${nowMs}_${attempt}_inspection-${index + 1}`;
      const ref: ImageRef = { ...photo, key };
      copied.push(ref);
      for (const width of photo.widths) {
        const file = await storage.get(`${photo.key}-${width}.webp`);
        if (!file) continue;
        await storage.put(`${key}-${width}.webp`, new Uint8Array(await new Response(file.body).arrayBuffer()), 'image/webp');
      }
    }
  } catch (error) {
    await discardImages(storage, copied);
    throw error;
  }
  return copied;
}

/** The audit's view of an inspection: what the desk changed, without the seller's contact details. */
export function auditView(inspection: DeskInspection) {
  return {
    status: inspection.status,
    slot: inspection.slot,
    condition: inspection.condition,
    odometer: inspection.odometer,
    photos: inspection.photos.length,
    offer: inspection.offer ? { rupees: inspection.offer.rupees, validUntil: inspection.offer.validUntil, state: inspection.offer.state } : null,
    draftVehicleId: inspection.draftVehicleId,
  };
}
