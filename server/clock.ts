/**
 * What reads the time for a rule (form-token ages, cache lifetimes) is handed a clock instead
 * of calling Date.now itself, so the rule can be exercised at any moment without waiting.
 * Production uses the system clock; a test may hand in one it moves by hand.
 */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };
