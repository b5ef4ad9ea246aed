import { useLocation, useNavigation } from 'react-router';
import { leadChangeAction, leadListLoader } from '../../../server/http/lead-admin.ts';
import type { VehicleRequest } from '../../../server/leads/requests.ts';
import { Toast } from '../../components/admin/toast.tsx';
import { CustomerContact, DeleteLeadButton, Detail, leadExportHref, LeadStatusForm, leadListHref, LeadToolbar, StatusBadge } from '../../components/leads/lead-admin.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import type { Route } from './+types/requested-vehicles';

const BASE_PATH = '/admin/requested-vehicles';

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: 'Requested Vehicles', noIndex: true });
}

export const loader = leadListLoader('request');

export const action = leadChangeAction('request');

function RequestCard({ request, siteName }: { request: VehicleRequest; siteName: string }) {
  return (
    <li className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-words text-lg font-bold">{request.name}</h2>
          <p className="text-sm text-slate-600">Request #{request.id}</p>
        </div>
        <StatusBadge status={request.status} />
      </div>
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label="Phone">{request.phone}</Detail>
        <Detail label="Model">{request.model}</Detail>
        <Detail label="Year">{request.year || '—'}</Detail>
        <Detail label="Budget">{request.budget}</Detail>
        <Detail label="Description" wide>
          {request.description || '—'}
        </Detail>
        <Detail label="Created">
          <time dateTime={request.createdAt}>{formatDateTime(request.createdAt)}</time>
        </Detail>
      </dl>
      <CustomerContact phone={request.phone} whatsappText={`Namaste ${request.name}, this is ${siteName} about your request for a ${request.model}.`} />
      <LeadStatusForm id={request.id} status={request.status} notes={request.notes} />
      <div className="flex justify-end">
        <DeleteLeadButton id={request.id} label={`request #${request.id}`} />
      </div>
    </li>
  );
}

export default function RequestedVehicles({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageCount, filter, siteName } = loaderData;
  const navigation = useNavigation();
  const location = useLocation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === location.pathname;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight">Requested Vehicles</h1>
          <p className="text-slate-600">Cars customers asked us to find, from the Request a Vehicle page.</p>
        </div>
        <p className="text-sm text-slate-600">
          {total} {total === 1 ? 'request' : 'requests'}, newest first
        </p>
      </div>
      <LeadToolbar filter={filter} basePath={BASE_PATH} exportHref={leadExportHref('requested-vehicles', filter)} />
      {loading ? (
        <p role="status" className="rounded-2xl bg-white p-4 text-center font-medium text-slate-700 ring-1 ring-slate-200">
          Loading requests....
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className={`grid gap-4 lg:grid-cols-2 ${loading ? 'opacity-60' : ''}`}>
          {items.map((request) => (
            <RequestCard key={request.id} request={request} siteName={siteName} />
          ))}
        </ul>
      ) : (
        <p className="rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          {filter.status || filter.q ? 'No vehicle requests match this filter.' : 'No vehicle requests yet.'}
        </p>
      )}
      <Pagination page={page} pageCount={pageCount} hrefFor={(target) => leadListHref(BASE_PATH, filter, target)} />
      <Toast toast={actionData?.toast} />
    </div>
  );
}

/** SPEC 8, Requests: the list could not be loaded. */
export function ErrorBoundary() {
  return (
    <div role="alert" className="mx-auto max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-xl font-bold">Failed to load vehicle requests</h1>
      <p className="mt-2 text-slate-600">Please reload the page in a moment.</p>
      <a href={BASE_PATH} className="mt-5 inline-block rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white">
        Try again
      </a>
    </div>
  );
}
