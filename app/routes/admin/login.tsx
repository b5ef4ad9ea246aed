import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { adminMessages, adminSignIn } from '../../../server/admin/admin-auth.ts';
import { adminStatus } from '../../../server/admin/admins.ts';
import { currentUser } from '../../../server/auth/session.ts';
import { consumeRateLimit, rateLimits } from '../../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import type { Route } from './+types/login';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: '/admin-login', title: 'Admin Login', noIndex: true });
}

/** Only our own admin pages may be the target after sign-in (no open redirect). */
function safeAdminPath(value: string | null): string {
  return value && /^\/admin(-panel)?(\/|$|\?)/.test(value) ? value : '/admin-panel';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const user = await currentUser(services.auth, request);
  if (user && (await adminStatus(services.config, services.database, user)) === 'admin') {
    throw redirect(safeAdminPath(new URL(request.url).searchParams.get('redirectTo')));
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message, email: '' }, { status: form.status });
  const email = String(form.get('email') ?? '').slice(0, 254);
  const password = String(form.get('password') ?? '').slice(0, 128);
  const byAddress = await consumeRateLimit(services.database, { key: `admin-sign-in:${services.clientAddress}`, ...rateLimits.adminSignIn });
  const byEmail = await consumeRateLimit(services.database, { key: `admin-sign-in:${email.trim().toLowerCase()}`, ...rateLimits.adminSignIn });
  if (!byAddress.allowed || !byEmail.allowed) return data({ error: adminMessages.tooManyAttempts, email });

  const result = await adminSignIn(services, request, { email, password });
  // A refused sign-in also clears the session it may have opened.
  if (!result.ok) return data({ error: result.message, email }, { headers: result.headers ?? new Headers() });
  throw redirect(safeAdminPath(new URL(request.url).searchParams.get('redirectTo')), { headers: result.headers });
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

export default function AdminLogin() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const error = actionData && 'error' in actionData ? actionData.error : null;
  const email = actionData && 'email' in actionData ? actionData.email : '';
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 p-4">
      <FormCard title="Admin Login">
        <Form method="post" className="flex flex-col gap-4" noValidate>
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          <TextField id="email" name="email" type="email" label="Email" autoComplete="username" defaultValue={email} />
          <TextField id="password" name="password" type="password" label="Password" autoComplete="current-password" />
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? 'Signing in...' : 'Sign In'}
          </button>
        </Form>
      </FormCard>
    </main>
  );
}
