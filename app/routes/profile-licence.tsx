import { data, Link, redirect } from 'react-router';
import { requireUser } from '../../server/auth/session.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../server/http/flash.ts';
import { FormReadError } from '../../server/http/forms.ts';
import { receiveLicenceUpload } from '../../server/rentals/http/licence-upload.ts';
import { ownLicenceView } from '../../server/rentals/licences.ts';
import { FormMessage } from '../components/form.tsx';
import { LicenceSection } from '../features/rentals/licence-form.tsx';
import { appContext } from '../context.ts';
import { licenceText as t } from '../features/rentals/licence-texts.ts';
import { licenceSaved, type LicenceFieldErrors } from '../features/rentals/licence.ts';
import { localRedirect, paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/profile-licence';
import { retryAfterHeaders } from '../lib/retry-after.ts';

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.profileLicence, title: t('drivingLicence'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const [licence, flash] = await Promise.all([ownLicenceView(services.database, user.id), takeFlash(services.config.authSecret, request)]);
  const redirectTo = localRedirect(new URL(request.url).searchParams.get('redirectTo'));
  return data({ licence, toast: flash.toast, redirectTo }, { headers: flash.headers });
}

/** The licence upload, from this page or the profile page; back to where the renter was going. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const redirectTo = localRedirect(new URL(request.url).searchParams.get('redirectTo'));
  const typed: { number?: string; dateOfBirth?: string } = {};
  try {
    await receiveLicenceUpload(services, request, user.id, typed);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('uploadFailed'), log: 'licence upload failed' });
    const values =
      error instanceof FormReadError ? { number: String(error.fields.get('number') ?? ''), dateOfBirth: String(error.fields.get('dateOfBirth') ?? '') } : typed;
    const errors: LicenceFieldErrors = { ...answer.fields };
    return data({ message: answer.message, errors, values }, { status: answer.status, headers: answer.headers });
  }
  throw redirect(redirectTo ?? paths.profile, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: licenceSaved() }) });
}

export default function ProfileLicence({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto w-full max-w-[560px] rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      {loaderData.redirectTo ? (
        <p className="mb-4 text-sm">
          <Link to={loaderData.redirectTo} className="font-semibold text-brand-700 underline">
            ← {t('backToWhereYouWere')}
          </Link>
        </p>
      ) : null}
      {loaderData.toast ? (
        <div className="mb-4">
          <FormMessage tone={loaderData.toast.tone}>{loaderData.toast.text}</FormMessage>
        </div>
      ) : null}
      <LicenceSection
        headingLevel={1}
        licence={loaderData.licence}
        errors={actionData?.errors}
        message={actionData?.message}
        values={actionData?.values}
        redirectTo={loaderData.redirectTo ?? undefined}
      />
    </section>
  );
}
