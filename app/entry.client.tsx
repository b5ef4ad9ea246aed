import { Fragment, options } from 'preact';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { endFirstHydration } from './components/later-hydration.tsx';
import { listenForInstallPrompt } from './features/install/install-prompt-store.ts';
import { SERVICE_WORKER_PATH } from './lib/offline.ts';
import { withoutTracking } from './lib/page-query.ts';

// The server rendered this page without its tracking parameters (`?utm_source=…`, page-query.ts):
// the address loses them too before the router reads it, so both see one page, and a link shared
// on from here is the page's own.
const trackless = withoutTracking(window.location.search);
if (trackless !== window.location.search)
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${trackless}${window.location.hash}`);

// Before anything waits: the browser's install offer may come early (install-prompt-store.ts).
listenForInstallPrompt();
// The service worker of the production build (decision 085; `npm run dev` has none), once the
// page has loaded, so it never competes with the page's own requests on a weak signal.
// React Router imports this module from an inline script, so the page may have loaded already.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_PATH).catch(() => {
      // No worker (private mode, an old browser): the site works as before, only not offline.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

// The browser runs Preact's compatibility layer (decision 039); this is React Router's default
// browser entry with two changes Preact needs.
//
// Preact treats `document` as the browser's and hydrates into <html>, so the root layout's
// <html> element is taken as just its children (head and body); its attributes are the server's.
const previousVNodeHook = options.vnode;
options.vnode = (vnode) => {
  if (vnode.type === 'html') vnode.type = Fragment;
  previousVNodeHook?.(vnode);
};

// Preact pairs the server's elements with its own by tag name, in order, and does not correct
// attributes while hydrating. React's server renderer adds to <head> preloads of its own (the
// high-priority images) and moves there the module preloads that <Scripts> renders in <body>;
// left in place, they would be paired with the icon, canonical and stylesheet links, and those
// would be dropped. Their downloads have started; the page itself renders none of them in <head>.
for (const hint of document.head.querySelectorAll('link[rel="preload"], link[rel="modulepreload"]')) hint.remove();

// The router suspends on its first render until the page's data is decoded. React waits for
// that at the root; Preact resumes a suspended hydration with only the first DOM node (<head>)
// and renders a second <body>. So wait for the data first: the router's first call throws the
// promise of the decoding (it cannot be done yet, so no hook runs outside a render).
try {
  HydratedRouter({});
} catch (pending) {
  if (!(pending instanceof Promise)) throw pending;
  await pending;
}
startTransition(() => {
  hydrateRoot(document, <HydratedRouter />);
});
// Parts of the page that hydrate in tasks of their own are queued by now (later-hydration.tsx).
// When the last has hydrated, the page says so, for tests/e2e/hydration.test.ts to compare it with
// the server's HTML. A global, not an attribute: React (under `npm run dev`) would take an
// attribute it did not render for a mismatch.
endFirstHydration(() => {
  (window as unknown as { pageHydrated?: boolean }).pageHydrated = true;
});
