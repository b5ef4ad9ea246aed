// Refused twice: server code reads the time from the clock handed in (decision 016), never
// from the system; new Date(ms) of a given time is fine.
export const stamp = new Date().toISOString();
export const nowMs = Date.now();
export const given = new Date(1_764_072_000_000).toISOString();
