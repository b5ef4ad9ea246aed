import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/connection.ts';
import { AUTH_COOKIE_PREFIX } from '../auth/session-cookie.ts';
import { consumeRateLimit, peekRateLimit, rateLimits, refundRateLimit } from './rate-limit.ts';
import type { Clock } from '../clock.ts';

/**
 * The limits on password sign-in, for /login and /admin-login alike (docs/decisions/009).
 *
 * - Only failures count: a slot is reserved per address and per address+account before the
 *   password is checked (so parallel guesses cannot all slip through) and given back when the
 *   password was right. Forms that never reach a password check are not counted at all.
 * - Per address: 10 tries in 15 minutes over both pages together, then "Too many attempts".
 * - Per address and account: 10 (5 for the admin login).
 * - Per account, from anywhere: nothing is ever locked. Once an account has had 10 failures
 *   in 15 minutes it is "under attack", and an unknown device gets only 3 tries per address on
 *   it; a device that signed in to that account before (the signed known-device cookie) keeps
 *   its full allowance. A stranger can thus slow guessing on the account but never shut out
 *   its owner, who also always has a solved bot check (every sign-in form carries one).
 */

export const KNOWN_DEVICE_COOKIE = `${AUTH_COOKIE_PREFIX}.known_device`;
/** How many accounts one device remembers (a family or office computer). */
const maxKnownAccounts = 5;
const knownDeviceMaxAgeSeconds = 180 * 24 * 60 * 60;
/** Tries per address on an account under attack, for a device that is not known to it. */
export const underAttackTriesPerAddress = 3;

export type SignInLimitDeps = { database: Database; clock: Clock; secret: string; secureCookies: boolean };

export type SignInGate =
  | { allowed: false; retryAfterSeconds: number }
  | {
      allowed: true;
      /** The password was right: give the reserved slots back; returns the known-device cookie to set. */
      succeeded: () => Promise<Headers>;
      /** The password (or account) was wrong: the reserved slots stay used and the account counts a failure. */
      failed: () => Promise<void>;
    };

/** Reserves one password try for `email` from `address`, or refuses it. */
export async function openSignInGate(
  deps: SignInLimitDeps,
  input: { page: 'login' | 'admin-login'; address: string; email: string; cookieHeader: string | null },
): Promise<SignInGate> {
  const { database, clock } = deps;
  const email = input.email.trim().toLowerCase();
  const addressKey = `sign-in:${input.address}`;
  const pairKey = `sign-in:${input.address}:${email}`;
  const accountKey = `sign-in-failures:${email}`;

  const byAddress = await consumeRateLimit(database, { key: addressKey, ...rateLimits.signIn, now: clock.now() });
  if (!byAddress.allowed) return { allowed: false, retryAfterSeconds: byAddress.retryAfterSeconds };

  const pairPolicy = input.page === 'admin-login' ? rateLimits.adminSignIn : rateLimits.signIn;
  const underAttack = (await peekRateLimit(database, { key: accountKey, windowMs: rateLimits.signInPerAccount.windowMs, now: clock.now() })) >= rateLimits.signInPerAccount.limit;
  const known = underAttack && isKnownDevice(deps.secret, input.cookieHeader, email);
  const pairLimit = underAttack && !known ? Math.min(underAttackTriesPerAddress, pairPolicy.limit) : pairPolicy.limit;
  const byPair = await consumeRateLimit(database, { key: pairKey, limit: pairLimit, windowMs: pairPolicy.windowMs, now: clock.now() });
  if (!byPair.allowed) {
    // Not a try: the address slot goes back, so one busy account does not use up the address.
    await refundRateLimit(database, addressKey);
    return { allowed: false, retryAfterSeconds: byPair.retryAfterSeconds };
  }

  return {
    allowed: true,
    succeeded: async () => {
      await refundRateLimit(database, addressKey);
      await refundRateLimit(database, pairKey);
      return knownDeviceCookie(deps, input.cookieHeader, email);
    },
    failed: async () => {
      await consumeRateLimit(database, { key: accountKey, ...rateLimits.signInPerAccount, now: clock.now() });
    },
  };
}

/** The tag that marks `email` as known on a device: an HMAC, so it cannot be made without the secret. */
function deviceTag(secret: string, email: string): string {
  return createHmac('sha256', secret).update(`gaadi-bazaar/known-device/v1:${email.trim().toLowerCase()}`).digest('base64url').slice(0, 22);
}

function readTags(cookieHeader: string | null): string[] {
  if (!cookieHeader) return [];
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === KNOWN_DEVICE_COOKIE) {
      return part
        .slice(at + 1)
        .trim()
        .split('.')
        .filter((tag) => /^[A-Za-z0-9_-]{22}$/.test(tag))
        .slice(0, maxKnownAccounts);
    }
  }
  return [];
}

/** Whether the request's known-device cookie vouches for `email`. */
export function isKnownDevice(secret: string, cookieHeader: string | null, email: string): boolean {
  const expected = Buffer.from(deviceTag(secret, email));
  return readTags(cookieHeader).some((tag) => {
    const given = Buffer.from(tag);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Set-Cookie for the known-device cookie with `email` added (newest first, a few accounts kept). */
export function knownDeviceCookie(deps: Pick<SignInLimitDeps, 'secret' | 'secureCookies'>, cookieHeader: string | null, email: string): Headers {
  const tag = deviceTag(deps.secret, email);
  const tags = [tag, ...readTags(cookieHeader).filter((existing) => existing !== tag)].slice(0, maxKnownAccounts);
  const attributes = [`Max-Age=${knownDeviceMaxAgeSeconds}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(deps.secureCookies ? ['Secure'] : [])];
  return new Headers([['Set-Cookie', `${KNOWN_DEVICE_COOKIE}=${tags.join('.')}; ${attributes.join('; ')}`]]);
}

/** The dependencies above from the app's services. */
export function signInLimitDeps(services: { database: Database; clock: Clock; config: { authSecret: string; mode: string } }): SignInLimitDeps {
  return { database: services.database, clock: services.clock, secret: services.config.authSecret, secureCookies: services.config.mode === 'production' };
}
