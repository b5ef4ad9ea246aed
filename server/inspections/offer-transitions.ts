import type { TransitionTable } from '../transitions.ts';

/**
 * The dealer's offer on a seller's car, as stored (`inspections.offer_status`); 'none' is no offer
 * yet (NULL). An open offer past its last day reads as expired, but that is the clock's doing
 * (offerOf in app/features/appointments/inspection-desk.ts), not a stored status.
 */
export const OFFER_STATUSES = ['none', 'open', 'accepted', 'declined'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const OFFER_EVENTS = ['make', 'accept', 'decline'] as const;
export type OfferEvent = (typeof OFFER_EVENTS)[number];

/** Every move an offer may make; anything else is refused. The desk may replace an open offer until the seller answers. */
export const OFFER_TRANSITIONS: TransitionTable<OfferStatus, OfferEvent> = [
  { from: 'none', event: 'make', to: 'open', by: 'desk' },
  { from: 'open', event: 'make', to: 'open', by: 'desk' },
  { from: 'open', event: 'accept', to: 'accepted', by: 'customer' },
  { from: 'open', event: 'decline', to: 'declined', by: 'customer' },
];

/** The offer's status as the column holds it: no offer is NULL. */
export function storedOfferStatus(status: OfferStatus): Exclude<OfferStatus, 'none'> | null {
  return status === 'none' ? null : status;
}

/** The offer's status in the table's words. */
export function offerStatusOf(stored: Exclude<OfferStatus, 'none'> | null): OfferStatus {
  return stored ?? 'none';
}
