/// <reference lib="webworker" />
/**
 * The service worker: the site on a weak signal (decision 085). Built by
 * scripts/build-service-worker.mjs into build/client/sw.js, with the precache list of this
 * build injected by @serwist/build.
 *
 * - Hashed build files (/assets/…): from the device first; their names change with their content.
 * - Photos (/media/…): from the device at once, refreshed in the background.
 * - Shared pages (app/lib/offline.ts): from the network, the device's copy when the network
 *   fails or is too slow; kept only when the server marked the answer public.
 * - Every other page (admin, sign-in, profile, wishlist, bookings …): network only. Offline,
 *   the visitor is sent to the offline page, which lists the cars they opened on this device.
 * - Anything else (/api, form posts, other origins) is not touched.
 *
 * Notifications on the phone (decision 124): a push message (encrypted by the server, decrypted
 * by the browser) is shown as a notification; a tap focuses a window of the site on the page it
 * names, or opens one. Only pages of this site: a url from anywhere else opens the home page.
 *
 * Every cache is named with the build, and a new worker removes the caches of older builds
 * when it takes over, so no old page is served with new files. It waits to take over until no
 * tab runs the old build (no skipWaiting), and then controls tabs at once (clientsClaim).
 */
import { CacheFirst, ExpirationPlugin, NetworkFirst, NetworkOnly, Serwist, StaleWhileRevalidate, type PrecacheEntry, type SerwistPlugin } from 'serwist';
import { isShareableAnswer, isSharedPagePath, isSignOutRequest, KEEP_PAGE_MESSAGE, OFFLINE_PAGE } from '../app/lib/offline.ts';
import { languageOfPath, pathInLanguage, withoutLanguage } from '../app/lib/i18n/language.ts';

declare const self: ServiceWorkerGlobalScope & { __SW_MANIFEST: (PrecacheEntry | string)[] | undefined };
/** A short name of this build, set by the build step. */
declare const __BUILD_ID__: string;

const PREFIX = 'gaadi-';
const caches_ = {
  precache: `${PREFIX}precache-${__BUILD_ID__}`,
  assets: `${PREFIX}assets-${__BUILD_ID__}`,
  media: `${PREFIX}media-${__BUILD_ID__}`,
  pages: `${PREFIX}pages-${__BUILD_ID__}`,
};

/** A weak signal: after this long the device's copy of a page is shown instead of waiting. */
const PAGE_NETWORK_TIMEOUT_SECONDS = 6;

const sameOrigin = (url: URL) => url.origin === self.location.origin;

/** Keeps a page only when the server said it is the same for everyone. */
const sharedAnswersOnly: SerwistPlugin = {
  cacheWillUpdate: async ({ response }) => (isShareableAnswer(response.status, response.headers.get('cache-control')) ? response : null),
};

/**
 * A page that could not be had from the network or the device: the offline page in the page's
 * language, at its own address so it hydrates as itself.
 */
const offlinePageOnFailure: SerwistPlugin = {
  handlerDidError: async ({ request }) => Response.redirect(pathInLanguage(OFFLINE_PAGE, languageOfPath(new URL(request.url).pathname)), 303),
};

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  precacheOptions: {
    cacheName: caches_.precache,
    // The offline page is fetched without the visitor's cookies: it is the signed-out page,
    // never one showing a signed-in person's name or wishlist.
    fetchOptions: { credentials: 'omit' },
    cleanupOutdatedCaches: false,
  },
  skipWaiting: false,
  clientsClaim: true,
  runtimeCaching: [
    {
      matcher: ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && isSharedPagePath(url.pathname),
      handler: new NetworkFirst({
        cacheName: caches_.pages,
        networkTimeoutSeconds: PAGE_NETWORK_TIMEOUT_SECONDS,
        plugins: [sharedAnswersOnly, new ExpirationPlugin({ maxEntries: 60 }), offlinePageOnFailure],
      }),
    },
    {
      matcher: ({ request, url }) => request.mode === 'navigate' && sameOrigin(url),
      handler: new NetworkOnly({ plugins: [offlinePageOnFailure] }),
    },
    {
      matcher: ({ url }) => sameOrigin(url) && url.pathname.startsWith('/assets/'),
      handler: new CacheFirst({ cacheName: caches_.assets, plugins: [new ExpirationPlugin({ maxEntries: 200 })] }),
    },
    {
      matcher: ({ url }) => sameOrigin(url) && url.pathname.startsWith('/media/'),
      handler: new StaleWhileRevalidate({ cacheName: caches_.media, plugins: [new ExpirationPlugin({ maxEntries: 150 })] }),
    },
  ],
});

