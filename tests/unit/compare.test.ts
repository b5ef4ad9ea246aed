import { describe, expect, it } from 'vitest';
import { COMPARE_MAX, compareIdsNotice, parseCompareIds } from '../../app/features/compare/compare.ts';
import { compareText } from '../../app/features/compare/compare-texts.ts';
import { compareRow, visibleRows } from '../../app/features/compare/compare-rows.ts';

/** The `ids` of /compare, whatever they hold, and which rows differ. */
describe('compare ids', () => {
  it('reads car ids in order, each once, at most three', () => {
    expect(COMPARE_MAX).toBe(3);
    expect(parseCompareIds('12,34,56')).toEqual({ ids: [12, 34, 56], unreadable: 0, leftOut: 0 });
    expect(parseCompareIds(' 12 , 12,34 ')).toEqual({ ids: [12, 34], unreadable: 0, leftOut: 0 });
    expect(parseCompareIds('1,2,3,4,5,6')).toEqual({ ids: [1, 2, 3], unreadable: 0, leftOut: 3 });
    expect(parseCompareIds(null)).toEqual({ ids: [], unreadable: 0, leftOut: 0 });
  });

  it('counts what is not a car id instead of failing', () => {
    expect(parseCompareIds('abc,1\u00002,-1,0,1.5,99999999999999999999,2147483648,7')).toEqual({ ids: [7], unreadable: 7, leftOut: 0 });
    expect(compareIdsNotice(parseCompareIds('abc'))).toBe('One entry in this link is not a car and was left out.');
    expect(compareIdsNotice(parseCompareIds('1,2,3,4,5'))).toBe('Up to 3 cars can be compared at a time; the first 3 are shown.');
    expect(compareIdsNotice(parseCompareIds('1,2'))).toBeNull();
  });

  it('reads only the start of a huge parameter', () => {
    const many = Array.from({ length: 500 }, (_, index) => index + 1).join(',');
    const parsed = parseCompareIds(many);
    expect(parsed.ids).toEqual([1, 2, 3]);
    expect(parsed.leftOut).toBeGreaterThan(0);
    expect(parseCompareIds('x'.repeat(100_000)).unreadable).toBe(1);
  });
});

describe('the compare limit', () => {
  it('is said with the one limit, in both languages, on every screen', () => {
    // The empty page and the tray's refusal: no "four" on a page while a phone refuses a fourth.
    expect(compareText('tapCompare', { max: COMPARE_MAX }, 'en')).toBe('Tap “Compare” on up to 3 cars to see them side by side.');
    expect(compareText('tapCompare', { max: COMPARE_MAX }, 'hi')).toBe('ज़्यादा से ज़्यादा 3 कारों पर “तुलना करें” दबाएँ और उन्हें साथ-साथ देखें।');
    expect(compareText('limit', { limit: COMPARE_MAX }, 'en')).toBe('You can compare up to 3 cars. Remove one to add another.');
  });
});

describe('compare rows', () => {
  it('marks a row as differing when any value differs, ignoring case and spaces', () => {
    expect(compareRow('Fuel', ['Petrol', ' petrol']).differs).toBe(false);
    expect(compareRow('Fuel', ['Petrol', 'Diesel']).differs).toBe(true);
  });

  it('hides common rows only when there are two cars to differ', () => {
    const rows = [compareRow('Fuel', ['Petrol', 'Petrol']), compareRow('Year', ['2019', '2020'])];
    expect(visibleRows(rows, true, 2).map((row) => row.label)).toEqual(['Year']);
    expect(visibleRows(rows, false, 2)).toHaveLength(2);
    expect(visibleRows([compareRow('Fuel', ['Petrol'])], true, 1)).toHaveLength(1);
  });
});
