import type { ImageRef } from '../../app/lib/vehicle.ts';
import { offerOf } from '../../app/lib/inspection-desk.ts';
import { indiaDateTimeParam } from '../../app/lib/india-time.ts';
import { LEAD_RETENTION_MONTHS } from '../../app/lib/lead-forms.ts';
import { discardImages } from '../catalog/admin-images.ts';
import { VISIT_BOOKING_PERSONAL, type PersonalData } from '../privacy/personal-data.ts';
import { eraseLeads } from './leads.ts';
import { toVehicleRequest } from './requests.ts';
import { sellImageUrls, withImages } from './sell.ts';

const leadRetention = `${LEAD_RETENTION_MONTHS} months from when it was sent (purgeExpiredLeads)`;
/** Leads carry no account id (the forms work signed out): see leadIdsOf in server/accounts/privacy.ts. */
const byVerifiedPhone = 'the phone number the person verified by OTP, in any of the forms it may have been typed';
const leadColumns = { name: 'who sent it', phone: 'their number', description: 'what they wrote', notes: "the dealer's notes on the person" };

/** The leads (server/leads): car requests, sell submissions with their photos, and inspections. */
export const leadsPersonalData: PersonalData[] = [
  {
    table: 'vehicle_requests',
    personal: leadColumns,
    foundBy: byVerifiedPhone,
    export: {
      section: 'vehicleRequests',
      gather: async ({ database, leads }) => {
        if (leads.requestIds.length === 0) return [];
        const rows = await database.db.selectFrom('vehicle_requests').selectAll().where('id', 'in', leads.requestIds).orderBy('id').execute();
        // As the admin list shows them, without the time of the last admin change.
        return rows.map(toVehicleRequest).map(({ updatedAt: _updatedAt, ...request }) => request);
      },
    },
    erase: { action: 'delete', alone: (deps, person) => eraseLeads(deps, { requestIds: person.leads.requestIds, sellIds: [] }) },
    retention: leadRetention,
  },
  {
    table: 'sell_submissions',
    personal: leadColumns,
    foundBy: byVerifiedPhone,
    export: {
      section: 'sellSubmissions',
      gather: async ({ database, leads, siteOrigin }) => {
        if (leads.sellIds.length === 0) return [];
        const rows = await database.db.selectFrom('sell_submissions').selectAll().where('id', 'in', leads.sellIds).orderBy('id').execute();
        return (await withImages(database, rows)).map((submission) => ({
          id: submission.id,
          name: submission.name,
          phone: submission.phone,
          vehicle: submission.vehicle,
          year: submission.year,
          price: submission.price,
          description: submission.description,
          status: submission.status,
          notes: submission.notes,
          photos: sellImageUrls(siteOrigin, submission.images),
          createdAt: submission.createdAt,
        }));
      },
    },
    // With their photo rows and files.
    erase: { action: 'delete', alone: (deps, person) => eraseLeads(deps, { requestIds: [], sellIds: person.leads.sellIds }) },
    retention: leadRetention,
  },
  {
    table: 'sell_submission_images',
    personal: { key: "the seller's photo of their car" },
    foundBy: 'submission_id, through sell_submissions',
    export: { within: 'sellSubmissions' },
    erase: { action: 'keep', reason: 'erased with its sell submission (eraseLeads)' },
  },
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
          slotStart: indiaDateTimeParam(row.slot_start),
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
        const photos = (await database.db.selectFrom('inspections').select('photos').where('user_id', '=', person.userId).execute()).flatMap((row) => parseStoredImages(row.photos));
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
