import { data, Form, redirect, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { listLicences, reviewLicence } from '../../../server/rentals/licences.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { FieldNotes, FormMessage, inputClass, primaryButton, secondaryButton } from '../../components/form.tsx';
import { LicencePhotos } from '../../features/vehicle/photo-link.tsx';
import { LicenceStatusBadge } from '../../features/rentals/licence-form.tsx';
import { appContext } from '../../context.ts';
import { formError, parseForm } from '../../lib/form-errors.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { licenceReviewSchema } from '../../features/rentals/licence-review-schemas.ts';
import { ageOn, MAX_REFUSAL_REASON, type LicenceStatus } from '../../features/rentals/licence.ts';
import { adminPaths, paths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { deskRentalsText as t } from '../../features/rentals/desk-rentals-texts.ts';
import type { Route } from './+types/rental-licences';
import { indiaDay } from '../../lib/india-time.ts';

export const meta: Route.MetaFunction = (args) => adminPageMeta(t('drivingLicences'))(args);

/** The status filters, labelled in the page's language. */
function filters(): Array<{ value: LicenceStatus | ''; label: string }> {
  return [
    { value: 'pending', label: t('awaitingReview') },
    { value: 'approved', label: t('approved') },
    { value: 'refused', label: t('refused') },
    { value: '', label: t('all') },
  ];
}

function statusFilter(value: string | null): LicenceStatus | '' {
  return value === 'approved' || value === 'refused' || value === 'all' ? (value === 'all' ? '' : value) : 'pending';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const status = statusFilter(new URL(request.url).searchParams.get('status'));
  const [licences, flash] = await Promise.all([listLicences(services.database, status ? { status } : {}), takeFlash(services.config.authSecret, request)]);
  const today = indiaDay(services.clock.now());
  return data(
    {
      status,
      toast: flash.toast,
      licences: licences.map((licence) => ({
        ...licence,
        age: ageOn(licence.dateOfBirth, today),
        frontUrl: `${paths.licencePhoto(licence.userId, 'front')}?v=${encodeURIComponent(licence.updatedAt)}`,
        backUrl: `${paths.licencePhoto(licence.userId, 'back')}?v=${encodeURIComponent(licence.updatedAt)}`,
      })),
    },
    { headers: flash.headers },
  );
}

const refusedNothing = { fields: {} as Record<string, string>, values: {} as Record<string, string> };

/** Approve or refuse (with the reason the customer reads); audit-logged and told to the customer by the service. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message, ...refusedNothing }, { status: form.status });
  const parsed = parseForm(licenceReviewSchema, form);
  if (!parsed.ok) return data({ ...formError(parsed.error, parsed.fields), values: parsed.values }, { status: 400 });
  const review = parsed.value;
  try {
    const licence =
      review.intent === 'approve'
        ? await reviewLicence(services, { userId: review.userId, adminEmail: admin.email, decision: 'approve' })
        : await reviewLicence(services, { userId: review.userId, adminEmail: admin.email, decision: 'refuse', reason: review.reason });
    const text = t(review.intent === 'approve' ? 'licenceApproved' : 'licenceRefused', { number: licence.number });
    throw redirect(`${adminPaths.rentalLicences}${new URL(request.url).search}`, {
      headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }),
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    const answer = answerError(error, services.logger, { fallback: t('reviewNotSaved'), prefix: t('reviewNotSavedPrefix'), log: 'licence review failed' });
    return data({ ...formError(answer.message, answer.fields), values: parsed.values }, { status: answer.status });
  }
}

export default function RentalLicences({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === 'submitting';
  const { licences, status, toast } = loaderData;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('drivingLicences')} back={{ to: adminPaths.rentalDesk, label: t('rentalDesk') }} />
      {toast ? <FormMessage tone={toast.tone}>{toast.text}</FormMessage> : null}
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      <nav aria-label={t('filterLicences')} className="flex flex-wrap gap-2">
        {filters().map((filter) => (
          <a
            key={filter.value || 'all'}
            href={`${adminPaths.rentalLicences}?status=${filter.value || 'all'}`}
            aria-current={status === filter.value ? 'page' : undefined}
            className={`rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ${status === filter.value ? 'bg-slate-900 text-white ring-slate-900' : 'bg-white text-slate-800 ring-slate-300'}`}
          >
            {filter.label}
          </a>
        ))}
      </nav>
      {licences.length === 0 ? <p className="rounded-xl bg-white p-6 text-slate-600 ring-1 ring-slate-200">{t('noLicences')}</p> : null}
      <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {licences.map((licence) => {
          // A refused review is told beside the reason of the licence it was for, with what was typed.
          const mine = actionData?.values.userId === licence.userId;
          const reasonError = mine ? actionData?.fields.reason : undefined;
          const reasonId = `reason-${licence.userId}`;
          return (
            <li key={licence.userId} className="min-w-0 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <p className="truncate font-bold">{licence.name || licence.email}</p>
                  <p className="text-sm text-slate-600 wrap-anywhere">
                    {licence.email}
                    {licence.phone ? ` · ${licence.phone}${licence.phoneVerified ? t('verified') : ''}` : ''}
                  </p>
                </div>
                <LicenceStatusBadge status={licence.status} />
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-600">{t('licenceNumber')}</dt>
                <dd className="font-semibold">{licence.number}</dd>
                <dt className="text-slate-600">{t('dateOfBirth')}</dt>
                <dd>
                  {formatDate(licence.dateOfBirth)}
                  {licence.age === null ? null : t('ageYears', { age: licence.age })}
                </dd>
                <dt className="text-slate-600">{t('sent')}</dt>
                <dd>{formatDateTime(licence.updatedAt)}</dd>
                {licence.reviewedBy ? (
                  <>
                    <dt className="text-slate-600">{t('reviewed')}</dt>
                    <dd>
                      {licence.reviewedBy}, {formatDateTime(licence.reviewedAt)}
                    </dd>
                  </>
                ) : null}
                {licence.refusalReason ? (
                  <>
                    <dt className="text-slate-600">{t('reason')}</dt>
                    <dd>{licence.refusalReason}</dd>
                  </>
                ) : null}
              </dl>
              <LicencePhotos
                licence={licence}
                alt={(side) => t(side === 'front' ? 'licenceFrontAlt' : 'licenceBackAlt', { number: licence.number })}
                fit="object-contain"
              />
              <div className="mt-4 flex flex-col gap-3">
                {licence.status !== 'approved' ? (
                  <Form method="post">
                    <input type="hidden" name="userId" value={licence.userId} />
                    <button type="submit" name="intent" value="approve" disabled={busy} className={primaryButton}>
                      {t('approveLicence')}
                    </button>
                  </Form>
                ) : null}
                <Form method="post" className="flex flex-col gap-2">
                  <input type="hidden" name="userId" value={licence.userId} />
                  <label htmlFor={reasonId} className="text-sm font-semibold">
                    {t('refusalReasonLabel')}
                  </label>
                  <textarea
                    id={reasonId}
                    name="reason"
                    rows={2}
                    maxLength={MAX_REFUSAL_REASON}
                    required
                    defaultValue={mine ? actionData?.values.reason : undefined}
                    aria-invalid={reasonError ? true : undefined}
                    aria-describedby={reasonError ? `${reasonId}-error` : undefined}
                    className={inputClass}
                  />
                  <FieldNotes id={reasonId} error={reasonError} />
                  <button type="submit" name="intent" value="refuse" disabled={busy} className={`${secondaryButton} self-start text-red-700`}>
                    {t('refuseLicence')}
                  </button>
                </Form>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
