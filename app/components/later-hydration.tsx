import { Suspense, type ReactNode } from 'react';

/**
 * Hydrates `children` (one element) in a browser task of its own, after the rest of the page,
 * instead of inside the one long task that hydrates the whole page (docs/decisions/043).
 *
 * Preact, which runs the browser's React (decision 039), hydrates a page in a single task: on a
 * mid-range phone the listing's cards and filter form made that task about half a second long,
 * and nothing on the page answered a tap until it ended. Here a part of the page asks to wait:
 * while the page hydrates, the part throws a promise (React's way of saying "not yet"); Preact
 * keeps the server's DOM of that part as it is and hydrates it when the promise resolves, each
 * part in its own task. Until then the part is the server's HTML, which works without
 * JavaScript: links open, forms submit.
 *
 * Only the page's first hydration waits: a part that appears later (after a navigation) renders
 * at once. On the server the children are rendered as they are. So is everything under
 * `npm run dev`, whose browser runs React (scripts/dev.mjs): React hydrates in slices anyway, and
 * takes a <Suspense> the server did not render for a mismatch and renders the page again.
 */
export function LaterHydration({ id, children }: { id: string; children: ReactNode }) {
  if (typeof document === 'undefined' || import.meta.env.DEV) return children;
  return (
    <Suspense fallback={null}>
      <Gate id={id}>{children}</Gate>
    </Suspense>
  );
}

/** Parts whose turn has come, by id. */
const hydrated = new Set<string>();
/** Parts waiting for their turn, by id; one resolves per task, in the page's order. */
const waiting = new Map<string, Promise<void>>();
const queue: Array<() => void> = [];
/** Whether the page's first hydration is under way: only then does a part wait. */
let firstHydration = true;

/** Told when the last waiting part has had its turn. */
let afterLastPart: (() => void) | null = null;

/**
 * Called once the page's first hydration has run (app/entry.client.tsx): later parts render at
 * once. `whenAllHydrated` runs a task after the last waiting part has hydrated.
 */
export function endFirstHydration(whenAllHydrated: () => void) {
  firstHydration = false;
  if (queue.length === 0) setTimeout(whenAllHydrated, 0);
  else afterLastPart = whenAllHydrated;
}

function Gate({ id, children }: { id: string; children: ReactNode }) {
  if (hydrated.has(id) || (!firstHydration && !waiting.has(id))) return children;
  let turn = waiting.get(id);
  if (!turn) {
    turn = new Promise<void>((resolve) => {
      queue.push(() => {
        hydrated.add(id);
        waiting.delete(id);
        resolve();
      });
    });
    waiting.set(id, turn);
    if (queue.length === 1) nextTurn();
  }
  throw turn;
}

/** A macrotask per part, so the browser can paint and answer input between them. */
function nextTurn() {
  setTimeout(() => {
    queue.shift()?.();
    if (queue.length > 0) nextTurn();
    // A task later: the part renders when its promise has resolved, in a microtask.
    else if (afterLastPart) {
      setTimeout(afterLastPart, 0);
      afterLastPart = null;
    }
  }, 0);
}
