import { sql, type ExpressionBuilder } from 'kysely';
import { LEAD_RETENTION_MONTHS, type LeadStatusValue, type LeadUpdate } from '../../app/lib/lead-forms.ts';
import { recordAudit } from '../audit/audit.ts';
import { NotFoundError } from '../errors.ts';
import type { Database } from '../db/connection.ts';
import type { DB } from '../db/schema.ts';
import { deleteImage } from '../media/images.ts';
import type { Storage } from '../media/storage.ts';
import type { Logger } from '../logger.ts';
import type { Clock } from '../clock.ts';
import { leadsText as t } from '../../app/lib/i18n/leads.ts';

/**
 * What the two kinds of lead share in admin: the status the dealer works them through (new,
 * contacted, closed) with notes, filtering and searching the lists, deleting on request, and
 * deleting them after the retention period the privacy page promises.
 */

export type LeadKind = 'request' | 'sell';
export const leadTables = { request: 'vehicle_requests', sell: 'sell_submissions' } as const;
export const leadEntity = { request: 'vehicle_request', sell: 'sell_submission' } as const;
const leadNoun = { request: 'vehicle request', sell: 'sell submission' } as const;

const leadNotFound = () => t('leadNotFound');

/** The most rows one CSV export holds. */
export const MAX_EXPORT_ROWS = 10_000;

export type LeadFilter = { status: LeadStatusValue | null; q: string };

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

type LeadTable = (typeof leadTables)[LeadKind];

/** A lead's phone as digits only, in SQL: the forms accept spaces, dashes, '+', brackets and dots. */
export const phoneDigits = sql<string>`replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '+', ''), '(', ''), ')', ''), '.', '')`;

/**
 * Status and search on either table. The name matches as a case-insensitive substring; the
 * phone by its digits, so '98765 43210', '+91-9876543210' and '9876543210' find each other.
 */
export function leadConditions(filter: LeadFilter) {
  return (eb: ExpressionBuilder<DB, LeadTable>) => {
    const conditions = [];
    if (filter.status) conditions.push(eb('status', '=', filter.status));
    const q = filter.q.trim();
    if (q) {
      const pattern = `%${escapeLike(q.toLowerCase())}%`;
      const digits = q.replace(/\D/g, '');
      conditions.push(
        eb.or([
          sql<boolean>`lower(name) like ${pattern} escape '\\'`,
          digits.length >= 3 ? sql<boolean>`${phoneDigits} like ${`%${digits}%`}` : sql<boolean>`phone like ${pattern} escape '\\'`,
        ]),
      );
    }
    return eb.and(conditions);
  };
}

/** Sets status and notes, and records the change (without the customer's details) in the audit log. */
export async function updateLead(
  deps: { database: Database; clock: Clock },
  kind: LeadKind,
  id: number,
  update: LeadUpdate,
  actorEmail: string,
): Promise<void> {
  const { database } = deps;
  const table = leadTables[kind];
  const before = await database.db.selectFrom(table).select(['status', 'notes']).where('id', '=', id).executeTakeFirst();
  if (!before) throw new NotFoundError(leadNotFound());
  if (before.status === update.status && before.notes === update.notes) return;
  await database.db
    .updateTable(table)
    .set({ status: update.status, notes: update.notes, updated_at: new Date(deps.clock.now()).toISOString() })
    .where('id', '=', id)
    .execute();
  const statusChanged = before.status !== update.status;
  await recordAudit(deps, {
    actorEmail,
    action: statusChanged ? 'status' : 'update',
    entity: leadEntity[kind],
    entityId: id,
    summary: statusChanged ? `Marked ${leadNoun[kind]} #${id} as ${update.status}` : `Updated the notes of ${leadNoun[kind]} #${id}`,
    before,
    after: update,
  });
}

/** The stored photos of sell submissions, for deleting their files. */
async function imagesOf(database: Database, submissionIds: number[]) {
  if (submissionIds.length === 0) return [];
  const rows = await database.db.selectFrom('sell_submission_images').select(['key', 'variant_widths']).where('submission_id', 'in', submissionIds).execute();
  return rows.map((row) => ({ key: row.key, widths: row.variant_widths.split(',').map(Number) }));
}

async function deleteFiles(storage: Storage, logger: Pick<Logger, 'warn'>, images: Array<{ key: string; widths: number[] }>) {
  const results = await Promise.allSettled(images.map((image) => deleteImage(storage, image)));
  const failed = results.filter((result) => result.status === 'rejected').length;
  if (failed > 0) logger.warn({ failed }, 'leads: some photo files could not be deleted');
}

