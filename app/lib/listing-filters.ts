/**
 * The buyer's filters and sort on the listing (home, category pages and GET /api/v1/vehicles):
 * what each URL parameter means, the options the page offers, how a filter set is written back
 * into a URL, and how the values a dealer typed are read for filtering (decision 023). Shared by
 * the pages (which offer and show them) and the server (which turns them into conditions).
 *
 * Values within one filter are ORed, different filters ANDed, and all of them ANDed with `q`.
 */

import { isSlug } from './slug.ts';

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

/** The state codes of Indian registration numbers (the first two letters), with the state's name. */
export const REGISTRATION_STATES: Record<string, string> = {
  AN: 'Andaman and Nicobar', AP: 'Andhra Pradesh', AR: 'Arunachal Pradesh', AS: 'Assam', BR: 'Bihar', CG: 'Chhattisgarh',
  CH: 'Chandigarh', DD: 'Dadra, Nagar Haveli, Daman and Diu', DL: 'Delhi', DN: 'Dadra and Nagar Haveli', GA: 'Goa', GJ: 'Gujarat',
  HP: 'Himachal Pradesh', HR: 'Haryana', JH: 'Jharkhand', JK: 'Jammu and Kashmir', KA: 'Karnataka', KL: 'Kerala', LA: 'Ladakh',
  LD: 'Lakshadweep', MH: 'Maharashtra', ML: 'Meghalaya', MN: 'Manipur', MP: 'Madhya Pradesh', MZ: 'Mizoram', NL: 'Nagaland',
  OD: 'Odisha', OR: 'Odisha', PB: 'Punjab', PY: 'Puducherry', RJ: 'Rajasthan', SK: 'Sikkim', TN: 'Tamil Nadu', TR: 'Tripura',
  TS: 'Telangana', TG: 'Telangana', UK: 'Uttarakhand', UA: 'Uttarakhand', UP: 'Uttar Pradesh', WB: 'West Bengal',
};

/**
 * The city of the RTOs the dealer registers most often: searched, so "pune" finds MH-12 cars.
 * Delhi's codes are all Delhi; an office not listed is found by its state's name only.
 */
const RTO_CITIES: Record<string, string> = {
  'MH-01': 'Mumbai', 'MH-02': 'Mumbai', 'MH-03': 'Mumbai', 'MH-47': 'Mumbai', 'MH-04': 'Thane', 'MH-05': 'Kalyan', 'MH-43': 'Navi Mumbai',
  'MH-12': 'Pune', 'MH-14': 'Pune', 'MH-31': 'Nagpur', 'MH-15': 'Nashik',
  'KA-01': 'Bengaluru', 'KA-02': 'Bengaluru', 'KA-03': 'Bengaluru', 'KA-04': 'Bengaluru', 'KA-05': 'Bengaluru', 'KA-51': 'Bengaluru', 'KA-53': 'Bengaluru',
  'KA-19': 'Mangaluru', 'KA-09': 'Mysuru',
  'HR-26': 'Gurugram', 'HR-55': 'Gurugram', 'HR-51': 'Faridabad', 'UP-16': 'Noida', 'UP-14': 'Ghaziabad', 'UP-32': 'Lucknow',
  'TN-01': 'Chennai', 'TN-02': 'Chennai', 'TN-07': 'Chennai', 'TN-09': 'Chennai', 'TN-22': 'Chennai', 'TN-37': 'Coimbatore',
  'TS-07': 'Hyderabad', 'TS-08': 'Hyderabad', 'TS-09': 'Hyderabad', 'TS-10': 'Hyderabad', 'AP-39': 'Vijayawada',
  'GJ-01': 'Ahmedabad', 'GJ-05': 'Surat', 'GJ-06': 'Vadodara', 'RJ-14': 'Jaipur', 'WB-02': 'Kolkata', 'WB-06': 'Kolkata',
  'KL-07': 'Kochi', 'KL-01': 'Thiruvananthapuram', 'PB-10': 'Ludhiana', 'PB-08': 'Jalandhar', 'MP-09': 'Indore', 'MP-04': 'Bhopal',
  'CH-01': 'Chandigarh', 'GA-01': 'Panaji',
};

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

const LAKH = 100_000;

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

export const FILTER_LABELS: Record<FilterName, string> = {
  budget: 'Budget',
  make: 'Make',
  model: 'Model',
  fuel: 'Fuel',
  trans: 'Transmission',
  body: 'Body type',
  year: 'Year',
  km: 'Kilometres',
  owners: 'Owners',
  color: 'Colour',
  state: 'Registration state',
};

