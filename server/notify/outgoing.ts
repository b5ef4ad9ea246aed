import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AppServices } from '../services.ts';
import { enqueue } from '../jobs/queue.ts';
import { recordOutboxMessage } from './outbox.ts';
import { createSmsProvider } from './sms.ts';
import { assertE164, type SmsSender } from './sms-provider.ts';
import type { MailMessage } from './mail.ts';
import type { JobHandlers } from '../jobs/worker.ts';

/**
 * Mail and SMS sent after a response go through the job queue (docs/decisions/069). `queueMail`
 * and `queueSms` take the transaction of the change that causes the message: the outbox row
 * (demo and test) and the job are written with it, so a rolled-back change sends nothing and a
 * crash after the answer loses nothing. The worker then sends through SMTP or the SMS provider,
 * retrying with backoff. With no SMTP server or SMS provider configured (the demo) the outbox is
 * where the message goes, and no job is queued.
 */

export const MAIL_JOB = 'mail';
export const SMS_JOB = 'sms';

/**
 * What each job kind carries, read back through its schema: a row written by an older release,
 * or edited by hand, fails its job with a message naming the field, not deep inside SMTP.
 */
const mailPayloadSchema = z.object({ to: z.string().min(1), subject: z.string(), text: z.string(), html: z.string().optional(), messageId: z.string().min(1) });
const smsPayloadSchema = z.object({ to: z.string().min(1), text: z.string().min(1) });
type MailPayload = z.infer<typeof mailPayloadSchema>;
type SmsPayload = z.infer<typeof smsPayloadSchema>;

export type OutgoingServices = Pick<AppServices, 'config' | 'clock' | 'mailer' | 'logger'>;

/** A Message-ID of our own per message, kept in the job, so every attempt sends the same one. */
function messageIdFor(siteOrigin: string): string {
  return `<${randomUUID()}@${new URL(siteOrigin).hostname || 'localhost'}>`;
}

export async function queueMail(db: Kysely<DB>, services: OutgoingServices, message: MailMessage): Promise<void> {
  const nowMs = services.clock.now();
  if (services.config.outboxEnabled)
    await recordOutboxMessage({ db }, { channel: 'email', recipient: message.to, subject: message.subject, body: message.text }, nowMs);
  if (!services.mailer.delivers) return;
  const payload: MailPayload = { ...message, messageId: messageIdFor(services.config.siteOrigin) };
  await enqueue(db, MAIL_JOB, payload, { nowMs });
}

/**
 * A number that is not E.164 is logged and skipped, never thrown: the change it belongs to is
 * worth more than its SMS.
 */
export async function queueSms(db: Kysely<DB>, services: Pick<OutgoingServices, 'config' | 'clock' | 'logger'>, to: string, text: string): Promise<void> {
  const provider = services.config.sms.provider;
  try {
    assertE164(to, provider);
  } catch (error) {
    services.logger.warn({ err: error }, 'sms: not queued, the number is not in international format');
    return;
  }
  const nowMs = services.clock.now();
  if (provider === 'outbox' || services.config.outboxEnabled) await recordOutboxMessage({ db }, { channel: 'sms', recipient: to, body: text }, nowMs);
  if (provider === 'outbox') return;
  const payload: SmsPayload = { to, text };
  await enqueue(db, SMS_JOB, payload, { nowMs });
}

/**
 * The worker's side: send what was queued, throwing on failure so the queue retries. The mailer
 * counts its own sends; the SMS provider is called here, so its outcome is counted here (/metrics).
 */
export function outgoingHandlers(services: Pick<AppServices, 'config' | 'mailer'> & { metrics?: Pick<AppServices['metrics'], 'messages'> }): JobHandlers {
  const smsProvider: SmsSender | null = createSmsProvider(services.config);
  const counts = services.metrics?.messages;
  return {
    [MAIL_JOB]: (payload) => services.mailer.deliver(mailPayloadSchema.parse(payload)),
    [SMS_JOB]: async (payload) => {
      const { to, text } = smsPayloadSchema.parse(payload);
      if (!smsProvider) throw new Error('No SMS provider is configured (SMS_PROVIDER).');
      try {
        await smsProvider.send(to, text);
      } catch (error) {
        counts?.count('sms', 'failed');
        throw error;
      }
      counts?.count('sms', 'sent');
    },
  };
}

/**
 * Runs `change` in one transaction: the change and the messages it queues commit together or not
 * at all (decision 069). This process's worker is woken after the commit, so they leave at once.
 */
export async function changeAndQueue<T>(services: Pick<AppServices, 'database' | 'jobs'>, change: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const result = await services.database.db.transaction().execute(change);
  services.jobs.wake();
  return result;
}
