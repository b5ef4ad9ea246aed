import { browseText as t } from './i18n/browse.ts';
import { bodyTypeLabel, fuelLabel } from './listing-filters/options.ts';
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

/**
 * The settings keep the admin's words as typed; while they are still the defaults above (English,
 * as the settings store them), a page shows the defaults in its own language.
 */
export function storefrontPromiseText(promise: string): string {
  return promise === DEFAULT_STOREFRONT_PROMISE ? t('defaultPromise') : promise;
}

const TRUST_POINT_KEYS = {
  '140-point inspection': 'trust_inspection',
  '6-month warranty': 'trust_warranty',
  'Easy EMI': 'trust_emi',
  'Free RC transfer': 'trust_rc',
  '5-day money-back': 'trust_moneyBack',
} as const satisfies Record<(typeof DEFAULT_TRUST_POINTS)[number], string>;

export function trustPointText(point: string): string {
  return Object.hasOwn(TRUST_POINT_KEYS, point) ? t(TRUST_POINT_KEYS[point as keyof typeof TRUST_POINT_KEYS]) : point;
}

export function priceIncludesText(priceIncludes: string): string {
  return priceIncludes === DEFAULT_PRICE_INCLUDES ? t('defaultPriceIncludes') : priceIncludes;
}
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

/**
 * Price buckets in lakh (₹1,00,000): `budget=5-8`, open ends as `-3` and `20-`, named by the
 * budget filter's bucket texts. Read by their keys, not through the filter table
 * (listing-filters/catalogue.ts), which would bring the listing's parsers into the home page's
 * script (decision 108).
 */
export function budgetChips(): EntryChip[] {
  return (['-3', '3-5', '5-8', '8-12', '12-20'] as const)
    .map((budget) => chip(t(`budget_${budget}`), { budget }))
    .concat(chip(t('aboveTwentyLakh'), { budget: '20-' }));
}

export function bodyChips(): EntryChip[] {
  return ['hatchback', 'sedan', 'suv', 'muv', 'luxury'].map((body) => chip(bodyTypeLabel(body), { body }));
}

export function fuelChips(): EntryChip[] {
  return ['petrol', 'diesel', 'cng', 'electric'].map((fuel) => chip(fuelLabel(fuel), { fuel }));
}

/** Makes are names: the same in every language. */
export const makeChips: EntryChip[] = [
  chip('Maruti Suzuki', { make: 'maruti-suzuki' }),
  chip('Hyundai', { make: 'hyundai' }),
  chip('Tata', { make: 'tata' }),
  chip('Mahindra', { make: 'mahindra' }),
  chip('Honda', { make: 'honda' }),
  chip('Toyota', { make: 'toyota' }),
  chip('Kia', { make: 'kia' }),
];

/** The storefront's rows of ways into the listing, in the page's language. */
export function entryRows() {
  return [
    { title: t('byBudget'), chips: budgetChips() },
    { title: t('byBody'), chips: bodyChips() },
    { title: t('byFuel'), chips: fuelChips() },
    { title: t('popularMakes'), chips: makeChips },
  ];
}

/** How many featured cars the home page shows above the listing. */
export const FEATURED_ON_HOME = 4;

/**
 * The storefront shows on the plain home page only: a search, a filter or a later page goes
 * straight to the results.
 */
export function showsStorefront(searchParams: URLSearchParams): boolean {
  return [...searchParams.keys()].every((key) => key === 'page') && (searchParams.get('page') ?? '1') === '1';
}
