import { useEffect, useState } from 'react';
import { data, Form, redirect, useActionData, useNavigation, useSubmit } from 'react-router';
import { hasRequestedOtp, otpLimitMessages, pendingPhoneOtp, sendPhoneOtp, verifyPhoneOtp } from '../../server/accounts/phone-verification.ts';
import { RateLimitedError } from '../../server/errors.ts';
import { ensureProfile, saveVerifiedPhone } from '../../server/accounts/profiles.ts';
import { currentUser, requireUser } from '../../server/auth/session.ts';
import { SmsError } from '../../server/notify/sms.ts';
import { consumeRateLimit, rateLimits } from '../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton, TextField } from '../components/form.tsx';
import { PrivacyNotice } from '../components/leads/form-parts.tsx';
import { useBotCheckedSubmit } from '../components/use-bot-checked-submit.ts';
import { appContext } from '../context.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { DEFAULT_COUNTRY_CODE, MAX_NAME_LENGTH, e164, mmss, phoneFormError, phoneMessages, splitPhone } from '../lib/phone.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { cleanLine } from '../lib/input.ts';
import type { Route } from './+types/profile-complete';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { localRedirect, paths } from '../lib/paths.ts';
import { retryAfterHeaders } from '../lib/retry-after.ts';

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.profileComplete, title: 'Complete your profile', noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, database, clock } = context.get(appContext);
  const user = await requireUser(auth, request);
  const profile = await ensureProfile(database, user, clock.now());
  const pending = await pendingPhoneOtp(database, user.id, clock.now());
  // Prefill from the account and the stored profile (SPEC 5).
  const stored = splitPhone(pending?.phone ?? profile.phone);
  return {
    name: profile.name || user.name,
    countryCode: stored.phone ? stored.countryCode : DEFAULT_COUNTRY_CODE,
    phone: stored.phone,
    pending,
  };
}

type ActionResult = { error: string };

