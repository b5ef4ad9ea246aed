import { z } from 'zod';
import { phoneMessages } from '../../app/lib/phone.ts';
import { phoneCodeRequestSchema, phoneVerifySchema, type ProfileSchemas } from '../../app/features/accounts/profile-schemas.ts';
import { ForbiddenError, InvalidInputError, RateLimitedError, UpstreamError } from '../errors.ts';
import { SmsError } from '../notify/sms.ts';
import { consumeRateLimit, rateLimits } from '../security/rate-limit.ts';
import type { RequestContext } from '../services.ts';
import { otpLimitMessages, pendingPhoneOtp, sendPhoneOtp, verifyPhoneOtp } from './phone-verification.ts';
import { saveVerifiedPhone } from './profiles.ts';
import { canonicalPhoneField, requireCanonicalPhone } from '../phone.ts';
import { accountText as t } from '../../app/lib/i18n/account.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { WhatsAppCodeError } from '../notify/whatsapp-code.ts';
import { whatsappReachable } from '../notify/whatsapp.ts';
import type { OtpChannel } from '../db/schema.ts';
import { optInFromForm } from './whatsapp-updates.ts';

/**
 * Completing a profile (SPEC 5): a code texted to the phone, then the code with the name. The
 * profile page's action and `/api/v1/me/phone/*` both read their input with the schemas below
 * (app/features/accounts/profile-schemas.ts's, the phone made canonical by server/phone.ts) and call these;
 * refusals are the error vocabulary's (server/errors.ts).
 */

type Services = Pick<RequestContext, 'database' | 'sms' | 'config' | 'clock' | 'botCheck' | 'clientAddress'>;

/** The number as the server reads it: the shared field's checks, then canonical E.164 or "Please enter a valid phone number". */
const canonicalNumber = canonicalPhoneField(phoneCodeRequestSchema.shape.phone, () => phoneMessages.phoneInvalid);

/** Send code, as the server reads it (the page's action and /api/v1/me/phone/code): the phone canonical. */
export const phoneCodeRequest = phoneCodeRequestSchema.extend({ phone: canonicalNumber });
/** `POST /me/phone/code` and the profile page's Send OTP as they are read (and the API documented): the send-code schema, with the bot check's solution. */
export const phoneCodeBody = phoneCodeRequest.extend({
  botCheck: z.string().default('').meta({ description: 'The solved bot check (GET /api/bot-check/challenge?action=…).' }),
});
/** Verify code, as the server reads it (the page's action and /api/v1/me/phone/verify): the phone canonical. */
export const phoneVerify = phoneVerifySchema.extend({ phone: canonicalNumber });
/** Both, for the page action's `profileFormError`: the spec's order of messages, with the server's phone rule. */
export const profileSchemas: ProfileSchemas = { send: phoneCodeRequest, verify: phoneVerify };

const depsOf = (services: Services) => ({
  database: services.database,
  sms: services.sms,
  secret: services.config.authSecret,
  siteName: services.config.siteName,
  clock: services.clock,
  config: services.config,
});

/** Whether the verification screen offers "Send the code by: SMS / WhatsApp" (decision 126). */
export function codeByWhatsAppOffered(config: Services['config']): boolean {
  return whatsappReachable(config);
}

/**
 * Sends a new code to `phone`, by SMS or on WhatsApp. Refused while Resend waits (SPEC 4: 120
 * seconds, on the server as well as on the button, whichever way the earlier code went), past
 * the per-account, per-address and per-number limits, without a passed bot check, and when the
 * SMS provider or WhatsApp refuses (its reason passed on, WhatsApp's suggesting SMS).
 */
export async function sendProfileCode(services: Services, input: { userId: string; phone: string; botCheck: string; channel?: OtpChannel }): Promise<void> {
  const channel = input.channel ?? 'sms';
  // Asked for where the site cannot send on WhatsApp: said before any limit counts it.
  if (channel === 'whatsapp' && !codeByWhatsAppOffered(services.config)) {
    throw new InvalidInputError(whatsappText('codeWhatsAppUnavailable'), { channel: whatsappText('codeWhatsAppUnavailable') }).because('whatsapp-unavailable');
  }
  const now = services.clock.now();
  const pending = await pendingPhoneOtp(services.database, input.userId, now);
  const wait = pending ? Math.ceil((new Date(pending.resendAt).getTime() - now) / 1000) : 0;
  if (wait > 0) throw new RateLimitedError(otpLimitMessages.resendWait(wait), wait);
  const perUser = await consumeRateLimit(services.database, { key: `otp-send:${input.userId}`, ...rateLimits.otpSend, now });
  const perAddress = await consumeRateLimit(services.database, { key: `otp-send:${services.clientAddress}`, ...rateLimits.otpSend, now });
  if (!perUser.allowed || !perAddress.allowed) {
    const seconds = Math.max(perUser.retryAfterSeconds, perAddress.retryAfterSeconds);
    throw new RateLimitedError(otpLimitMessages.tooManySends(Math.ceil(seconds / 60)), seconds);
  }
  if (!(await services.botCheck.verify(input.botCheck, 'SEND_OTP', services.clientAddress))) throw new ForbiddenError(t('botCheckFailed')).because('bot-check');
  try {
    await sendPhoneOtp(depsOf(services), { userId: input.userId, phone: input.phone, channel, language: currentLanguage() });
  } catch (error) {
    if (error instanceof WhatsAppCodeError) {
      if (error.kind === 'not-on-whatsapp') throw new UpstreamError(whatsappText('codeNotOnWhatsApp')).because('not-on-whatsapp');
      if (error.kind === 'unavailable') throw new UpstreamError(whatsappText('codeWhatsAppUnavailable')).because('whatsapp-unavailable');
      throw new UpstreamError(whatsappText('codeWhatsAppFailed')).because('whatsapp-failed');
    }
    if (!(error instanceof SmsError)) throw error;
    if (error.code === 'invalid-credential') throw new UpstreamError(phoneMessages.invalidCredential).because('sms-failed');
    if (error.code === 'quota-exceeded') throw new UpstreamError(phoneMessages.quotaExceeded).because('sms-failed');
    throw new UpstreamError(error.message || phoneMessages.sendFailed).because('sms-failed');
  }
}

/**
 * Checks the code sent to `phone` and saves the name with the phone, now verified; a ticked
 * "updates on WhatsApp" box is recorded then, as the number's consent from the form.
 */
export async function verifyProfilePhone(
  services: Services,
  input: { userId: string; phone: string; otp: string; name: string; whatsappOptIn?: boolean },
): Promise<void> {
  const result = await verifyPhoneOtp(depsOf(services), { userId: input.userId, phone: input.phone, code: input.otp });
  if (result === 'not-requested') throw new InvalidInputError(phoneMessages.requestOtpFirst, { otp: phoneMessages.requestOtpFirst }).because('not-requested');
  if (result === 'expired') throw new InvalidInputError(phoneMessages.otpExpired, { otp: phoneMessages.otpExpired }).because('code-expired');
  if (result === 'too-many-attempts')
    throw new InvalidInputError(phoneMessages.otpTooManyAttempts, { otp: phoneMessages.otpTooManyAttempts }).because('too-many-attempts');
  if (result === 'wrong-code') throw new InvalidInputError(phoneMessages.wrongOtp, { otp: phoneMessages.wrongOtp }).because('wrong-code');
  const phone = requireCanonicalPhone(input.phone);
  await saveVerifiedPhone(services.database, input.userId, { name: input.name, phone }, services.clock.now());
  if (input.whatsappOptIn) await optInFromForm(services, { userId: input.userId, phone });
}
