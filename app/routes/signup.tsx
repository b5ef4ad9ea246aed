import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { googleErrorMessage, signUpWithEmail, startGoogle } from '../../server/auth/flows.ts';
import { currentUser } from '../../server/auth/session.ts';
import { consumeRateLimit, rateLimits } from '../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, TextField } from '../components/form.tsx';
import { appContext } from '../context.ts';
import { GoogleButton } from '../components/google-button.tsx';
import { googleButtonState } from '../lib/auth-messages.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { localRedirect, onwardsTo, paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { cleanLine, MAX_EMAIL_LENGTH } from '../lib/input.ts';
import type { Route } from './+types/signup';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.signup, title: 'Sign Up', noIndex: true });
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
  if (form instanceof FormReadError) return data({ error: form.message, email: '' }, { status: form.status });
  const intent = String(form.get('intent') ?? 'email');
  // One past the longest allowed, so an over-long value is refused rather than quietly cut.
  const email = cleanLine(form.get('email'), MAX_EMAIL_LENGTH + 1);

  const limit = await consumeRateLimit(services.database, { key: `sign-up:${services.clientAddress}`, ...rateLimits.signUp, now: services.clock.now() });
  if (!limit.allowed) return { error: 'Too many attempts. Please try again later or reset your password.', email };

  const redirectTo = localRedirect(new URL(request.url).searchParams.get('redirectTo'));
  const result =
    intent === 'google'
      ? await startGoogle(services, request, { errorPath: paths.signup, redirectTo })
      : await signUpWithEmail(services, request, { email, password: String(form.get('password') ?? '') });
  // A refused address is shown again, but never more of it than an address can hold.
  if (!result.ok) return { error: result.message, email: email.slice(0, 254) };
  // Sent here by a page that asked for sign-in (the booking steps): back there after phone verification.
  const onwards = intent === 'google' ? result.redirectTo : onwardsTo(result.redirectTo, redirectTo);
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
  const email = actionData && 'email' in actionData ? actionData.email : '';

  return (
    <FormCard title="Create your account">
      <Form method="post" className="flex flex-col gap-4" noValidate={false}>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={email} />
        <TextField id="password" name="password" type="password" label="Password" autoComplete="new-password" required minLength={6} hint="At least 6 characters" />
        <button type="submit" name="intent" value="email" disabled={Boolean(busyIntent)} className={primaryButton}>
          {busyIntent === 'email' ? 'Creating account...' : 'Sign Up'}
        </button>
      </Form>
      <GoogleButton state={loaderData.google} label="Sign up with Google" busyLabel="Signing up..." busy={busyIntent === 'google'} disabled={Boolean(busyIntent)} />
      <p className="mt-5 text-center text-slate-700">
        Already have an account?{' '}
        <Link to={loaderData.redirectTo ? paths.loginThen(loaderData.redirectTo) : paths.login} className="font-semibold text-brand-700 underline">
          Log in
        </Link>
      </p>
    </FormCard>
  );
}