export function emptyFilters(): ListingFilters {
  return { budget: [], make: [], model: [], fuel: [], trans: [], body: [], year: null, km: [], owners: [], color: [], state: [] };
}

/** At most this many values of one filter count (a crafted URL with thousands is cut). */
const MAX_VALUES = 20;
const MAX_PARAM_LENGTH = 600;

// ---------------------------------------------------------------- reading what the dealer typed

/** The fuel a stored fuel type means, whatever its case ('DIESEL', 'Petrol'), or null. */
export function fuelKey(fuelType: string): Fuel | null {
  const text = fuelType.trim().toLowerCase();
  if (!text) return null;
  if (/hybrid/.test(text)) return 'hybrid';
  if (/\b(cng|lpg)\b/.test(text)) return 'cng';
  if (/electric|\bev\b/.test(text)) return 'electric';
  if (/diesel/.test(text)) return 'diesel';
  if (/petrol|gasoline/.test(text)) return 'petrol';
  return null;
}

/** Manual or automatic (AMT, CVT, DCT, AT count as automatic), or null. */
export function transmissionKey(transmission: string): TransmissionKey | null {
  const text = transmission.trim().toLowerCase();
  if (!text) return null;
  // iMT (a clutchless manual) still has a gear lever.
  if (/manual|\b(i?mt)\b/.test(text)) return 'manual';
  if (/auto|\b(amt|cvt|dct|at|ivt|dsg)\b/.test(text)) return 'automatic';
  return null;
}

/** The number of owners in '1st Owner', 'Second owner', '2', or null. */
export function ownerCount(owners: string): number | null {
  const text = owners.trim().toLowerCase();
  const digits = /(\d+)/.exec(text);
  if (digits) {
    const count = Number(digits[1]);
    return count >= 1 && count <= 20 ? count : null;
  }
  const words = ['first', 'second', 'third', 'fourth', 'fifth'];
  const index = words.findIndex((word) => text.includes(word));
  if (index >= 0) return index + 1;
  if (/single|one/.test(text)) return 1;
  return null;
}

/** The four-digit model year in '2019', '2019 (Dec)', or null. */
export function modelYear(year: string): number | null {
  const match = /\b(19[5-9]\d|20\d\d)\b/.exec(year);
  return match ? Number(match[1]) : null;
}

/** The state code at the start of a registration number ('MH-02', 'ka 05 ab 1234'), or ''. */
export function registrationState(registration: string): string {
  const code = /^\s*([a-z]{2})(?![a-z])/i.exec(registration)?.[1]?.toUpperCase() ?? '';
  return code in REGISTRATION_STATES ? code : '';
}

/** The RTO's city and the state's name, for the searched text ('Pune Maharashtra'). */
export function registrationPlace(registration: string): string {
  const state = registrationState(registration);
  if (!state) return '';
  const office = /^\s*[a-z]{2}[\s-]*(\d{1,2})/i.exec(registration)?.[1];
  const rto = office ? `${state}-${office.padStart(2, '0')}` : '';
  const city = state === 'DL' ? 'Delhi' : (RTO_CITIES[rto] ?? '');
  return [city, REGISTRATION_STATES[state]].filter((part, index, all) => part && all.indexOf(part) === index).join(' ');
}

/** A body type stored or typed ('SUV', 'suv'), or '' for none or one not in the list. */
export function bodyTypeKey(text: string): BodyType | '' {
  const key = text.trim().toLowerCase();
  return key in BODY_TYPES ? (key as BodyType) : '';
}

export function bodyTypeLabel(key: string): string {
  return BODY_TYPES[key as BodyType] ?? key;
}

export function colourLabel(key: string): string {
  return COLOURS[key as Colour] ?? key;
}

/**
 * The colour named in a text (an older car's description, 'Pearl white, single owner'), for
 * filling in the colour of cars added before it was a field; '' when none is named.
 */
