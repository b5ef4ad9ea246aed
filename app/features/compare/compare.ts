/**
 * Comparing cars side by side: the limits and the `ids` parameter of /compare. Shared by the page
 * (server-rendered) and the tray (in the browser); the page's rows are in compare-rows.ts.
 */
import { compareText as t } from './compare-texts.ts';
import { parseId } from '../../lib/input.ts';

/**
 * How many cars are compared side by side: one limit for the tray, the page, the API and the
 * texts that say it, on every screen. Three, because three are what share a phone's width with
 * every column in sight (decision 038); a wider limit on desktops made a link shared from one
 * show a sideways scroll on a phone, and a phone refuse a car the page had promised.
 */
export const COMPARE_MAX = 3;

/** More text than any list of ids to compare needs; the rest of a hostile parameter is not read. */
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
  if (unreadable > 0) parts.push(t('unreadable', { count: unreadable }));
  if (leftOut > 0) parts.push(t('leftOut', { max: COMPARE_MAX }));
  return parts.length ? parts.join(' ') : null;
}
