import type { AppServices } from '../services.ts';
import { isPlausibleEmail, PASSWORD_LENGTH } from '../../app/lib/input.ts';
import { openSignInGate, signInLimitDeps } from './sign-in-limits.ts';
import { chooseLanguage, languageChoiceOf, pathAfterSignIn, recordLogin, saveLanguageChoice } from '../accounts/profiles.ts';
import { languageCookie } from '../http/language-choice.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import { liveTexts } from '../../app/lib/i18n/texts.ts';
import { languageFromCookie } from '../../app/lib/i18n/language.ts';
import { isAllowListed } from './admins.ts';
import { AFTER_SIGN_IN_PATH, EMAIL_VERIFIED_PATH } from './auth.ts';
import { currentUser, forwardCookies } from './session.ts';
import { paths } from '../../app/lib/paths.ts';
import { authText as t } from '../../app/features/auth/auth-texts.ts';

/**
 * The sign-up, sign-in, Google and sign-out steps the pages run, on top of better-auth's API.
 * Each returns either the cookies and the next path, or the message the spec gives for what
 * went wrong (SPEC 8), so routes stay thin.
 */

export type FlowResult = { ok: true; headers: Headers; redirectTo: string } | { ok: false; message: string };

/** The messages of sign-up and sign-in, read in the language of the request being answered. */
export const messages = liveTexts(t, [
  'emailInUse',
  'staffAddress',
  'invalidEmail',
  'weakPassword',
  'signUpFailed',
  'invalidCredentials',
  'tooManyAttempts',
  'botCheckFailed',
  'loginCancelled',
  'googleFailed',
  'googleUnavailable',
  'accountExists',
]);

async function errorCode(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { code?: string };
    return body.code ?? '';
  } catch {
    return '';
  }
}

async function emailRegistered(services: AppServices, email: string): Promise<boolean> {
  const row = await services.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
  return Boolean(row);
}

