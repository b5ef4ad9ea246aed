import { redirect } from 'react-router';
import { pathAfterSignIn, recordLogin } from '../../server/accounts/profiles.ts';
import { languageCookieAtSignIn } from '../../server/auth/flows.ts';
import { requireUser } from '../../server/auth/session.ts';
import { appContext } from '../context.ts';
import type { Route } from './+types/auth-continue';
import { localRedirect, onwardsTo, paths } from '../lib/paths.ts';

/**
 * Google sign-in returns here: record the login, then / or /profile-complete (SPEC 2, Sign Up),
 * or the page that asked for sign-in (`?redirectTo=`, set by startGoogle).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { auth, database, logger, clock } = services;
  const user = await requireUser(auth, request);
  // Their language choice follows them to a browser that has none yet (decision 087).
  const languageCookie = await languageCookieAtSignIn(services, request, user.id);
  const headers: HeadersInit = languageCookie ? { 'Set-Cookie': languageCookie } : {};
  try {
    const profile = await recordLogin(database, user, clock.now());
    throw redirect(onwardsTo(pathAfterSignIn(user, profile), localRedirect(new URL(request.url).searchParams.get('redirectTo'))), { headers });
  } catch (error) {
    if (error instanceof Response) throw error;
    logger.error({ err: error }, 'profile could not be read after Google sign-in');
    throw redirect(paths.home, { headers });
  }
}
