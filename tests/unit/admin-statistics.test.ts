import { describe, expect, it } from 'vitest';
import { CHART_DAYS } from '../../app/features/admin/admin-pages.ts';
import { countPerIstDay, istDate, istDateOfSlice, istDayStart, istMonthRange, lastIstDays, SLICE_LENGTH } from '../../server/admin/statistics.ts';
import { niceMax } from '../../app/features/admin/bar-chart.tsx';

/**
 * The admin statistics: India-time (IST, UTC+05:30) day and month bucketing and the chart's
 * axis. The query itself runs against each database in tests/integration/admin-statistics-query.test.ts.
 */

describe('IST date bucketing', () => {
  it('gives the IST calendar date of an instant, which changes at 18:30 UTC', () => {
    expect(istDate(new Date('2026-05-01T18:29:59.999Z'))).toBe('2026-05-01');
    expect(istDate(new Date('2026-05-01T18:30:00.000Z'))).toBe('2026-05-02');
    expect(istDate(new Date('2026-05-01T00:00:00.000Z'))).toBe('2026-05-01');
    expect(istDate(new Date('2026-04-30T20:00:00.000Z'))).toBe('2026-05-01');
  });

  it('gives the UTC instant where an IST day begins', () => {
    expect(istDayStart('2026-05-01')).toBe('2026-04-30T18:30:00.000Z');
    expect(istDayStart('2026-01-01')).toBe('2025-12-31T18:30:00.000Z');
    expect(istDayStart('2028-03-01')).toBe('2028-02-29T18:30:00.000Z');
    expect(() => istDayStart('1 May 2026')).toThrow();
  });

  it('gives the IST calendar month as a UTC range, across month and year ends', () => {
    expect(istMonthRange(new Date('2026-05-15T06:00:00Z'))).toEqual({ month: '2026-05', start: '2026-04-30T18:30:00.000Z', end: '2026-05-31T18:30:00.000Z' });
    // 31 May, 19:00 UTC is already 1 June in India.
    expect(istMonthRange(new Date('2026-05-31T19:00:00Z'))).toEqual({ month: '2026-06', start: '2026-05-31T18:30:00.000Z', end: '2026-06-30T18:30:00.000Z' });
    expect(istMonthRange(new Date('2026-12-31T18:30:00Z'))).toEqual({ month: '2027-01', start: '2026-12-31T18:30:00.000Z', end: '2027-01-31T18:30:00.000Z' });
    expect(istMonthRange(new Date('2028-02-10T00:00:00Z')).end).toBe('2028-02-29T18:30:00.000Z');
  });

  it('lists the last days up to IST today, oldest first', () => {
    const days = lastIstDays(new Date('2026-03-02T20:00:00Z'), 5);
    expect(days).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
    expect(lastIstDays(new Date('2026-03-02T10:00:00Z'), CHART_DAYS)).toHaveLength(30);
    expect(lastIstDays(new Date('2026-03-02T10:00:00Z'), CHART_DAYS).at(-1)).toBe('2026-03-02');
  });

  it('maps ten-minute slices of UTC timestamps to IST days', () => {
    expect(SLICE_LENGTH).toBe('2026-05-01T18:3'.length);
    expect(istDateOfSlice('2026-05-01T18:2')).toBe('2026-05-01');
    expect(istDateOfSlice('2026-05-01T18:3')).toBe('2026-05-02');
    expect(istDateOfSlice('2026-05-01T23:5')).toBe('2026-05-02');
    expect(istDateOfSlice('2026-05-02T00:0')).toBe('2026-05-02');
    // A whole timestamp works the same.
    expect(istDateOfSlice('2026-05-01T18:29:59.999Z')).toBe('2026-05-01');
    expect(istDateOfSlice('garbage')).toBeNull();
    // A sold date typed by the admin is already India's day.
    expect(istDateOfSlice('2026-05-01')).toBe('2026-05-01');
    expect(istDateOfSlice('2026-02-30')).toBeNull();
    expect(istDateOfSlice('')).toBeNull();
  });

  it('adds slices up per IST day and ignores slices outside the days', () => {
    const days = ['2026-05-01', '2026-05-02'];
    const slices = [
      { slice: '2026-04-30T18:2', count: 7 }, // 30 April in India: outside
      { slice: '2026-04-30T18:3', count: 1 }, // 1 May, 00:00 IST
      { slice: '2026-05-01T12:0', count: '2' }, // PostgreSQL may send counts as text
      { slice: '2026-05-01T18:2', count: 3 }, // 1 May, 23:50 IST
      { slice: '2026-05-01T18:3', count: 4 }, // 2 May, 00:00 IST
      { slice: '2026-05-02T18:3', count: 9 }, // 3 May: outside
      { slice: 'not a time', count: 5 },
    ];
    expect(countPerIstDay(slices, days)).toEqual([6, 4]);
    expect(countPerIstDay([], days)).toEqual([0, 0]);
  });
});

describe('chart axis', () => {
  it('rounds the maximum up to 2, 4 or 10 times a power of ten, at least 2, so half of it is whole too', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 26, 51, 180].map(niceMax)).toEqual([2, 2, 2, 4, 10, 10, 20, 40, 100, 200]);
  });
});
