import { randomUUID } from 'node:crypto';
import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import {
  CHECKLIST_ITEMS,
  MAX_DAMAGE_CHARGE,
  MAX_DAMAGE_NOTE_LENGTH,
  MAX_DAMAGE_NOTES,
  type ChecklistItem,
  type ChecklistPhotoView,
  type ChecklistStage,
  type ChecklistView,
  chargeLines,
  damageField,
  type ChargeLine,
} from '../../app/features/rentals/rental-checklist.ts';
import type { ReturnCharges } from '../../app/features/rentals/rental-price.ts';
import { FUEL_EIGHTHS_MAX } from '../../app/features/rentals/rentals.ts';
import { MAX_ODOMETER_KM } from '../../app/lib/vehicle.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { InvalidInputError } from '../errors.ts';
import { checkPixelBudget, ImageRejectedError, inspectImage, storeSinglePhotoWithThumb, type Upload } from '../media/images.ts';
import type { Storage } from '../media/storage.ts';

/**
 * The photo checklist of a handover and a return (docs/decisions/067). The photos are private
 * (the renter of the booking and the admins see them): they live in `privateStorage` under
 * `rental-checklists/` with random names, are read only through `readChecklistPhoto` whose caller
 * checked the viewer, and are deleted when their booking is purged (server/privacy/retention.ts).
 * A sold car's delivery (decision 116) uses the same engine: the reading, the photos and their
 * refusals, stored under its own prefix.
 */

/** A stored photo: what the pages see plus where it is (the keys never leave the server). */
export type StoredPhoto = ChecklistPhotoView & { key: string; thumbKey: string };

/** One damage note as the desk entered it: a description and its photo; at return, whether it is new and its charge. */
export type DamageInput = { note: string; photo: Upload | null; isNew?: boolean; charge?: number };

/** A checklist as the desk entered it; the photos are checked and stored by `storeChecklist`. */
export type ChecklistInput = {
  photos: Partial<Record<ChecklistItem, Upload | null>>;
  damage: DamageInput[];
};

/** Where a rental's checklist photos are kept; a sale's delivery passes its own (server/sales/deliveries.ts). */
const RENTAL_PHOTO_PREFIX = 'rental-checklists';

/** A reading of the car at a handover: whole km on the odometer and eighths of a tank. `fields` name the form's inputs. */
export function checkReading(reading: { odometer: number; fuel: number }, fields: { odometer: string; fuel: string }): void {
  if (!Number.isSafeInteger(reading.odometer) || reading.odometer < 0 || reading.odometer > MAX_ODOMETER_KM)
    throw new InvalidInputError(t('odometerWholeKm'), { [fields.odometer]: t('odometerWholeKm') });
  if (!Number.isInteger(reading.fuel) || reading.fuel < 0 || reading.fuel > FUEL_EIGHTHS_MAX)
    throw new InvalidInputError(t('fuelEighths'), { [fields.fuel]: t('fuelEighths') });
}

/**
 * Refuses a checklist that misses a required photo or has a half-filled damage note, naming
 * every missing item at once (one message, and one per form field). Damage at a handover is
 * never new and never charged.
 */
