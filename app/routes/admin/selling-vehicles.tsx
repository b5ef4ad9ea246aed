import { Link } from 'react-router';
import { leadChangeAction, leadListLoader } from '../../../server/leads/http/lead-admin.ts';
import type { SellSubmission } from '../../../server/leads/sell.ts';
import { PhotoLink } from '../../features/vehicle/photo-link.tsx';
import { Detail, LeadCard, LeadListError, LeadListPage } from '../../features/admin/lead-admin.tsx';
import { formatDateTime, formatKilometres, formatRupees } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { deskLeadsText as t } from '../../features/admin/desk-leads-texts.ts';
import { imageUrl } from '../../lib/vehicle.ts';
import type { Route } from './+types/selling-vehicles';

/** Served at /admin-panel/selling-vehicles and at its alias /admin/selling-vehicles (SPEC 2). */

export const meta: Route.MetaFunction = (args) => adminPageMeta(t('sellingVehicles'))(args);

export const loader = leadListLoader('sell');

export const action = leadChangeAction('sell');

function SubmissionCard({ submission, siteName }: { submission: SellSubmission; siteName: string }) {
  return (
    <LeadCard
      lead={submission}
      title={submission.vehicle}
      subtitle={<time dateTime={submission.createdAt}>{formatDateTime(submission.createdAt)}</time>}
      whatsappText={t('sellWhatsapp', { name: submission.name, site: siteName, vehicle: submission.vehicle })}
      deleteLabel={t('submissionAndPhotos', { id: submission.id })}
    >
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label={t('name')}>{submission.name}</Detail>
        <Detail label={t('phone')}>{submission.phone}</Detail>
        <Detail label={t('year')}>{submission.year}</Detail>
        <Detail label={t('expectedPrice')}>{submission.price || t('notGiven')}</Detail>
        {submission.inspectionId !== null ? (
          <Detail label={t('inspection')}>
            <Link to={adminPaths.inspection(submission.inspectionId)} className="font-semibold text-brand-700 underline">
              {t('inspectionNumbered', { id: submission.inspectionId })}
            </Link>
          </Detail>
        ) : null}
        {submission.valuation ? (
          <Detail label={t('estimateWhenSent')} wide>
            {submission.valuation.estimate.kind === 'range'
              ? t('estimateRange', { low: formatRupees(submission.valuation.estimate.low), high: formatRupees(submission.valuation.estimate.high) })
              : t('estimateNone')}
            {submission.valuation.estimate.summary} ({submission.valuation.car.year} {submission.valuation.car.make} {submission.valuation.car.model},{' '}
            {formatKilometres(submission.valuation.car.km)}, {t('owners', { count: submission.valuation.car.owners })}, {submission.valuation.car.fuel}{' '}
            {submission.valuation.car.transmission.toLowerCase()}, {submission.valuation.car.registrationState})
          </Detail>
        ) : null}
        {submission.description ? (
          <Detail label={t('description')} wide>
            {submission.description}
          </Detail>
        ) : null}
      </dl>
      {submission.images.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t('photosOf', { vehicle: submission.vehicle })}>
          {submission.images.map((image, index) => (
            <li key={image.key}>
              <PhotoLink
                href={imageUrl(image, Math.max(...image.widths))}
                src={imageUrl(image, Math.min(...image.widths))}
                alt={t('photoOf', { number: index + 1, vehicle: submission.vehicle })}
                width={100}
                height={70}
                className="block rounded-lg ring-1 ring-slate-200 hover:ring-brand-600"
                imageClassName="h-[70px] w-[100px] rounded-lg object-cover"
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">{t('noPhotos')}</p>
      )}
      <p className="text-sm text-slate-600">{t('idLine', { id: submission.id })}</p>
    </LeadCard>
  );
}

export default function SellingVehicles({ loaderData, actionData }: Route.ComponentProps) {
  const { items, siteName } = loaderData;
  return (
    <LeadListPage
      {...loaderData}
      title={t('sellingVehicles')}
      intro={t('sellIntro')}
      noun={[t('submission'), t('submissions')]}
      loadingText={t('loadingSelling')}
      emptyText={t('noSelling')}
      exportKind="selling-vehicles"
      toast={actionData?.toast}
    >
      {items.map((submission) => (
        <SubmissionCard key={submission.id} submission={submission} siteName={siteName} />
      ))}
    </LeadListPage>
  );
}

/** SPEC 8, Lists: the submissions could not be loaded. */
export function ErrorBoundary() {
  return <LeadListError title={t('sellingFailed')} retryHref={adminPaths.sellingVehicles} />;
}
