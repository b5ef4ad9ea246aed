import { describe, expect, it } from 'vitest';
import { ageOn, parseIsoDate, parseLicenceNumber } from '../../app/features/rentals/licence.ts';
import { parseWith } from '../../app/lib/form-errors.ts';
import { licenceAgeProblem, licenceFieldsSchema, licenceMessages } from '../../app/features/rentals/licence-schemas.ts';
import { localRedirect } from '../../app/lib/paths.ts';
import { bodyClassFor } from '../../server/http/body-limit.ts';
import { indiaDay } from '../../app/lib/india-time.ts';

describe('driving licence rules', () => {
  it('reads licence numbers as people type them', () => {
    expect(parseLicenceNumber('dl-14 2011 0012345')).toBe('DL1420110012345');
    expect(parseLicenceNumber('MH02/2015/0034567')).toBe('MH0220150034567');
    expect(parseLicenceNumber('12')).toBeNull();
    expect(parseLicenceNumber('1234567890')).toBeNull();
    expect(parseLicenceNumber('DL14\u000020110012345')).toBeNull();
    expect(parseLicenceNumber('DL'.padEnd(40, '1'))).toBeNull();
    expect(parseLicenceNumber(undefined)).toBeNull();
  });

  it('takes only real calendar dates', () => {
    expect(parseIsoDate('1990-05-01')).toBe('1990-05-01');
    expect(parseIsoDate('1990-02-30')).toBeNull();
    expect(parseIsoDate('01/05/1990')).toBeNull();
    expect(parseIsoDate(42)).toBeNull();
  });

  it('counts age in whole years, birthday included, in India time', () => {
    expect(ageOn('2005-12-01', '2026-11-30')).toBe(20);
    expect(ageOn('2005-12-01', '2026-12-01')).toBe(21);
    // 20:00 UTC on 30 Nov is already 1 Dec in India.
    expect(indiaDay(Date.UTC(2026, 10, 30, 20, 0))).toBe('2026-12-01');
  });

  it('refuses the under-aged with a message on the field', () => {
    const schema = licenceFieldsSchema;
    // Old enough is a rule of the day (licenceAgeProblem), asked beside the schema with India's date.
    expect(licenceAgeProblem('2010-01-01', '2026-11-23')).toMatch(/at least 18/);
    expect(licenceAgeProblem('1900-01-01', '2026-11-23')).toBe(licenceMessages.checkDateOfBirth);
    expect(licenceAgeProblem('1990-01-01', '2026-11-23')).toBeNull();
    expect(parseWith(schema, { number: 'dl-14 2011 0012345', dateOfBirth: '1990-01-01' })).toEqual({
      ok: true,
      value: { number: 'DL1420110012345', dateOfBirth: '1990-01-01' },
    });
    const missing = parseWith(schema, {});
    expect(missing.ok || missing.fields).toEqual({ number: licenceMessages.number, dateOfBirth: licenceMessages.dateOfBirth });
  });

  it('gives the licence forms an upload limit of two photos', () => {
    for (const path of ['/profile/licence', '/profile/licence.data', '/api/v1/me/licence']) expect(bodyClassFor(path).upload?.maxFiles, path).toBe(2);
  });

  it('sends people back only to paths of this site', () => {
    expect(localRedirect('/rent/3?from=2026-12-01T10:00')).toBe('/rent/3?from=2026-12-01T10:00');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/a\nb', '', null])
      expect(localRedirect(bad), String(bad)).toBeNull();
  });
});
