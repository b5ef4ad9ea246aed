import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AppServices } from '../services.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { recordOutboxMessage } from './outbox.ts';
import { sendTemplate, WhatsAppError } from './whatsapp-graph.ts';
import { TEMPLATE_LANGUAGE_CODES, templatePreview, whatsappTemplate } from './whatsapp-templates.ts';
import { whatsappReachable } from './whatsapp.ts';

/**
 * A phone verification code on WhatsApp (decision 126): the `phone_code` authentication template,
 * the code in its body and its copy-code button, sent while the person waits (as the SMS is), so
 * a refusal is told to them at once. The code is the person's own request: it needs no opt-in
 * and is none. Its row in whatsapp_messages (purpose 'code', for the desk's delivery statuses)
 * never holds the code: the variables and the preview have it masked.
 */

/** What stands for the code wherever it is kept. */
export const MASKED_CODE = '******';

/** Meta's answers that say this number cannot get WhatsApp messages: undeliverable (not on WhatsApp), not an allowed recipient. */
const NOT_ON_WHATSAPP = new Set([131026, 131030]);

/** Why a code did not go on WhatsApp, for the person: this number is not on WhatsApp, or WhatsApp did not take it now. */
export class WhatsAppCodeError extends Error {
  override name = 'WhatsAppCodeError';
  constructor(
    readonly kind: 'not-on-whatsapp' | 'failed' | 'unavailable',
    options?: { cause?: unknown },
  ) {
    super(`WhatsApp code not sent: ${kind}`, options);
  }
}

export type WhatsAppCodeDeps = { db: Kysely<DB>; config: Pick<AppServices['config'], 'whatsapp' | 'outboxEnabled'>; clock: AppServices['clock'] };

/**
 * Sends `code` to `to` on WhatsApp, in `language`. With the Cloud API's credentials: through the
 * Graph API, its wamid kept (or Meta's refusal, as a failed row) in whatsapp_messages. In demo
 * and test the outbox also shows the message as the person reads it, code included (production
 * never writes the outbox). Throws WhatsAppCodeError when it did not go.
 */
export async function sendWhatsAppCode(deps: WhatsAppCodeDeps, input: { to: string; userId: string; language: Language; code: string }): Promise<void> {
  if (!whatsappReachable(deps.config)) throw new WhatsAppCodeError('unavailable');
  const message = whatsappTemplate('phone_code', { code: input.code });
  const credentials = deps.config.whatsapp;
  if (credentials) {
    const masked = whatsappTemplate('phone_code', { code: MASKED_CODE });
    const row = {
      recipient: input.to,
      user_id: input.userId,
      purpose: 'code' as const,
      template: message.template,
      language: TEMPLATE_LANGUAGE_CODES[input.language],
      variables: JSON.stringify(masked.variables),
      preview: templatePreview(masked, input.language),
      sms_fallback: null,
    };
    try {
      const { wamid } = await sendTemplate(credentials, {
        to: input.to,
        template: message.template,
        language: TEMPLATE_LANGUAGE_CODES[input.language],
        variables: message.variables,
        copyCode: input.code,
      });
      const now = new Date(deps.clock.now()).toISOString();
      await deps.db
        .insertInto('whatsapp_messages')
        .values({ ...row, status: 'sent', wamid, created_at: now, updated_at: now, sent_at: now })
        .execute();
    } catch (error) {
      const now = new Date(deps.clock.now()).toISOString();
      const code = error instanceof WhatsAppError ? error.code : null;
      const text = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await deps.db
        .insertInto('whatsapp_messages')
        .values({ ...row, status: 'failed', error_code: code, error_text: text, created_at: now, updated_at: now, failed_at: now })
        .execute();
      throw new WhatsAppCodeError(code !== null && NOT_ON_WHATSAPP.has(code) ? 'not-on-whatsapp' : 'failed', { cause: error });
    }
  }
  if (deps.config.outboxEnabled) {
    await recordOutboxMessage(
      { db: deps.db },
      { channel: 'whatsapp', recipient: input.to, subject: message.template, body: templatePreview(message, input.language) },
      deps.clock.now(),
    );
  }
}
