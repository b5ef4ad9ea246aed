import { leadChangeAction, leadListLoader } from '../../../server/http/lead-admin.ts';
import type { VehicleRequest } from '../../../server/leads/requests.ts';
import { CustomerContact, DeleteLeadButton, Detail, LeadListError, LeadListPage, LeadStatusForm, StatusBadge } from '../../components/leads/lead-admin.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/requested-vehicles';

export const meta = adminPageMeta('Requested Vehicles');

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
  const { items, siteName } = loaderData;
  return (
    <LeadListPage
      {...loaderData}
      title="Requested Vehicles"
      intro="Cars customers asked us to find, from the Request a Vehicle page."
      noun={['request', 'requests']}
      loadingText="Loading requests...."
      emptyText={loaderData.filter.status || loaderData.filter.q ? 'No vehicle requests match this filter.' : 'No vehicle requests yet.'}
      exportKind="requested-vehicles"
      toast={actionData?.toast}
    >
      {items.map((request) => (
        <RequestCard key={request.id} request={request} siteName={siteName} />
      ))}
    </LeadListPage>
  );
}

/** SPEC 8, Requests: the list could not be loaded. */
export function ErrorBoundary() {
  return <LeadListError title="Failed to load vehicle requests" retryHref={adminPaths.requestedVehicles} />;
}