export function colourIn(text: string): Colour | '' {
  const lower = text.toLowerCase();
  const words: Array<[RegExp, Colour]> = [
    [/\b(pearl |arctic |polar |snow |candy )?white\b/, 'white'],
    [/\bsilver\b/, 'silver'],
    [/\b(grey|gray|graphite|gunmetal)\b/, 'grey'],
    [/\bblack\b/, 'black'],
    [/\bmaroon\b/, 'maroon'],
    [/\bred\b/, 'red'],
    [/\bblue\b/, 'blue'],
    [/\bbrown\b/, 'brown'],
    [/\bbeige\b/, 'beige'],
    [/\borange\b/, 'orange'],
    [/\byellow\b/, 'yellow'],
    [/\bgreen\b/, 'green'],
  ];
  let best: { at: number; colour: Colour } | null = null;
  for (const [pattern, colour] of words) {
    const at = lower.search(pattern);
    if (at >= 0 && (best === null || at < best.at)) best = { at, colour };
  }
  return best?.colour ?? '';
}

// ---------------------------------------------------------------- the URL parameters

export type ParsedListingQuery = { filters: ListingFilters; sort: Sort; problems: string[] };

function list(values: string[]): string[] {
  // A plain GET form's checkboxes repeat the parameter (fuel=petrol&fuel=diesel); a link joins
  // the values with commas. Both mean the same list.
  const value = values.join(',');
  if (!value) return [];
  // A crafted list longer than any real one is cut at the last whole value within the limit.
  const text = value.length > MAX_PARAM_LENGTH ? value.slice(0, value.lastIndexOf(',', MAX_PARAM_LENGTH)) : value;
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].slice(0, MAX_VALUES);
}

/** 'a-b', 'a-' or '-b' with a and b numbers of at most `digits` digits; null when it is not one. */
function parseRange(text: string, scale: number, decimals: boolean): NumberRange | null {
  const number = decimals ? '(\\d{1,4}(?:\\.\\d{1,2})?)' : '(\\d{1,9})';
  const match = new RegExp(`^${number}?-${number}?$`).exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  const min = match[1] === undefined ? null : Math.round(Number(match[1]) * scale);
  const max = match[2] === undefined ? null : Math.round(Number(match[2]) * scale);
  if (min !== null && max !== null && min >= max) return null;
  return { min, max };
}

function writeRange(range: NumberRange, scale: number): string {
  const end = (value: number | null) => (value === null ? '' : String(value / scale));
  return `${end(range.min)}-${end(range.max)}`;
}

/**
 * The filters and sort in a listing URL. Forgiving, as paging is (decision 012): a value that
 * means nothing is left out and named in `problems`, which the API answers with 400 and the
 * pages simply ignore (the visitor sees the cars without that filter, and its chip is absent).
 */
export function parseListingQuery(params: URLSearchParams): ParsedListingQuery {
  const filters = emptyFilters();
  const problems: string[] = [];
  const known = <Key extends string>(name: FilterName, options: Record<Key, string>, values: string[]): Key[] => {
    const good = values.filter((value): value is Key => Object.hasOwn(options, value));
    if (good.length < values.length) problems.push(`${name} must be one or more of ${Object.keys(options).join(', ')}, separated by commas`);
    return good;
  };

  for (const value of list(params.getAll('budget'))) {
    const range = parseRange(value, LAKH, true);
    if (range) filters.budget.push(range);
    else problems.push('budget must be lakh ranges such as 5-8, -3 or 20-, separated by commas');
  }
  const slugs = (name: 'make' | 'model') => {
    const values = list(params.getAll(name));
    const good = values.filter((value) => isSlug(value));
    if (good.length < values.length) problems.push(`${name} must be slugs such as maruti-suzuki, separated by commas`);
    return good;
  };
  filters.make = slugs('make');
  filters.model = slugs('model');
  filters.fuel = known('fuel', FUELS, list(params.getAll('fuel')));
  filters.trans = known('trans', TRANSMISSION_KEYS, list(params.getAll('trans')));
  filters.body = known('body', BODY_TYPES, list(params.getAll('body')));
  const year = params.get('year');
  if (year) {
    const range = parseRange(year.trim(), 1, false);
    if (range && (range.min === null || range.min >= 1950) && (range.max === null || range.max <= 2100)) {
      // Both ends included for years: '2015-2019' is five model years.
      filters.year = range;
    } else if (/^\d{4}$/.test(year.trim())) {
      filters.year = { min: Number(year.trim()), max: Number(year.trim()) };
    } else {
      problems.push('year must be a range of years such as 2019-, -2015 or 2015-2019');
    }
  }
  for (const value of list(params.getAll('km'))) {
    const range = parseRange(value, 1, false);
    if (range) filters.km.push(range);
    else problems.push('km must be kilometre ranges such as -50000 or 25000-50000, separated by commas');
  }
  for (const value of list(params.getAll('owners'))) {
    if (value === '1' || value === '2' || value === '3') filters.owners.push(Number(value) as OwnerOption);
    else problems.push('owners must be 1, 2 or 3 (3 meaning three or more), separated by commas');
  }
  filters.color = known('color', COLOURS, list(params.getAll('color')));
  const states = list(params.getAll('state')).map((value) => value.toUpperCase());
  filters.state = states.filter((value) => value in REGISTRATION_STATES);
  if (filters.state.length < states.length) problems.push('state must be registration state codes such as MH, KA or DL, separated by commas');

  const sortParam = params.get('sort');
  let sort: Sort = DEFAULT_SORT;
  if (sortParam && Object.hasOwn(SORTS, sortParam)) sort = sortParam as Sort;
  else if (sortParam) problems.push(`sort must be one of ${Object.keys(SORTS).join(', ')}`);
  return { filters, sort, problems: [...new Set(problems)] };
}

