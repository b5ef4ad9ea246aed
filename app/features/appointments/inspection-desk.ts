import { z } from 'zod';
import { INSPECTION_STATUSES } from '../../lib/vehicle-schema.ts';
import { deskInspectionsText as t } from './desk-inspections-texts.ts';
import { indiaDay, indiaIso } from '../../lib/india-time.ts';

/**
 * The desk's side of a seller's inspection (decision 084), shared by the admin page, the
 * profile and the API: the condition items the team checks (stored as a vehicle's condition
 * report is, item -> status, so a draft carries them over as they are), the offer and its states.
 */

/**
 * The items the team checks on every car, in the order of the visit; the statuses are the vehicle
 * form's. Both are stored as they are here (English, the vehicle's condition report keys them so);
 * a page shows them through conditionItemLabel and conditionStatusLabel.
 */
export const CONDITION_ITEMS = [
  'Engine',
  'Transmission',
  'Suspension',
  'Brakes',
  'Steering',
  'Tyres',
  'Battery',
  'Electricals',
  'Air conditioning',
  'Body and paint',
  'Interior',
  'Documents',
] as const;
export { INSPECTION_STATUSES as CONDITION_STATUSES };

const conditionItemKeys = {
  Engine: 'itemEngine',
  Transmission: 'itemTransmission',
  Suspension: 'itemSuspension',
  Brakes: 'itemBrakes',
  Steering: 'itemSteering',
  Tyres: 'itemTyres',
  Battery: 'itemBattery',
  Electricals: 'itemElectricals',
  'Air conditioning': 'itemAirConditioning',
  'Body and paint': 'itemBodyAndPaint',
  Interior: 'itemInterior',
  Documents: 'itemDocuments',
} as const satisfies Record<(typeof CONDITION_ITEMS)[number], string>;

const conditionStatusKeys = {
  Excellent: 'conditionExcellent',
  Good: 'conditionGood',
  Fair: 'conditionFair',
  Replaced: 'conditionReplaced',
  New: 'conditionNew',
  'Needs Attention': 'conditionNeedsAttention',
} as const satisfies Record<(typeof INSPECTION_STATUSES)[number], string>;

/** A condition item in the page's language; a name the list does not know is shown as stored. */
export function conditionItemLabel(item: string): string {
  return Object.hasOwn(conditionItemKeys, item) ? t(conditionItemKeys[item as keyof typeof conditionItemKeys]) : item;
}

/** A condition status in the page's language; a status typed on the vehicle form is shown as stored. */
export function conditionStatusLabel(status: string): string {
  return Object.hasOwn(conditionStatusKeys, status) ? t(conditionStatusKeys[status as keyof typeof conditionStatusKeys]) : status;
}

/** The inspection's statuses (migration 025) as the desk filters them. */
export const DESK_STATUSES = ['booked', 'confirmed', 'done', 'no_show', 'cancelled'] as const;
export type DeskStatus = (typeof DESK_STATUSES)[number];

export const DESK_STATUS_TONE: Record<DeskStatus, string> = {
  booked: 'bg-sky-100 text-sky-800',
  confirmed: 'bg-green-100 text-green-800',
  done: 'bg-slate-200 text-slate-800',
  no_show: 'bg-amber-100 text-amber-800',
  cancelled: 'bg-slate-100 text-slate-500 line-through',
};

/** 'expired' is worked out from the clock: an open offer past its last day. */
export type OfferState = 'open' | 'accepted' | 'declined' | 'expired';

export type Offer = {
  rupees: number;
  /** India date 'YYYY-MM-DD', the last day the seller can accept. */
  validUntil: string;
  state: OfferState;
  madeAt: string;
  answeredAt: string | null;
};

/** The offer's states in the seller's words, in the current language. */
export function offerStateLabels(): Record<OfferState, string> {
  return { open: t('offerOpen'), accepted: t('offerAccepted'), declined: t('offerDeclined'), expired: t('offerExpiredState') };
}
/** The same states in the desk's words (the seller is the one answering). */
export function deskOfferStateLabels(): Record<OfferState, string> {
  return { open: t('deskOfferOpen'), accepted: t('deskOfferAccepted'), declined: t('deskOfferDeclined'), expired: t('deskOfferExpired') };
}

export const OFFER_LIMITS = { minRupees: 1_000, maxRupees: 10_00_00_000, maxDaysValid: 30 } as const;

/** The offer form's messages, in the language of the moment they are asked for. */
export function offerMessages() {
  return {
    amount: t('offerAmountMessage'),
    validUntil: t('offerValidUntilMessage', { days: OFFER_LIMITS.maxDaysValid }),
  };
}

/** The offer form (admin): amount as typed ('4,50,000' reads as 450000), the last day as a date. */
export const offerFormSchema = z.object({
  amount: z
    .string({ error: () => offerMessages().amount })
    .transform((text) => (/^\s*₹?\s*[\d,]{1,14}\s*$/.test(text) ? Number(text.replace(/[₹\s,]/g, '')) : Number.NaN))
    .refine((value) => Number.isSafeInteger(value) && value >= OFFER_LIMITS.minRupees && value <= OFFER_LIMITS.maxRupees, {
      error: () => offerMessages().amount,
    }),
  validUntil: z.string({ error: () => offerMessages().validUntil }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: () => offerMessages().validUntil }),
});

/** The stored offer columns (migration 027), as the server reads them. */
export type StoredOffer = {
  offer_rupees: number | null;
  offer_valid_until: string | null;
  offer_status: 'open' | 'accepted' | 'declined' | null;
  offer_made_at: string | null;
  offer_answered_at: string | null;
};

/** The offer as it stands at `nowMs`: an open one past its last day (India time) is expired. */
export function offerOf(row: StoredOffer, nowMs: number): Offer | null {
  if (row.offer_status === null || row.offer_rupees === null || row.offer_valid_until === null || row.offer_made_at === null) return null;
  const state: OfferState = row.offer_status === 'open' && indiaDay(nowMs) > row.offer_valid_until ? 'expired' : row.offer_status;
  // Times as every time of the product is answered: India time with its offset.
  return {
    rupees: Number(row.offer_rupees),
    validUntil: row.offer_valid_until,
    state,
    madeAt: indiaIso(Date.parse(row.offer_made_at)),
    answeredAt: row.offer_answered_at ? indiaIso(Date.parse(row.offer_answered_at)) : null,
  };
}

/** What the desk recorded at the inspection, as the seller's profile, the desk and the API show it; null before. */
export type InspectionReport = { condition: Array<{ item: string; status: string }>; odometer: number | null; notes: string; recordedAt: string };
