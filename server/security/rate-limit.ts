import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';

/**
 * Fixed-window rate limits kept in the database (table rate_limit_hits), so every app
 * instance behind a load balancer counts against the same limit. One atomic upsert per hit:
 * no read-then-write race, on SQLite and on PostgreSQL alike.
 */

export type RateLimitPolicy = { limit: number; windowMs: number };

export type RateLimitResult = {
  /** Whether this hit is within the limit. */
  allowed: boolean;
  /** Hits left in the current window after this one. */
  remaining: number;
  /** 0 when allowed; otherwise whole seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number;
};

const minute = 60_000;
const hour = 60 * minute;

/**
 * The limits the app applies. Key each one by what is being protected plus who is asking
 * (for example `signIn:${addressKey(ip)}:${email}`), never by the address alone where that
 * can be avoided: Indian mobile carriers put thousands of subscribers behind one carrier-grade
 * NAT address, so a tight per-address limit locks out strangers who share it.
 */
export const rateLimits = {
  /**
   * Failed password sign-ins per address (both sign-in pages together) and per address and
   * account on /login (server/auth/sign-in-limits.ts). Ten tries in 15 minutes covers a
   * person who has forgotten which password they used; one address gets 40 guesses an hour.
   */
  signIn: { limit: 10, windowMs: 15 * minute },
  /**
   * Account creation, per address. Each sign-up sends a verification mail, which costs money
   * and sender reputation; five an hour is more than a household needs, and the bot check
   * sits in front of it too.
   */
  signUp: { limit: 5, windowMs: hour },
  /**
   * Sending a phone OTP, per user, per address and per destination number (all three;
   * server/accounts/phone-verification.ts). Every SMS is paid for and SMS pumping fraud
   * targets exactly this endpoint; five an hour allows a few resends when an SMS is late, and
   * the per-number count stops many accounts from texting one phone (decision 060).
   */
  otpSend: { limit: 5, windowMs: hour },
  /**
   * Wrong OTPs per account and per phone number, from any address (decision 060). A 6-digit
   * code has a million values: ten wrong guesses an hour (on top of five per code) makes
   * guessing hopeless, and the window ends, so the owner is never shut out for good.
   */
  otpFailures: { limit: 10, windowMs: hour },
  /**
   * The "request a vehicle" and "sell your car" forms, per address. They create leads the
   * staff read by hand and may carry photos; ten an hour is far beyond a real visitor even
   * behind a shared carrier address, and stops a flood of junk leads.
   */
  publicForm: { limit: 10, windowMs: hour },
  /**
   * Booking, moving or cancelling a test drive, per person (signed in, verified phone). Each
   * booking sends a mail and an SMS; twenty changes an hour is far beyond a real buyer.
   */
  testDriveChange: { limit: 20, windowMs: hour },
  /**
   * New inspection bookings of a seller's car, per person (server/inspections/inspections.ts), on top
   * of the change limit above and the three upcoming a person may hold. A seller books one or
   * two; three an hour leaves room for a mistake and stops a cancel-and-book churn of slots and SMS.
   */
  inspectionBooking: { limit: 3, windowMs: hour },
  /**
   * Switching notifications on or off (server/notify/http/api-push.ts), per person. Each switch
   * writes a row the worker will post to; a person switches a few devices a day, thirty changes
   * an hour is far beyond that and keeps the table from being churned.
   */
  pushSubscriptionChange: { limit: 30, windowMs: hour },
  /**
   * Failed admin sign-ins per address and account. Admin accounts are few, high-value and
   * used by staff with saved passwords, so fewer tries are needed and fewer are allowed.
   */
  adminSignIn: { limit: 5, windowMs: 15 * minute },
  /**
   * Issuing bot-check challenges, per address. Issuing is cheap, but it should not be an
   * unmetered endpoint; a page asks for one challenge per form submission.
   */
  botChallenge: { limit: 60, windowMs: minute },
  /**
   * Following a link that better-auth answers (the verification mail's link, Google's
   * redirect back), per address. A person follows a handful; 30 in 15 minutes leaves room for
   * a shared office address while making token guessing pointless.
   */
  authLink: { limit: 30, windowMs: 15 * minute },
  /**
   * Reading the session as JSON (`/api/auth/get-session`), per address. Cheap, but not
   * unmetered; the pages read the session on the server and never call it.
   */
  sessionRead: { limit: 600, windowMs: minute },
  /**
   * Failed password sign-ins on one account from anywhere (docs/decisions/009). Past this a
   * sign-in needs a solved bot check or a device that signed in to the account before: it
   * slows guessing from many addresses without letting a stranger lock the owner out.
   */
  signInPerAccount: { limit: 10, windowMs: 15 * minute },
  /**
   * Failed password sign-ins on a staff account (the admin login, or an address on the admin
   * allow-list on any sign-in page) from anywhere, before a device that never signed in to it
   * waits between tries (docs/decisions/094): a proof of work per address did not stop guessing
   * from many addresses. Ten is the public sign-in's "under attack" mark; counted over an hour.
   */
  staffSignInSlowdown: { limit: 10, windowMs: hour },
  /**
   * Refused calls to a provider's webhook (a bad signature, a wrong verify token), per address
   * (decision 125). Meta's own calls are signed and never counted: it posts in bursts from many
   * addresses and takes a refusal as a failure to retry. Thirty mistakes in 15 minutes is a
   * misconfigured secret or someone probing; past it they are answered 429 without more work.
   */
  webhookRefusals: { limit: 30, windowMs: 15 * minute },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitName = keyof typeof rateLimits;

/** The longest window above: rows older than this can be pruned safely. */
export const longestRateLimitWindowMs = Math.max(...Object.values(rateLimits).map((policy) => policy.windowMs));

/**
 * Counts one hit against `key` and tells whether it is allowed. The window starts at the
 * first hit after the previous window has ended and lasts `windowMs`; hits refused within a
 * window still count, so hammering does not open the door sooner.
 */
export async function consumeRateLimit(database: Database, options: { key: string; limit: number; windowMs: number; now: number }): Promise<RateLimitResult> {
  const { key, limit, windowMs } = options;
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`Rate limit must be a non-negative integer, got ${limit}`);
  if (!Number.isInteger(windowMs) || windowMs <= 0) throw new Error(`Rate-limit window must be a positive integer of ms, got ${windowMs}`);
  const now = Math.floor(options.now);
  const expiredBefore = now - windowMs;

  const row = await database.db
    .insertInto('rate_limit_hits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql<number>`CASE WHEN rate_limit_hits.window_start <= ${expiredBefore} THEN 1 ELSE rate_limit_hits.count + 1 END`,
        window_start: sql<number>`CASE WHEN rate_limit_hits.window_start <= ${expiredBefore} THEN ${now} ELSE rate_limit_hits.window_start END`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();

  const count = Number(row.count);
  const windowStart = Number(row.window_start);
  const allowed = count <= limit;
  return {
    allowed,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  };
}

/**
 * Hits counted against `key` in its current window, without counting one: for limits that
 * only count failures and must be read before the attempt.
 */
export async function peekRateLimit(database: Database, options: { key: string; windowMs: number; now: number }): Promise<number> {
  const now = Math.floor(options.now);
  const row = await database.db.selectFrom('rate_limit_hits').select(['count', 'window_start']).where('key', '=', options.key).executeTakeFirst();
  if (!row || Number(row.window_start) <= now - options.windowMs) return 0;
  return Number(row.count);
}

/**
 * Gives back one hit taken by `consumeRateLimit` (never below zero): a limit that reserves a
 * slot before an attempt, so parallel requests cannot all slip past, and returns it when the
 * attempt turns out not to count (a successful sign-in).
 */
export async function refundRateLimit(database: Database, key: string): Promise<void> {
  await database.db
    .updateTable('rate_limit_hits')
    .set({ count: sql<number>`CASE WHEN count > 0 THEN count - 1 ELSE 0 END` })
    .where('key', '=', key)
    .execute();
}

/** Convenience over a named policy: `consumeNamedRateLimit(db, 'signIn', key)`. */
export function consumeNamedRateLimit(database: Database, name: RateLimitName, key: string, now: number) {
  return consumeRateLimit(database, { key: `${name}:${key}`, ...rateLimits[name], now });
}

/**
 * Deletes counters whose window started more than `olderThanMs` ago (pass at least the
 * longest window in use, e.g. `longestRateLimitWindowMs`). Run it now and then; it returns
 * the number of rows removed.
 */
export async function pruneRateLimits(database: Database, olderThanMs: number, now: number): Promise<number> {
  const result = await database.db
    .deleteFrom('rate_limit_hits')
    .where('window_start', '<', Math.floor(now - olderThanMs))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The address of the client. `x-forwarded-for` is only believed when the app runs behind
 * proxies we operate (`trustProxy`): anyone can send that header, so trusting it otherwise
 * lets an attacker pick a fresh address per request and walk past every limit. Each trusted
 * proxy appends the address it received the connection from, so the client is the entry
 * `trustProxy` hops from the right (true means one proxy); entries further left were written
 * by the client and are ignored.
 */
export function clientAddress(headers: Headers, socketAddress: string | undefined, trustProxy: boolean | number): string | undefined {
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : Math.max(0, Math.floor(trustProxy));
  if (hops > 0) {
    const forwarded = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const candidate = forwarded[forwarded.length - hops];
    const parsed = candidate === undefined ? undefined : normaliseAddress(candidate);
    if (parsed) return parsed;
  }
  return socketAddress ? (normaliseAddress(socketAddress) ?? socketAddress) : undefined;
}

/**
 * The part of an address to count against: IPv4 as is, IPv6 by its /64 network, because
 * one subscriber (one phone on Jio or Airtel) gets a whole /64 and can rotate through it.
 * An unknown address shares one bucket, so a missing address cannot escape limits.
 */
export function addressKey(address: string | undefined): string {
  const normalised = address ? normaliseAddress(address) : undefined;
  if (!normalised) return 'unknown';
  if (isIP(normalised) === 4) return normalised;
  const groups = expandIpv6(normalised);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : normalised;
}

/** A bare IP address from a header or socket value, or undefined if it is not one. */
function normaliseAddress(value: string): string | undefined {
  let address = value.trim();
  // "[2001:db8::1]:443" and "203.0.113.7:51234" (some proxies add the port).
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/%.*$/, ''); // zone id
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  const version = isIP(address);
  if (version === 0) return undefined;
  return version === 6 ? address.toLowerCase() : address;
}

function expandIpv6(address: string): string[] | undefined {
  let text = address;
  // An embedded IPv4 tail ("64:ff9b::192.0.2.1") becomes two hex groups.
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? left.length !== 8 : missing < 0) return undefined;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  return groups.map((group) => (parseInt(group, 16) || 0).toString(16));
}
