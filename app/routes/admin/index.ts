import { redirect } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { appContext } from '../../context.ts';
import type { Route } from './+types/index';
import { adminPaths } from '../../lib/paths.ts';

/** /admin is the dashboard's other address. Guarded too: loaders run in parallel with the layout's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context.get(appContext), request);
  throw redirect(adminPaths.dashboard);
}

/** A page, not a resource route, so a refusal renders the admin layout's Access Denied screen. */
export default function AdminIndex() {
  return null;
}
