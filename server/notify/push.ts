import webpush from 'web-push';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Database } from '../db/connection.ts';
import type { AppServices } from '../services.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { pushText as t } from '../../app/features/notifications/push-texts.ts';
import { enqueue } from '../jobs/queue.ts';
import type { JobHandlers } from '../jobs/worker.ts';
import { recordOutboxMessage } from './outbox.ts';
import { vapidKeys } from './push-keys.ts';

/**
 * Notifications on the phone through Web Push (docs/decisions/124). A person switches them on per
 * device on their profile; the browser's push subscription is kept in `push_subscriptions`
 * (migration 048). `queuePush` writes one job per device in the transaction of the change the
 * notification is about, so a rolled-back change notifies nobody and a crash loses nothing
 * (decision 069); the worker encrypts the payload to the device (RFC 8291, by `web-push`), signs
 * the request with the site's VAPID key (RFC 8292) and posts it to the device's push service. A
 * push service that says the subscription is gone (404, 410) has its row deleted; a busy or
 * failing one (429, 5xx, no answer) is tried again by the queue.
 */

export const PUSH_JOB = 'push';
/** A person's devices with notifications on: phones, a laptop, the installed app; more is a stale list. */
export const MAX_PUSH_DEVICES = 10;
/** How long a push service keeps a notification for a phone that is off: a day, then it is old news. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** A push service that does not answer in this long is tried again later. */
const PUSH_TIMEOUT_MS = 15_000;
/** What the browser's key and secret decode to (RFC 8291: an uncompressed P-256 point, a 16-byte secret). */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;
/** The endpoint's length: push services give a few hundred characters. */
const MAX_ENDPOINT_LENGTH = 1000;

/**
 * The push services browsers use (FCM for Chrome, Edge-on-Android, Samsung Internet, Opera;
 * Mozilla's autopush; Apple's; Windows' WNS). In production a subscription must point at one of
 * them: the worker posts to the endpoint, and a made-up one would have the server post to any
 * address a signed-in person names. Demo and test accept any http(s) address (the tests' stand-in).
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'push.services.mozilla.com', 'push.apple.com', 'notify.windows.com'];

export type PushNotification = { title: string; body: string; url: string };

/** What a device receives and the service worker shows (pwa/sw.ts). */
export type PushPayload = PushNotification & { tag: string };

/** The bytes of a base64url text, or null when it is not base64url. */
function base64urlBytes(value: string): number | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value.replace(/=+$/, ''), 'base64url').length;
}

function isPushServiceHost(hostname: string): boolean {
  return PUSH_SERVICE_HOSTS.some((host) => hostname === host || hostname.endsWith(`.${host}`));
}

/**
 * The browser's `PushSubscription.toJSON()`: `{ endpoint, expirationTime, keys: { p256dh, auth } }`.
 * `production`: only https addresses of the known push services.
 */
export function pushSubscriptionSchema(production: boolean) {
  return z.object({
    endpoint: z
      .string({ message: t('endpointInvalid') })
      .max(MAX_ENDPOINT_LENGTH, { message: t('endpointInvalid') })
      .superRefine((value, context) => {
        let url: URL;
        try {
          url = new URL(value);
        } catch {
          context.addIssue({ code: 'custom', message: t('endpointInvalid') });
          return;
        }
        const schemeAllowed = url.protocol === 'https:' || (!production && url.protocol === 'http:');
        if (!schemeAllowed || url.username || url.password) context.addIssue({ code: 'custom', message: t('endpointInvalid') });
        else if (production && !isPushServiceHost(url.hostname)) context.addIssue({ code: 'custom', message: t('endpointNotPushService') });
      })
      .meta({ description: "The push service's address for this device (https; the browser's `PushSubscription.endpoint`)." }),
    expirationTime: z.number().nullable().optional().meta({ description: 'As the browser gives it; not kept.' }),
    keys: z
      .object(
        {
          p256dh: z
            .string({ message: t('p256dhInvalid') })
            .refine((value) => base64urlBytes(value) === P256DH_BYTES, { message: t('p256dhInvalid') })
            .meta({ description: "The device's P-256 public key, base64url (65 bytes)." }),
          auth: z
            .string({ message: t('authInvalid') })
            .refine((value) => base64urlBytes(value) === AUTH_BYTES, { message: t('authInvalid') })
            .meta({ description: "The device's auth secret, base64url (16 bytes)." }),
        },
        { message: t('subscriptionInvalid') },
      )
      .meta({ description: 'The keys the payload is encrypted to (RFC 8291).' }),
  });
}

