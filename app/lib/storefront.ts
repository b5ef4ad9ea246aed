import { paths } from './paths.ts';

/**
 * What the home page opens with before the listing: the dealer's promise, its trust points
 * (both admin settings, these are their defaults) and the ways into the filtered listing.
 * The chips link with the listing's filter parameters (`budget`, `body`, `fuel`, `make`); the
 * listing reads them, so a chip is an ordinary link that works without JavaScript.
 */

export const DEFAULT_STOREFRONT_PROMISE = 'Inspected used cars with a warranty, easy EMI and free RC transfer, and self-drive cars to rent.';

export const DEFAULT_TRUST_POINTS = ['140-point inspection', '6-month warranty', 'Easy EMI', 'Free RC transfer', '5-day money-back'] as const;

/** What the one price of a car includes, said beside it (an admin setting; decision 062). */
export const DEFAULT_PRICE_INCLUDES = 'Includes RC transfer and insurance';
export const MAX_PRICE_INCLUDES_LENGTH = 80;

export const MAX_TRUST_POINTS = 6;
export const MAX_TRUST_POINT_LENGTH = 40;
export const MAX_PROMISE_LENGTH = 160;

/** The trust points as the settings keep them (one per line) into a list, blank lines dropped. */
export function trustPointList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, MAX_TRUST_POINTS);
}


export type EntryChip = { label: string; href: string };

const chip = (label: string, filter: Record<string, string>): EntryChip => ({ label, href: paths.browse(filter) });

/** Price buckets in lakh (₹1,00,000): `budget=5-8`, open ends as `-3` and `20-`. */
export const budgetChips: EntryChip[] = [
  chip('Under ₹3 lakh', { budget: '-3' }),
  chip('₹3–5 lakh', { budget: '3-5' }),
  chip('₹5–8 lakh', { budget: '5-8' }),
  chip('₹8–12 lakh', { budget: '8-12' }),
  chip('₹12–20 lakh', { budget: '12-20' }),
  chip('Above ₹20 lakh', { budget: '20-' }),
];

export const bodyChips: EntryChip[] = [
  chip('Hatchback', { body: 'hatchback' }),
  chip('Sedan', { body: 'sedan' }),
  chip('SUV', { body: 'suv' }),
  chip('MUV', { body: 'muv' }),
  chip('Luxury', { body: 'luxury' }),
];

export const fuelChips: EntryChip[] = [
  chip('Petrol', { fuel: 'petrol' }),
  chip('Diesel', { fuel: 'diesel' }),
  chip('CNG', { fuel: 'cng' }),
  chip('Electric', { fuel: 'electric' }),
];

export const makeChips: EntryChip[] = [
  chip('Maruti Suzuki', { make: 'maruti-suzuki' }),
  chip('Hyundai', { make: 'hyundai' }),
  chip('Tata', { make: 'tata' }),
  chip('Mahindra', { make: 'mahindra' }),
  chip('Honda', { make: 'honda' }),
  chip('Toyota', { make: 'toyota' }),
  chip('Kia', { make: 'kia' }),
];

export const entryRows = [
  { title: 'By budget', chips: budgetChips },
  { title: 'By body type', chips: bodyChips },
  { title: 'By fuel', chips: fuelChips },
  { title: 'Popular makes', chips: makeChips },
] as const;

/** How many featured cars the home page shows above the listing. */
export const FEATURED_ON_HOME = 4;

/**
 * The storefront shows on the plain home page only: a search, a filter or a later page goes
 * straight to the results.
 */
export function showsStorefront(searchParams: URLSearchParams): boolean {
  return [...searchParams.keys()].every((key) => key === 'page') && (searchParams.get('page') ?? '1') === '1';
}
