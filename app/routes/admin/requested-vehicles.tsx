import { leadChangeAction, leadListLoader } from '../../../server/leads/http/lead-admin.ts';
import type { VehicleRequest } from '../../../server/leads/requests.ts';
import { Detail, LeadCard, LeadListError, LeadListPage } from '../../features/admin/lead-admin.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { deskLeadsText as t } from '../../features/admin/desk-leads-texts.ts';
import type { Route } from './+types/requested-vehicles';

export const meta: Route.MetaFunction = (args) => adminPageMeta(t('requestedVehicles'))(args);

export const loader = leadListLoader('request');

export const action = leadChangeAction('request');

function RequestCard({ request, siteName }: { request: VehicleRequest; siteName: string }) {
  return (
    <LeadCard
      lead={request}
      title={request.name}
      subtitle={t('requestNumbered', { id: request.id })}
      whatsappText={t('requestWhatsapp', { name: request.name, site: siteName, model: request.model })}
      deleteLabel={t('requestLabel', { id: request.id })}
    >
      <dl className="grid gap-3 sm:grid-cols-2">
        <Detail label={t('phone')}>{request.phone}</Detail>
        <Detail label={t('model')}>{request.model}</Detail>
        <Detail label={t('year')}>{request.year || '—'}</Detail>
        <Detail label={t('budget')}>{request.budget}</Detail>
        <Detail label={t('description')} wide>
          {request.description || '—'}
        </Detail>
        <Detail label={t('created')}>
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
      title={t('requestedVehicles')}
      intro={t('requestIntro')}
      noun={[t('request'), t('requests')]}
      loadingText={t('loadingRequests')}
      emptyText={loaderData.filter.status || loaderData.filter.q ? t('noRequestsMatch') : t('noRequests')}
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
  return <LeadListError title={t('requestsFailed')} retryHref={adminPaths.requestedVehicles} />;
}
