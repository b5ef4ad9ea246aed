import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useNavigation } from 'react-router';
import { PERSONAL_SUMMARY_PATH, type PersonalSummary } from '../lib/personal.ts';
import { useRootData } from './root-data.ts';

/**
 * The person looking at the page, in the browser (decision 127). Shared pages (home, a car, …)
 * are rendered for nobody, so every visitor gets the same bytes from the page cache; after
 * hydration this store asks GET /api/v1/me/summary once per page load and the hearts and the
 * top bar's account link follow it. A personal page's root data carries the person already and
 * is used as it is. Until known the parts show their signed-out form at the same size, never
 * the state of someone else: the server's snapshot is always "not known".
 *
 * It is asked again after a form's navigation (signing in or out, among others) that brought no
 * person with it, and a wishlist toggle changes it locally.
 */

let current: PersonalSummary | null = null;
/** Bumped whenever what is known is dropped: an answer asked for before then is ignored. */
let generation = 0;
let asking: Promise<void> | null = null;
const listeners = new Set<() => void>();

function publish(next: PersonalSummary | null) {
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isSummary(value: unknown): value is PersonalSummary {
  const summary = value as PersonalSummary | null;
  return (
    typeof summary === 'object' &&
    summary !== null &&
    typeof summary.signedIn === 'boolean' &&
    (summary.name === null || typeof summary.name === 'string') &&
    Array.isArray(summary.wishlist) &&
    summary.wishlist.every((id) => typeof id === 'number')
  );
}

/** Asks the server who is looking, once at a time; a failure (offline) leaves the person unknown. */
function ask(): Promise<void> {
  if (asking) return asking;
  const asked = generation;
  asking = fetch(PERSONAL_SUMMARY_PATH, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } })
    .then(async (response) => {
      const body: unknown = response.ok ? await response.json() : null;
      if (asked === generation && isSummary(body)) publish(body);
    })
    .catch(() => {})
    .finally(() => {
      asking = null;
    });
  return asking;
}

/** Drops what is known (after signing in or out) and asks again. */
function askAgain() {
  generation += 1;
  asking = null;
  publish(null);
  void ask();
}

/** Seeds the store from a personal page's root data. */
function know(summary: PersonalSummary) {
  if (current && JSON.stringify(current) === JSON.stringify(summary)) return;
  generation += 1;
  asking = null;
  publish(summary);
}

/** A heart changed: the store follows, so every heart of that car on the page agrees. */
export function rememberWishlisted(vehicleId: number, wishlisted: boolean) {
  if (!current?.signedIn) return;
  const others = current.wishlist.filter((id) => id !== vehicleId);
  publish({ ...current, wishlist: wishlisted ? [...others, vehicleId] : others });
}

/**
 * The person looking, or null while not known (the server's render and hydration always: a shared
 * page is the same for everyone). Show the signed-out form of a part until then.
 */
export function usePersonal(): PersonalSummary | null {
  const fromRoot = useRootData().personal;
  const stored = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return stored ?? fromRoot;
}

/**
 * Keeps the store in step with the pages: a personal page's person is taken as it comes; a shared
 * page asks the server once per page load, and again after a form's navigation (signing in or out).
 * Used once, by the site's frame and the admin's.
 */
export function usePersonalSync() {
  const fromRoot = useRootData().personal;
  const navigation = useNavigation();
  const submitted = useRef(false);
  useEffect(() => {
    if (navigation.state !== 'idle' && navigation.formMethod && navigation.formMethod.toUpperCase() !== 'GET') submitted.current = true;
  }, [navigation.state, navigation.formMethod]);
  useEffect(() => {
    if (navigation.state !== 'idle') return;
    const afterSubmission = submitted.current;
    submitted.current = false;
    if (fromRoot) know(fromRoot);
    else if (afterSubmission) askAgain();
    else if (!current) void ask();
  }, [fromRoot, navigation.state]);
}
