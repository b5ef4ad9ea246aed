import type { AppServices } from '../services.ts';
import { forwardCookies } from '../auth/session.ts';
import { addAdminRecord, adminStatus, anyAdminExists, findAccountByEmail, isAllowListed } from '../auth/admins.ts';
import { adminPaths, isAdminPath, pageAddress } from '../../app/lib/paths.ts';
import { isPlausibleEmail, PASSWORD_LENGTH } from '../../app/lib/input.ts';
import { adminAuthText as t } from '../../app/features/admin/admin-auth-texts.ts';
import { liveTexts } from '../../app/lib/i18n/texts.ts';
import { withoutLanguage } from '../../app/lib/i18n/language.ts';

/**
 * SPEC 5 and 8, Admin login and first-admin setup: the spec's texts, each for its real condition
 * (app/features/admin/texts/en/adminAuth.json). Each is read when it is asked for, in the language of the
 * request being answered. An unknown address, one off the allow-list and a wrong password all get
 * `wrongPassword` (decision 060): the spec's "No account found" and "not authorized" told a
 * stranger which addresses are staff accounts.
 */
export const adminMessages = liveTexts(t, [
  'bothRequired',
  'invalidEmail',
  'notAuthorizedLogin',
  'notAuthorizedAdmin',
  'wrongPassword',
  'tooManyAttempts',
  'botCheckFailed',
  'networkError',
  'loginFailed',
  'unverified',
  'noAdminRecord',
  'passwordTooShort',
  'passwordTooLong',
  'adminCreated',
  'alreadyRegistered',
  'setupClosed',
]);

/**
 * Where to go after sign-in: only our own admin pages (no open redirect), as the page itself.
 * The admin guard may have been reached by a data request (`/admin/settings.data?_routes=…`);
 * its suffix and React Router's own query parameters are dropped so the admin lands on the page.
 */
export function adminPathAfterSignIn(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return adminPaths.dashboard;
  let url: URL;
  try {
    url = new URL(value, 'http://admin.invalid');
  } catch {
    return adminPaths.dashboard;
  }
  if (url.origin !== 'http://admin.invalid') return adminPaths.dashboard;
  // The page the address is for (a data request's `.data` and `_routes` dropped), without its
  // language prefix: a Hindi page's address (`/hi/admin-panel/vehicles`) is the same admin page,
  // and the sign-in's language prefix comes back on the redirect.
  url = new URL(pageAddress(url), url.origin);
  let pathname = withoutLanguage(url.pathname);
  if (pathname === '/_root') pathname = '/';
  pathname = pathname.replace(/\/_index$/, '') || '/';
  url.searchParams.delete('index');
  if (!isAdminPath(pathname)) return adminPaths.dashboard;
  const search = url.searchParams.toString();
  return search ? `${pathname}?${search}` : pathname;
}

/** `passwordAccepted`: the password was right (the refusal is about admin status), so it was no guess. */
export type AdminFlowResult = { ok: true; headers: Headers } | { ok: false; message: string; headers?: Headers; passwordAccepted?: boolean };

/** Ends a session that was just opened, so a refused admin is signed out (SPEC 4, Admin login). */
async function revoke(services: AppServices, request: Request, issued: Headers): Promise<Headers> {
  const cookie = issued
    .getSetCookie()
    .map((entry) => entry.split(';')[0])
    .join('; ');
  const response = await services.auth.api.signOut({ headers: new Headers({ cookie, origin: new URL(request.url).origin }), asResponse: true });
  return forwardCookies(response.headers);
}

