import { useEffect } from 'react';
import { data, Form, Link, redirect, useActionData, useNavigate, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router';
import { setupFirstAdmin, adminMessages } from '../../../server/admin/admin-auth.ts';
import { anyAdminExists } from '../../../server/auth/admins.ts';
import { consumeRateLimit, rateLimits } from '../../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { cleanLine, MAX_EMAIL_LENGTH } from '../../lib/input.ts';
import type { Route } from './+types/setup';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminAuthText as t } from '../../features/admin/admin-auth-texts.ts';

/** SPEC 2: after success, wait 3 seconds, then the admin login. */
const REDIRECT_DELAY_MS = 3000;

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: adminPaths.setup, title: t('setupTitle'), noIndex: true });
}

/** Only while no admin exists; afterwards the page sends everyone to /admin-login. */
export async function loader({ context }: Route.LoaderArgs) {
  const { database } = context.get(appContext);
  if (await anyAdminExists(database)) throw redirect(adminPaths.login);
  return null;
}

/**
 * After creating the admin the loader would now redirect at once; the page stays to show the
 * success message for its 3 seconds (SPEC 2) and then goes to the admin login itself.
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? false : defaultShouldRevalidate;
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const limit = await consumeRateLimit(services.database, { key: `setup-admin:${services.clientAddress}`, ...rateLimits.signUp, now: services.clock.now() });
  if (!limit.allowed) return { ok: false as const, denied: false, message: t('tooManySetupAttempts') };
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ ok: false as const, denied: false, message: form.message }, { status: form.status });
  const result = await setupFirstAdmin(services, request, {
    // One past the longest allowed, so an over-long value is refused rather than quietly cut.
    email: cleanLine(form.get('email'), MAX_EMAIL_LENGTH + 1),
    password: String(form.get('password') ?? '').slice(0, 129),
  });
  if (result.ok) return { ok: true as const, message: adminMessages.adminCreated };
  // The allow-list refusal is the spec's denied view.
  return { ok: false as const, denied: result.message === adminMessages.notAuthorizedAdmin, message: result.message };
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

export default function SetupAdmin() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const result = actionData && 'ok' in actionData ? actionData : null;
  const error = actionData && 'error' in actionData ? String(actionData.error) : null;

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => void navigate(adminPaths.login), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  if (result && !result.ok && result.denied) {
    return (
      <main className="flex min-h-dvh items-center justify-center bg-slate-100 p-4">
        <FormCard title={t('accessDenied')}>
          <FormMessage tone="error">{result.message}</FormMessage>
          <Link to={adminPaths.login} className={`${secondaryButton} mt-5 w-full`}>
            {t('goToLogin')}
          </Link>
        </FormCard>
      </main>
    );
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-100 p-4">
      <FormCard title={t('setupTitle')}>
        {result?.ok ? (
          <FormMessage tone="success">{t('takingYouToLogin', { message: result.message })}</FormMessage>
        ) : (
          <Form method="post" className="flex flex-col gap-4" noValidate>
            {result && !result.ok ? <FormMessage tone="error">{result.message}</FormMessage> : null}
            {error ? <FormMessage tone="error">{error}</FormMessage> : null}
            <p className="text-slate-700">{t('noAdminYet')}</p>
            <TextField id="email" name="email" type="email" label={t('email')} autoComplete="username" />
            <TextField id="password" name="password" type="password" label={t('password')} autoComplete="new-password" hint={t('passwordHint')} />
            <button type="submit" disabled={busy} className={primaryButton}>
              {busy ? t('creatingAccount') : t('createAdminAccount')}
            </button>
          </Form>
        )}
      </FormCard>
    </main>
  );
}
