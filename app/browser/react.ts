/**
 * What the browser bundle gets for `import … from 'react'` (vite.config.ts, decision 039):
 * Preact's compatibility layer, plus the one React 19 hook React Router's RouterProvider calls
 * that preact/compat does not have.
 */
// @ts-expect-error preact/compat's types are written as `export =`; its ES module has the named exports.
export * from 'preact/compat';
export { default } from 'preact/compat';

/**
 * React's `useOptimistic` shows the optimistic value only while a transition is pending. In
 * preact/compat `startTransition` runs its callback at once, so no transition is ever pending
 * and the value shown is always the passed-in state. React Router calls the setter only when a
 * router is given `useTransitions` (this app's HydratedRouter is not).
 */
export function useOptimistic<State>(passthrough: State): [State, (action: unknown) => void] {
  return [passthrough, () => {}];
}
