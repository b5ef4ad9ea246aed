import { useEffect, useState } from 'react';
import { data, Form, redirect, useActionData, useNavigation, useSubmit } from 'react-router';
import { hasRequestedOtp, pendingPhoneOtp } from '../../server/accounts/phone-verification.ts';
import { codeByWhatsAppOffered, phoneCodeBody, phoneVerify, profileSchemas, sendProfileCode, verifyProfilePhone } from '../../server/accounts/profile-phone.ts';
import { ensureProfile, personName } from '../../server/accounts/profiles.ts';
import { currentUser, requireUser } from '../../server/auth/session.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton, TextField } from '../components/form.tsx';
import { PrivacyNotice } from '../features/sell/lead-form-parts.tsx';
import { useBotCheckedSubmit } from '../components/use-bot-checked-submit.ts';
import { appContext } from '../context.ts';
import { formError, parseForm, type FormErrors } from '../lib/form-errors.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { DEFAULT_COUNTRY_CODE, mmss, phoneMessages, splitPhone } from '../lib/phone.ts';
import { profileFormError, profileStepSchema } from '../features/accounts/profile-schemas.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/profile-complete';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { localRedirect, paths } from '../lib/paths.ts';
import { retryAfterHeaders } from '../lib/retry-after.ts';
import { accountText as t } from '../lib/i18n/account.ts';
import { whatsappText } from '../features/notifications/whatsapp-texts.ts';
import { CodeChannelChoice, WhatsAppOptInBox } from '../features/accounts/phone-code-choices.tsx';

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.profileComplete, title: t('completeTitle'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, database, clock, config } = context.get(appContext);
  const user = await requireUser(auth, request);
  const profile = await ensureProfile(database, user, clock.now());
  const pending = await pendingPhoneOtp(database, user.id, clock.now());
  // Prefill from the account and the stored profile (SPEC 5).
  const stored = splitPhone(pending?.phone ?? profile.phone);
  return {
    name: personName(profile, user),
    countryCode: stored.phone ? stored.countryCode : DEFAULT_COUNTRY_CODE,
    phone: stored.phone,
    pending,
    // "Send the code by: SMS / WhatsApp", where the site can send on WhatsApp (decision 126).
    codeByWhatsApp: codeByWhatsAppOffered(config),
  };
}

