import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import { apiEdgeText as t } from '../../../app/lib/i18n/apiEdge.ts';
import { BodyTimeoutError, BodyTooLargeError } from '../../http/body-limit.ts';
import { problem } from '../../http/problem.ts';
import { consumeRateLimit, rateLimits } from '../../security/rate-limit.ts';
import type { AppServices } from '../../services.ts';
import { applyInboundText, applyStatus, type InboundText, type StatusReport } from '../whatsapp-inbound.ts';

/**
 * WhatsApp's webhook (decision 125), at WHATSAPP_WEBHOOK_PATH; Meta calls it, never a browser.
 *
 * - Only when WhatsApp is configured (config.whatsapp): otherwise 404, as if it were not there.
 * - GET is Meta's subscription check: `hub.mode=subscribe` and `hub.verify_token` equal to
 *   WHATSAPP_VERIFY_TOKEN (compared in constant time) answer `hub.challenge` as text/plain (letters
 *   and digits, at most 128; else 400); anything else 403.
 * - POST carries statuses and messages. It is read raw, at most 1 MB (413 past it: the edge's
 *   body limit, WEBHOOK_MAX_BYTES in server/http/body-limit.ts), and taken only with `X-Hub-Signature-256:
 *   sha256=<hex>` equal to the HMAC-SHA256 of those exact bytes with WHATSAPP_APP_SECRET, compared
 *   with timingSafeEqual; otherwise 401 and nothing is read further. It sits before the CSRF
 *   check (server/http/app.ts): Meta posts from its servers with no Origin, and the signature is
 *   the proof. Refusals (401, 403) count per address (rateLimits.webhookRefusals; 429 past it);
 *   Meta's signed calls never count.
 * - A signed body that is not JSON, or not Meta's envelope (`object`, `entry[].changes[]`), is 400,
 *   never 500. Inside the envelope, what is not ours (another phone number's changes, a status or
 *   message of a shape we do not read) is skipped, and the answer is still 200: Meta retries
 *   every other answer for days and then switches the webhook off, so content we ignore must not
 *   look like a failure. Only our own trouble (the database) answers 5xx, which Meta retries.
 * - Statuses: applyStatus (server/notify/whatsapp-inbound.ts): forward only, by wamid, failures
 *   with Meta's reason and one SMS instead. Messages: a STOP opts the number out (applyInboundText).
 *   Both are safe to replay, since Meta delivers at least once and in no particular order.
 * - It answers as soon as the rows are written; sending (the SMS, the answer to a STOP) is the
 *   job queue's work.
 */

const SIGNATURE_HEADER = 'X-Hub-Signature-256';

