import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Database, Dialect } from './connection.ts';
import * as catalog from './migrations/001-catalog.ts';
import * as accounts from './migrations/002-accounts.ts';
import * as admin from './migrations/003-admin.ts';
import * as leads from './migrations/004-leads.ts';
import * as listingIndex from './migrations/005-listing-index.ts';
import * as vehicleFilters from './migrations/006-vehicle-filters.ts';
import * as testDrives from './migrations/007-test-drives.ts';
import * as rentals from './migrations/008-rentals.ts';
import * as dashboardVisits from './migrations/010-dashboard-visits.ts';
import * as searchForSale from './migrations/011-search-for-sale.ts';
import * as saleListingIndexes from './migrations/014-sale-listing-indexes.ts';
import * as searchSideTable from './migrations/016-search-side-table.ts';
import * as rentalRefunds from './migrations/017-rental-refunds.ts';
import * as rentalQuoteLines from './migrations/018-rental-quote-lines.ts';
import * as rentalChecklists from './migrations/019-rental-checklists.ts';
import * as jobs from './migrations/020-jobs.ts';
import * as carReservations from './migrations/024-car-reservations.ts';
import * as sellEstimates from './migrations/025-sell-estimates.ts';
import * as catalogueVersion from './migrations/026-catalogue-version.ts';
import * as inspectionDesk from './migrations/027-inspection-desk.ts';
import * as oneLivePhoneCode from './migrations/028-one-live-phone-code.ts';
import * as inspectionReminders from './migrations/029-inspection-reminders.ts';
import * as inspectionLeads from './migrations/030-inspection-leads.ts';
import * as profileLanguage from './migrations/031-profile-language.ts';
import * as installation from './migrations/032-installation.ts';
import * as homeVisitAddress from './migrations/033-home-visit-address.ts';
import * as handoverMoney from './migrations/034-handover-money.ts';
import * as carModelAdditions from './migrations/035-car-model-additions.ts';
import * as paymentsOneLedger from './migrations/036-payments-one-ledger.ts';
import * as appointmentTimesInMs from './migrations/037-appointment-times-in-ms.ts';
import * as backupRuns from './migrations/038-backup-runs.ts';
import * as jobRequestIds from './migrations/039-job-request-ids.ts';
import * as catalogueVersionShards from './migrations/040-catalogue-version-shards.ts';
import * as sales from './migrations/041-sales.ts';
import * as saleDeliveries from './migrations/042-sale-deliveries.ts';
import * as rentalDocuments from './migrations/045-rental-documents.ts';
import * as rcTransfers from './migrations/043-rc-transfers.ts';
import * as purchases from './migrations/044-purchases.ts';
import * as reservationReceipts from './migrations/046-reservation-receipts.ts';
import * as whatsapp from './migrations/047-whatsapp.ts';
import * as pushSubscriptions from './migrations/048-push-subscriptions.ts';
import * as otpChannel from './migrations/049-otp-channel.ts';

type DialectMigration = { up: (db: Kysely<unknown>, dialect: Dialect) => Promise<void> };

/** Every migration, in order. Names are permanent: they are recorded in the database. */
const migrations: Record<string, DialectMigration> = {
  '001-catalog': catalog,
  '002-accounts': accounts,
  '003-admin': admin,
  '004-leads': leads,
  '005-listing-index': listingIndex,
  '006-vehicle-filters': vehicleFilters,
  '007-test-drives': testDrives,
  '008-rentals': rentals,
  '010-dashboard-visits': dashboardVisits,
  '011-search-for-sale': searchForSale,
  '014-sale-listing-indexes': saleListingIndexes,
  '016-search-side-table': searchSideTable,
  '017-rental-refunds': rentalRefunds,
  '018-rental-quote-lines': rentalQuoteLines,
  '019-rental-checklists': rentalChecklists,
  '020-jobs': jobs,
  '024-car-reservations': carReservations,
  '025-sell-estimates': sellEstimates,
  '026-catalogue-version': catalogueVersion,
  '027-inspection-desk': inspectionDesk,
  '028-one-live-phone-code': oneLivePhoneCode,
  '029-inspection-reminders': inspectionReminders,
  '030-inspection-leads': inspectionLeads,
  '031-profile-language': profileLanguage,
  '032-installation': installation,
  '033-home-visit-address': homeVisitAddress,
  '034-handover-money': handoverMoney,
  '035-car-model-additions': carModelAdditions,
  '036-payments-one-ledger': paymentsOneLedger,
  '037-appointment-times-in-ms': appointmentTimesInMs,
  '038-backup-runs': backupRuns,
  '039-job-request-ids': jobRequestIds,
  '040-catalogue-version-shards': catalogueVersionShards,
  '041-sales': sales,
  '042-sale-deliveries': saleDeliveries,
  '045-rental-documents': rentalDocuments,
  '043-rc-transfers': rcTransfers,
  '044-purchases': purchases,
  '046-reservation-receipts': reservationReceipts,
  '047-whatsapp': whatsapp,
  '048-push-subscriptions': pushSubscriptions,
  '049-otp-channel': otpChannel,
};

/**
 * Brings the schema up to date. Runs at every start; a no-op when nothing is new. `upTo` stops
 * after the named migration (tests of a later migration's backfill start from there).
 */
export async function migrateToLatest(database: Database, options: { upTo?: string } = {}) {
  const provided: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    provided[name] = { up: (db) => migration.up(db, database.dialect) };
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => provided },
    // Work built side by side lands in any order: a database that already ran 026 still takes
    // a 024 merged after it (each migration touches its own tables).
    allowUnorderedMigrations: true,
  });
  const { error, results } = options.upTo ? await migrator.migrateTo(options.upTo) : await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `Database migration ${failed.migrationName} failed: ${reason}` : `Database migrations could not run: ${reason}`, { cause: error });
  }
  return results?.filter((result) => result.status === 'Success').map((result) => result.migrationName) ?? [];
}
