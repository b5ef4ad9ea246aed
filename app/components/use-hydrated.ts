import { useSyncExternalStore } from 'react';

const subscribeNothing = () => () => {};

/**
 * False in the server's HTML and during hydration, true once the page's script runs: controls
 * that only work with script (add a row, auto-upload, a combobox's list) appear then; plain
 * forms work before. Give the element around what changes `data-changes-once-hydrated=""`: the
 * hydration test (tests/e2e/hydration.test.ts) then compares everything else on the page with
 * the server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
