import { exportFileName, exportPersonalData } from '../../server/accounts/privacy.ts';
import { requireUser } from '../../server/auth/session.ts';
import { appContext } from '../context.ts';
import type { Route } from './+types/profile-data';

/**
 * Download my data (DPDP Act 2023, right to information): everything we hold about the
 * signed-in person as a JSON file. Only ever their own; never cached anywhere.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, database, config, clock } = context.get(appContext);
  const user = await requireUser(auth, request);
  const now = new Date(clock.now());
  const body = await exportPersonalData({ database, siteOrigin: config.siteOrigin, userId: user.id }, now);
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(now)}"`,
      'Cache-Control': 'no-store',
    },
  });
}
