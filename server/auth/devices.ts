import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Auth } from './auth.ts';
import type { Database } from '../db/connection.ts';
import { consumeRateLimit } from '../security/rate-limit.ts';
import { authText as t } from '../../app/features/auth/auth-texts.ts';

/**
 * The signed-in devices of a person: one per better-auth session, the site's (cookie) and the
 * Android app's (bearer token) alike, for the profile page and `/api/v1/me/devices`
 * (decision 074). A device is named by an opaque id, a keyed hash of the session's id: it
 * names the row for revoking and nothing else, and it cannot be turned back into the session
 * or its token.
 */

export type DeviceKind = 'app' | 'site';

export type Device = {
  id: string;
  kind: DeviceKind;
  label: string;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
};

const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The opaque id of the session `sessionId`, under the site's secret. */
export function deviceId(secret: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`gaadi-bazaar/device/v1:${sessionId}`).digest('base64url').slice(0, 22);
}

/** Whether `value` is shaped like a device id (anything else is not found, whatever its size). */
export function isDeviceId(value: string): boolean {
  return DEVICE_ID_PATTERN.test(value);
}

const asDate = (value: string | Date | number): Date => (value instanceof Date ? value : new Date(value));

/** What a person recognises a device by, read from its user agent. */
export function deviceLabel(kind: DeviceKind, userAgent: string | null): string {
  const agent = userAgent ?? '';
  if (kind === 'app') return t('deviceAndroidApp');
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /OPR\//.test(agent)
      ? 'Opera'
      : /SamsungBrowser\//.test(agent)
        ? 'Samsung Internet'
        : /Firefox\//.test(agent)
          ? 'Firefox'
          : /Chrome\//.test(agent)
            ? 'Chrome'
            : /Safari\//.test(agent)
              ? 'Safari'
              : null;
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone/.test(agent)
      ? 'iPhone'
      : /iPad/.test(agent)
        ? 'iPad'
        : /Windows/.test(agent)
          ? 'Windows'
          : /Mac OS X|Macintosh/.test(agent)
            ? 'Mac'
            : /CrOS/.test(agent)
              ? 'Chromebook'
              : /Linux/.test(agent)
                ? 'Linux'
                : null;
  if (browser && system) return t('deviceBrowserOn', { browser, system });
  return browser ?? (system ? t('deviceABrowserOn', { system }) : t('deviceWebBrowser'));
}

type SessionRow = {
  id: string;
  token: string;
  kind: string | null;
  userAgent: string | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  expiresAt: string | Date;
};

async function liveSessions(database: Database, userId: string, now: number): Promise<SessionRow[]> {
  const rows = await database.db
    .selectFrom('session')
    .select(['id', 'token', 'kind', 'userAgent', 'createdAt', 'updatedAt', 'expiresAt'])
    .where('userId', '=', userId)
    .execute();
  // Expired rows wait for better-auth's clean-up: they sign nobody in, so they are not devices.
  return rows.filter((row) => asDate(row.expiresAt).getTime() > now);
}

/** The person's devices: the one asking first, then the most recently used. */
export async function listDevices(
  deps: { database: Database; secret: string; now: number },
  input: { userId: string; currentSessionId: string | null },
): Promise<Device[]> {
  const rows = await liveSessions(deps.database, input.userId, deps.now);
  return rows
    .map((row) => {
      const kind: DeviceKind = row.kind === 'app' ? 'app' : 'site';
      return {
        id: deviceId(deps.secret, row.id),
        kind,
        label: deviceLabel(kind, row.userAgent),
        createdAt: asDate(row.createdAt),
        lastSeenAt: asDate(row.updatedAt),
        current: row.id === input.currentSessionId,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime());
}

/**
 * Signs the device `id` of this person out at once (its cookie or token is refused from the
 * next request on). False when no such device of theirs exists: another person's device is
 * not found either, so nothing tells whether it exists.
 */
export async function revokeDevice(
  deps: { database: Database; auth: Auth; secret: string; now: number },
  input: { userId: string; id: string },
): Promise<boolean> {
  if (!isDeviceId(input.id)) return false;
  const wanted = Buffer.from(input.id);
  const rows = await liveSessions(deps.database, input.userId, deps.now);
  const row = rows.find((candidate) => timingSafeEqual(Buffer.from(deviceId(deps.secret, candidate.id)), wanted));
  if (!row) return false;
  const context = await deps.auth.$context;
  await context.internalAdapter.deleteSession(row.token);
  return true;
}

/**
 * Marks the session of a token just issued to the app as the app's, and reads its expiry.
 * `signedToken` is the session cookie's value (token.signature), as better-auth hands it out.
 */
export async function markAppSession(database: Database, signedToken: string): Promise<{ sessionId: string; expiresAt: Date } | null> {
  const token = signedToken.slice(0, signedToken.lastIndexOf('.'));
  if (!token) return null;
  const row = await database.db.updateTable('session').set({ kind: 'app' }).where('token', '=', token).returning(['id', 'expiresAt']).executeTakeFirst();
  return row ? { sessionId: row.id, expiresAt: asDate(row.expiresAt) } : null;
}

/**
 * Whether the session the email verification link just signed in with may stand: the first
 * made for that link does, and any other is deleted at once. better-auth reads "not verified
 * yet" before it verifies, so the same link sent several times at once made a session each
 * (decision 083). The claim is an atomic counter in the database, keyed by a hash of the link's
 * token, so it holds across instances. A later request with the link finds the address
 * verified, and better-auth makes no session then: the claim only has to outlive the burst.
 */
export async function keepFirstSessionOfLink(
  deps: { database: Database; auth: Auth; now: number },
  input: { linkToken: string; signedSessionToken: string },
): Promise<boolean> {
  const link = createHash('sha256').update(input.linkToken).digest('base64url');
  const claim = await consumeRateLimit(deps.database, { key: `verify-email-session:${link}`, limit: 1, windowMs: 15 * 60 * 1000, now: deps.now });
  if (claim.allowed) return true;
  const token = input.signedSessionToken.slice(0, input.signedSessionToken.lastIndexOf('.'));
  if (token) await (await deps.auth.$context).internalAdapter.deleteSession(token);
  return false;
}
