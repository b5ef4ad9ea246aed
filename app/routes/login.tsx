import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { googleErrorMessage, messages, signInWithEmail, startGoogle } from '../../server/auth/flows.ts';
import { currentUser } from '../../server/auth/session.ts';
import { consumeRateLimit, rateLimits } from '../../server/security/rate-limit.ts';
import { FormCard, FormMessage, GoogleIcon, primaryButton, secondaryButton, TextField } from '../components/form.tsx';
import { useBotCheckedSubmit } from '../components/use-bot-checked-submit.ts';
import { appContext } from '../context.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/login';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.login, title: 'Login', noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, config } = context.get(appContext);
  const user = await currentUser(auth, request);
  const url = new URL(request.url);
  return {
    googleEnabled: Boolean(config.google),
    // Signed in here, the Google button links Google to this account (SPEC 2, Login).
    signedInAs: user?.email ?? null,
    googleError: googleErrorMessage(url.searchParams.get('error')),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message, email: '' }, { status: form.status });
  const intent = String(form.get('intent') ?? 'email');
  const email = String(form.get('email') ?? '').trim().toLowerCase();
  const botAction = intent === 'google' ? 'GOOGLE_LOGIN' : 'LOGIN';

  const byAddress = await consumeRateLimit(services.database, { key: `sign-in:${services.clientAddress}`, ...rateLimits.signIn });
  const byEmail = email ? await consumeRateLimit(services.database, { key: `sign-in:${email}`, ...rateLimits.signIn }) : byAddress;
  if (!byAddress.allowed || !byEmail.allowed) return { error: messages.tooManyAttempts, email };
  if (!(await services.botCheck.verify(String(form.get('botCheck') ?? ''), botAction, services.clientAddress))) {
    return { error: messages.botCheckFailed, email };
  }

  const result =
    intent === 'google'
      ? await startGoogle(services, request, { errorPath: paths.login })
      : await signInWithEmail(services, request, { email, password: String(form.get('password') ?? '') });
  if (!result.ok) return { error: result.message, email };
  throw redirect(result.redirectTo, { headers: result.headers });
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
  const email = actionData && 'email' in actionData ? actionData.email : '';

  const onSubmit = (botAction: string) => (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submitChecked(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter, botAction);
  };

  return (
    <FormCard title="Login">
      {loaderData.signedInAs ? (
        <p className="mb-4 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-800 ring-1 ring-brand-100">
          You are signed in as {loaderData.signedInAs}. Continue with Google to link your Google account to it.
        </p>
      ) : null}
      <Form method="post" className="flex flex-col gap-4" onSubmit={onSubmit('LOGIN')}>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={email} />
        <TextField id="password" name="password" type="password" label="Password" autoComplete="current-password" required />
        <button type="submit" name="intent" value="email" disabled={Boolean(busyIntent)} className={primaryButton}>
          {busyIntent === 'email' ? 'Signing in...' : 'Login'}
        </button>
      </Form>
      {loaderData.googleEnabled ? (
        <Form method="post" className="mt-3 flex flex-col" onSubmit={onSubmit('GOOGLE_LOGIN')}>
          <button type="submit" name="intent" value="google" disabled={Boolean(busyIntent)} className={secondaryButton}>
            <GoogleIcon /> {busyIntent === 'google' ? 'Signing in...' : loaderData.signedInAs ? 'Link Google account' : 'Continue with Google'}
          </button>
        </Form>
      ) : null}
      <p className="mt-5 text-center text-slate-700">
        New here?{' '}
        <Link to={paths.signup} className="font-semibold text-brand-700 underline">
          Create an account
        </Link>
      </p>
    </FormCard>
  );
}
