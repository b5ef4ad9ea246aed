import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { googleErrorMessage, messages, rememberSignUpLanguage, signUpWithEmail, startGoogle } from '../../server/auth/flows.ts';
import { currentUser } from '../../server/auth/session.ts';
import { consumeRateLimit, rateLimits } from '../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, TextField, NewPasswordField } from '../components/form.tsx';
import { appContext } from '../context.ts';
import { GoogleButton } from '../features/auth/google-button.tsx';
import { googleButtonState } from '../features/auth/auth-messages.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { localRedirect, onwardsTo, paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { MAX_EMAIL_LENGTH } from '../lib/input.ts';
import { formError, parseForm, typedValues } from '../lib/form-errors.ts';
import { signUpFormSchema, typedAgain } from '../features/auth/schemas.ts';
import type { Route } from './+types/signup';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { authText as t } from '../features/auth/auth-texts.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.signup, title: t('signUpTitle'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, config } = context.get(appContext);
  const url = new URL(request.url);
  const redirectTo = localRedirect(url.searchParams.get('redirectTo'));
  if (await currentUser(auth, request)) throw redirect(redirectTo ?? paths.profile);
  return { google: googleButtonState(Boolean(config.google), config.mode), googleError: googleErrorMessage(url.searchParams.get('error')), redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ ...formError(form.message), values: {} as Record<string, string> }, { status: form.status });

  const limit = await consumeRateLimit(services.database, { key: `sign-up:${services.clientAddress}`, ...rateLimits.signUp, now: services.clock.now() });
  if (!limit.allowed) return { ...formError(messages.tooManyAttempts), values: typedAgain(typedValues(form)) };
  const parsed = parseForm(signUpFormSchema, form);
  // A refused form answers with the page again (200), as every refusal of these pages.
  if (!parsed.ok) return { ...formError(parsed.error, parsed.fields), values: typedAgain(parsed.values) };
  const asked = parsed.value;

  const redirectTo = localRedirect(new URL(request.url).searchParams.get('redirectTo'));
  const result =
    asked.intent === 'google'
      ? await startGoogle(services, request, { errorPath: paths.signup, redirectTo })
      : await signUpWithEmail(services, request, { email: asked.email, password: asked.password });
  if (!result.ok) return { ...formError(result.message), values: typedAgain(parsed.values) };
  // Signed up on a Hindi page: Hindi becomes their choice (a Google sign-up's account comes later, from Google).
  if (asked.intent === 'email') await rememberSignUpLanguage(services, asked.email);
  // Sent here by a page that asked for sign-in (the booking steps): back there after phone verification.
  const onwards = asked.intent === 'google' ? result.redirectTo : onwardsTo(result.redirectTo, redirectTo);
  throw redirect(onwards, { headers: result.headers });
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

export default function SignUp({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : null;
  const error = (actionData && 'error' in actionData ? actionData.error : null) ?? loaderData.googleError;
  const fields = actionData?.fields ?? {};
  // A refused address is shown again, but never more of it than an address can hold.
  const email = (actionData?.values.email ?? '').slice(0, MAX_EMAIL_LENGTH);

  return (
    <FormCard title={t('createYourAccount')}>
      <Form method="post" className="flex flex-col gap-4" noValidate={false}>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <TextField id="email" name="email" type="email" label={t('email')} autoComplete="email" required defaultValue={email} error={fields.email} />
        <NewPasswordField label={t('password')} hint={t('passwordHint')} error={fields.password} />
        <button type="submit" name="intent" value="email" disabled={Boolean(busyIntent)} className={primaryButton}>
          {busyIntent === 'email' ? t('creatingAccount') : t('signUp')}
        </button>
      </Form>
      <GoogleButton
        state={loaderData.google}
        label={t('signUpWithGoogle')}
        busyLabel={t('signingUp')}
        busy={busyIntent === 'google'}
        disabled={Boolean(busyIntent)}
      />
      <p className="mt-5 text-center text-slate-700">
        {t('haveAccount')}{' '}
        <Link to={loaderData.redirectTo ? paths.loginThen(loaderData.redirectTo) : paths.login} className="font-semibold text-brand-700 underline">
          {t('logIn')}
        </Link>
      </p>
    </FormCard>
  );
}
