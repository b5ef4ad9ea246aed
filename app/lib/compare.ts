/**
 * Comparing cars side by side: the limits, the `ids` parameter of /compare and the rows the
 * compare page shows. Shared by the page (server-rendered) and the tray (in the browser).
 */
import { emiFrom, type FinanceTerms } from './emi.ts';
import { detailPriceLabel, formatDate, formatKilometres, formatRupees } from './format.ts';
import { parseId } from './input.ts';
import type { Vehicle } from './vehicle.ts';

/** Cars side by side: four on a wide screen, three on a phone (the tray's limit there). */
export const COMPARE_MAX = 4;
export const COMPARE_MAX_PHONE = 3;
/** Where a screen counts as wide for the tray (Tailwind's `lg`). */
export const WIDE_SCREEN_QUERY = '(min-width: 1024px)';

/** More text than any list of four ids needs; the rest of a hostile parameter is not read. */
const MAX_IDS_TEXT = 200;

export type CompareIds = {
  /** The cars to compare, in the order given, each once, at most COMPARE_MAX. */
  ids: number[];
  /** Entries that are not car numbers (letters, huge numbers, control characters). */
  unreadable: number;
  /** Cars left out beyond COMPARE_MAX. */
  leftOut: number;
};

/** The `ids` parameter (`12,34,56`) as car ids; never throws, whatever it holds. */
export function parseCompareIds(raw: string | null | undefined): CompareIds {
  const ids: number[] = [];
  let unreadable = 0;
  let leftOut = 0;
  const text = (raw ?? '').slice(0, MAX_IDS_TEXT);
  for (const entry of text.split(',')) {
    const token = entry.trim();
    if (!token) continue;
    const id = parseId(token);
    if (id === null) unreadable += 1;
    else if (ids.includes(id)) continue;
    else if (ids.length >= COMPARE_MAX) leftOut += 1;
    else ids.push(id);
  }
  // A parameter cut short at MAX_IDS_TEXT held more than anyone would compare.
  if ((raw ?? '').length > MAX_IDS_TEXT && ids.length >= COMPARE_MAX) leftOut = Math.max(leftOut, 1);
  return { ids, unreadable, leftOut };
}

/** What the page says about an `ids` parameter it could not take whole, or null. */
export function compareIdsNotice({ unreadable, leftOut }: CompareIds): string | null {
  const parts: string[] = [];
  if (unreadable > 0) parts.push(unreadable === 1 ? 'One entry in this link is not a car and was left out.' : `${unreadable} entries in this link are not cars and were left out.`);
  if (leftOut > 0) parts.push(`Up to ${COMPARE_MAX} cars can be compared at a time; the first ${COMPARE_MAX} are shown.`);
  return parts.length ? parts.join(' ') : null;
}

/** The registration state of an Indian registration number ('MH 12 AB 1234' -> 'MH'), or ''. */
export function registrationState(registration: string): string {
  const match = /^\s*([A-Za-z]{2})[\s-]?\d/.exec(registration);
  return match ? match[1]!.toUpperCase() : '';
}

export type CompareRow = { label: string; values: string[]; differs: boolean; group: 'specs' | 'inspection' };

/** A row differs when its values are not all the same (blank counts as a value). */
export function compareRow(label: string, values: string[], group: CompareRow['group'] = 'specs'): CompareRow {
  return { label, values, differs: new Set(values.map((value) => value.trim().toLowerCase())).size > 1, group };
}

/**
 * The compare page's rows for the cars shown, in the order; the photo and price sit in
 * the column heads. Inspection items come last, each item any of the cars has, side by side.
 */
export function compareRows(vehicles: readonly Vehicle[], terms: FinanceTerms): CompareRow[] {
  const dash = (value: string) => value.trim() || '—';
  const rows = [
    compareRow('Price', vehicles.map((vehicle) => detailPriceLabel(vehicle.price))),
    compareRow(
      'EMI from',
      vehicles.map((vehicle) => {
        const amount = emiFrom(vehicle.priceRupees, terms);
        return amount === null ? '—' : `${formatRupees(amount)}/month`;
      }),
    ),
    compareRow('Year', vehicles.map((vehicle) => dash(vehicle.year))),
    compareRow('Kilometres', vehicles.map((vehicle) => formatKilometres(vehicle.odometer))),
    compareRow('Fuel', vehicles.map((vehicle) => dash(vehicle.fuelType))),
    compareRow('Transmission', vehicles.map((vehicle) => dash(vehicle.transmission))),
    compareRow('Owners', vehicles.map((vehicle) => dash(vehicle.owners))),
    compareRow('Registration state', vehicles.map((vehicle) => registrationState(vehicle.registration) || '—')),
    compareRow('Insurance valid till', vehicles.map((vehicle) => formatDate(vehicle.insuranceValidity))),
  ];
  const items: string[] = [];
  for (const vehicle of vehicles) for (const item of Object.keys(vehicle.inspection ?? {})) if (!items.includes(item)) items.push(item);
  for (const item of items) rows.push(compareRow(item, vehicles.map((vehicle) => dash(vehicle.inspection?.[item] ?? '')), 'inspection'));
  return rows;
}

/** The rows shown: all, or with "Hide common rows" only those that differ (once there are two cars to differ). */
export function visibleRows(rows: readonly CompareRow[], hideCommon: boolean, carCount: number): CompareRow[] {
  return hideCommon && carCount > 1 ? rows.filter((row) => row.differs) : [...rows];
}
