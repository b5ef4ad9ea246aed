import { data, Form, useActionData, useNavigation } from 'react-router';
import { adminMessages, createAdminAccount } from '../../../server/admin/admin-auth.ts';
import { recordAudit } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { FormCard, FormMessage, primaryButton, TextField, NewPasswordField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { MAX_EMAIL_LENGTH } from '../../lib/input.ts';
import { parseForm } from '../../lib/form-errors.ts';
import { adminAccountSchema, typedAgain } from '../../features/auth/schemas.ts';
import type { Route } from './+types/register-admin';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { adminAuthText as t } from '../../features/admin/admin-auth-texts.ts';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('createAdminAccount'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context.get(appContext), request);
  return null;
}

/**
 * SPEC 2, Create admin account: an admin creates another. The allow-list applies here too
 * (design.md), as do the password length and the verification mail; the new admin signs in
 * only after verifying their email.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ ok: false as const, message: form.message, fields: {}, values: {} }, { status: form.status });
  const parsed = parseForm(adminAccountSchema, form);
  if (!parsed.ok) return { ok: false as const, message: parsed.error, fields: parsed.fields, values: typedAgain(parsed.values) };
  const { email, password } = parsed.value;
  const result = await createAdminAccount(services, request, { email, password, createdBy: admin.email });
  if (!result.ok) return { ok: false as const, message: result.message, fields: {}, values: typedAgain(parsed.values) };

  const created = email;
  await recordAudit(services, {
    actorEmail: admin.email,
    action: 'create',
    entity: 'admin',
    entityId: created,
    summary: `Created admin account ${created}`,
    after: { email: created, createdBy: admin.email },
  });
  return { ok: true as const, message: adminMessages.adminCreated, email: created, fields: {}, values: {} };
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

export default function RegisterAdmin() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const result = actionData && 'ok' in actionData ? actionData : null;
  const fields: Record<string, string> = result?.fields ?? {};
  const values: Record<string, string> = result?.values ?? {};
  const networkError = actionData && 'error' in actionData ? String(actionData.error) : null;
  return (
    <div className="py-2">
      <FormCard title={t('registerTitle')}>
        {/* After a success the form starts empty again; after a refusal it keeps the email. */}
        <Form key={result?.ok ? `created-${result.email}` : 'form'} method="post" className="flex flex-col gap-4" noValidate>
          {result ? <FormMessage tone={result.ok ? 'success' : 'error'}>{result.message}</FormMessage> : null}
          {networkError ? <FormMessage tone="error">{networkError}</FormMessage> : null}
          <p className="text-slate-700">{t('allowListOnly')}</p>
          <TextField
            id="email"
            name="email"
            type="email"
            label={t('email')}
            autoComplete="off"
            required
            defaultValue={result && !result.ok ? (values.email ?? '').slice(0, MAX_EMAIL_LENGTH) : ''}
            error={fields.email}
          />
          <NewPasswordField label={t('password')} hint={t('passwordHint')} error={fields.password} />
          <button type="submit" disabled={busy} className={primaryButton}>
            {busy ? t('creatingAccount') : t('createAdminAccount')}
          </button>
        </Form>
      </FormCard>
    </div>
  );
}