/** Each filter's values as its URL parameter writes them (empty when the filter is off). */
export function filterValues(filters: ListingFilters): Record<FilterName, string[]> {
  return {
    budget: filters.budget.map((range) => writeRange(range, LAKH)),
    make: filters.make,
    model: filters.model,
    fuel: filters.fuel,
    trans: filters.trans,
    body: filters.body,
    year: filters.year ? [filters.year.min !== null && filters.year.min === filters.year.max ? String(filters.year.min) : writeRange(filters.year, 1)] : [],
    km: filters.km.map((range) => writeRange(range, 1)),
    owners: filters.owners.map(String),
    color: filters.color,
    state: filters.state,
  };
}

/** How many filter values are on: the SEO rule (one is a landing page, more are not) counts these. */
export function activeFilterCount(filters: ListingFilters): number {
  return Object.values(filterValues(filters)).reduce((sum, values) => sum + values.length, 0);
}

/** The URL parameters of a listing, in a fixed order so equal listings have equal URLs. */
export function listingParams(state: { q?: string; category?: string; filters: ListingFilters; sort?: Sort; page?: number }): URLSearchParams {
  const params = new URLSearchParams();
  if (state.category) params.set('category', state.category);
  if (state.q?.trim()) params.set('q', state.q.trim());
  const values = filterValues(state.filters);
  for (const name of FILTER_NAMES) if (values[name].length > 0) params.set(name, values[name].join(','));
  if (state.sort && state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  if (state.page && state.page > 1) params.set('page', String(state.page));
  return params;
}

/** `filters` without one value of one filter (a chip's link), or without the whole filter. */
export function withoutFilter(filters: ListingFilters, name: FilterName, value?: string): ListingFilters {
  const next: ListingFilters = { ...filters };
  if (name === 'year') next.year = null;
  else if (value === undefined) (next[name] as unknown[]) = [];
  else {
    const written = filterValues(filters)[name];
    (next[name] as unknown[]) = (filters[name] as unknown[]).filter((_, index) => written[index] !== value);
  }
  return next;
}

/** A chip's text for one value of one filter. */
export function chipLabel(name: FilterName, value: string, names: { make?: Record<string, string>; model?: Record<string, string> } = {}): string {
  switch (name) {
    case 'budget':
      return BUDGET_BUCKETS.find((bucket) => bucket.value === value)?.label ?? `₹${value.replace('-', '–')} lakh`;
    case 'km':
      return KM_BUCKETS.find((bucket) => bucket.value === value)?.label ?? `${value.replace('-', '–')} km`;
    case 'year': {
      const [from, to] = value.split('-');
      if (!value.includes('-')) return value;
      if (from && to) return `${from}–${to}`;
      return from ? `${from} or newer` : `${to} or older`;
    }
    case 'make':
      return names.make?.[value] ?? value;
    case 'model':
      return names.model?.[value] ?? value;
    case 'fuel':
      return FUELS[value as Fuel] ?? value;
    case 'trans':
      return TRANSMISSION_KEYS[value as TransmissionKey] ?? value;
    case 'body':
      return bodyTypeLabel(value);
    case 'owners':
      return OWNER_OPTIONS[Number(value) as OwnerOption] ?? value;
    case 'color':
      return colourLabel(value);
    case 'state':
      return `${value} (${REGISTRATION_STATES[value] ?? value})`;
  }
}

// ---------------------------------------------------------------- facet counts

export type FacetOption = { value: string; label: string; count: number };
/** Each filter's options, each with the number of cars it would give with the other filters as they are. */
export type Facets = Record<FilterName, FacetOption[]>;