/** Switching one device off: the endpoint it was switched on with. */
export const pushEndpointSchema = z.object({
  endpoint: z
    .string({ message: t('endpointInvalid') })
    .min(1, { message: t('endpointInvalid') })
    .max(MAX_ENDPOINT_LENGTH, { message: t('endpointInvalid') })
    .meta({ description: "The device's `PushSubscription.endpoint`." }),
});

/**
 * `url` as a path on this site (`/profile#test-drives`), or null. A notification only ever opens
 * a page of the site: never another address, whatever a caller hands in.
 */
export function sameSitePath(url: string): string | null {
  if (!url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\') || /[\s\\]/.test(url)) return null;
  const base = 'https://site.invalid';
  try {
    const parsed = new URL(url, base);
    if (parsed.origin !== base) return null;
    return `${parsed.pathname}${parsed.search}${parsed.hash}`;
  } catch {
    return null;
  }
}

/** The outbox's recipient for a person's notifications (demo and test): their account, not a device. */
export function pushRecipient(userId: string): string {
  return `user:${userId}`;
}

export type PushServices = Pick<AppServices, 'config' | 'clock' | 'logger'>;

/**
 * Queues `notification` to every device of `userId` with notifications on, one job per device,
 * in `db` (the transaction of the change it is about). A url that is not a path of this site is
 * logged and nothing is queued: the change is worth more than its notification. `tag`: a
 * notification with the same tag replaces the one before on the device (by default its url: a
 * booking moved twice shows once).
 */
export async function queuePush(
  db: Kysely<DB>,
  services: PushServices,
  userId: string,
  notification: PushNotification,
  options: { tag?: string } = {},
): Promise<number> {
  const url = sameSitePath(notification.url);
  if (!url) {
    services.logger.warn('push: not queued, the url is not a path of this site');
    return 0;
  }
  const devices = await db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).orderBy('id').execute();
  if (devices.length === 0) return 0;
  const nowMs = services.clock.now();
  const payload: PushPayload = { title: notification.title.slice(0, 120), body: notification.body.slice(0, 400), url, tag: options.tag ?? url };
  if (services.config.outboxEnabled)
    await recordOutboxMessage(
      { db },
      { channel: 'push', recipient: pushRecipient(userId), subject: payload.title, body: `${payload.body}\n${new URL(url, services.config.siteOrigin).href}` },
      nowMs,
    );
  for (const device of devices) await enqueue(db, PUSH_JOB, { subscriptionId: device.id, ...payload } satisfies PushJob, { nowMs });
  return devices.length;
}

const pushJobSchema = z.object({ subscriptionId: z.int().positive(), title: z.string(), body: z.string(), url: z.string(), tag: z.string() });
type PushJob = z.infer<typeof pushJobSchema>;

/** Thrown for an answer worth trying again later (429, 5xx, no answer): the queue retries it. */
export class PushServiceBusy extends Error {}

/** The push service's origin, what the logs name: the rest of an endpoint identifies a device. */
function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'unknown';
  }
}

/**
 * Sends one queued notification to one device. The request is made by `web-push`
 * (`generateRequestDetails`: the aes128gcm payload and the VAPID Authorization header) and sent
 * with `fetch`, which has a timeout and speaks http to the tests' stand-in (web-push's own sender
 * speaks https only).
 */
