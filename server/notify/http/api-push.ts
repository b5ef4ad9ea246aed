import type { Context, Hono } from 'hono';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { currentLanguage } from '../../../app/lib/i18n/current.ts';
import { pushText as t } from '../../../app/features/notifications/push-texts.ts';
import { pushKeySchema, pushSubscriptionStateSchema } from '../../http/api-answers.ts';
import { currentUser, type SessionUser } from '../../auth/session.ts';
import { deviceLabel } from '../../auth/devices.ts';
import { jsonObjectBody } from '../../http/json-body.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { consumeRateLimit, rateLimits } from '../../security/rate-limit.ts';
import type { AppServices } from '../../services.ts';
import { vapidKeys } from '../push-keys.ts';
import { countPushDevices, MAX_PUSH_DEVICES, pushEndpointSchema, pushSubscriptionSchema, removePushSubscription, savePushSubscription } from '../push.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Notifications on the phone (decision 124) in the app's API: the site's VAPID key, and switching
 * notifications on or off for one device of the signed-in person (session cookie or the app's
 * token). The profile's switch calls these too (app/features/notifications/push-switch.tsx).
 */
export function pushApi(api: Hono, services: AppServices) {
  const { database, clock } = services;

  /** The signed-in person and their turn of the rate limit, or the refusal to answer. */
  async function signedInWithinLimit(c: Context): Promise<SessionUser | Response> {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const limit = await consumeRateLimit(database, { key: `push-subscriptions:${user.id}`, ...rateLimits.pushSubscriptionChange, now: clock.now() });
    if (!limit.allowed) return problem(c, 429, t('tooManyChanges'), { headers: { 'Retry-After': String(limit.retryAfterSeconds) } });
    return user;
  }

  const key = describeRoute({
    tag: 'Account',
    summary: "The site's public key for notifications on the phone (VAPID)",
    description:
      'The `applicationServerKey` to hand `registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })`. It changes only when the dealer replaces the key pair; then every device must switch notifications on again.',
    ok: { status: 200, schema: pushKeySchema, description: 'The key, base64url (65 bytes, an uncompressed P-256 point).' },
  });
  api.get('/push/key', key, async (c) => {
    try {
      const { publicKey } = await vapidKeys(services);
      return c.json({ publicKey }, 200, { 'Cache-Control': 'no-cache' });
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('saveFailed'), log: 'push key read failed' });
    }
  });

  const subscribe = describeRoute({
    tag: 'Account',
    summary: 'Switch notifications on for this device',
    description: `JSON: the browser's \`PushSubscription\` as \`toJSON()\` gives it. The person then gets the notifications of their test drives, inspections, rentals, reservations, offers and registration transfers on this device, in the language of this request; a tap opens the page it is about. Switching on a device again (or another person on it) replaces its subscription: a device notifies the person who switched it on last. At most ${MAX_PUSH_DEVICES} devices a person.`,
    auth: true,
    body: { kind: 'json', schema: pushSubscriptionSchema(true) },
    ok: { status: 200, schema: pushSubscriptionStateSchema, description: 'Notifications are on for this device (new, or already on).' },
    refusals: { 400: '', 409: `${MAX_PUSH_DEVICES} devices have notifications on already (\`reason\`: \`too-many-devices\`).`, 429: '' },
  });
  api.post('/me/push-subscriptions', subscribe, async (c) => {
    const user = await signedInWithinLimit(c);
    if (user instanceof Response) return user;
    try {
      const body = await jsonObjectBody(c.req.raw);
      if (!body) return problem(c, 400, t('subscriptionInvalid'));
      // Read when asked, not when the route is registered (the OpenAPI document is built without services).
      const parsed = parseWith(pushSubscriptionSchema(services.config.mode === 'production'), body);
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      const { endpoint, keys } = parsed.value;
      const saved = await savePushSubscription(database, {
        userId: user.id,
        device: { endpoint, p256dh: keys.p256dh, auth: keys.auth },
        language: currentLanguage(),
        userAgent: deviceLabel('site', c.req.header('user-agent') ?? null),
        nowMs: clock.now(),
      });
      if (!saved.ok) return problem(c, 409, t('tooManyDevices', { max: MAX_PUSH_DEVICES }), { reason: saved.reason });
      return c.json({ on: true, devices: await countPushDevices(database, user.id) }, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('saveFailed'), log: 'push subscription failed' });
    }
  });

  const unsubscribe = describeRoute({
    tag: 'Account',
    summary: 'Switch notifications off for this device',
    description:
      "JSON `{ endpoint }`: the device's `PushSubscription.endpoint`. Answers 200 whether or not the device had them on (another person's device is left as it is); the browser's own `subscription.unsubscribe()` stops its side.",
    auth: true,
    body: { kind: 'json', schema: pushEndpointSchema },
    ok: { status: 200, schema: pushSubscriptionStateSchema, description: 'Notifications are off for this device.' },
    refusals: { 400: '', 429: '' },
  });
  api.delete('/me/push-subscriptions', unsubscribe, async (c) => {
    const user = await signedInWithinLimit(c);
    if (user instanceof Response) return user;
    try {
      const body = await jsonObjectBody(c.req.raw);
      if (!body) return problem(c, 400, t('endpointInvalid'), { fields: { endpoint: t('endpointInvalid') } });
      const parsed = parseWith(pushEndpointSchema, body);
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      await removePushSubscription(database, user.id, parsed.value.endpoint);
      return c.json({ on: false, devices: await countPushDevices(database, user.id) }, 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('saveFailed'), log: 'push unsubscription failed' });
    }
  });
}
