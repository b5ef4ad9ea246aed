import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB, WhatsAppStatus } from '../db/schema.ts';
import type { AppServices } from '../services.ts';
import { isLanguage, type Language } from '../../app/lib/i18n/language.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import { enqueue } from '../jobs/queue.ts';
import type { JobHandlers } from '../jobs/worker.ts';
import { recordOutboxMessage } from './outbox.ts';
import { markFailed, statusMovesForward } from './whatsapp.ts';
import { recordConsent } from './whatsapp-consent.ts';
import { sendText, WhatsAppError } from './whatsapp-graph.ts';

/**
 * What Meta tells the site through the webhook (decision 125), once the HTTP side
 * (server/notify/http/whatsapp-webhook.ts) has proven the body is Meta's: a message's delivery
 * status, and the texts people send the business. Each is safe to apply twice, in any order:
 * a status only moves a message forward, a failure sends its SMS once, a STOP opts out once.
 */

export type WhatsAppInboundServices = Pick<AppServices, 'config' | 'clock' | 'logger' | 'database' | 'jobs'>;

/** The plain text that answers a STOP, sent by the worker (durable, retried), not while Meta waits. */
export const WHATSAPP_REPLY_JOB = 'whatsapp-reply';

const replyPayloadSchema = z.object({ to: z.string().regex(/^\+[0-9]{8,15}$/), text: z.string().min(1).max(4096) });

/** One status Meta reports for one of our messages. */
export type StatusReport = {
  wamid: string;
  status: string;
  /** When it happened, by Meta's clock (its `timestamp`); null when absent. */
  atMs: number | null;
  /** A failure's reason: Meta's error code and its title (and details). */
  error: { code: number | null; text: string } | null;
};

type Reported = Exclude<WhatsAppStatus, 'queued'>;
const isReported = (status: string): status is Reported => status === 'sent' || status === 'delivered' || status === 'read' || status === 'failed';
const TIME_COLUMN = { sent: 'sent_at', delivered: 'delivered_at', read: 'read_at' } as const;

/**
 * Applies one status to the message with its wamid. An unknown wamid (another system's message,
 * one erased with its person) and a status that would move the message back (a replay, "delivered"
 * after "read") change nothing. "failed" keeps Meta's reason and falls back to SMS once
 * (markFailed, in this transaction); the update that claims the fallback decides who sends it.
 */
export async function applyStatus(services: WhatsAppInboundServices, report: StatusReport): Promise<'updated' | 'unchanged' | 'unknown'> {
  const to = report.status;
  // Meta's other statuses ("deleted", "warning") say nothing about delivery.
  if (!isReported(to)) return 'unchanged';
  const outcome = await services.database.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('whatsapp_messages').select(['id', 'status']).where('wamid', '=', report.wamid).executeTakeFirst();
    if (!row) return 'unknown' as const;
    if (!statusMovesForward(row.status, to)) return 'unchanged' as const;
    if (to === 'failed') {
      await markFailed(trx, services, row.id, report.error ?? { code: null, text: 'failed' });
      return 'updated' as const;
    }
    const nowMs = services.clock.now();
    const result = await trx
      .updateTable('whatsapp_messages')
      .set({ status: to, [TIME_COLUMN[to]]: new Date(report.atMs ?? nowMs).toISOString(), updated_at: new Date(nowMs).toISOString() })
      .where('id', '=', row.id)
      // Another delivery of a status moved it meanwhile: this one is no longer forward of it.
      .where('status', '=', row.status)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? ('updated' as const) : ('unchanged' as const);
  });
  // A failure's SMS was queued in the transaction: the worker sends it now.
  if (outcome === 'updated' && to === 'failed') services.jobs.wake();
  return outcome;
}

/**
 * The words that opt a number out, as a whole reply: the ones Meta's own opt-out button and
 * Indian senders use, in English and Hindi. Case, spaces and a full stop do not matter; a sentence
 * that merely contains "stop" is not a STOP (a person asking to stop a booking is no opt-out).
 */
const STOP_WORDS = new Set(['stop', 'stop promotions', 'stop all', 'unsubscribe', 'opt out', 'optout', 'रोकें', 'रोको', 'रोक दें', 'बंद करें', 'बंद करो', 'बंद']);

export function isStopReply(text: string): boolean {
  const plain = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'“”]+|[\s"'“”.!।]+$/gu, '');
  return STOP_WORDS.has(plain);
}

/** One message a person sent the business: its sender (E.164) and its text (a typed text, or the quick-reply button's words). */
export type InboundText = { from: string; text: string };

/**
 * A STOP opts the number out (source 'reply', their words kept as the wording) and queues the
 * answer that says so, in the number's language; a replayed STOP changes nothing and answers
 * nothing. Every other text is for the team's WhatsApp inbox, not for this site.
 */
export async function applyInboundText(services: WhatsAppInboundServices, message: InboundText): Promise<'opted-out' | 'unchanged'> {
  if (!isStopReply(message.text)) return 'unchanged';
  const changed = await services.database.db.transaction().execute(async (trx) => {
    const known = await personOf(trx, message.from);
    const nowMs = services.clock.now();
    const recorded = await recordConsent(trx, {
      phone: message.from,
      userId: known.userId,
      optIn: false,
      source: 'reply',
      wording: message.text,
      language: known.language,
      nowMs,
    });
    if (!recorded) return false;
    const text = whatsappText('stopReply', undefined, known.language);
    if (services.config.outboxEnabled) await recordOutboxMessage({ db: trx }, { channel: 'whatsapp', recipient: message.from, body: text }, nowMs);
    if (services.config.whatsapp) await enqueue(trx, WHATSAPP_REPLY_JOB, { to: message.from, text }, { nowMs, maxAttempts: 5 });
    return true;
  });
  if (changed) services.jobs.wake();
  return changed ? 'opted-out' : 'unchanged';
}

/** The number's account and language: from its latest consent, else the latest message sent to it; English when neither says. */
async function personOf(db: Kysely<DB>, phone: string): Promise<{ userId: string | null; language: Language }> {
  const consent = await db
    .selectFrom('whatsapp_consents')
    .select(['user_id', 'language'])
    .where('phone', '=', phone)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const sent = await db
    .selectFrom('whatsapp_messages')
    .select(['user_id', 'language'])
    .where('recipient', '=', phone)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  // The last message's language is what the person last read from us.
  const language = [sent?.language, consent?.language].find(isLanguage) ?? 'en';
  return { userId: consent?.user_id ?? sent?.user_id ?? null, language };
}

/**
 * The worker's side of the answer to a STOP. Meta's trouble is tried again; a refusal for good
 * (the 24-hour window closed while it waited) is given up: the opt-out stands either way.
 */
export function whatsappReplyHandlers(deps: Pick<AppServices, 'config' | 'logger'>): JobHandlers {
  return {
    [WHATSAPP_REPLY_JOB]: async (payload) => {
      const credentials = deps.config.whatsapp;
      if (!credentials) throw new Error('WhatsApp is not configured (WHATSAPP_PHONE_NUMBER_ID and the rest).');
      const { to, text } = replyPayloadSchema.parse(payload);
      try {
        await sendText(credentials, to, text);
      } catch (error) {
        if (error instanceof WhatsAppError && !error.retryable) {
          deps.logger.warn({ err: error }, 'whatsapp: the answer to a STOP was refused; the opt-out stands');
          return;
        }
        throw error;
      }
    },
  };
}
