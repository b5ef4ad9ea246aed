import { RC_STEPS, type RcState, type RcStep } from '../../app/features/sales/rc-transfer-rules.ts';
import type { TransitionTable } from '../transitions.ts';

/** What can happen to a registration transfer (server/sales/rc-transfers.ts, decision 117): each step, and its close. */
export type RcTransferEvent = RcStep | 'close';

/**
 * Every move a transfer may make (decision 105): the desk records the next step only, one at a
 * time in the RTO's order, and the cancel of its sale closes an open one (not one delivered: the
 * new owner holds the RC). Anything else is refused as out of order.
 */
export const RC_TRANSFER_TRANSITIONS: TransitionTable<RcState, RcTransferEvent> = [
  ...RC_STEPS.map((step, index) => ({ from: index === 0 ? ('sold' as const) : RC_STEPS[index - 1]!, event: step, to: step, by: 'desk' as const })),
  ...(['sold', ...RC_STEPS.slice(0, -1)] as const).map((from) => ({ from, event: 'close' as const, to: 'closed' as const, by: 'system' as const })),
];

/** The step the desk records next from `state`, or null when there is none (delivered, closed). */
export function nextRcStep(state: RcState): RcStep | null {
  const move = RC_TRANSFER_TRANSITIONS.find((candidate) => candidate.from === state && candidate.by === 'desk');
  return move ? (move.event as RcStep) : null;
}
