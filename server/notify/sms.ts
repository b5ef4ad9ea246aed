import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { recordOutboxMessage } from './outbox.ts';
import { createMsg91Sender } from './sms-msg91.ts';
import { assertE164, type SmsSender } from './sms-provider.ts';
import { createTwilioSender } from './sms-twilio.ts';
import { accountText as t } from '../../app/lib/i18n/account.ts';
import type { Clock } from '../clock.ts';
import type { MessageCounts } from '../observability/metrics.ts';

/**
 * Outgoing SMS (phone verification codes). One interface, three implementations chosen by
 * SMS_PROVIDER: the outbox (demo and test), MSG91 (the usual choice in India: DLT-registered
 * templates) and Twilio. Demo and test also record provider messages in the outbox.
 */

// Callers know SMS by this module alone; the adapters share these from sms-provider.ts, which
// keeps them from importing this module back (no import cycles, decision 015).
export { SmsError, type SmsErrorCode, type SmsSender } from './sms-provider.ts';

/** The verification text. Short (one SMS segment) and says not to share the code, as Indian banks' OTPs do. */
export function otpSmsText({ siteName, code, minutes }: { siteName: string; code: string; minutes: number }): string {
  // Sent while answering the person's own request: in the language of their page or app.
  return t('otpSms', { code, siteName, minutes });
}

type SmsConfig = Pick<Config, 'outboxEnabled' | 'sms'>;

/** The configured SMS provider, or null for the outbox: what the queued SMS job sends through (server/notify/outgoing.ts). */
export function createSmsProvider(config: Pick<Config, 'sms'>): SmsSender | null {
  const sms = config.sms;
  return sms.provider === 'msg91'
    ? createMsg91Sender({ authKey: sms.authKey, templateId: sms.templateId, apiUrl: sms.apiUrl })
    : sms.provider === 'twilio'
      ? createTwilioSender({ accountSid: sms.accountSid, authToken: sms.authToken, from: sms.from, apiUrl: sms.apiUrl })
      : null;
}

/** `counts` hears of every SMS the provider took or refused (/metrics); the outbox alone is not a send. */
export function createSmsSender({
  config,
  database,
  logger,
  clock,
  counts,
}: {
  config: SmsConfig;
  database: Database;
  logger: Logger;
  clock: Clock;
  counts?: MessageCounts;
}): SmsSender {
  const sms = config.sms;
  const provider = createSmsProvider(config);

  return {
    async send(toE164, text, meta) {
      assertE164(toE164, sms.provider);
      // The outbox provider is the outbox; a real provider is also recorded in demo and test,
      // first, so the code can be read even when the provider then refuses.
      if (!provider || config.outboxEnabled) {
        await recordOutboxMessage(database, { channel: 'sms', recipient: toE164, body: text }, clock.now());
      }
      if (!provider) return;
      try {
        await provider.send(toE164, text, meta);
        counts?.count('sms', 'sent');
        logger.info({ provider: sms.provider, to: `${toE164.slice(0, 3)}******${toE164.slice(-2)}` }, 'sms sent');
      } catch (error) {
        counts?.count('sms', 'failed');
        logger.warn({ err: error, provider: sms.provider }, 'sms could not be sent');
        throw error;
      }
    },
  };
}
