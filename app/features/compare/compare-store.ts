import { useSyncExternalStore } from 'react';
import { COMPARE_MAX } from './compare.ts';
import { compareText as t } from './compare-texts.ts';

/**
 * The cars picked for comparing, kept in the browser (localStorage) so the tray survives page
 * loads and follows other tabs. The server knows nothing of it: pages render with an empty tray
 * and the toggles fill in after hydration (useSyncExternalStore's server snapshot).
 */

export type CompareItem = { id: number; title: string };
type State = { items: CompareItem[]; notice: string | null };

const STORAGE_KEY = 'gaadi-bazaar:compare';
const NOTICE_MS = 4000;
const EMPTY: State = { items: [], notice: null };

let state: State | null = null;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function readStorage(): CompareItem[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((item): item is CompareItem => typeof item?.id === 'number' && Number.isSafeInteger(item.id) && item.id > 0 && typeof item.title === 'string')
      .slice(0, COMPARE_MAX);
  } catch {
    // Storage blocked or a value from elsewhere: start empty.
    return [];
  }
}

function current(): State {
  state ??= { items: readStorage(), notice: null };
  return state;
}

function set(next: State) {
  const itemsChanged = next.items !== current().items;
  state = next;
  if (itemsChanged) {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next.items));
    } catch {
      // Private mode with storage off: the tray still works for this page.
    }
  }
  for (const listener of listeners) listener();
}

function say(notice: string | null) {
  clearTimeout(noticeTimer);
  if (notice) noticeTimer = setTimeout(() => set({ ...current(), notice: null }), NOTICE_MS);
  return notice;
}

function onStorage(event: StorageEvent) {
  if (event.key !== STORAGE_KEY) return;
  state = { items: readStorage(), notice: current().notice };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

export const compareStore = {
  /** Adds the car, or takes it out when it is in; refuses (with a notice) when the tray is full. */
  toggle(item: CompareItem) {
    const { items } = current();
    if (items.some((entry) => entry.id === item.id)) {
      set({ items: items.filter((entry) => entry.id !== item.id), notice: say(null) });
      return;
    }
    if (items.length >= COMPARE_MAX) {
      set({ items, notice: say(t('limit', { limit: COMPARE_MAX })) });
      return;
    }
    set({ items: [...items, item], notice: say(null) });
  },
  remove(id: number) {
    set({ items: current().items.filter((entry) => entry.id !== id), notice: say(null) });
  },
  clear() {
    set({ items: [], notice: say(null) });
  },
  /** The compare page's cars become the tray's (the URL is the list being looked at). */
  replace(items: CompareItem[]) {
    const before = current().items;
    if (before.length === items.length && before.every((entry, index) => entry.id === items[index]?.id && entry.title === items[index]?.title)) return;
    set({ items: items.slice(0, COMPARE_MAX), notice: current().notice });
  },
};

export function useCompareState(): State {
  return useSyncExternalStore(subscribe, current, () => EMPTY);
}
