import type { Database } from '../db/connection.ts';

/**
 * The outbox: in demo and test mode every mail and SMS the app sends is also written here, so
 * a demo works with no mail server or SMS account (the codes and links are shown at
 * /dev/outbox) and tests can read what a person would have received. Production never writes
 * here (config.outboxEnabled is false): codes and links must not sit in a table.
 *
 * It lives in the database, not in memory, so every app instance and the test runner see the
 * same messages.
 */

export type OutboxChannel = 'email' | 'sms' | 'whatsapp' | 'push';

export type OutboxMessage = {
  id: number;
  channel: OutboxChannel;
  recipient: string;
  subject: string;
  body: string;
  /** ISO-8601 text, like every timestamp in the schema (it sorts correctly as text). */
  createdAt: string;
};

export type OutboxInput = {
  channel: OutboxChannel;
  recipient: string;
  /** Mail only; SMS have none. */
  subject?: string;
  body: string;
};

const MAX_LIST = 500;

/**
 * One spelling per recipient, so a lookup finds what was recorded: mail addresses are
 * compared without case (nobody types them consistently), phone numbers as given (E.164).
 */
function normaliseRecipient(channel: OutboxChannel, recipient: string): string {
  const trimmed = recipient.trim();
  return channel === 'email' ? trimmed.toLowerCase() : trimmed;
}

type OutboxRow = { id: number; channel: OutboxChannel; recipient: string; subject: string; body: string; created_at: string };

function toMessage(row: OutboxRow): OutboxMessage {
  return {
    // PostgreSQL's serial arrives as a number, SQLite's integer too; Number() guards a driver
    // that hands back a string.
    id: Number(row.id),
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    createdAt: row.created_at,
  };
}

/** `database` may be a transaction's (`{ db: trx }`): a queued message is recorded with the change that sends it. */
export async function recordOutboxMessage(database: Pick<Database, 'db'>, input: OutboxInput, nowMs: number): Promise<OutboxMessage> {
  const row = {
    channel: input.channel,
    recipient: normaliseRecipient(input.channel, input.recipient),
    subject: input.subject ?? '',
    body: input.body,
    created_at: new Date(nowMs).toISOString(),
  };
  const inserted = await database.db.insertInto('outbox_messages').values(row).returning('id').executeTakeFirstOrThrow();
  return toMessage({ ...row, id: inserted.id });
}

/** Newest first. The id, not the timestamp, orders them: two messages can share a millisecond. */
export async function listOutboxMessages(database: Database, options: { limit: number; channel?: OutboxChannel }): Promise<OutboxMessage[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit) || 1, 1), MAX_LIST);
  let query = database.db.selectFrom('outbox_messages').selectAll().orderBy('id', 'desc').limit(limit);
  if (options.channel) query = query.where('channel', '=', options.channel);
  const rows = await query.execute();
  return rows.map(toMessage);
}

/** The last message sent to one recipient on one channel, or null: what a test or the demo page reads. */
export async function latestOutboxMessage(database: Database, options: { channel: OutboxChannel; recipient: string }): Promise<OutboxMessage | null> {
  const row = await database.db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('channel', '=', options.channel)
    .where('recipient', '=', normaliseRecipient(options.channel, options.recipient))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toMessage(row) : null;
}
