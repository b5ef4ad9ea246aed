import { useSyncExternalStore } from 'react';

/**
 * The cars this device opened last, newest first, kept in the browser (localStorage) for the
 * offline page (decision 085): it lists them, and their pages and photos are on the device
 * because the service worker kept them when they were opened. The server knows nothing of it.
 */

export type RecentCar = { id: number; title: string; price: string; image: string | null; url: string };

const STORAGE_KEY = 'gaadi-bazaar:recent-cars';
export const RECENT_CARS_MAX = 10;
const NONE: RecentCar[] = [];

let cars: RecentCar[] | null = null;
const listeners = new Set<() => void>();

function isRecentCar(value: unknown): value is RecentCar {
  const car = value as RecentCar | null;
  return (
    typeof car?.id === 'number' &&
    Number.isSafeInteger(car.id) &&
    car.id > 0 &&
    typeof car.title === 'string' &&
    typeof car.price === 'string' &&
    (car.image === null || (typeof car.image === 'string' && /^(\/|https:\/\/)/.test(car.image))) &&
    typeof car.url === 'string' &&
    // Only our own car pages: the list is read back as links.
    /^\/vehicle\/\d+$/.test(car.url)
  );
}

function readStorage(): RecentCar[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecentCar).slice(0, RECENT_CARS_MAX) : [];
  } catch {
    // Storage blocked or a value from elsewhere: start empty.
    return [];
  }
}

function current(): RecentCar[] {
  cars ??= readStorage();
  return cars;
}

/** Puts `car` first (once), keeping the newest RECENT_CARS_MAX. */
export function rememberCar(car: RecentCar) {
  cars = [car, ...readStorage().filter((item) => item.id !== car.id)].slice(0, RECENT_CARS_MAX);
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(cars));
  } catch {
    // Private mode with storage off: nothing to remember.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The remembered cars; none while rendering on the server and hydrating. */
export function useRecentCars(): RecentCar[] {
  return useSyncExternalStore(subscribe, current, () => NONE);
}
