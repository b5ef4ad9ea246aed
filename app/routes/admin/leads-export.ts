import { recordAudit } from '../../../server/admin/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { toCsv } from '../../../server/leads/csv.ts';
import { parseLeadQuery } from '../../../server/leads/leads.ts';
import { exportVehicleRequests, requestCsvHeaders, requestCsvRow } from '../../../server/leads/requests.ts';
import { exportSellSubmissions, sellCsvHeaders, sellCsvRow } from '../../../server/leads/sell.ts';
import { appContext } from '../../context.ts';
import type { Route } from './+types/leads-export';

/**
 * CSV download of the leads a list shows (same status filter and search, every page):
 * /admin/leads-export/requested-vehicles and /admin/leads-export/selling-vehicles. The file
 * holds customers' names and phone numbers, so who exported it is recorded in the audit log.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const { database, config } = services;
  const query = parseLeadQuery(new URL(request.url).searchParams);
  const filter = { status: query.status, q: query.q };
  const day = new Date().toISOString().slice(0, 10);

  let csv: string;
  let fileName: string;
  let count: number;
  let entity: string;
  if (params.kind === 'requested-vehicles') {
    const requests = await exportVehicleRequests(database, filter);
    csv = toCsv(requestCsvHeaders, requests.map(requestCsvRow));
    fileName = `vehicle-requests-${day}.csv`;
    count = requests.length;
    entity = 'vehicle_request';
  } else if (params.kind === 'selling-vehicles') {
    const submissions = await exportSellSubmissions(database, filter);
    csv = toCsv(sellCsvHeaders, submissions.map((submission) => sellCsvRow(submission, config.siteOrigin)));
    fileName = `sell-submissions-${day}.csv`;
    count = submissions.length;
    entity = 'sell_submission';
  } else {
    throw new Response('Not found', { status: 404 });
  }

  const described = [filter.status ? `status ${filter.status}` : '', filter.q ? 'a search' : ''].filter(Boolean).join(' and ');
  await recordAudit(database, {
    actorEmail: admin.email,
    action: 'export',
    entity,
    summary: `Exported ${count} ${entity === 'vehicle_request' ? 'vehicle requests' : 'sell submissions'} as CSV${described ? ` (filtered by ${described})` : ''}`,
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
