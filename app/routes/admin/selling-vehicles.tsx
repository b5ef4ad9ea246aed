import { useLocation, useNavigation } from 'react-router';
import { leadChangeAction, leadListLoader } from '../../../server/http/lead-admin.ts';
import type { SellSubmission } from '../../../server/leads/sell.ts';
import { Toast } from '../../components/admin/toast.tsx';
import { CustomerContact, DeleteLeadButton, Detail, leadExportHref, LeadStatusForm, leadListHref, LeadToolbar, StatusBadge } from '../../components/leads/lead-admin.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { imageUrl } from '../../lib/vehicle.ts';
import type { Route } from './+types/selling-vehicles';

/** Served at /admin-panel/selling-vehicles and at its alias /admin/selling-vehicles (SPEC 2). */

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: 'Selling Vehicles', noIndex: true });
}

export const loader = leadListLoader('sell');

export const action = leadChangeAction('sell');

function SubmissionCard({ submission, siteName }: { submission: SellSubmission; siteName: string }) {
  return (
    <li className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-words text-lg font-bold">{submission.vehicle}</h2>
          <p className="text-sm text-slate-600">
            <time dateTime={submission.createdAt}>{formatDateTime(submission.createdAt)}</time>
          </p>
        </div>
        <StatusBadge status={submission.status} />
      </div>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label="Name">{submission.name}</Detail>
        <Detail label="Phone">{submission.phone}</Detail>
        <Detail label="Year">{submission.year}</Detail>
        <Detail label="Expected price">{submission.price}</Detail>
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
              <a href={imageUrl(image, Math.max(...image.widths))} target="_blank" rel="noopener noreferrer" className="block rounded-lg ring-1 ring-slate-200 hover:ring-brand-600">
                <img
                  src={imageUrl(image, Math.min(...image.widths))}
                  alt={`Photo ${index + 1} of ${submission.vehicle} (opens the full image)`}
                  width={100}
                  height={70}
                  loading="lazy"
                  className="h-[70px] w-[100px] rounded-lg object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">No photos</p>
      )}
      <p className="text-sm text-slate-600">ID: {submission.id}</p>
      <CustomerContact phone={submission.phone} whatsappText={`Namaste ${submission.name}, this is ${siteName} about the ${submission.vehicle} you offered to sell.`} />
      <LeadStatusForm id={submission.id} status={submission.status} notes={submission.notes} />
      <div className="flex justify-end">
        <DeleteLeadButton id={submission.id} label={`submission #${submission.id} and its photos`} />
      </div>
    </li>
  );
}

export default function SellingVehicles({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageCount, filter, siteName } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const basePath = location.pathname.replace(/\/+$/, '');
  const loading = navigation.state === 'loading' && navigation.location.pathname === location.pathname;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight">Selling Vehicles</h1>
          <p className="text-slate-600">Submissions from the Sell Vehicle page</p>
        </div>
        <p className="text-sm text-slate-600">
          {total} {total === 1 ? 'submission' : 'submissions'}, newest first
        </p>
      </div>
      <LeadToolbar filter={filter} basePath={basePath} exportHref={leadExportHref('selling-vehicles', filter)} />
      {loading ? (
        <p role="status" className="rounded-2xl bg-white p-4 text-center font-medium text-slate-700 ring-1 ring-slate-200">
          Loading selling vehicles...
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className={`grid gap-4 lg:grid-cols-2 ${loading ? 'opacity-60' : ''}`}>
          {items.map((submission) => (
            <SubmissionCard key={submission.id} submission={submission} siteName={siteName} />
          ))}
        </ul>
      ) : (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">No selling submissions found.</p>
      )}
      <Pagination page={page} pageCount={pageCount} hrefFor={(target) => leadListHref(basePath, filter, target)} />
      <Toast toast={actionData?.toast} />
    </div>
  );
}

/** SPEC 8, Lists: the submissions could not be loaded. */
export function ErrorBoundary() {
  return (
    <div role="alert" className="mx-auto max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-xl font-bold">Failed to load selling vehicles.</h1>
      <p className="mt-2 text-slate-600">Please reload the page in a moment.</p>
      <a href="/admin-panel/selling-vehicles" className="mt-5 inline-block rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white">
        Try again
      </a>
    </div>
  );
}
