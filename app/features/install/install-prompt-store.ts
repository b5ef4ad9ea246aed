import { useSyncExternalStore } from 'react';

/**
 * The browser's offer to install the site as an app (`beforeinstallprompt`, Chromium browsers;
 * decision 085). The event can come before the page has hydrated, so the browser entry starts
 * listening at once (listenForInstallPrompt); the "Install app" button shows only while an offer
 * is held, and goes once the app is installed or the offer was answered.
 */

/** Chromium's event; not in TypeScript's DOM types. */
type InstallPromptEvent = Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }> };

let offer: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

function set(next: InstallPromptEvent | null) {
  offer = next;
  for (const listener of listeners) listener();
}

export function listenForInstallPrompt() {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Our button asks instead of the browser's own bar, beside the Android app link.
    event.preventDefault();
    set(event as InstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => set(null));
}

/** Shows the browser's install dialog; the offer is spent either way. */
export async function promptInstall() {
  const held = offer;
  if (!held) return;
  set(null);
  await held.prompt();
  await held.userChoice;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the browser offers to install the app now; never while rendering on the server or hydrating. */
export function useCanInstall(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => offer !== null,
    () => false,
  );
}