/** The form's answer: the message to show, and the fields it is about (marked beside them). */
type ActionResult = { error: string; fields?: Record<string, string>; whatsappOptIn?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const { database } = services;
  const user = await currentUser(services.auth, request);
  if (!user) return data<ActionResult>({ error: phoneMessages.signInFirst });

  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data<ActionResult>({ error: form.message }, { status: form.status });
  const step = parseForm(profileStepSchema, form);
  if (!step.ok) return data<ActionResult>(formError(step.error), { status: 400 });
  const { intent } = step.value;
  const input = Object.fromEntries(form);
  // The person's own tick, kept through the page's answers (without JavaScript the page is drawn again).
  const whatsappOptIn = form.get('whatsappOptIn') === 'on';
  // An expired or used-up code still counts as requested, so its own message can be given.
  const requested =
    intent === 'verify' && (Boolean(await pendingPhoneOtp(database, user.id, services.clock.now())) || (await hasRequestedOtp(database, user.id)));
  // The browser's check again, with the server's phone rule: a number that is not a valid Indian
  // mobile, or another country code, is refused here before any limit counts it. A refused field
  // is 400, as in the API; "request OTP first" says where the person is, as the code's outcomes do.
  const invalid = profileFormError(intent, input, requested, profileSchemas);
  if (invalid) return data<ActionResult>({ ...invalid, whatsappOptIn }, { status: Object.keys(invalid.fields).length > 0 ? 400 : 200 });

  try {
    if (intent === 'send') {
      const { phone, botCheck, channel } = phoneCodeBody.parse(input);
      await sendProfileCode(services, { userId: user.id, phone, botCheck, channel });
      return data<ActionResult>({ error: '', whatsappOptIn });
    }
    await verifyProfilePhone(services, { userId: user.id, ...phoneVerify.parse(input) });
  } catch (error) {
    // Logged, never shown: the message of an unexpected error may hold SQL or paths (decision 017).
    const answer = answerError(
      error,
      services.logger,
      intent === 'send'
        ? { fallback: phoneMessages.sendFailed, log: 'OTP could not be sent' }
        : { fallback: t('verificationRetry'), log: 'phone verification failed' },
    );
    // A refused send or check by a limit: 429 with Retry-After, the page showing why; any other refusal is the form's message.
    if (answer.status === 429) return data<ActionResult>({ error: answer.message, whatsappOptIn }, { status: 429, headers: answer.headers });
    return data<ActionResult>({ error: answer.message, whatsappOptIn });
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
      <span suppressHydrationWarning>{sending ? t('sendingOtp') : secondsLeft > 0 ? t('resendOtpIn', { time: mmss(secondsLeft) }) : t('resendOtp')}</span>
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
  const [clientError, setClientError] = useState<FormErrors | null>(null);
  const busyIntent = solving ?? (navigation.state !== 'idle' ? navigation.formData?.get('intent') : null);
  const pending = loaderData.pending;
  const error = clientError?.error ?? (actionData?.error || null);
  const fields = (clientError ? clientError.fields : actionData?.fields) ?? {};

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const data = new FormData(event.currentTarget, submitter);
    const intent = data.get('intent') === 'verify' ? 'verify' : 'send';
    // The server's schema, in the spec's order, before anything is sent.
    const invalid = profileFormError(intent, { name, countryCode, phone, otp: String(data.get('otp') ?? '') }, Boolean(pending));
    setClientError(invalid);
    if (invalid) return;
    if (intent === 'send') void submitChecked(event.currentTarget, submitter, 'SEND_OTP');
    else void submit(data, { method: 'post' });
  }

  return (
    <FormCard title={t('completeTitle')}>
      <p className="mb-5 text-slate-700">{t('completeIntro')}</p>
      <Form method="post" className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        {pending && !error ? (
          <FormMessage tone="success">
            {pending.channel === 'whatsapp' ? whatsappText('codeSentWhatsApp', { phone: pending.phone }) : t('codeSent', { phone: pending.phone })}
          </FormMessage>
        ) : null}
        <TextField
          id="name"
          name="name"
          label={t('fullName')}
          autoComplete="name"
          error={fields.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={100}
        />
        <div className="flex gap-2">
          <div className="w-24 shrink-0">
            <TextField
              id="countryCode"
              name="countryCode"
              label={t('countryCode')}
              inputMode="tel"
              autoComplete="tel-country-code"
              error={fields.countryCode}
              value={countryCode}
              onChange={(event) => setCountryCode(event.target.value)}
              maxLength={4}
            />
          </div>
          <div className="min-w-0 flex-1">
            <TextField
              id="phone"
              name="phone"
              type="tel"
              label={t('mobileNumber')}
              inputMode="numeric"
              autoComplete="tel-national"
              error={fields.phone}
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              maxLength={15}
            />
          </div>
        </div>
        {loaderData.codeByWhatsApp ? <CodeChannelChoice key={pending?.resendAt ?? 'none'} chosen={pending?.channel ?? 'sms'} error={fields.channel} /> : null}
        <WhatsAppOptInBox ticked={actionData?.whatsappOptIn === true} />
        {pending ? (
          <>
            <TextField
              id="otp"
              name="otp"
              label={t('otp')}
              inputMode="numeric"
              autoComplete="one-time-code"
              error={fields.otp}
              placeholder={t('otpPlaceholder')}
              maxLength={6}
              pattern="[0-9]*"
            />
            <button type="submit" name="intent" value="verify" disabled={Boolean(busyIntent)} className={primaryButton}>
              {busyIntent === 'verify' ? t('verifying') : t('verifyAndSave')}
            </button>
            <ResendButton key={pending.resendAt} resendAt={pending.resendAt} busy={Boolean(busyIntent)} sending={busyIntent === 'send'} />
          </>
        ) : (
          <button type="submit" name="intent" value="send" disabled={Boolean(busyIntent)} className={primaryButton}>
            {busyIntent === 'send' ? t('sendingOtp') : t('sendOtp')}
          </button>
        )}
        <PrivacyNotice>{t('phonePrivacy')}</PrivacyNotice>
      </Form>
    </FormCard>
  );
}