export async function adminSignIn(services: AppServices, request: Request, input: { email: string; password: string }): Promise<AdminFlowResult> {
  const email = input.email.trim().toLowerCase();
  if (!email || !input.password) return { ok: false, message: adminMessages.bothRequired };
  if (!isPlausibleEmail(email)) return { ok: false, message: adminMessages.invalidEmail };
  if (!isAllowListed(services.config, email) || !(await findAccountByEmail(services.database, email))) {
    // As long as a real password check takes, so the time of the answer does not tell either.
    await (await services.auth.$context).password.hash(input.password);
    return { ok: false, message: adminMessages.wrongPassword };
  }

  const response = await services.auth.api.signInEmail({ body: { email, password: input.password }, headers: request.headers, asResponse: true });
  if (!response.ok) {
    if (response.status === 429) return { ok: false, message: adminMessages.tooManyAttempts };
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    if (body.code === 'INVALID_EMAIL_OR_PASSWORD') return { ok: false, message: adminMessages.wrongPassword };
    services.logger.warn({ code: body.code, status: response.status }, 'admin sign-in refused');
    return { ok: false, message: body.message || adminMessages.loginFailed };
  }
  const issued = forwardCookies(response.headers);
  const account = await findAccountByEmail(services.database, email);
  const status = await adminStatus(services.config, services.database, { email, emailVerified: Boolean(account?.emailVerified) });
  if (status === 'admin') return { ok: true, headers: issued };
  const message =
    status === 'email-unverified' ? adminMessages.unverified : status === 'no-admin-record' ? adminMessages.noAdminRecord : adminMessages.notAuthorizedLogin;
  return { ok: false, message, headers: await revoke(services, request, issued), passwordAccepted: true };
}

/**
 * Creates an admin account: allow-listed email, password of 6 or more, a verification mail,
 * and the admin record. The new account is not signed in: it must verify its email first.
 */
export async function createAdminAccount(
  services: AppServices,
  request: Request,
  input: { email: string; password: string; createdBy: string | null },
): Promise<{ ok: true } | { ok: false; message: string }> {
  const email = input.email.trim().toLowerCase();
  if (!email || !input.password) return { ok: false, message: adminMessages.bothRequired };
  if (!isPlausibleEmail(email)) return { ok: false, message: adminMessages.invalidEmail };
  if (!isAllowListed(services.config, email)) return { ok: false, message: adminMessages.notAuthorizedAdmin };
  if (input.password.length < PASSWORD_LENGTH.min) return { ok: false, message: adminMessages.passwordTooShort };
  if (input.password.length > PASSWORD_LENGTH.max) return { ok: false, message: adminMessages.passwordTooLong };

  const existing = await findAccountByEmail(services.database, email);
  if (existing?.emailVerified) return { ok: false, message: adminMessages.alreadyRegistered };
  // An unverified account on an allow-listed address was never proven to be the manager's (a
  // stranger may have squatted it): the admin being created takes the address over, and the
  // old account and its sessions go (docs/decisions/010).
  if (existing) await removeUnverifiedAccount(services, existing.id);
  // No request headers: the new account's session cookie must not reach the person creating it.
  const response = await services.auth.api.signUpEmail({
    body: { email, password: input.password, name: '', callbackURL: adminPaths.login },
    headers: new Headers({ origin: new URL(request.url).origin }),
    asResponse: true,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    if (body.code?.startsWith('USER_ALREADY_EXISTS')) return { ok: false, message: adminMessages.alreadyRegistered };
    return { ok: false, message: body.message || t('createFailed') };
  }
  await addAdminRecord(services.database, email, input.createdBy, services.clock.now());
  return { ok: true };
}

/** First-admin setup: only while no admin exists (SPEC 6). */
export async function setupFirstAdmin(services: AppServices, request: Request, input: { email: string; password: string }) {
  if (await anyAdminExists(services.database)) return { ok: false as const, message: adminMessages.setupClosed };
  return createAdminAccount(services, request, { ...input, createdBy: null });
}

/** Deletes an unverified account with its sessions, sign-in methods and our per-user rows. */
async function removeUnverifiedAccount(services: AppServices, userId: string): Promise<void> {
  const { db } = services.database;
  await db.deleteFrom('wishlist_entries').where('user_id', '=', userId).execute();
  await db.deleteFrom('phone_otps').where('user_id', '=', userId).execute();
  await db.deleteFrom('profiles').where('user_id', '=', userId).execute();
  const context = await services.auth.$context;
  await context.internalAdapter.deleteUser(userId);
  services.logger.warn({ userId }, 'unverified account on an admin address removed for the new admin');
}