async function sendToDevice(services: Pick<AppServices, 'config' | 'clock' | 'logger' | 'database'>, job: PushJob, counts?: PushCounts): Promise<void> {
  const { db } = services.database;
  const device = await db.selectFrom('push_subscriptions').selectAll().where('id', '=', job.subscriptionId).executeTakeFirst();
  // Switched off (or gone) since it was queued: nothing to send.
  if (!device) return;
  const keys = await vapidKeys(services);
  const payload: PushPayload = { title: job.title, body: job.body, url: job.url, tag: job.tag };
  const request = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(payload), {
    TTL: PUSH_TTL_SECONDS,
    urgency: 'normal',
    contentEncoding: 'aes128gcm',
    vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
  });
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  const service = serviceOf(device.endpoint);
  const failed = async () => {
    counts?.count('push', 'failed');
    await db
      .updateTable('push_subscriptions')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('id', '=', device.id)
      .execute();
  };
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
  } catch (error) {
    await failed();
    throw new PushServiceBusy(`push: ${service} did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  if (response.ok) {
    counts?.count('push', 'sent');
    await db
      .updateTable('push_subscriptions')
      .set({ last_sent_at: new Date(services.clock.now()).toISOString(), failures: 0 })
      .where('id', '=', device.id)
      .execute();
    return;
  }
  if (response.status === 404 || response.status === 410) {
    // The browser unsubscribed, the app was removed or the subscription expired: it never comes back.
    await db.deleteFrom('push_subscriptions').where('id', '=', device.id).execute();
    services.logger.info({ service, status: response.status }, 'push: the push service says the device is gone; its subscription was removed');
    return;
  }
  await failed();
  if (response.status === 429 || response.status >= 500) throw new PushServiceBusy(`push: ${service} answered ${response.status}; trying again later`);
  // 400, 401, 403 (a key pair that changed), 413: the same request would be refused again.
  services.logger.warn({ service, status: response.status }, 'push: the push service refused the notification; not tried again');
}

type PushCounts = { count: (channel: 'push', outcome: 'sent' | 'failed') => void };

/** The worker's side: the job kind `push` (server/jobs/registry.ts). */
export function pushHandlers(services: Pick<AppServices, 'config' | 'clock' | 'logger' | 'database'> & { metrics?: { messages: PushCounts } }): JobHandlers {
  return { [PUSH_JOB]: (payload) => sendToDevice(services, pushJobSchema.parse(payload), services.metrics?.messages) };
}

// ------------------------------------------------------------------------------------ devices

export type PushDevice = { endpoint: string; p256dh: string; auth: string };

export type PushSaveResult = { ok: true; created: boolean } | { ok: false; reason: 'too-many-devices' };

/**
 * Switches notifications on for one device, for `userId`. Keyed by the endpoint: the same device
 * switched on again (or by another person signing in on it) replaces its row, keys and owner
 * alike, so a shared phone notifies the person signed in last, never both. A person holds at
 * most MAX_PUSH_DEVICES; the check and the write are one transaction.
 */
export async function savePushSubscription(
  database: Database,
  input: { userId: string; device: PushDevice; language: Language; userAgent: string; nowMs: number },
): Promise<PushSaveResult> {
  return database.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('push_subscriptions').select(['id', 'user_id']).where('endpoint', '=', input.device.endpoint).executeTakeFirst();
    if (!existing || existing.user_id !== input.userId) {
      const counted = await trx
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', input.userId)
        .executeTakeFirstOrThrow();
      if (Number(counted.count) >= MAX_PUSH_DEVICES) return { ok: false, reason: 'too-many-devices' } as const;
    }
    const row = {
      user_id: input.userId,
      endpoint: input.device.endpoint,
      p256dh: input.device.p256dh,
      auth: input.device.auth,
      language: input.language,
      user_agent: input.userAgent.slice(0, 100),
      created_at: new Date(input.nowMs).toISOString(),
    };
    await trx
      .insertInto('push_subscriptions')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('endpoint').doUpdateSet({
          user_id: row.user_id,
          p256dh: row.p256dh,
          auth: row.auth,
          language: row.language,
          user_agent: row.user_agent,
          failures: 0,
        }),
      )
      .execute();
    return { ok: true, created: !existing } as const;
  });
}

/** Switches one of the person's devices off. False when they have no such device (another person's endpoint stays). */
export async function removePushSubscription(database: Database, userId: string, endpoint: string): Promise<boolean> {
  const result = await database.db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** How many devices of the person have notifications on. */
export async function countPushDevices(database: Database, userId: string): Promise<number> {
  const counted = await database.db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(counted.count);
}

/** The push endpoints of the person's devices: the profile's switch shows On only on one of them. */
export async function pushEndpointsOf(database: Database, userId: string): Promise<string[]> {
  const rows = await database.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((row) => row.endpoint);
}