/** The page's sign-up has no name (the profile asks for it); the app's may send one. */
export async function signUpWithEmail(services: AppServices, request: Request, input: { email: string; password: string; name?: string }): Promise<FlowResult> {
  const email = input.email.trim().toLowerCase();
  if (!isPlausibleEmail(email)) return { ok: false, message: messages.invalidEmail };
  if (input.password.length < PASSWORD_LENGTH.min || input.password.length > PASSWORD_LENGTH.max) return { ok: false, message: messages.weakPassword };
  // An allow-listed address is only ever created as an admin (/setup-admin, /admin/register-admin),
  // so a stranger cannot squat it before the real manager arrives (docs/decisions/010).
  if (isAllowListed(services.config, email)) return { ok: false, message: messages.staffAddress };
  const response = await services.auth.api.signUpEmail({
    body: { email, password: input.password, name: input.name ?? '', callbackURL: EMAIL_VERIFIED_PATH },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) {
    const code = await errorCode(response);
    if (code.startsWith('USER_ALREADY_EXISTS')) return { ok: false, message: messages.emailInUse };
    if (code === 'INVALID_EMAIL') return { ok: false, message: messages.invalidEmail };
    if (code === 'PASSWORD_TOO_SHORT' || code === 'PASSWORD_TOO_LONG') return { ok: false, message: messages.weakPassword };
    // Two sign-ups of one address at the same moment: better-auth's check passes for both and
    // the database's unique index refuses the second. To the person it is an address in use.
    if (code === 'FAILED_TO_CREATE_USER' && (await emailRegistered(services, email))) return { ok: false, message: messages.emailInUse };
    services.logger.warn({ code, status: response.status }, 'sign-up refused');
    return { ok: false, message: messages.signUpFailed };
  }
  return { ok: true, headers: forwardCookies(response.headers), redirectTo: paths.profileComplete };
}

/** Signs in, records the login on the profile and picks the next page by completeness. */
export type PasswordSignIn =
  | { ok: true; headers: Headers; redirectTo: string; userId?: string }
  | { ok: false; reason: 'invalid-email' | 'invalid-credentials' | 'bot-check' | 'rate-limited'; message: string; retryAfterSeconds?: number };

/**
 * Signing in with email and password, for the login page and the app's API alike, in the order
 * that keeps the limits honest: a form that never reaches a password check is not a try
 * (decision 009), then the bot check, then the failed-tries gate per address and account
 * (decision 094), then the password. `address` is the client's, as the limits count it.
 */
export async function signInWithPassword(
  services: AppServices,
  request: Request,
  input: { email: string; password: string; botCheck: string; address: string },
): Promise<PasswordSignIn> {
  const email = input.email.trim().toLowerCase();
  if (!isPlausibleEmail(email)) return { ok: false, reason: 'invalid-email', message: messages.invalidEmail };
  if (!input.password || input.password.length > PASSWORD_LENGTH.max) return { ok: false, reason: 'invalid-credentials', message: messages.invalidCredentials };
  if (!(await services.botCheck.verify(input.botCheck, 'LOGIN', input.address))) return { ok: false, reason: 'bot-check', message: messages.botCheckFailed };
  const gate = await openSignInGate(signInLimitDeps(services), { page: 'login', address: input.address, email, cookieHeader: request.headers.get('cookie') });
  if (!gate.allowed) return { ok: false, reason: 'rate-limited', message: messages.tooManyAttempts, retryAfterSeconds: gate.retryAfterSeconds };
  const result = await signInWithEmail(services, request, { email, password: input.password });
  if (!result.ok) {
    await gate.failed();
    return { ok: false, reason: 'invalid-credentials', message: result.message };
  }
  return {
    ok: true,
    headers: forwardCookies(await gate.succeeded(), result.headers),
    redirectTo: result.redirectTo,
    ...(result.userId ? { userId: result.userId } : {}),
  };
}

async function signInWithEmail(services: AppServices, request: Request, input: { email: string; password: string }): Promise<FlowResult & { userId?: string }> {
  const email = input.email.trim().toLowerCase();
  if (!isPlausibleEmail(email)) return { ok: false, message: messages.invalidEmail };
  const response = await services.auth.api.signInEmail({
    body: { email, password: input.password, rememberMe: true },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) {
    const code = await errorCode(response);
    if (response.status === 429) return { ok: false, message: messages.tooManyAttempts };
    if (code !== 'INVALID_EMAIL_OR_PASSWORD') services.logger.warn({ code, status: response.status }, 'sign-in refused');
    return { ok: false, message: messages.invalidCredentials };
  }
  const headers = forwardCookies(response.headers);
  // The session cookie was only just issued: read the user through it.
  const sessionRequest = new Request(request.url, {
    headers: {
      cookie: headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    },
  });
  const user = await currentUser(services.auth, sessionRequest);
  if (!user) return { ok: false, message: messages.invalidCredentials };
  let redirectTo: string = paths.home;
  try {
    const profile = await recordLogin(services.database, user, services.clock.now());
    redirectTo = pathAfterSignIn(user, profile);
  } catch (error) {
    // SPEC 2, Login: if reading the profile fails, go to /.
    services.logger.error({ err: error }, 'profile could not be read after sign-in');
  }
  return { ok: true, headers, redirectTo, userId: user.id };
}

/**
 * Starts Google sign-in by redirect (popups fail on phones). When someone is already signed
 * in, the Google account is linked to them instead (SPEC 2, Login). `redirectTo` (a path
 * already checked by localRedirect) rides through Google on /auth/continue's query, so a
 * booking that asked for sign-in gets its visitor back.
 */
export async function startGoogle(services: AppServices, request: Request, options: { errorPath: string; redirectTo?: string | null }): Promise<FlowResult> {
  if (!services.config.google) return { ok: false, message: messages.googleUnavailable };
  const signedIn = await currentUser(services.auth, request);
  const afterSignIn = options.redirectTo ? `${AFTER_SIGN_IN_PATH}?redirectTo=${encodeURIComponent(options.redirectTo)}` : AFTER_SIGN_IN_PATH;
  const response = signedIn
    ? await services.auth.api.linkSocialAccount({
        body: { provider: 'google', callbackURL: `${paths.profile}?linked=google`, errorCallbackURL: options.errorPath, disableRedirect: true },
        headers: request.headers,
        asResponse: true,
      })
    : await services.auth.api.signInSocial({
        body: {
          provider: 'google',
          callbackURL: afterSignIn,
          newUserCallbackURL: afterSignIn,
          errorCallbackURL: options.errorPath,
          disableRedirect: true,
        },
        headers: request.headers,
        asResponse: true,
      });
  if (!response.ok) {
    services.logger.warn({ status: response.status, code: await errorCode(response) }, 'Google sign-in could not start');
    return { ok: false, message: messages.googleFailed };
  }
  const body = (await response.json()) as { url?: string };
  if (!body.url) return { ok: false, message: messages.googleFailed };
  return { ok: true, headers: forwardCookies(response.headers), redirectTo: body.url };
}

/** What the error Google's redirect brings back means to the person (SPEC 8, Social-account login). */
export function googleErrorMessage(error: string | null): string | null {
  if (!error) return null;
  if (error === 'access_denied' || error === 'consent_required' || error === 'interaction_required') return messages.loginCancelled;
  if (error === 'account_not_linked' || error === 'account_already_linked_to_different_user' || error === 'unable_to_link_account') {
    return messages.accountExists;
  }
  return messages.googleFailed;
}

/**
 * The person's language choice, as the `lang` cookie for a site sign-in (decision 087): signing
 * in on a new phone brings their language with them. Null when they never chose one, or the
 * browser already carries a choice of its own (that one is newer). Never fails a sign-in.
 */
export async function languageCookieAtSignIn(services: AppServices, request: Request, userId: string): Promise<string | null> {
  const chosenHere = languageFromCookie(request.headers.get('cookie'));
  if (chosenHere) {
    // A choice made with the switch on this phone before signing in becomes the account's when
    // it has none yet (a Google sign-up made from a Hindi page, say), for its other devices.
    try {
      if ((await languageChoiceOf(services.database, userId)) === null) await saveLanguageChoice(services.database, userId, chosenHere);
    } catch (error) {
      services.logger.warn({ err: error }, 'language choice could not be saved at sign-in');
    }
    return null;
  }
  try {
    const language = await languageChoiceOf(services.database, userId);
    return language ? languageCookie(language, services.config) : null;
  } catch (error) {
    services.logger.warn({ err: error }, 'language choice could not be read at sign-in');
    return null;
  }
}

/** Signed up on a Hindi page: Hindi is their choice from now on, on every device. Never fails a sign-up. */
export async function rememberSignUpLanguage(services: AppServices, email: string): Promise<void> {
  const language = currentLanguage();
  if (language !== 'hi') return;
  try {
    const user = await services.database.db
      .selectFrom('user')
      .select(['id', 'email', 'name', 'emailVerified', 'createdAt'])
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (!user) return;
    // The profile is made at the first sign-in otherwise; the choice needs its row now.
    await chooseLanguage(services.database, { ...user, emailVerified: Boolean(user.emailVerified) }, language, services.clock.now());
  } catch (error) {
    services.logger.warn({ err: error }, 'language choice could not be saved at sign-up');
  }
}

export async function signOut(services: AppServices, request: Request): Promise<Headers> {
  const response = await services.auth.api.signOut({ headers: request.headers, asResponse: true });
  return forwardCookies(response.headers);
}
