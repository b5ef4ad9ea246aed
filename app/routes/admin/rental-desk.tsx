import { Link } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { listLicences } from '../../../server/rentals/licences.ts';
import { PageHeader } from '../../components/admin/admin-ui.tsx';
import { appContext } from '../../context.ts';
import { adminPaths } from '../../lib/paths.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import type { Route } from './+types/rental-desk';

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: 'Rental desk', noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const waiting = await listLicences(services.database, { status: 'pending' });
  return { licencesWaiting: waiting.length };
}

export default function RentalDesk({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Rental desk" />
      <Link to={adminPaths.rentalLicences} className="self-start rounded-xl bg-white px-4 py-3 font-semibold ring-1 ring-slate-200">
        Driving licences awaiting review: {loaderData.licencesWaiting}
      </Link>
    </div>
  );
}
