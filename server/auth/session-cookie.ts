/**
 * The names of better-auth's cookies, written once: auth.ts configures better-auth with the
 * prefix, the page cache recognises a signed-in visitor by the session cookie, and the tests
 * sign in with it.
 */

/** better-auth names its cookies `gb.<name>`, and `__Secure-gb.<name>` when it marks them Secure (production). */
export const AUTH_COOKIE_PREFIX = 'gb';

/** The session cookie as better-auth names it over plain HTTP (development, tests). */
export const SESSION_COOKIE_NAME = `${AUTH_COOKIE_PREFIX}.session_token`;

const SESSION_COOKIE_PATTERN = new RegExp(`(^|;\\s*)(__Secure-)?${SESSION_COOKIE_NAME.replaceAll('.', '\\.')}=`);

/** A Cookie header that carries a session cookie, under either of its names. */
export function hasSessionCookie(cookieHeader: string): boolean {
  return SESSION_COOKIE_PATTERN.test(cookieHeader);
}