export function checkChecklist(stage: ChecklistStage, input: ChecklistInput): void {
  const fields: Record<string, string> = {};
  const missing: string[] = [];
  for (const item of CHECKLIST_ITEMS) {
    if (!input.photos[item]) {
      fields[item] = t('addPhotoOf', { what: photoOf(item) });
      missing.push(t(`missingPhoto_${item}`));
    }
  }
  if (input.damage.length > MAX_DAMAGE_NOTES) throw new InvalidInputError(t('tooManyDamageNotes', { max: MAX_DAMAGE_NOTES }));
  input.damage.forEach((damage, index) => {
    const number = index + 1;
    if (!damage.note.trim()) {
      fields[damageField(index, 'Note')] = t('damageDescribe', { number });
      missing.push(t('missingDamageDescription', { number }));
    } else if (damage.note.length > MAX_DAMAGE_NOTE_LENGTH) {
      fields[damageField(index, 'Note')] = t('damageTooLong', { number, max: MAX_DAMAGE_NOTE_LENGTH });
    }
    if (!damage.photo) {
      fields[damageField(index, 'Photo')] = t('damageAddPhoto', { number });
      missing.push(t('missingDamagePhoto', { number }));
    }
    const charge = damage.charge ?? 0;
    if (!Number.isSafeInteger(charge) || charge < 0 || charge > MAX_DAMAGE_CHARGE) {
      fields[damageField(index, 'Charge')] = t('damageChargeRange', { number, max: MAX_DAMAGE_CHARGE });
    } else if (charge > 0 && (stage === 'handover' || !damage.isNew)) {
      fields[damageField(index, 'Charge')] = t('damageOnlyNew', { number });
    }
  });
  if (Object.keys(fields).length === 0) return;
  const message =
    missing.length > 0 ? t(stage === 'handover' ? 'handoverIncomplete' : 'returnIncomplete', { missing: missing.join(', ') }) : Object.values(fields).join(' ');
  throw new InvalidInputError(message, fields);
}

/** 'the front', 'the odometer and fuel gauge': what a photo of a required item shows, in a sentence. */
function photoOf(item: ChecklistItem): string {
  return t(`photoOf_${item}`);
}

/** The field a photo came from, for a refusal to be shown beside it. */
function photoRefused(field: string, label: string, error: ImageRejectedError): InvalidInputError {
  const message = t('photoNotUsable', { what: label, why: error.message });
  return new InvalidInputError(message, { [field]: message });
}

/**
 * Checks every photo by its content (size, format, pixels, whole file) before any is stored,
 * then stores each re-encoded (sharp, no metadata) in the private storage. Returns what the
 * checklist row records; on any failure nothing stays stored.
 */
export async function storeChecklistPhotos(
  privateStorage: Storage,
  stage: ChecklistStage,
  input: ChecklistInput,
  prefix: string = RENTAL_PHOTO_PREFIX,
): Promise<StoredPhoto[]> {
  checkChecklist(stage, input);
  const planned: Array<{ field: string; label: string; upload: Upload; view: ChecklistPhotoView }> = [];
  for (const item of CHECKLIST_ITEMS) {
    planned.push({ field: item, label: photoOf(item), upload: input.photos[item]!, view: { id: randomUUID(), item, note: '', isNew: false, charge: 0 } });
  }
  input.damage.forEach((damage, index) => {
    const isNew = stage === 'return' && Boolean(damage.isNew);
    planned.push({
      field: damageField(index, 'Photo'),
      label: t('damageNumber', { number: index + 1 }),
      upload: damage.photo!,
      view: { id: randomUUID(), item: 'damage', note: damage.note.trim(), isNew, charge: isNew ? (damage.charge ?? 0) : 0 },
    });
  });
  const sizes: Array<{ width: number; height: number }> = [];
  for (const photo of planned) {
    try {
      sizes.push(await inspectImage(photo.upload.source));
    } catch (error) {
      if (error instanceof ImageRejectedError) throw photoRefused(photo.field, photo.label, error);
      throw error;
    }
  }
  checkPixelBudget(sizes, 'front');
  const stored: StoredPhoto[] = [];
  try {
    for (const photo of planned) {
      const key = `${prefix}/${photo.view.id}.webp`;
      const thumbKey = `${prefix}/${photo.view.id}-thumb.webp`;
      try {
        await storeSinglePhotoWithThumb(privateStorage, photo.upload.source, key, thumbKey);
      } catch (error) {
        if (error instanceof ImageRejectedError) throw photoRefused(photo.field, photo.label, error);
        throw error;
      }
      stored.push({ ...photo.view, key, thumbKey });
    }
  } catch (error) {
    await deleteStoredPhotos(privateStorage, stored);
    throw error;
  }
  return stored;
}

export async function deleteStoredPhotos(privateStorage: Storage, photos: Array<{ key: string; thumbKey: string }>): Promise<void> {
  await Promise.allSettled(photos.flatMap((photo) => [privateStorage.delete(photo.key), privateStorage.delete(photo.thumbKey)]));
}

