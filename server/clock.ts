/**
 * What reads the time for a rule (form-token ages, cache lifetimes) is handed a clock instead
 * of calling Date.now itself, so the rule can be exercised at any moment without waiting.
 * Production uses the system clock; a test may hand in one it moves by hand.
 */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that reads `startMs` now and runs on at the system's pace: a test server's chosen time of day. */
export function clockStartingAt(startMs: number): Clock {
  const offsetMs = startMs - Date.now();
  return { now: () => Date.now() + offsetMs };
}