/** Equal secrets, in time that depends on neither's content nor length: both are hashed first. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether `header` is `sha256=<hex>` of the HMAC-SHA256 of `raw` with `appSecret`. */
export function validSignature(raw: Uint8Array, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// Meta's envelope (field "messages"), read strictly; the items inside, one by one and leniently.
const envelopeSchema = z.object({
  object: z.string(),
  entry: z
    .array(
      z.object({
        changes: z.array(z.object({ field: z.string(), value: z.record(z.string(), z.unknown()) })).max(1000),
      }),
    )
    .max(1000),
});

const statusSchema = z.object({
  id: z.string().min(1).max(256),
  status: z.string().max(40),
  timestamp: z
    .string()
    .regex(/^[0-9]{1,12}$/)
    .optional(),
  errors: z
    .array(
      z.object({
        code: z.number().int().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.object({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

const messageSchema = z.object({
  from: z.string().regex(/^[0-9]{8,15}$/),
  type: z.string(),
  text: z.object({ body: z.string().max(4096) }).optional(),
  // A template's quick-reply button ("Stop promotions" on marketing templates).
  button: z.object({ text: z.string().max(256) }).optional(),
  interactive: z.object({ button_reply: z.object({ title: z.string().max(256) }).optional() }).optional(),
});

const metadataSchema = z.object({ phone_number_id: z.string() });

/** Meta's reason as the desk reads it: code, title and details. */
function reasonOf(errors: z.infer<typeof statusSchema>['errors']): StatusReport['error'] {
  const first = errors?.[0];
  if (!first) return null;
  const words = [first.title ?? first.message, first.error_data?.details].filter(Boolean).join(': ');
  return { code: first.code ?? null, text: words || 'failed' };
}

function textOf(message: z.infer<typeof messageSchema>): string | null {
  if (message.type === 'text') return message.text?.body ?? null;
  if (message.type === 'button') return message.button?.text ?? null;
  if (message.type === 'interactive') return message.interactive?.button_reply?.title ?? null;
  return null;
}

type Work = { statuses: StatusReport[]; texts: InboundText[]; skipped: number };

/** The statuses and texts for our phone number, from an envelope already read. */
function workIn(envelope: z.infer<typeof envelopeSchema>, phoneNumberId: string): Work {
  const work: Work = { statuses: [], texts: [], skipped: 0 };
  if (envelope.object !== 'whatsapp_business_account') return work;
  for (const entry of envelope.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const metadata = metadataSchema.safeParse(change.value.metadata);
      // Another number of the same business account: its messages and their people are not ours.
      if (metadata.success && metadata.data.phone_number_id !== phoneNumberId) continue;
      for (const item of Array.isArray(change.value.statuses) ? change.value.statuses : []) {
        const status = statusSchema.safeParse(item);
        if (!status.success) {
          work.skipped += 1;
          continue;
        }
        const { id, timestamp, errors } = status.data;
        work.statuses.push({ wamid: id, status: status.data.status, atMs: timestamp ? Number(timestamp) * 1000 : null, error: reasonOf(errors) });
      }
      for (const item of Array.isArray(change.value.messages) ? change.value.messages : []) {
        const message = messageSchema.safeParse(item);
        const text = message.success ? textOf(message.data) : null;
        if (message.success && text !== null) work.texts.push({ from: `+${message.data.from}`, text });
        else work.skipped += 1;
      }
    }
  }
  return work;
}

export function whatsappWebhook(services: AppServices, addressOf: (c: Context) => string) {
  const { config, database, clock, logger } = services;

  /** A refusal, counted against the address; 429 once it has made too many. */
  const refuse = async (c: Context, status: 401 | 403, detail: string) => {
    const limit = await consumeRateLimit(database, { key: `webhook-refused:${addressOf(c)}`, ...rateLimits.webhookRefusals, now: clock.now() });
    if (!limit.allowed) return problem(c, 429, t('tooManyRequests'), { headers: { 'Retry-After': String(limit.retryAfterSeconds) } });
    return problem(c, status, detail);
  };

  const verify = async (c: Context) => {
    const credentials = config.whatsapp;
    if (!credentials) return problem(c, 404, t('notFound'));
    const mode = c.req.query('hub.mode');
    const token = c.req.query('hub.verify_token') ?? '';
    if (mode !== 'subscribe' || !sameSecret(token, credentials.verifyToken)) return refuse(c, 403, t('webhookVerifyRefused'));
    const challenge = c.req.query('hub.challenge') ?? '';
    if (!/^[A-Za-z0-9]{1,128}$/.test(challenge)) return problem(c, 400, t('webhookChallenge', { field: 'hub.challenge' }));
    return c.text(challenge, 200, { 'Cache-Control': 'no-store' });
  };

  const receive = async (c: Context) => {
    const credentials = config.whatsapp;
    if (!credentials) return problem(c, 404, t('notFound'));
    let raw: Uint8Array;
    try {
      raw = new Uint8Array(await c.req.arrayBuffer());
    } catch (error) {
      // Past the limit, or stalled: the edge's 413 and 408 (server/http/app.ts).
      if (error instanceof BodyTooLargeError || error instanceof BodyTimeoutError) throw error;
      if (error instanceof Error && (error.cause instanceof BodyTooLargeError || error.cause instanceof BodyTimeoutError)) throw error;
      return problem(c, 400, t('webhookNotJson'));
    }
    if (!validSignature(raw, c.req.header(SIGNATURE_HEADER), credentials.appSecret)) {
      return refuse(c, 401, t('webhookSignature', { header: SIGNATURE_HEADER }));
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return problem(c, 400, t('webhookNotJson'));
    }
    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success) return problem(c, 400, t('webhookNotEvent'));
    const work = workIn(envelope.data, credentials.phoneNumberId);
    const counts = { updated: 0, unchanged: 0, unknown: 0, optedOut: 0, skipped: work.skipped };
    // One by one, in Meta's order: a message's "delivered" and "read" in one body apply in turn.
    for (const status of work.statuses) counts[await applyStatus(services, status)] += 1;
    for (const text of work.texts) if ((await applyInboundText(services, text)) === 'opted-out') counts.optedOut += 1;
    // Counts only: numbers and texts are personal data (logs-without-personal-data).
    logger.info(counts, 'whatsapp: webhook');
    return c.json({ ok: true }, 200);
  };

  return { verify, receive };
}
