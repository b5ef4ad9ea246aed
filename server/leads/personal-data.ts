import { LEAD_RETENTION_MONTHS } from '../../app/lib/lead-forms.ts';
import type { PersonalData } from '../privacy/personal-data.ts';
import { eraseLeads } from './leads.ts';
import { toVehicleRequest } from './requests.ts';
import { sellImageUrls, withImages } from './sell.ts';

const leadRetention = `${LEAD_RETENTION_MONTHS} months from when it was sent (purgeExpiredLeads)`;
/** Leads carry no account id (the forms work signed out): see leadIdsOf in server/accounts/privacy.ts. */
const byVerifiedPhone = 'the phone number the person verified by OTP, in any of the forms it may have been typed';
const leadColumns = { name: 'who sent it', phone: 'their number', description: 'what they wrote', notes: "the dealer's notes on the person" };

/** The leads (server/leads): car requests and sell submissions with their photos. */
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
];
