import { data, redirect } from 'react-router';
import type { AppServices } from '../services.ts';
import { currentUser, type SessionUser } from '../auth/session.ts';
import { adminStatus } from '../auth/admins.ts';
import { adminPaths, pageAddress } from '../../app/lib/paths.ts';
import { pathInLanguage } from '../../app/lib/i18n/language.ts';

/**
 * The admin guard, on the server, for every admin loader and action: signed out -> the admin
 * login screen; signed in but not an admin -> 403 Access Denied.
 */
export async function requireAdmin(services: AppServices, request: Request): Promise<SessionUser> {
  const user = await currentUser(services.auth, request);
  if (!user) {
    // Without the language prefix: React Router puts the page's own (`/hi`) back on the redirect.
    throw redirect(adminPaths.loginThen(pathInLanguage(pageAddress(request.url), 'en')));
  }
  if ((await adminStatus(services.config, services.database, user)) !== 'admin') {
    throw data({ accessDenied: true }, { status: 403 });
  }
  return user;
}
