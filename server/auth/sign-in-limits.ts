import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/connection.ts';
import { AUTH_COOKIE_PREFIX } from './session-cookie.ts';
import { consumeRateLimit, peekRateLimit, rateLimits, refundRateLimit } from '../security/rate-limit.ts';
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
 * - A staff account (the admin login, or an address on the admin allow-list on any page), from
 *   anywhere: past 10 failures in the hour, a device that never signed in to it waits between
 *   tries, 30 seconds after the 10th failure, doubling with each further one up to 15 minutes
 *   (docs/decisions/094). Many addresses each with a solved bot check then get a few guesses an
 *   hour instead of one each; the owner's own device is never slowed, and any device gets its
 *   turn within 15 minutes.
 */

export const KNOWN_DEVICE_COOKIE = `${AUTH_COOKIE_PREFIX}.known_device`;
/** How many accounts one device remembers (a family or office computer). */
const maxKnownAccounts = 5;
const knownDeviceMaxAgeSeconds = 180 * 24 * 60 * 60;
/** Tries per address on an account under attack, for a device that is not known to it. */
export const underAttackTriesPerAddress = 3;

/** The wait before the next try on a slowed staff account, after its first failure past the limit, and the longest wait. */
export const SLOWDOWN_FIRST_WAIT_MS = 30_000;
export const SLOWDOWN_LONGEST_WAIT_MS = 15 * 60_000;

export type SignInLimitDeps = {
  database: Database;
  clock: Clock;
  secret: string;
  secureCookies: boolean;
  /** Whether an address is a staff account's (on the admin allow-list): its sign-ins are slowed on every page. */
  isStaff: (email: string) => boolean;
};

export type SignInGate =
  | {
      allowed: false;
      retryAfterSeconds: number;
      /** `account-slowed`: the staff account's wait between tries (the page can say how long); otherwise a count ran out. */
      reason?: 'account-slowed';
    }
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
  const underAttack =
    (await peekRateLimit(database, { key: accountKey, windowMs: rateLimits.signInPerAccount.windowMs, now: clock.now() })) >= rateLimits.signInPerAccount.limit;
  const known = underAttack && isKnownDevice(deps.secret, input.cookieHeader, email);
  const pairLimit = underAttack && !known ? Math.min(underAttackTriesPerAddress, pairPolicy.limit) : pairPolicy.limit;
  const byPair = await consumeRateLimit(database, { key: pairKey, limit: pairLimit, windowMs: pairPolicy.windowMs, now: clock.now() });
  if (!byPair.allowed) {
    // Not a try: the address slot goes back, so one busy account does not use up the address.
    await refundRateLimit(database, addressKey);
    return { allowed: false, retryAfterSeconds: byPair.retryAfterSeconds };
  }

  const staff = input.page === 'admin-login' || deps.isStaff(email);
  if (staff && !(known || isKnownDevice(deps.secret, input.cookieHeader, email))) {
    const turn = await takeStaffTurn(database, email, clock.now());
    if (!turn.allowed) {
      // Not a try either: both slots go back.
      await refundRateLimit(database, addressKey);
      await refundRateLimit(database, pairKey);
      return { allowed: false, retryAfterSeconds: turn.retryAfterSeconds, reason: 'account-slowed' };
    }
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
      if (staff) await recordStaffFailure(database, email, clock.now());
    },
  };
}

const staffFailuresKey = (email: string) => `staff-sign-in-failures:${email}`;
/** The staff account's last try, as the window start of its own row (its count is not read). */
const staffLastTryKey = (email: string) => `staff-sign-in-last:${email}`;

/** How long a try on a staff account with `failures` in the hour waits after the one before: 0 within the limit. */
export function staffSlowdownMs(failures: number): number {
  const past = failures - rateLimits.staffSignInSlowdown.limit;
  if (past < 0) return 0;
  return Math.min(SLOWDOWN_FIRST_WAIT_MS * 2 ** Math.min(past, 30), SLOWDOWN_LONGEST_WAIT_MS);
}

/**
 * A try on a staff account from a device unknown to it: allowed within the limit; past it,
 * only once the wait since the last try has passed, and then taken in one conditional update
 * (the last try becomes now), so guesses sent at once get one turn between them.
 */
async function takeStaffTurn(database: Database, email: string, now: number): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const failures = await peekRateLimit(database, { key: staffFailuresKey(email), windowMs: rateLimits.staffSignInSlowdown.windowMs, now });
  const waitMs = staffSlowdownMs(failures);
  if (waitMs === 0) return { allowed: true };
  const key = staffLastTryKey(email);
  const taken = await database.db
    .updateTable('rate_limit_hits')
    .set({ window_start: now })
    .where('key', '=', key)
    .where('window_start', '<=', now - waitMs)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) > 0) return { allowed: true };
  const last = await database.db.selectFrom('rate_limit_hits').select('window_start').where('key', '=', key).executeTakeFirst();
  // Every failure keeps its time, so a missing row is one pruned with the hour's count: no wait.
  if (!last) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(last.window_start) + waitMs - now) / 1000)) };
}

/** A failed try on a staff account: counted for the hour, and its time kept as the last try the wait runs from. */
async function recordStaffFailure(database: Database, email: string, now: number): Promise<void> {
  await consumeRateLimit(database, { key: staffFailuresKey(email), ...rateLimits.staffSignInSlowdown, now });
  await database.db
    .insertInto('rate_limit_hits')
    .values({ key: staffLastTryKey(email), window_start: now, count: 1 })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ window_start: now }))
    .execute();
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
export function signInLimitDeps(services: {
  database: Database;
  clock: Clock;
  config: { authSecret: string; mode: string; adminEmails: readonly string[] };
}): SignInLimitDeps {
  const { config } = services;
  return {
    database: services.database,
    clock: services.clock,
    secret: config.authSecret,
    secureCookies: config.mode === 'production',
    isStaff: (email) => config.adminEmails.includes(email.trim().toLowerCase()),
  };
}
