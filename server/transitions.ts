/**
 * Status rules as data (docs/decisions/105): each domain keeps a table of the moves its records
 * may make, and its services ask the table before they write. The guarded UPDATE
 * (`WHERE id = ? AND status = <from>`) stays beside it: the table says whether a move is allowed
 * at all, the database refuses a move that lost a race.
 */

/** Who makes a move: the buyer or renter, the dealer's desk, a scheduled job, or the payment gateway. */
export type Actor = 'customer' | 'desk' | 'system' | 'gateway';

export const ACTORS = ['customer', 'desk', 'system', 'gateway'] as const satisfies readonly Actor[];

/** One allowed move: `by` may apply `event` to a record in `from`, which then is in `to`. */
export type Move<Status extends string, Event extends string> = { readonly from: Status; readonly event: Event; readonly to: Status; readonly by: Actor };

export type TransitionTable<Status extends string, Event extends string> = readonly Move<Status, Event>[];

/** The status `event` by `by` moves a record in `from` to, or null when the table has no such move. */
export function transition<Status extends string, Event extends string>(
  table: TransitionTable<Status, Event>,
  from: Status,
  event: Event,
  by: Actor,
): Status | null {
  return table.find((move) => move.from === from && move.event === event && move.by === by)?.to ?? null;
}

/**
 * Every move of `event` by `by`, as one guarded UPDATE makes them: the statuses it may move from
 * (`WHERE status IN from`) and the one status it moves them to. For the jobs and callbacks that
 * move many records, or one they have not read. No such move, or moves to different statuses,
 * is a programming error: one UPDATE could not say which.
 */
export function bulkMove<Status extends string, Event extends string>(
  table: TransitionTable<Status, Event>,
  event: Event,
  by: Actor,
): { from: Status[]; to: Status } {
  const moves = table.filter((move) => move.event === event && move.by === by);
  const to = moves[0]?.to;
  if (to === undefined || moves.some((move) => move.to !== to)) throw new Error(`No single status that ${event} by ${by} moves to`);
  return { from: moves.map((move) => move.from), to };
}
