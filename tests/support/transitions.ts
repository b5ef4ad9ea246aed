import { expect } from 'vitest';
import { ACTORS, transition, type TransitionTable } from '../../server/transitions.ts';

/**
 * Walks every (status × event × actor) combination: each move in the table gives its `to`, every
 * other combination is refused (null). Exhaustive by construction from the lists, so a status or
 * event added to a list is checked without touching the test. Returns how many were refused.
 */
export function expectOnlyTheseMoves<Status extends string, Event extends string>(
  table: TransitionTable<Status, Event>,
  statuses: readonly Status[],
  events: readonly Event[],
): number {
  const key = (from: string, event: string, by: string) => `${from} ${event} by ${by}`;
  const keys = table.map((move) => key(move.from, move.event, move.by));
  // Two rows for one combination would make the answer depend on their order.
  expect(new Set(keys).size, 'one row per (from, event, by)').toBe(keys.length);
  for (const move of table) {
    expect(statuses, `${key(move.from, move.event, move.by)}: from is a status`).toContain(move.from);
    expect(statuses, `${key(move.from, move.event, move.by)}: to is a status`).toContain(move.to);
    expect(events, `${key(move.from, move.event, move.by)}: event is an event`).toContain(move.event);
  }
  let refused = 0;
  for (const from of statuses) {
    for (const event of events) {
      for (const by of ACTORS) {
        const move = table.find((row) => row.from === from && row.event === event && row.by === by);
        expect(transition(table, from, event, by), key(from, event, by)).toBe(move ? move.to : null);
        if (!move) refused += 1;
      }
    }
  }
  expect(refused + table.length).toBe(statuses.length * events.length * ACTORS.length);
  return refused;
}

/** The table as a reviewer reads it, one move a line: `requested --confirm (desk)--> confirmed`. */
export function readableTable(table: TransitionTable<string, string>): string {
  return table.map((move) => `${move.from} --${move.event} (${move.by})--> ${move.to}`).join('\n');
}
