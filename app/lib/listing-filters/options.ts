/**
 * The buyer's filters and sort on the listing (home, category pages and GET /api/v1/vehicles),
 * decision 023: which filters there are, the options each offers and their labels, and the
 * filter set itself. Shared by the pages (which offer and show them) and the server (which
 * turns them into conditions, server/catalog/filters.ts). The URL parameters are read and
 * written by url.ts, a chip's text by chips.ts, registration numbers by registration.ts.
 *
 * Values within one filter are ORed, different filters ANDed, and all of them ANDed with `q`.
 *
 * The tables below hold the values and their English names (the words the search index and the
 * admin form use); what a page shows is read through the label functions further down
 * (bodyTypeLabel, fuelLabel, …), in the page's language.
 */
import { browseText as t } from '../i18n/browse.ts';

/** Body types an admin picks per vehicle; the stored value is the key. */
export const BODY_TYPES = {
  hatchback: 'Hatchback',
  sedan: 'Sedan',
  suv: 'SUV',
  muv: 'MUV',
  luxury: 'Luxury',
  pickup: 'Pickup',
  coupe: 'Coupe',
  convertible: 'Convertible',
  van: 'Van',
} as const;
export type BodyType = keyof typeof BODY_TYPES;

/** Colours an admin picks per vehicle; the stored value is the key. */
export const COLOURS = {
  white: 'White',
  silver: 'Silver',
  grey: 'Grey',
  black: 'Black',
  red: 'Red',
  maroon: 'Maroon',
  blue: 'Blue',
  brown: 'Brown',
  beige: 'Beige',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
} as const;
export type Colour = keyof typeof COLOURS;

export const FUELS = { petrol: 'Petrol', diesel: 'Diesel', cng: 'CNG', electric: 'Electric', hybrid: 'Hybrid' } as const;
export type Fuel = keyof typeof FUELS;

export const TRANSMISSION_KEYS = { manual: 'Manual', automatic: 'Automatic' } as const;
export type TransmissionKey = keyof typeof TRANSMISSION_KEYS;

/** Owners: 1, 2, or 3 meaning three or more. */
export const OWNER_OPTIONS = { 1: '1st owner', 2: '2nd owner', 3: '3 or more owners' } as const;
export type OwnerOption = 1 | 2 | 3;

/** Lakh buckets of the budget filter, as `budget` writes them. */
export const BUDGET_BUCKETS = [
  { value: '-3', label: 'Under ₹3 lakh' },
  { value: '3-5', label: '₹3–5 lakh' },
  { value: '5-8', label: '₹5–8 lakh' },
  { value: '8-12', label: '₹8–12 lakh' },
  { value: '12-20', label: '₹12–20 lakh' },
  { value: '20-', label: 'Over ₹20 lakh' },
] as const;

/** Kilometre buckets of the km filter, as `km` writes them. */
export const KM_BUCKETS = [
  { value: '-25000', label: 'Under 25,000 km' },
  { value: '25000-50000', label: '25,000–50,000 km' },
  { value: '50000-75000', label: '50,000–75,000 km' },
  { value: '75000-100000', label: '75,000 km–1 lakh km' },
  { value: '100000-', label: 'Over 1 lakh km' },
] as const;

export const SORTS = {
  newest: 'Newest first',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  year_desc: 'Year: newest model first',
  km_asc: 'Kilometres: lowest first',
} as const;
export type Sort = keyof typeof SORTS;
export const DEFAULT_SORT: Sort = 'newest';

/** A range of whole numbers, both ends included when given; `max` is exclusive for lakh buckets (see rangeBounds). */
export type NumberRange = { min: number | null; max: number | null };

export type ListingFilters = {
  /** Rupee ranges: [min, max) so the buckets 5–8 and 8–12 never share a car. */
  budget: NumberRange[];
  make: string[];
  model: string[];
  fuel: Fuel[];
  trans: TransmissionKey[];
  body: BodyType[];
  /** Model years, both ends included. */
  year: NumberRange | null;
  /** Kilometre ranges: [min, max). */
  km: NumberRange[];
  owners: OwnerOption[];
  color: Colour[];
  state: string[];
};

/** The filters in the order their parameters are written and their chips shown. */
export const FILTER_NAMES = ['budget', 'make', 'model', 'fuel', 'trans', 'body', 'year', 'km', 'owners', 'color', 'state'] as const satisfies readonly (keyof ListingFilters)[];
export type FilterName = (typeof FILTER_NAMES)[number];

/** A filter's name as the form's group and the API's facets show it. */
export function filterLabel(name: FilterName): string {
  return t(`filter_${name}`);
}

export function emptyFilters(): ListingFilters {
  return { budget: [], make: [], model: [], fuel: [], trans: [], body: [], year: null, km: [], owners: [], color: [], state: [] };
}

/** A body type's name in the page's language; a key not in the list as it is. */
export function bodyTypeLabel(key: string): string {
  return Object.hasOwn(BODY_TYPES, key) ? t(`body_${key as BodyType}`) : key;
}

export function colourLabel(key: string): string {
  return Object.hasOwn(COLOURS, key) ? t(`colour_${key as Colour}`) : key;
}

export function fuelLabel(key: string): string {
  return Object.hasOwn(FUELS, key) ? t(`fuel_${key as Fuel}`) : key;
}

export function transmissionLabel(key: string): string {
  return Object.hasOwn(TRANSMISSION_KEYS, key) ? t(`trans_${key as TransmissionKey}`) : key;
}

/** A car's fuel when it is exactly a name of the admin's list ('Petrol', 'CNG'), in the page's language; other typed text as it is. */
export function typedFuelText(typed: string): string {
  const key = Object.keys(FUELS).find((fuel) => FUELS[fuel as Fuel] === typed);
  return key ? fuelLabel(key) : typed;
}

/** A car's transmission when it is exactly 'Manual' or 'Automatic', in the page's language; other typed text as it is. */
export function typedTransmissionText(typed: string): string {
  const key = Object.keys(TRANSMISSION_KEYS).find((transmission) => TRANSMISSION_KEYS[transmission as TransmissionKey] === typed);
  return key ? transmissionLabel(key) : typed;
}

/** '1st owner', '2nd owner', '3 or more owners'; anything else as it is. */
export function ownerLabel(value: string | number): string {
  return Object.hasOwn(OWNER_OPTIONS, String(value)) ? t(`owners_${Number(value) as OwnerOption}`) : String(value);
}

/** A budget bucket's text ('₹5–8 lakh'), or null for a range that is not one of the buckets. */
export function budgetLabel(value: string): string | null {
  const bucket = BUDGET_BUCKETS.find((known) => known.value === value);
  return bucket ? t(`budget_${bucket.value}`) : null;
}

/** A kilometre bucket's text ('Under 25,000 km'), or null for a range that is not one of the buckets. */
export function kmLabel(value: string): string | null {
  const bucket = KM_BUCKETS.find((known) => known.value === value);
  return bucket ? t(`km_${bucket.value}`) : null;
}

export function sortLabel(sort: Sort): string {
  return t(`sort_${sort}`);
}

export type FacetOption = { value: string; label: string; count: number };
/** Each filter's options, each with the number of cars it would give with the other filters as they are. */
export type Facets = Record<FilterName, FacetOption[]>;
