import { leadChangeAction, leadListLoader } from '../../../server/leads/http/lead-admin.ts';
import type { VehicleRequest } from '../../../server/leads/requests.ts';
import { Detail, LeadCard, LeadListError, LeadListPage } from '../../components/leads/lead-admin.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/requested-vehicles';

export const meta = adminPageMeta('Requested Vehicles');

export const loader = leadListLoader('request');

export const action = leadChangeAction('request');

function RequestCard({ request, siteName }: { request: VehicleRequest; siteName: string }) {
  return (
    <LeadCard
      lead={request}
      title={request.name}
      subtitle={`Request #${request.id}`}
      whatsappText={`Namaste ${request.name}, this is ${siteName} about your request for a ${request.model}.`}
      deleteLabel={`request #${request.id}`}
    >
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
    </LeadCard>
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