/** Records a checklist in the transaction that moves the booking (handover or return). */
export async function insertChecklist(
  db: Kysely<DB>,
  input: { bookingId: number; stage: ChecklistStage; odometer: number; fuel: number; photos: StoredPhoto[]; recordedBy: string; nowIso: string },
): Promise<void> {
  await db
    .insertInto('rental_checklists')
    .values({
      booking_id: input.bookingId,
      stage: input.stage,
      odometer: input.odometer,
      fuel: input.fuel,
      photos: JSON.stringify(input.photos),
      recorded_by: input.recordedBy,
      created_at: input.nowIso,
    })
    .execute();
}

function parsePhotos(text: string): StoredPhoto[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as StoredPhoto[]) : [];
  } catch {
    return [];
  }
}

/** The handover and return checklists of a booking (null when not recorded), without storage keys. */
export async function checklistsOf(database: Database, bookingId: number): Promise<{ handover: ChecklistView | null; return: ChecklistView | null }> {
  const rows = await database.db
    .selectFrom('rental_checklists')
    .select(['stage', 'odometer', 'fuel', 'photos', 'created_at'])
    .where('booking_id', '=', bookingId)
    .execute();
  const view = (stage: ChecklistStage): ChecklistView | null => {
    const row = rows.find((candidate) => candidate.stage === stage);
    if (!row) return null;
    return {
      stage,
      odometer: Number(row.odometer),
      fuel: Number(row.fuel),
      photos: parsePhotos(row.photos).map(({ id, item, note, isNew, charge }) => ({ id, item, note, isNew, charge })),
      recordedAt: row.created_at,
    };
  };
  return { handover: view('handover'), return: view('return') };
}

/** A booking's condition records and its charges, each with its photo: what the renter's page and the API show. */
export type BookingCondition = { handover: ChecklistView | null; return: ChecklistView | null; charges: ChargeLine[] };

/** The caller has checked the booking is the viewer's own (or the viewer is an admin). */
export async function bookingCondition(database: Database, booking: { id: number; charges: ReturnCharges | null }): Promise<BookingCondition> {
  const records = await checklistsOf(database, booking.id);
  return { ...records, charges: booking.charges ? chargeLines(booking.charges, records.return) : [] };
}

/** A photo id as this module makes them (a UUID); anything else is never looked up. */
const PHOTO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One checklist photo of a booking as a stream, with whose booking it is (null: a deleted
 * account's); null when there is no such photo. The caller lets through the renter and admins only.
 */
export async function readChecklistPhoto(
  deps: { database: Database; privateStorage: Storage },
  input: { bookingId: number; photoId: string; thumb?: boolean },
): Promise<{ userId: string | null; open: () => Promise<{ body: ReadableStream; size: number } | null> } | null> {
  if (!PHOTO_ID.test(input.photoId)) return null;
  const rows = await deps.database.db
    .selectFrom('rental_checklists')
    .innerJoin('rental_bookings', 'rental_bookings.id', 'rental_checklists.booking_id')
    .select(['rental_checklists.photos', 'rental_bookings.user_id'])
    .where('rental_checklists.booking_id', '=', input.bookingId)
    .execute();
  for (const row of rows) {
    const photo = parsePhotos(row.photos).find((candidate) => candidate.id === input.photoId);
    if (photo) return { userId: row.user_id, open: () => deps.privateStorage.get(input.thumb && photo.thumbKey ? photo.thumbKey : photo.key) };
  }
  return null;
}

/** Deletes the checklist photos (files and rows) of these bookings, before the bookings themselves are deleted. */
export async function eraseChecklists(deps: { database: Database; privateStorage: Storage }, bookingIds: number[]): Promise<number> {
  if (bookingIds.length === 0) return 0;
  const rows = await deps.database.db.selectFrom('rental_checklists').select(['id', 'photos']).where('booking_id', 'in', bookingIds).execute();
  for (const row of rows) await deleteStoredPhotos(deps.privateStorage, parsePhotos(row.photos));
  if (rows.length > 0)
    await deps.database.db
      .deleteFrom('rental_checklists')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  return rows.length;
}
