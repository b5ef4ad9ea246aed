import { recordAudit } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { toCsv } from '../../../server/leads/csv.ts';
import { parseLeadQuery } from '../../../server/leads/http/lead-admin.ts';
import { leadEntity, type LeadKind } from '../../../server/leads/leads.ts';
import { exportLeads, leadCsv } from '../../../server/leads/lists.ts';
import { appContext } from '../../context.ts';
import { deskLeadsText as t } from '../../features/admin/desk-leads-texts.ts';
import type { Route } from './+types/leads-export';

/**
 * CSV download of the leads a list shows (same status filter and search, every page):
 * /admin/leads-export/requested-vehicles and /admin/leads-export/selling-vehicles. The file
 * holds customers' names and phone numbers, so who exported it is recorded in the audit log.
 */
const kindOf = new Map<string, LeadKind>([
  ['requested-vehicles', 'request'],
  ['selling-vehicles', 'sell'],
]);
const fileStem = { request: 'vehicle-requests', sell: 'sell-submissions' } as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const { database, config } = services;
  const query = parseLeadQuery(new URL(request.url).searchParams);
  const filter = { status: query.status, q: query.q };
  const day = new Date(services.clock.now()).toISOString().slice(0, 10);

  const kind = kindOf.get(params.kind);
  if (!kind) throw new Response(t('notFound'), { status: 404 });
  const leads = await exportLeads(database, kind, filter);
  const { headers, rows } = leadCsv(kind, leads, config.siteOrigin);
  const csv = toCsv(headers, rows);
  const count = leads.length;
  const entity = leadEntity[kind];
  const fileName = `${fileStem[kind]}-${day}.csv`;

  const described = [filter.status ? `status ${filter.status}` : '', filter.q ? 'a search' : ''].filter(Boolean).join(' and ');
  await recordAudit(services, {
    actorEmail: admin.email,
    action: 'export',
    entity,
    summary: `Exported ${count} ${kind === 'request' ? 'vehicle requests' : 'sell submissions'} as CSV${described ? ` (filtered by ${described})` : ''}`,
  });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