/** A refused send or check: 429 with Retry-After, the page showing why. */
function tooMany(error: RateLimitedError) {
  return data<ActionResult>({ error: error.message }, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const { database, config } = services;
  const user = await currentUser(services.auth, request);
  if (!user) return { error: phoneMessages.signInFirst };

  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data<ActionResult>({ error: form.message }, { status: form.status });
  const intent = form.get('intent') === 'verify' ? 'verify' : 'send';
  const input = {
    intent: intent as 'send' | 'verify',
    // Cut far above the limit only to bound the work; phoneFormError refuses anything over it.
    name: cleanLine(form.get('name'), MAX_NAME_LENGTH * 10),
    countryCode: form.has('countryCode') ? cleanLine(form.get('countryCode'), 8) : DEFAULT_COUNTRY_CODE,
    phone: cleanLine(form.get('phone'), 20),
    otp: cleanLine(form.get('otp'), 12),
  };
  const pending = await pendingPhoneOtp(database, user.id, services.clock.now());
  // An expired or used-up code still counts as requested, so its own message can be given.
  const invalid = phoneFormError({ ...input, otpRequested: Boolean(pending) || (await hasRequestedOtp(database, user.id)) });
  if (invalid) return { error: invalid };
  const phone = e164(input.countryCode, input.phone)!;
  const deps = { database, sms: services.sms, secret: config.authSecret, siteName: config.siteName, clock: services.clock };

  if (intent === 'send') {
    // SPEC 4: Resend waits 120 seconds, on the server as well as on the button.
    const wait = pending ? Math.ceil((new Date(pending.resendAt).getTime() - services.clock.now()) / 1000) : 0;
    if (wait > 0) return tooMany(new RateLimitedError(`Please wait ${mmss(wait)} before asking for another OTP.`, wait));
    const perUser = await consumeRateLimit(database, { key: `otp-send:${user.id}`, ...rateLimits.otpSend, now: services.clock.now() });
    const perAddress = await consumeRateLimit(database, { key: `otp-send:${services.clientAddress}`, ...rateLimits.otpSend, now: services.clock.now() });
    if (!perUser.allowed || !perAddress.allowed) {
      const seconds = Math.max(perUser.retryAfterSeconds, perAddress.retryAfterSeconds);
      return tooMany(new RateLimitedError(otpLimitMessages.tooManySends(Math.ceil(seconds / 60)), seconds));
    }
    if (!(await services.botCheck.verify(String(form.get('botCheck') ?? ''), 'SEND_OTP', services.clientAddress))) {
      return { error: 'reCAPTCHA verification failed' };
    }
    try {
      await sendPhoneOtp(deps, { userId: user.id, phone });
    } catch (error) {
      if (error instanceof RateLimitedError) return tooMany(error);
      if (error instanceof SmsError) {
        if (error.code === 'invalid-credential') return { error: phoneMessages.invalidCredential };
        if (error.code === 'quota-exceeded') return { error: phoneMessages.quotaExceeded };
        return { error: error.message || phoneMessages.sendFailed };
      }
      services.logger.error({ err: error }, 'OTP could not be sent');
      return { error: phoneMessages.sendFailed };
    }
    return { error: '' };
  }

  try {
    const result = await verifyPhoneOtp(deps, { userId: user.id, phone, code: input.otp });
    if (result === 'not-requested') return { error: phoneMessages.requestOtpFirst };
    if (result === 'expired') return { error: phoneMessages.otpExpired };
    if (result === 'too-many-attempts') return { error: phoneMessages.otpTooManyAttempts };
    if (result === 'wrong-code') return { error: phoneMessages.wrongOtp };
    await saveVerifiedPhone(database, user.id, { name: input.name, phone }, services.clock.now());
  } catch (error) {
    if (error instanceof RateLimitedError) return tooMany(error);
    // Logged, never shown: the message of an unexpected error may hold SQL or paths (decision 017).
    services.logger.error({ err: error }, 'phone verification failed');
    return { error: 'Verification failed: please try again' };
  }
  // Sent here by a page that needs a verified phone (a test-drive booking): back to it.
  throw redirect(localRedirect(new URL(request.url).searchParams.get('redirectTo')) ?? paths.home);
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

/** Seconds until `isoTime`, ticking every second in the browser. */
function useSecondsUntil(isoTime: string): number {
  const target = new Date(isoTime).getTime();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [target]);
  return Math.max(0, Math.ceil((target - now) / 1000));
}

/** 'Resend OTP in mm:ss', disabled until then. Keyed by the send time, so each send starts afresh. */
function ResendButton({ resendAt, busy, sending }: { resendAt: string; busy: boolean; sending: boolean }) {
  const secondsLeft = useSecondsUntil(resendAt);
  return (
    <button type="submit" name="intent" value="send" disabled={busy || secondsLeft > 0} className={secondaryButton}>
      <span suppressHydrationWarning>{sending ? 'Sending OTP...' : secondsLeft > 0 ? `Resend OTP in ${mmss(secondsLeft)}` : 'Resend OTP'}</span>
    </button>
  );
}

export default function ProfileComplete({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { solving, submitChecked } = useBotCheckedSubmit();
  const submit = useSubmit();
  const [name, setName] = useState(loaderData.name);
  const [countryCode, setCountryCode] = useState(loaderData.countryCode);
  const [phone, setPhone] = useState(loaderData.phone);
  const [clientError, setClientError] = useState<string | null>(null);
  const busyIntent = solving ?? (navigation.state !== 'idle' ? navigation.formData?.get('intent') : null);
  const pending = loaderData.pending;
  const error = clientError ?? (actionData?.error || null);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(event.currentTarget, submitter);
    const intent = data.get('intent') === 'verify' ? 'verify' : 'send';
    // The same rules as the server, in the spec's order, before anything is sent.
    const invalid = phoneFormError({ intent, name, countryCode, phone, otp: String(data.get('otp') ?? ''), otpRequested: Boolean(pending) });
    setClientError(invalid);
    if (invalid) return;
    if (intent === 'send') void submitChecked(event.currentTarget, submitter, 'SEND_OTP');
    else void submit(data, { method: 'post' });
  }

  return (
    <FormCard title="Complete your profile">
      <p className="mb-5 text-slate-700">Add your name and verify your mobile number so the dealer can reach you about the cars you like.</p>
      <Form method="post" className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        {pending && !error ? <FormMessage tone="success">We sent a 6-digit code by SMS to {pending.phone}.</FormMessage> : null}
        <TextField id="name" name="name" label="Full name" autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} maxLength={100} />
        <div className="flex gap-2">
          <div className="w-24 shrink-0">
            <TextField id="countryCode" name="countryCode" label="Code" inputMode="tel" autoComplete="tel-country-code" value={countryCode} onChange={(event) => setCountryCode(event.target.value)} maxLength={4} />
          </div>
          <div className="min-w-0 flex-1">
            <TextField id="phone" name="phone" type="tel" label="Mobile number" inputMode="numeric" autoComplete="tel-national" value={phone} onChange={(event) => setPhone(event.target.value)} maxLength={15} />
          </div>
        </div>
        {pending ? (
          <>
            <TextField id="otp" name="otp" label="OTP" inputMode="numeric" autoComplete="one-time-code" placeholder="Enter 6-digit code" maxLength={6} pattern="[0-9]*" />
            <button type="submit" name="intent" value="verify" disabled={Boolean(busyIntent)} className={primaryButton}>
              {busyIntent === 'verify' ? 'Verifying...' : 'Verify and Save'}
            </button>
            <ResendButton key={pending.resendAt} resendAt={pending.resendAt} busy={Boolean(busyIntent)} sending={busyIntent === 'send'} />
          </>
        ) : (
          <button type="submit" name="intent" value="send" disabled={Boolean(busyIntent)} className={primaryButton}>
            {busyIntent === 'send' ? 'Sending OTP...' : 'Send OTP'}
          </button>
        )}
        <PrivacyNotice>We keep your number with your account to reach you about the cars you like, until you delete the account.</PrivacyNotice>
      </Form>
    </FormCard>
  );
}
