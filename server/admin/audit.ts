import type { Database } from '../db/connection.ts';

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
  database: Database,
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
      created_at: new Date().toISOString(),
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

export async function listAudit(database: Database, options: { page: number; perPage: number }): Promise<{ entries: AuditEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    database.db
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(options.perPage)
      .offset((Math.max(1, options.page) - 1) * options.perPage)
      .execute(),
    database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst(),
  ]);
  return {
    total: Number(count?.count ?? 0),
    entries: rows.map((row) => ({
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
  };
}