// Signing out drops the pages on the device. They were rendered for nobody in particular, but a
// shared phone should not keep even those from the last person's visit.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (sameOrigin(url) && isSignOutRequest(event.request.method, withoutLanguage(url.pathname))) event.waitUntil(self.caches.delete(caches_.pages));
});

// A car page opened inside the app (the router fetches its data, not the page) is fetched
// again as the signed-out page and kept like one loaded as a document, and its photo at the
// offline list's size is kept too, so both open offline (app/features/vehicle/use-remember-car.ts).
self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; url?: unknown; image?: unknown } | null;
  if (data?.type !== KEEP_PAGE_MESSAGE) return;
  const page = ownUrl(data.url, (url) => isSharedPagePath(url.pathname));
  const image = ownUrl(data.image, (url) => url.pathname.startsWith('/media/'));
  event.waitUntil(Promise.all([page && keep(page, caches_.pages, { credentials: 'omit' }), image && keep(image, caches_.media, {})]));
});

/** `value` as a URL of this site that `allowed` accepts, else null. */
function ownUrl(value: unknown, allowed: (url: URL) => boolean): URL | null {
  if (typeof value !== 'string') return null;
  const url = new URL(value, self.location.origin);
  return sameOrigin(url) && allowed(url) ? url : null;
}

/** Fetches `url` and keeps the answer in `cacheName` when it may be kept. */
async function keep(url: URL, cacheName: string, init: RequestInit) {
  try {
    const response = await fetch(url, init);
    const keepable = cacheName === caches_.pages ? isShareableAnswer(response.status, response.headers.get('cache-control')) : response.ok;
    if (keepable) await (await self.caches.open(cacheName)).put(url, response);
  } catch {
    // No signal now: it is kept the next time it is opened.
  }
}

/** What the server sends (server/notify/push.ts PushPayload); anything missing is filled in, never thrown on. */
type PushMessage = { title: string; body: string; url: string; tag: string };

const APP_ICON = '/icons/icon-192.png';

/** `value` as a path of this site to open, else the home page. */
function pageToOpen(value: unknown): string {
  const url = ownUrl(typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/', () => true);
  return url ? `${url.pathname}${url.search}${url.hash}` : '/';
}

function readPush(event: PushEvent): PushMessage {
  let data: Partial<Record<keyof PushMessage, unknown>> = {};
  try {
    data = (event.data?.json() ?? {}) as typeof data;
  } catch {
    data = { body: event.data?.text() ?? '' };
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const url = pageToOpen(data.url);
  return { title: text(data.title) || 'Gaadi Bazaar', body: text(data.body), url, tag: text(data.tag) || url };
}

self.addEventListener('push', (event) => {
  const message = readPush(event);
  event.waitUntil(
    self.registration.showNotification(message.title, { body: message.body, data: { url: message.url }, icon: APP_ICON, badge: APP_ICON, tag: message.tag }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(pageToOpen((event.notification.data as { url?: unknown } | null)?.url), self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A window of the site already open (the installed app, a tab): brought forward on the page.
      const open = windows.find((client) => sameOrigin(new URL(client.url)));
      if (open) {
        // Focusing may be refused (no user activation reached the worker); the page is opened all the same.
        const focused = await open.focus().catch(() => open);
        if (focused.url !== target.href) await focused.navigate(target.href).catch(() => self.clients.openWindow(target.href));
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});

// Taking over: the caches of older builds go (this worker's names all end with its build).
self.addEventListener('activate', (event) => {
  const current = new Set(Object.values(caches_));
  event.waitUntil(
    self.caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(PREFIX) && !current.has(name)).map((name) => self.caches.delete(name)))),
  );
});

serwist.addEventListeners();
