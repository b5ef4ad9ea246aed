import type { SaleStatus } from '../db/schema.ts';
import type { TransitionTable } from '../transitions.ts';

/** What can happen to a recorded sale (server/sales/sales.ts, decision 114). */
export const SALE_EVENTS = ['cancel'] as const;
export type SaleEvent = (typeof SALE_EVENTS)[number];

export const SALE_STATUSES = ['recorded', 'cancelled'] as const satisfies readonly SaleStatus[];

/**
 * Every move a sale may make; anything else is refused. A sale is never deleted and never
 * edited: the desk cancels it, and the cancel issues a credit note against its invoice.
 */
export const SALE_TRANSITIONS: TransitionTable<SaleStatus, SaleEvent> = [{ from: 'recorded', event: 'cancel', to: 'cancelled', by: 'desk' }];