/**
 * Deletes a lead (a customer asked, or it is junk): the row, a sell submission's photo rows and
 * files. The audit log keeps that it happened, and the details earlier entries held about it
 * (notes may name the customer) are cleared with it.
 */
export async function deleteLead(
  deps: { database: Database; clock: Clock; storage: Storage; logger: Pick<Logger, 'warn'> },
  kind: LeadKind,
  id: number,
  actorEmail: string,
): Promise<void> {
  const table = leadTables[kind];
  const exists = await deps.database.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw new NotFoundError(leadNotFound());
  const images = kind === 'sell' ? await imagesOf(deps.database, [id]) : [];
  await deps.database.db.transaction().execute(async (trx) => {
    if (kind === 'sell') await trx.deleteFrom('sell_submission_images').where('submission_id', '=', id).execute();
    await trx.deleteFrom(table).where('id', '=', id).execute();
    await trx.updateTable('audit_log').set({ before: null, after: null }).where('entity', '=', leadEntity[kind]).where('entity_id', '=', String(id)).execute();
  });
  await deleteFiles(deps.storage, deps.logger, images);
  await recordAudit(deps, { actorEmail, action: 'delete', entity: leadEntity[kind], entityId: id, summary: `Deleted ${leadNoun[kind]} #${id}` });
}

/** Leads created before this instant are past the retention period (LEAD_RETENTION_MONTHS). */
export function retentionCutoff(now: Date): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - LEAD_RETENTION_MONTHS);
  return cutoff;
}

export type LeadIds = { requestIds: number[]; sellIds: number[] };

/**
 * Erases these leads for good: the rows, a sell submission's photo rows and files, and the
 * details earlier audit entries held about them. Returns how many leads were removed.
 */
export async function eraseLeads(deps: { database: Database; storage: Storage; logger: Pick<Logger, 'warn'> }, ids: LeadIds): Promise<number> {
  const { requestIds, sellIds } = ids;
  if (requestIds.length === 0 && sellIds.length === 0) return 0;
  const images = await imagesOf(deps.database, sellIds);
  let removed = 0;
  await deps.database.db.transaction().execute(async (trx) => {
    if (sellIds.length > 0) {
      await trx.deleteFrom('sell_submission_images').where('submission_id', 'in', sellIds).execute();
      removed += Number((await trx.deleteFrom('sell_submissions').where('id', 'in', sellIds).executeTakeFirst()).numDeletedRows);
      await trx
        .updateTable('audit_log')
        .set({ before: null, after: null })
        .where('entity', '=', leadEntity.sell)
        .where('entity_id', 'in', sellIds.map(String))
        .execute();
    }
    if (requestIds.length > 0) {
      removed += Number((await trx.deleteFrom('vehicle_requests').where('id', 'in', requestIds).executeTakeFirst()).numDeletedRows);
      await trx
        .updateTable('audit_log')
        .set({ before: null, after: null })
        .where('entity', '=', leadEntity.request)
        .where('entity_id', 'in', requestIds.map(String))
        .execute();
    }
  });
  await deleteFiles(deps.storage, deps.logger, images);
  return removed;
}

/**
 * Deletes leads older than the retention period, with their photos. Cheap (an indexed range on
 * created_at) and idempotent, so any instance may run it; the retention schedule does
 * (server/privacy/retention.ts).
 */
export async function purgeExpiredLeads(deps: { database: Database; storage: Storage; logger: Pick<Logger, 'warn' | 'info'> }, now: Date): Promise<number> {
  const cutoff = retentionCutoff(now).toISOString();
  const { db } = deps.database;
  // In batches, so one run stays short however long it has been since the last.
  const [oldRequests, oldSell] = await Promise.all([
    db.selectFrom('vehicle_requests').select('id').where('created_at', '<', cutoff).limit(500).execute(),
    db.selectFrom('sell_submissions').select('id').where('created_at', '<', cutoff).limit(500).execute(),
  ]);
  const removed = await eraseLeads(deps, { requestIds: oldRequests.map((row) => row.id), sellIds: oldSell.map((row) => row.id) });
  if (removed > 0) deps.logger.info({ removed }, `leads: deleted leads older than ${LEAD_RETENTION_MONTHS} months`);
  return removed;
}
