import { useEffect } from 'react';
import { data, Form, Link, redirect, useActionData, useNavigate, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router';
import { setupFirstAdmin, adminMessages } from '../../../server/admin/admin-auth.ts';
import { anyAdminExists } from '../../../server/auth/admins.ts';
import { consumeRateLimit, rateLimits } from '../../../server/security/rate-limit.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton, TextField, NewPasswordField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { MAX_EMAIL_LENGTH } from '../../lib/input.ts';
import { parseForm } from '../../lib/form-errors.ts';
import { adminAccountSchema, typedAgain } from '../../features/auth/schemas.ts';
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
  const refused = (message: string, fields: Record<string, string> = {}, values: Record<string, string> = {}) => ({
    ok: false as const,
    denied: false,
    message,
    fields,
    values,
  });
  if (!limit.allowed) return refused(t('tooManySetupAttempts'));
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data(refused(form.message), { status: form.status });
  const parsed = parseForm(adminAccountSchema, form);
  if (!parsed.ok) return refused(parsed.error, parsed.fields, typedAgain(parsed.values));
  const result = await setupFirstAdmin(services, request, parsed.value);
  if (result.ok) return { ok: true as const, message: adminMessages.adminCreated };
  // The allow-list refusal is the spec's denied view.
  return { ...refused(result.message, {}, typedAgain(parsed.values)), denied: result.message === adminMessages.notAuthorizedAdmin };
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
  const refusal = result && !result.ok ? result : null;
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
            <TextField
              id="email"
              name="email"
              type="email"
              label={t('email')}
              autoComplete="username"
              defaultValue={(refusal?.values.email ?? '').slice(0, MAX_EMAIL_LENGTH)}
              error={refusal?.fields.email}
            />
            <NewPasswordField label={t('password')} hint={t('passwordHint')} error={refusal?.fields.password} />
            <button type="submit" disabled={busy} className={primaryButton}>
              {busy ? t('creatingAccount') : t('createAdminAccount')}
            </button>
          </Form>
        )}
      </FormCard>
    </main>
  );
}
