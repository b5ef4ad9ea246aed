import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { adminMessages, adminPathAfterSignIn, adminSignIn } from '../../../server/admin/admin-auth.ts';
import { adminStatus } from '../../../server/auth/admins.ts';
import { currentUser, forwardCookies } from '../../../server/auth/session.ts';
import { openSignInGate, signInLimitDeps } from '../../../server/auth/sign-in-limits.ts';
import { FormCard, FormMessage, primaryButton, TextField } from '../../components/form.tsx';
import { useBotCheckedSubmit } from '../../components/use-bot-checked-submit.ts';
import { appContext } from '../../context.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { MAX_EMAIL_LENGTH } from '../../lib/input.ts';
import { formError, parseForm } from '../../lib/form-errors.ts';
import { adminSignInSchema, typedAgain } from '../../features/auth/schemas.ts';
import type { Route } from './+types/login';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminAuthText as t } from '../../features/admin/admin-auth-texts.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: adminPaths.login, title: t('loginTitle'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const user = await currentUser(services.auth, request);
  if (user && (await adminStatus(services.config, services.database, user)) === 'admin') {
    throw redirect(adminPathAfterSignIn(new URL(request.url).searchParams.get('redirectTo')));
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ ...formError(form.message), values: {} as Record<string, string> }, { status: form.status });
  // An empty or malformed form is no password try and is not counted (docs/decisions/009): each field says what is wrong.
  const parsed = parseForm(adminSignInSchema, form);
  // A refused form answers with the page again (200), as every refusal of these pages.
  if (!parsed.ok) return { ...formError(parsed.error, parsed.fields), values: typedAgain(parsed.values) };
  const { email, password, botCheck } = parsed.value;
  const values = typedAgain(parsed.values);
  if (!(await services.botCheck.verify(botCheck, 'LOGIN', services.clientAddress))) {
    return data({ ...formError(adminMessages.botCheckFailed), values });
  }
  const gate = await openSignInGate(signInLimitDeps(services), {
    page: 'admin-login',
    address: services.clientAddress,
    email,
    cookieHeader: request.headers.get('cookie'),
  });
  // A staff account under a guessing attack: this device waits its turn (decision 094), and hears how long.
  if (!gate.allowed)
    return data({
      ...formError(gate.reason === 'account-slowed' ? t('accountSlowed', { count: Math.ceil(gate.retryAfterSeconds / 60) }) : adminMessages.tooManyAttempts),
      values,
    });

  const result = await adminSignIn(services, request, { email, password });
  // A refused sign-in also clears the session it may have opened.
  if (!result.ok) {
    if (result.passwordAccepted) await gate.succeeded();
    else await gate.failed();
    return data({ ...formError(result.message), values }, { headers: result.headers ?? new Headers() });
  }
  const headers = forwardCookies(await gate.succeeded(), result.headers);
  throw redirect(adminPathAfterSignIn(new URL(request.url).searchParams.get('redirectTo')), { headers });
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

export default function AdminLogin() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { solving, submitChecked } = useBotCheckedSubmit();
  const busy = Boolean(solving) || (navigation.state !== 'idle' && navigation.formMethod === 'POST');
  const error = actionData && 'error' in actionData ? actionData.error : null;
  const fields = actionData?.fields ?? {};
  // What was typed comes back (never the password), at most as long as an address can be.
  const email = (actionData?.values.email ?? '').slice(0, MAX_EMAIL_LENGTH);
  // The bot check is solved in the browser before the form goes (the same widget as /login).
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submitChecked(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter, 'LOGIN');
  };
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 p-4">
      <FormCard title={t('loginTitle')}>
        <Form method="post" className="flex flex-col gap-4" noValidate onSubmit={onSubmit}>
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          <TextField id="email" name="email" type="email" label={t('email')} autoComplete="username" defaultValue={email} error={fields.email} />
          <TextField id="password" name="password" type="password" label={t('password')} autoComplete="current-password" error={fields.password} />
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? t('signingIn') : t('signIn')}
          </button>
        </Form>
      </FormCard>
    </main>
  );
}
