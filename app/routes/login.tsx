import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { googleErrorMessage, languageCookieAtSignIn, messages, signInWithPassword, startGoogle } from '../../server/auth/flows.ts';
import { currentUser } from '../../server/auth/session.ts';
import { consumeRateLimit, rateLimits } from '../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, TextField } from '../components/form.tsx';
import { useBotCheckedSubmit } from '../components/use-bot-checked-submit.ts';
import { appContext } from '../context.ts';
import { GoogleButton } from '../features/auth/google-button.tsx';
import { googleButtonState } from '../features/auth/auth-messages.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { localRedirect, onwardsTo, paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { MAX_EMAIL_LENGTH } from '../lib/input.ts';
import { formError, parseForm } from '../lib/form-errors.ts';
import { signInFormSchema, typedAgain } from '../features/auth/schemas.ts';
import type { Route } from './+types/login';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { authText as t } from '../features/auth/auth-texts.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.login, title: t('loginTitle'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, config } = context.get(appContext);
  const user = await currentUser(auth, request);
  const url = new URL(request.url);
  return {
    google: googleButtonState(Boolean(config.google), config.mode),
    // Signed in here, the Google button links Google to this account (SPEC 2, Login).
    signedInAs: user?.email ?? null,
    googleError: googleErrorMessage(url.searchParams.get('error')),
    // A new visitor sent here to sign in (the booking steps) creates an account without losing the way back.
    redirectTo: localRedirect(url.searchParams.get('redirectTo')),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ ...formError(form.message), values: {} as Record<string, string> }, { status: form.status });
  // An empty or malformed form is no password try and is not counted (decision 009): each field says what is wrong.
  const parsed = parseForm(signInFormSchema, form);
  // A refused form answers with the page again (200), as every refusal of these pages.
  if (!parsed.ok) return { ...formError(parsed.error, parsed.fields), values: typedAgain(parsed.values) };
  const asked = parsed.value;
  const values = typedAgain(parsed.values);
  const redirectTo = localRedirect(new URL(request.url).searchParams.get('redirectTo'));
  const refused = (error: string) => ({ ...formError(error), values });

  if (asked.intent === 'google') {
    // Starting Google sign-in checks no password: it has its own, looser limit per address.
    const limit = await consumeRateLimit(services.database, {
      key: `google-start:${services.clientAddress}`,
      ...rateLimits.authLink,
      now: services.clock.now(),
    });
    if (!limit.allowed) return refused(messages.tooManyAttempts);
    if (!(await services.botCheck.verify(asked.botCheck, 'GOOGLE_LOGIN', services.clientAddress))) return refused(messages.botCheckFailed);
    const result = await startGoogle(services, request, { errorPath: paths.login, redirectTo });
    if (!result.ok) return refused(result.message);
    throw redirect(result.redirectTo, { headers: result.headers });
  }

  const { email, password, botCheck } = asked;
  const result = await signInWithPassword(services, request, { email, password, botCheck, address: services.clientAddress });
  if (!result.ok) return refused(result.message);
  const headers = result.headers;
  // Their language choice follows them to a browser that has none yet (decision 087).
  const languageCookie = result.userId ? await languageCookieAtSignIn(services, request, result.userId) : null;
  if (languageCookie) headers.append('Set-Cookie', languageCookie);
  throw redirect(onwardsTo(result.redirectTo, redirectTo), { headers });
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { solving, submitChecked } = useBotCheckedSubmit();
  const busyIntent = solving ?? (navigation.state !== 'idle' ? navigation.formData?.get('intent') : null);
  const error = (actionData && 'error' in actionData ? actionData.error : null) ?? loaderData.googleError;
  const fields = actionData?.fields ?? {};
  // What was typed comes back (never the password), at most as long as an address can be.
  const email = (actionData?.values.email ?? '').slice(0, MAX_EMAIL_LENGTH);

  const onSubmit = (botAction: string) => (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submitChecked(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter, botAction);
  };

  return (
    <FormCard title={t('loginTitle')}>
      {loaderData.signedInAs ? (
        <p className="mb-4 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-800 ring-1 ring-brand-100">
          {t('signedInAs', { email: loaderData.signedInAs })}
        </p>
      ) : null}
      <Form method="post" className="flex flex-col gap-4" onSubmit={onSubmit('LOGIN')}>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <TextField id="email" name="email" type="email" label={t('email')} autoComplete="email" required defaultValue={email} error={fields.email} />
        <TextField id="password" name="password" type="password" label={t('password')} autoComplete="current-password" required error={fields.password} />
        <button type="submit" name="intent" value="email" disabled={Boolean(busyIntent)} className={primaryButton}>
          {busyIntent === 'email' ? t('signingIn') : t('login')}
        </button>
      </Form>
      <GoogleButton
        state={loaderData.google}
        label={loaderData.signedInAs ? t('linkGoogle') : t('continueWithGoogle')}
        busyLabel={t('signingIn')}
        busy={busyIntent === 'google'}
        disabled={Boolean(busyIntent)}
        onSubmit={onSubmit('GOOGLE_LOGIN')}
      />
      <p className="mt-5 text-center text-slate-700">
        {t('newHere')}{' '}
        <Link to={loaderData.redirectTo ? paths.signupThen(loaderData.redirectTo) : paths.signup} className="font-semibold text-brand-700 underline">
          {t('createAnAccount')}
        </Link>
      </p>
    </FormCard>
  );
}
