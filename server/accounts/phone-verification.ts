import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { RateLimitedError } from '../errors.ts';
import { mmss } from '../../app/lib/phone.ts';
import { requireCanonicalPhone } from '../phone.ts';
import { otpSmsText, type SmsSender } from '../notify/sms.ts';
import type { Clock } from '../clock.ts';
import { consumeRateLimit, rateLimits, refundRateLimit } from '../security/rate-limit.ts';
import { accountText as t } from '../../app/lib/i18n/account.ts';
import type { OtpChannel } from '../db/schema.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { sendWhatsAppCode, type WhatsAppCodeDeps } from '../notify/whatsapp-code.ts';

/** SPEC 9: a 6-digit code. The issue: valid 10 minutes, 5 wrong tries end it. */
export const OTP_LENGTH = 6;
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
/** SPEC 4: Resend is allowed again after this long. */
export const OTP_RESEND_SECONDS = 120;

/** Written when the limit refuses, in the language of the request being answered. */
export const otpLimitMessages = {
  resendWait: (seconds: number) => t('resendWait', { time: mmss(seconds) }),
  tooManySends: (minutes: number) => t('tooManySends', { count: minutes }),
  tooManyFailures: (minutes: number) => t('tooManyFailures', { count: minutes }),
} as const;

const minutesOf = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

type Deps = {
  database: Database;
  sms: SmsSender;
  secret: string;
  siteName: string;
  clock: Clock;
  /** WhatsApp's settings, for a code sent there (decision 126). */
  config: WhatsAppCodeDeps['config'];
};

/** Codes are kept only as a keyed hash bound to the person and the number. */
function hashCode(secret: string, userId: string, phone: string, code: string): string {
  return createHmac('sha256', secret).update(`${userId}\n${phone}\n${code}`).digest('hex');
}

/**
 * Sends a new code by SMS, or on WhatsApp when the person chose it (decision 126: the same
 * limits, per number and Resend's wait, whichever way the code goes). Earlier unused codes for
 * this person stop working. When the code cannot be sent the new code is withdrawn and the
 * provider's error is passed on (SmsError, WhatsAppCodeError).
 */
