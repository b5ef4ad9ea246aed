import { describe, expect, it } from 'vitest';
import { lastValidDay, validityOf } from '../../app/lib/validity.ts';

describe("a car's paper validity", () => {
  const today = '2026-11-25';

  it('says Expired for a date in the past, however long ago', () => {
    expect(validityOf('2026-11-24', today)).toEqual({ state: 'expired', label: 'Expired' });
    expect(validityOf('2026-08-01', today)).toEqual({ state: 'expired', label: 'Expired' });
  });

  it('counts the days within 30 days, and says today on the last day', () => {
    expect(validityOf('2026-11-25', today)).toEqual({ state: 'soon', label: 'Expires today' });
    expect(validityOf('2026-11-26', today)).toEqual({ state: 'soon', label: 'Expires in 1 day' });
    expect(validityOf('2026-12-25', today)).toEqual({ state: 'soon', label: 'Expires in 30 days' });
  });

  it('says nothing while the paper runs longer than 30 days, or when the text is no date', () => {
    expect(validityOf('2026-12-26', today)).toBeNull();
    expect(validityOf('', today)).toBeNull();
    expect(validityOf('Valid', today)).toBeNull();
    expect(validityOf(null, today)).toBeNull();
  });

  it('reads a month and year as valid to the end of that month', () => {
    expect(lastValidDay('Valid till Jul 2036')).toBe('2036-07-31');
    expect(lastValidDay('Feb 2028')).toBe('2028-02-29');
    expect(validityOf('Valid till Nov 2026', today)).toEqual({ state: 'soon', label: 'Expires in 5 days' });
    expect(validityOf('Valid till Oct 2026', today)).toEqual({ state: 'expired', label: 'Expired' });
  });
});
