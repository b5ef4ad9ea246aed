import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import { recordOutboxMessage } from './outbox.ts';
import { createMsg91Sender } from './sms-msg91.ts';
import { createTwilioSender } from './sms-twilio.ts';

/**
 * Outgoing SMS (phone verification codes). One interface, three implementations chosen by
 * SMS_PROVIDER: the outbox (demo and test), MSG91 (the usual choice in India: DLT-registered
 * templates) and Twilio. Demo and test also record provider messages in the outbox.
 */

export interface SmsSender {
  /**
   * Sends `text` to `toE164` (`+` and digits). `meta.otp` is the bare code, for providers that
   * fill a pre-registered template instead of sending free text (MSG91).
   */
  send(toE164: string, text: string, meta?: { otp?: string }): Promise<void>;
}

/**
 * Why a message was not sent, in the categories the phone verification screen distinguishes
 * (SPEC 8, Phone verification):
 * - invalid-credential: our key, token or IP allow-list is wrong ("Authentication configuration error")
 * - quota-exceeded: balance, rate or queue limit ("SMS quota exceeded")
 * - invalid-number: the provider rejects the destination number
 * - provider: anything else; `message` is the provider's own words, shown as they are
 */
export type SmsErrorCode = 'invalid-credential' | 'quota-exceeded' | 'invalid-number' | 'provider';

export class SmsError extends Error {
  override name = 'SmsError';
  readonly code: SmsErrorCode;
  /** Which adapter failed and the HTTP status it saw, for the logs. */
  readonly provider: string;
  readonly status: number | undefined;

  constructor(code: SmsErrorCode, message: string, options: { provider: string; status?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.provider = options.provider;
    this.status = options.status;
  }
}

const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Rejects anything that is not `+` and 7 to 15 digits before a request is made. */
export function assertE164(toE164: string, provider: string): string {
  if (!E164.test(toE164)) throw new SmsError('invalid-number', `Not a phone number in international format (+ and digits): ${toE164}`, { provider });
  return toE164;
}

/** The verification text. Short (one SMS segment) and says not to share the code, as Indian banks' OTPs do. */
export function otpSmsText({ siteName, code, minutes }: { siteName: string; code: string; minutes: number }): string {
  return `${code} is your ${siteName} verification code. It is valid for ${minutes} minutes. Do not share it with anyone.`;
}

/** Turns a fetch failure (refused, DNS, timeout) into an SmsError that says which service and why. */
export function unreachableError(provider: string, url: string, error: unknown, timeoutMs: number): SmsError {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new SmsError('provider', `${provider} did not answer within ${timeoutMs / 1000} s (${host}).`, { provider, cause: error });
  }
  // fetch() reports "fetch failed" and puts the system error (ECONNREFUSED, ENOTFOUND) in cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  return new SmsError('provider', `${provider} could not be reached (${host}): ${cause}`, { provider, cause: error });
}

type SmsConfig = Pick<Config, 'outboxEnabled' | 'sms'>;

export function createSmsSender({ config, database, logger }: { config: SmsConfig; database: Database; logger: Logger }): SmsSender {
  const sms = config.sms;
  const provider: SmsSender | null =
    sms.provider === 'msg91'
      ? createMsg91Sender({ authKey: sms.authKey, templateId: sms.templateId, apiUrl: sms.apiUrl })
      : sms.provider === 'twilio'
        ? createTwilioSender({ accountSid: sms.accountSid, authToken: sms.authToken, from: sms.from, apiUrl: sms.apiUrl })
        : null;

  return {
    async send(toE164, text, meta) {
      assertE164(toE164, sms.provider);
      // The outbox provider is the outbox; a real provider is also recorded in demo and test,
      // first, so the code can be read even when the provider then refuses.
      if (!provider || config.outboxEnabled) {
        await recordOutboxMessage(database, { channel: 'sms', recipient: toE164, body: text });
      }
      if (!provider) return;
      try {
        await provider.send(toE164, text, meta);
        logger.info({ provider: sms.provider, to: `${toE164.slice(0, 3)}******${toE164.slice(-2)}` }, 'sms sent');
      } catch (error) {
        logger.warn({ err: error, provider: sms.provider }, 'sms could not be sent');
        throw error;
      }
    },
  };
}