export async function sendPhoneOtp(deps: Deps, input: { userId: string; phone: string; channel?: OtpChannel; language?: Language }): Promise<void> {
  const channel = input.channel ?? 'sms';
  // Sent to, stored with and counted by the canonical number (decision 096): one number, one limit.
  const phone = requireCanonicalPhone(input.phone);
  const now = new Date(deps.clock.now());
  // Per destination number, whichever accounts ask (decision 060): the caller has already
  // counted the account and the address, and a refused bot check never reaches this count, so
  // a stranger cannot use up a number's sends without doing the proof of work each time.
  const perNumber = await consumeRateLimit(deps.database, { key: `otp-send-number:${phone}`, ...rateLimits.otpSend, now: now.getTime() });
  if (!perNumber.allowed) throw new RateLimitedError(otpLimitMessages.tooManySends(minutesOf(perNumber.retryAfterSeconds)), perNumber.retryAfterSeconds);
  const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
  // The earlier code stops working, but only one that may be replaced now: past its Resend
  // wait, expired or out of tries. A code another request sent a moment ago stays live, and the
  // database's one-live-code index (migration 028) refuses this one: requests at once text once.
  await deps.database.db
    .updateTable('phone_otps')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', input.userId)
    .where('used_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('created_at', '<=', new Date(now.getTime() - OTP_RESEND_SECONDS * 1000).toISOString()),
        eb('expires_at', '<=', now.toISOString()),
        eb('attempts', '>=', OTP_MAX_ATTEMPTS),
      ]),
    )
    .execute();
  let row: { id: number };
  try {
    row = await deps.database.db
      .insertInto('phone_otps')
      .values({
        user_id: input.userId,
        phone,
        code_hash: hashCode(deps.secret, input.userId, phone, code),
        attempts: 0,
        expires_at: new Date(now.getTime() + OTP_TTL_MS).toISOString(),
        used_at: null,
        created_at: now.toISOString(),
        channel,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (!isLiveCodeClash(error)) throw error;
    const pending = await pendingPhoneOtp(deps.database, input.userId, now.getTime());
    const wait = Math.max(1, pending ? Math.ceil((new Date(pending.resendAt).getTime() - now.getTime()) / 1000) : OTP_RESEND_SECONDS);
    throw new RateLimitedError(otpLimitMessages.resendWait(wait), wait);
  }
  try {
    if (channel === 'whatsapp') {
      await sendWhatsAppCode(
        { db: deps.database.db, config: deps.config, clock: deps.clock },
        { to: phone, userId: input.userId, language: input.language ?? 'en', code },
      );
    } else {
      await deps.sms.send(phone, otpSmsText({ siteName: deps.siteName, code, minutes: OTP_TTL_MS / 60_000 }), { otp: code });
    }
  } catch (error) {
    await deps.database.db.updateTable('phone_otps').set({ used_at: now.toISOString() }).where('id', '=', row.id).execute();
    throw error;
  }
}

/** Whether an insert failed on "one live code per person" (migration 028). */
function isLiveCodeClash(error: unknown): boolean {
  return brokenUniqueRule(error, 'phone_otps', { live: { constraint: 'phone_otps_live_uq', column: 'user_id' } }) !== null;
}

export type OtpCheck = 'verified' | 'not-requested' | 'expired' | 'too-many-attempts' | 'wrong-code';

/**
 * Checks a code for this person and number. A wrong code counts against the 5 tries of the
 * code, and against 10 an hour on the account and on the number, whatever address sends it
 * (decision 060): past those, RateLimitedError until the window ends. Each try takes its slots
 * before the code is compared, so parallel guesses cannot slip past a limit, and gives them back
 * when it was no guess (right, expired, nothing requested).
 */
export async function verifyPhoneOtp(deps: Deps, input: { userId: string; phone: string; code: string }): Promise<OtpCheck> {
  const phone = requireCanonicalPhone(input.phone);
  const now = new Date(deps.clock.now());
  const keys = [`otp-failures-user:${input.userId}`, `otp-failures-number:${phone}`];
  const taken: string[] = [];
  const giveBack = () => Promise.all(taken.map((key) => refundRateLimit(deps.database, key)));
  for (const key of keys) {
    const slot = await consumeRateLimit(deps.database, { key, ...rateLimits.otpFailures, now: now.getTime() });
    taken.push(key);
    if (!slot.allowed) {
      await giveBack();
      throw new RateLimitedError(otpLimitMessages.tooManyFailures(minutesOf(slot.retryAfterSeconds)), slot.retryAfterSeconds);
    }
  }
  const result = await checkCode(deps, { ...input, phone }, now);
  if (result !== 'wrong-code') await giveBack();
  return result;
}

async function checkCode(deps: Deps, input: { userId: string; phone: string; code: string }, now: Date): Promise<OtpCheck> {
  const otp = await deps.database.db
    .selectFrom('phone_otps')
    .selectAll()
    .where('user_id', '=', input.userId)
    .where('phone', '=', input.phone)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!otp) return 'not-requested';
  if (otp.expires_at <= now.toISOString()) return 'expired';
  // The try is counted before the code is compared, in one statement that refuses past the
  // limit, so parallel guesses cannot all pass a check read earlier.
  const counted = await deps.database.db
    .updateTable('phone_otps')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', otp.id)
    .where('attempts', '<', OTP_MAX_ATTEMPTS)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) === 0) return 'too-many-attempts';

  const expected = Buffer.from(otp.code_hash, 'hex');
  const given = Buffer.from(hashCode(deps.secret, input.userId, input.phone, input.code.trim()), 'hex');
  if (expected.length === given.length && timingSafeEqual(expected, given)) {
    // Used once: of the same code sent several times at once, only the request that marks it
    // used verifies; the others find it used, as a second submit after the first would.
    const used = await deps.database.db
      .updateTable('phone_otps')
      .set({ used_at: now.toISOString() })
      .where('id', '=', otp.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? 'verified' : 'not-requested';
  }
  return 'wrong-code';
}

/** The code waiting to be entered, if any, how it went, and when Resend becomes available. */
export async function pendingPhoneOtp(
  database: Database,
  userId: string,
  nowMs: number,
): Promise<{ phone: string; resendAt: string; channel: OtpChannel } | null> {
  const otp = await database.db
    .selectFrom('phone_otps')
    .select(['phone', 'created_at', 'expires_at', 'attempts', 'channel'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!otp || otp.expires_at <= new Date(nowMs).toISOString() || otp.attempts >= OTP_MAX_ATTEMPTS) return null;
  return {
    phone: otp.phone,
    resendAt: new Date(new Date(otp.created_at).getTime() + OTP_RESEND_SECONDS * 1000).toISOString(),
    channel: otp.channel === 'whatsapp' ? 'whatsapp' : 'sms',
  };
}

/** Whether a code was asked for and not yet used up, even if it has since expired. */
export async function hasRequestedOtp(database: Database, userId: string): Promise<boolean> {
  const otp = await database.db.selectFrom('phone_otps').select('id').where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirst();
  return Boolean(otp);
}
