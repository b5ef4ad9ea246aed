import type { Database } from '../db/connection.ts';
import type { WhatsAppStatus } from '../db/schema.ts';
import { pageOf, pageWindow, type Page } from '../db/paging.ts';

/**
 * What the desk reads of the WhatsApp messages (decision 125): each one as the person reads it,
 * with its delivery status as Meta last reported it and whether its SMS went instead. Read only;
 * the statuses are written by the worker and the webhook.
 */

export type DeskWhatsAppMessage = {
  id: number;
  createdAt: string;
  /** E.164. */
  recipient: string;
  template: string;
  language: string;
  preview: string;
  status: WhatsAppStatus;
  /** When it reached its status (queued: when it was queued). */
  statusAt: string;
  /** Meta's reason for a failure: its code and words. */
  errorCode: number | null;
  errorText: string | null;
  /** When its SMS was queued instead, or null. */
  fellBackAt: string | null;
};

/** Newest first, `perPage` at a time, of one status or all. */
export async function listWhatsAppMessages(
  database: Database,
  options: { page: number; perPage: number; status: WhatsAppStatus | null },
): Promise<Page<DeskWhatsAppMessage>> {
  const { db } = database;
  let count = db.selectFrom('whatsapp_messages').select((eb) => eb.fn.countAll<number>().as('total'));
  let rows = db.selectFrom('whatsapp_messages').selectAll().orderBy('id', 'desc');
  if (options.status) {
    count = count.where('status', '=', options.status);
    rows = rows.where('status', '=', options.status);
  }
  const total = Number((await count.executeTakeFirstOrThrow()).total);
  const window = pageWindow(total, options.page, options.perPage);
  const items = await rows.limit(window.limit).offset(window.offset).execute();
  return pageOf(
    items.map((row) => ({
      id: Number(row.id),
      createdAt: row.created_at,
      recipient: row.recipient,
      template: row.template,
      language: row.language,
      preview: row.preview,
      status: row.status,
      statusAt:
        { queued: row.created_at, sent: row.sent_at, delivered: row.delivered_at, read: row.read_at, failed: row.failed_at }[row.status] ?? row.updated_at,
      errorCode: row.error_code === null ? null : Number(row.error_code),
      errorText: row.error_text,
      fellBackAt: row.fell_back_at,
    })),
    total,
    window,
  );
}

/** The last day's messages by status, for the dashboard's line. */
export async function whatsappLastDay(database: Database, nowMs: number): Promise<Record<WhatsAppStatus, number> & { total: number }> {
  const since = new Date(nowMs - 24 * 60 * 60 * 1000).toISOString();
  const rows = await database.db
    .selectFrom('whatsapp_messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('created_at', '>=', since)
    .groupBy('status')
    .execute();
  const counts = { queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, total: 0 };
  for (const row of rows) {
    counts[row.status] = Number(row.count);
    counts.total += Number(row.count);
  }
  return counts;
}
