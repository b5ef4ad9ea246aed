import type { Selectable } from 'kysely';
import type { Database } from '../db/connection.ts';
import { pageOf, pageWindow, type Page } from '../db/paging.ts';
import type { SellSubmissionTable, VehicleRequestTable } from '../db/schema.ts';
import { leadConditions, leadTables, MAX_EXPORT_ROWS, type LeadFilter, type LeadKind } from './leads.ts';
import { requestCsvHeaders, requestCsvRow, toVehicleRequest, type VehicleRequest } from './requests.ts';
import { sellCsvHeaders, sellCsvRow, withImages, type SellSubmission } from './sell.ts';

/** The admin lists and CSV exports of both kinds of lead: one query, each kind's own shape. */

export type LeadOf = { request: VehicleRequest; sell: SellSubmission };

type RowOf = { request: Selectable<VehicleRequestTable>; sell: Selectable<SellSubmissionTable> };

/** Rows as the pages show them: a sell submission brings its photos. */
const shapes: { [K in LeadKind]: (database: Database, rows: RowOf[K][]) => Promise<LeadOf[K][]> } = {
  request: async (_database, rows) => rows.map(toVehicleRequest),
  sell: (database, rows) => withImages(database, rows),
};

async function shape<K extends LeadKind>(database: Database, kind: K, rows: unknown[]): Promise<LeadOf[K][]> {
  // Each kind's rows come from its own table (leadTables[kind]).
  return shapes[kind](database, rows as RowOf[K][]);
}

function leadRows(database: Database, kind: LeadKind, filter: LeadFilter) {
  return database.db.selectFrom(leadTables[kind]).selectAll().where(leadConditions(filter)).orderBy('created_at', 'desc').orderBy('id', 'desc');
}

/** Newest first (SPEC 7: ordered by createdAt descending), filtered and paged. */
export async function listLeads<K extends LeadKind>(
  database: Database,
  kind: K,
  filter: LeadFilter & { page: number; perPage: number },
): Promise<Page<LeadOf[K]>> {
  const table: (typeof leadTables)[LeadKind] = leadTables[kind];
  const counted = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(leadConditions(filter))
    .executeTakeFirst();
  const total = Number(counted?.count ?? 0);
  const window = pageWindow(total, filter.page, filter.perPage);
  const rows = await leadRows(database, kind, filter).limit(window.limit).offset(window.offset).execute();
  return pageOf(await shape(database, kind, rows), total, window);
}

/** Every lead the filter matches (up to the export cap), newest first. */
export async function exportLeads<K extends LeadKind>(database: Database, kind: K, filter: LeadFilter): Promise<LeadOf[K][]> {
  const rows = await leadRows(database, kind, filter).limit(MAX_EXPORT_ROWS).execute();
  return shape(database, kind, rows);
}

/** The CSV of an export: its header row and one row per lead. */
export function leadCsv<K extends LeadKind>(kind: K, leads: LeadOf[K][], siteOrigin: string): { headers: readonly string[]; rows: string[][] } {
  if (kind === 'request') return { headers: requestCsvHeaders, rows: (leads as VehicleRequest[]).map(requestCsvRow) };
  return { headers: sellCsvHeaders, rows: (leads as SellSubmission[]).map((submission) => sellCsvRow(submission, siteOrigin)) };
}
