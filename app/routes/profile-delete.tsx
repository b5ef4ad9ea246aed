import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { deleteAccountLimited, deleteConfirmationFor, isLastAdmin, leadIdsOf, passwordVerifier } from '../../server/accounts/privacy.ts';
import { getProfile } from '../../server/accounts/profiles.ts';
import { signOut } from '../../server/auth/flows.ts';
import { currentUser, requireUser } from '../../server/auth/session.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton, TextField } from '../components/form.tsx';
import { appContext } from '../context.ts';
import { paths } from '../lib/paths.ts';
import { PASSWORD_LENGTH } from '../lib/input.ts';
import { DELETE_CONFIRMATION_WORD, privacyMessages } from '../features/accounts/privacy.ts';
import { parseDeleteConfirmation } from '../features/accounts/deletion-schema.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/profile-delete';
import { answerError } from '../../server/http/action-errors.ts';
import { readForm } from '../../server/http/forms.ts';
import { retryAfterHeaders } from '../lib/retry-after.ts';
import { accountText as t } from '../lib/i18n/account.ts';
import { RichText } from '../lib/i18n/rich.tsx';

/**
 * Delete my account (DPDP Act 2023, right to erasure): a confirmation page that works without
 * JavaScript. Password accounts re-enter their password, Google-only accounts type DELETE
 * (docs/decisions/013). The POST is covered by the app's Origin check like every other form.
 */

/** The primary button in red: this one destroys. */
const dangerButton = primaryButton.replace('bg-brand-700', 'bg-red-700').replace('hover:bg-brand-800', 'hover:bg-red-800');

const DONE_PATH = `${paths.profile}/delete?done=1`;

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: `${paths.profile}/delete`, title: t('deleteTitle'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, database } = context.get(appContext);
  if (new URL(request.url).searchParams.get('done') === '1' && !(await currentUser(auth, request))) return { state: 'done' as const };
  const user = await requireUser(auth, request);
  const [confirmation, lastAdmin, leads] = await Promise.all([
    deleteConfirmationFor(database, user.id),
    isLastAdmin(database, user.email),
    getProfile(database, user.id).then((profile) => leadIdsOf(database, profile)),
  ]);
  return { state: 'confirm' as const, email: user.email, confirmation, lastAdmin, leadCount: leads.requestIds.length + leads.sellIds.length };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  try {
    const form = await readForm(request);
    await deleteAccountLimited({ ...services, verifyPassword: passwordVerifier(services.auth) }, { userId: user.id, ...parseDeleteConfirmation(form) });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: privacyMessages.deleteFailed, log: 'account deletion failed' });
    return data({ error: answer.message }, { status: answer.status, headers: answer.headers });
  }
  // The sessions are gone already; this clears the cookie in the browser too.
  const headers = await signOut(services, request);
  throw redirect(DONE_PATH, { headers });
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (loaderData.state === 'done') {
    return (
      <FormCard title={t('accountDeleted')}>
        <FormMessage tone="success">{privacyMessages.deleted}</FormMessage>
        <p className="mt-4 text-slate-700">{t('thanksForVisiting')}</p>
        <div className="mt-5">
          <Link to={paths.home} className={primaryButton}>
            {t('browseCars')}
          </Link>
        </div>
      </FormCard>
    );
  }
  const { email, confirmation, lastAdmin, leadCount } = loaderData;
  const busy = navigation.state === 'submitting';
  return (
    <FormCard title={t('deleteTitle')}>
      <div className="flex flex-col gap-4 text-slate-700">
        <p>
          <RichText text={t('deleteIntro')} parts={{ email: () => <strong className="break-all text-slate-900">{email}</strong> }} />
          {leadCount > 0 ? ` ${t('deleteLeads', { count: leadCount })}` : ''} {t('signedOutNoUndo')}
        </p>
        <p>
          {t('wantCopy')}{' '}
          <a href={`${paths.profile}/my-data`} download className="font-semibold text-brand-700 underline">
            {t('downloadMyData')}
          </a>
          .
        </p>
        {lastAdmin ? (
          <FormMessage tone="error">{privacyMessages.lastAdmin}</FormMessage>
        ) : (
          <Form method="post" className="flex flex-col gap-4" noValidate>
            {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
            {confirmation === 'password' ? (
              <TextField
                id="password"
                name="password"
                type="password"
                label={t('yourPassword')}
                autoComplete="current-password"
                required
                maxLength={PASSWORD_LENGTH.max}
                hint={t('reallyYou')}
              />
            ) : (
              <TextField
                id="confirm"
                name="confirm"
                label={t('typeToConfirm', { word: DELETE_CONFIRMATION_WORD })}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                required
                maxLength={20}
              />
            )}
            <div className="flex flex-wrap gap-3">
              <button type="submit" disabled={busy} className={dangerButton}>
                {busy ? t('deleting') : t('deletePermanently')}
              </button>
              <Link to={paths.profile} className={secondaryButton}>
                {t('cancel')}
              </Link>
            </div>
          </Form>
        )}
      </div>
    </FormCard>
  );
}
