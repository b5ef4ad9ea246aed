import type { ImageRef } from '../../app/lib/vehicle.ts';
import { offerOf } from '../../app/features/appointments/inspection-desk.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';
import { discardImages } from '../catalog/admin-images.ts';
import { VISIT_BOOKING_PERSONAL, type PersonalData } from '../privacy/personal-data.ts';

/** Sellers' inspections (server/inspections): the visit booked, what the desk found, the offer. */
export const inspectionsPersonalData: PersonalData[] = [
  {
    table: 'inspections',
    personal: {
      ...VISIT_BOOKING_PERSONAL,
      notes: "the inspector's notes",
      photos: "the inspector's photos of the seller's car",
    },
    foundBy: 'user_id',
    // The seller's car, the estimate they were shown and the inspection they booked (decision 081).
    export: {
      section: 'inspections',
      gather: async ({ database, userId, now }) =>
        (await database.db.selectFrom('inspections').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map((row) => ({
          id: row.id,
          car: JSON.parse(row.car) as unknown,
          estimate: JSON.parse(row.estimate) as unknown,
          mode: row.mode,
          pinCode: row.pin_code || null,
          street: row.street || null,
          landmark: row.landmark || null,
          name: row.name,
          phone: row.phone,
          email: row.email,
          slotStart: indiaDateTimeParam(row.slot_start_ms),
          status: row.status,
          // What the desk recorded of the car and the offer made for it (decision 084).
          condition: row.condition ? (JSON.parse(row.condition) as unknown) : null,
          notes: row.notes,
          odometer: row.odometer,
          photos: row.photos ? (JSON.parse(row.photos) as unknown[]).length : 0,
          recordedAt: row.recorded_at,
          offer: offerOf(row, now.getTime()),
          createdAt: row.created_at,
        })),
    },
    erase: {
      action: 'delete',
      rows: (trx, person) => trx.deleteFrom('inspections').where('user_id', '=', person.userId).execute(),
      // The photos go with them (decision 084); a vehicle draft made from one keeps its own copies.
      files: async (database, person) => {
        const photos = (await database.db.selectFrom('inspections').select('photos').where('user_id', '=', person.userId).execute()).flatMap((row) =>
          parseStoredImages(row.photos),
        );
        return (deps) => discardImages(deps.storage, photos);
      },
    },
  },
];

/** The ImageRefs kept as JSON on an inspection (migration 027), or none when there are none or they do not parse. */
function parseStoredImages(text: string | null): ImageRef[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as ImageRef[]) : [];
  } catch {
    return [];
  }
}
