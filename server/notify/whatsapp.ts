import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB, WhatsAppStatus } from '../db/schema.ts';
import type { AppServices } from '../services.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { enqueue, type Job } from '../jobs/queue.ts';
import type { JobHandlers } from '../jobs/worker.ts';
import { recordOutboxMessage } from './outbox.ts';
import { queueSms } from './outgoing.ts';
import { sendTemplate, WhatsAppError, type WhatsAppCredentials } from './whatsapp-graph.ts';
import { TEMPLATE_LANGUAGE_CODES, templatePreview, type TemplateMessage } from './whatsapp-templates.ts';

/**
 * WhatsApp messages (decision 123): queued with the change that causes them, like mail and SMS
 * (decision 069), and sent by the worker through the Cloud API. Each message is a row with its
 * delivery status; a message that fails for good falls back to its SMS once, whoever notices
 * first (the worker, or the webhook's "failed" status), by one update that claims the fallback.
 */

export const WHATSAPP_JOB = 'whatsapp';

const payloadSchema = z.object({ messageId: z.number().int().positive() });

export type WhatsAppServices = Pick<AppServices, 'config' | 'clock' | 'logger'>;

/** Whether a message can go to WhatsApp at all: with the Cloud API's credentials, or to the outbox (demo and test). */
export function whatsappReachable(config: Pick<AppServices['config'], 'whatsapp' | 'outboxEnabled'>): boolean {
  return config.whatsapp !== null || config.outboxEnabled;
}

export type QueuedWhatsApp = {
  to: string;
  userId: string | null;
  purpose: 'customer' | 'team' | 'code';
  language: Language;
  message: TemplateMessage;
  /** The SMS that goes instead when WhatsApp cannot deliver; none for the team's alerts. */
  smsFallback: string | null;
};

/**
 * Queues one template message in `db` (the change's transaction). In demo and test the outbox
 * keeps what the person reads, marked WhatsApp; without credentials that is all that happens.
 * Returns the message's row id, or null when none was queued for sending.
 */
export async function queueWhatsApp(db: Kysely<DB>, services: WhatsAppServices, input: QueuedWhatsApp): Promise<number | null> {
  const nowMs = services.clock.now();
  const preview = templatePreview(input.message, input.language);
  if (services.config.outboxEnabled) {
    await recordOutboxMessage({ db }, { channel: 'whatsapp', recipient: input.to, subject: input.message.template, body: preview }, nowMs);
  }
  if (!services.config.whatsapp) return null;
  const now = new Date(nowMs).toISOString();
  const row = await db
    .insertInto('whatsapp_messages')
    .values({
      recipient: input.to,
      user_id: input.userId,
      purpose: input.purpose,
      template: input.message.template,
      language: TEMPLATE_LANGUAGE_CODES[input.language],
      variables: JSON.stringify(input.message.variables),
      preview,
      status: 'queued',
      sms_fallback: input.smsFallback,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await enqueue(db, WHATSAPP_JOB, { messageId: row.id }, { nowMs });
  return row.id;
}

/**
 * Sends the message's SMS instead, once: the update sets `fell_back_at` only where it is empty,
 * so of two callers at once (a retry and a webhook, two webhook deliveries) one sends it.
 */
export async function fallBackToSms(db: Kysely<DB>, services: Pick<AppServices, 'config' | 'clock' | 'logger'>, messageId: number): Promise<boolean> {
  const now = new Date(services.clock.now()).toISOString();
  const claimed = await db
    .updateTable('whatsapp_messages')
    .set({ fell_back_at: now })
    .where('id', '=', messageId)
    .where('fell_back_at', 'is', null)
    .where('sms_fallback', 'is not', null)
    .returning(['recipient', 'sms_fallback'])
    .executeTakeFirst();
  if (!claimed?.sms_fallback) return false;
  await queueSms(db, services, claimed.recipient, claimed.sms_fallback);
  return true;
}

/** Where a status stands in the message's life: a status never moves back (a late "sent" after "read" changes nothing). */
const STATUS_ORDER: Record<WhatsAppStatus, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

export function statusMovesForward(from: WhatsAppStatus, to: WhatsAppStatus): boolean {
  return from !== 'failed' && STATUS_ORDER[to] > STATUS_ORDER[from];
}

/** Marks the message failed with Meta's reason, in `db`, and falls back to SMS (once). */
export async function markFailed(
  db: Kysely<DB>,
  services: Pick<AppServices, 'config' | 'clock' | 'logger'>,
  messageId: number,
  reason: { code: number | null; text: string },
): Promise<void> {
  const now = new Date(services.clock.now()).toISOString();
  await db
    .updateTable('whatsapp_messages')
    .set({ status: 'failed', error_code: reason.code, error_text: reason.text.slice(0, 500), failed_at: now, updated_at: now })
    .where('id', '=', messageId)
    .where('status', '!=', 'failed')
    .execute();
  await fallBackToSms(db, services, messageId);
}

type Deps = Pick<AppServices, 'config' | 'clock' | 'logger' | 'database' | 'jobs'> & { metrics?: Pick<AppServices['metrics'], 'messages'> };

async function sendQueued(deps: Deps, credentials: WhatsAppCredentials, payload: unknown, job: Job): Promise<void> {
  const { messageId } = payloadSchema.parse(payload);
  const { db } = deps.database;
  const row = await db.selectFrom('whatsapp_messages').selectAll().where('id', '=', messageId).executeTakeFirst();
  // Sent by an earlier attempt whose job was then taken again, or erased with its person: nothing to do.
  if (!row || row.status !== 'queued' || row.wamid) return;
  const variables = z.array(z.string()).parse(JSON.parse(row.variables));
  const counts = deps.metrics?.messages;
  try {
    const { wamid } = await sendTemplate(credentials, {
      to: row.recipient,
      template: row.template,
      language: row.language,
      variables,
      ...(row.purpose === 'code' ? { copyCode: variables[0] ?? '' } : {}),
    });
    const now = new Date(deps.clock.now()).toISOString();
    await db
      .updateTable('whatsapp_messages')
      .set({ wamid, status: 'sent', sent_at: now, updated_at: now })
      .where('id', '=', messageId)
      .where('status', '=', 'queued')
      .execute();
    counts?.count('whatsapp', 'sent');
  } catch (error) {
    counts?.count('whatsapp', 'failed');
    const lastAttempt = job.attempts >= job.max_attempts;
    if (error instanceof WhatsAppError && error.retryable && !lastAttempt) throw error;
    // For good: Meta refused this message, or asking again ran out of attempts.
    const text = error instanceof Error ? error.message : String(error);
    await deps.database.db.transaction().execute((trx) => markFailed(trx, deps, messageId, { code: error instanceof WhatsAppError ? error.code : null, text }));
    deps.jobs.wake();
    deps.logger.warn({ err: error, message: messageId, template: row.template }, 'whatsapp: not sent, the SMS goes instead');
  }
}

export function whatsappHandlers(deps: Deps): JobHandlers {
  return {
    [WHATSAPP_JOB]: async (payload, job) => {
      const credentials = deps.config.whatsapp;
      if (!credentials) throw new Error('WhatsApp is not configured (WHATSAPP_PHONE_NUMBER_ID and the rest).');
      await sendQueued(deps, credentials, payload, job);
    },
  };
}
