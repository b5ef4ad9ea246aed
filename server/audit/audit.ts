import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import { pageOf, pageWindow, type Page } from '../db/paging.ts';

export type AuditEntry = {
  id: number;
  actorEmail: string;
  action: string;
  entity: string;
  entityId: string;
  summary: string;
  before: unknown;
  after: unknown;
  createdAt: string;
};

/** Records what an admin did; edits keep the record before and after the change. */
export async function recordAudit(
  { database, clock }: { database: Database; clock: Clock },
  entry: { actorEmail: string; action: string; entity: string; entityId?: string | number; summary: string; before?: unknown; after?: unknown },
): Promise<void> {
  await database.db
    .insertInto('audit_log')
    .values({
      actor_email: entry.actorEmail,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId === undefined ? '' : String(entry.entityId),
      summary: entry.summary,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      created_at: new Date(clock.now()).toISOString(),
    })
    .execute();
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Newest first, a page at a time (a page past the end shows the last one). */
export async function listAudit(database: Database, options: { page: number; perPage: number }): Promise<Page<AuditEntry>> {
  const count = await database.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  const total = Number(count?.count ?? 0);
  const window = pageWindow(total, options.page, options.perPage);
  const rows = await database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(window.limit).offset(window.offset).execute();
  return pageOf(
    rows.map((row) => ({
      id: row.id,
      actorEmail: row.actor_email,
      action: row.action,
      entity: row.entity,
      entityId: row.entity_id,
      summary: row.summary,
      before: parse(row.before),
      after: parse(row.after),
      createdAt: row.created_at,
    })),
    total,
    window,
  );
}
