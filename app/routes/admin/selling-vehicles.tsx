import { Link } from 'react-router';
import { leadChangeAction, leadListLoader } from '../../../server/leads/http/lead-admin.ts';
import type { SellSubmission } from '../../../server/leads/sell.ts';
import { PhotoLink } from '../../components/photo-link.tsx';
import { Detail, LeadCard, LeadListError, LeadListPage } from '../../components/leads/lead-admin.tsx';
import { formatDateTime, formatKilometres, formatRupees } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { imageUrl } from '../../lib/vehicle.ts';
import type { Route } from './+types/selling-vehicles';

/** Served at /admin-panel/selling-vehicles and at its alias /admin/selling-vehicles (SPEC 2). */

export const meta = adminPageMeta('Selling Vehicles');

export const loader = leadListLoader('sell');

export const action = leadChangeAction('sell');

function SubmissionCard({ submission, siteName }: { submission: SellSubmission; siteName: string }) {
  return (
    <LeadCard
      lead={submission}
      title={submission.vehicle}
      subtitle={<time dateTime={submission.createdAt}>{formatDateTime(submission.createdAt)}</time>}
      whatsappText={`Namaste ${submission.name}, this is ${siteName} about the ${submission.vehicle} you offered to sell.`}
      deleteLabel={`submission #${submission.id} and its photos`}
    >
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label="Name">{submission.name}</Detail>
        <Detail label="Phone">{submission.phone}</Detail>
        <Detail label="Year">{submission.year}</Detail>
        <Detail label="Expected price">{submission.price || 'Not given'}</Detail>
        {submission.inspectionId !== null ? (
          <Detail label="Inspection">
            <Link to={adminPaths.inspection(submission.inspectionId)} className="font-semibold text-brand-700 underline">
              Inspection #{submission.inspectionId}
            </Link>
          </Detail>
        ) : null}
        {submission.valuation ? (
          <Detail label="Our estimate when sent" wide>
            {submission.valuation.estimate.kind === 'range'
              ? `${formatRupees(submission.valuation.estimate.low)} – ${formatRupees(submission.valuation.estimate.high)}: `
              : 'None: '}
            {submission.valuation.estimate.summary} ({submission.valuation.car.year} {submission.valuation.car.make} {submission.valuation.car.model}, {formatKilometres(submission.valuation.car.km)},{' '}
            {submission.valuation.car.owners} owner{submission.valuation.car.owners === 1 ? '' : 's'}, {submission.valuation.car.fuel} {submission.valuation.car.transmission.toLowerCase()},{' '}
            {submission.valuation.car.registrationState})
          </Detail>
        ) : null}
        {submission.description ? (
          <Detail label="Description" wide>
            {submission.description}
          </Detail>
        ) : null}
      </dl>
      {submission.images.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={`Photos of ${submission.vehicle}`}>
          {submission.images.map((image, index) => (
            <li key={image.key}>
              <PhotoLink
                href={imageUrl(image, Math.max(...image.widths))}
                src={imageUrl(image, Math.min(...image.widths))}
                alt={`Photo ${index + 1} of ${submission.vehicle} (opens the full image)`}
                width={100}
                height={70}
                className="block rounded-lg ring-1 ring-slate-200 hover:ring-brand-600"
                imageClassName="h-[70px] w-[100px] rounded-lg object-cover"
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">No photos</p>
      )}
      <p className="text-sm text-slate-600">ID: {submission.id}</p>
    </LeadCard>
  );
}

export default function SellingVehicles({ loaderData, actionData }: Route.ComponentProps) {
  const { items, siteName } = loaderData;
  return (
    <LeadListPage
      {...loaderData}
      title="Selling Vehicles"
      intro="Submissions from the Sell Vehicle page"
      noun={['submission', 'submissions']}
      loadingText="Loading selling vehicles..."
      emptyText="No selling submissions found."
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
  return <LeadListError title="Failed to load selling vehicles." retryHref={adminPaths.sellingVehicles} />;
}
