import { describe, expect, it } from 'vitest';
import {
  financialYear,
  invoiceNumber,
  isChassisNumber,
  isEngineNumber,
  isPan,
  normaliseChassis,
  normalisePan,
  seriesName,
} from '../../app/features/sales/sale-rules.ts';
import { SALE_EVENTS, SALE_STATUSES, SALE_TRANSITIONS } from '../../server/sales/sale-transitions.ts';
import { expectOnlyTheseMoves, readableTable } from '../support/transitions.ts';

describe('the rules of a sale (decision 114)', () => {
  it('reads a PAN in the shape AAAAA9999A, its fourth letter a holder kind', () => {
    expect(normalisePan(' abcpk 1234f ')).toBe('ABCPK1234F');
    for (const pan of ['ABCPK1234F', 'AAACR5055K', 'AAPFU0939F']) expect(isPan(pan)).toBe(true);
    for (const pan of ['ABCPK1234', 'ABCPK12345', '1BCPK1234F', 'ABCXK1234F', 'abcpk1234f', '']) expect(isPan(pan)).toBe(false);
  });

  it('reads a chassis number as a 17-character VIN without I, O or Q, and an engine number of 6 to 20 letters and digits', () => {
    expect(normaliseChassis('ma3-ewde1s 00123456')).toBe('MA3EWDE1S00123456');
    expect(isChassisNumber('MA3EWDE1S00123456')).toBe(true);
    expect(isChassisNumber('MAT123456789ABCDE')).toBe(true);
    for (const vin of ['MA3EWDE1S0012345', 'MA3EWDE1S001234567', 'MA3EWDE1SO0123456', 'MA3EWDE1SI0123456', 'MA3EWDE1SQ0123456', 'MA3EWDE1S0012345!'])
      expect(isChassisNumber(vin)).toBe(false);
    expect(isEngineNumber('K12MN1234567')).toBe(true);
    expect(isEngineNumber('K12M')).toBe(false);
  });

  it('counts the financial year from 1 April, India time', () => {
    // 31 March 2027, 23:59 in India is still 2026-27; a minute later it is 2027-28.
    expect(financialYear(Date.parse('2027-03-31T18:29:00Z'))).toBe('2026-27');
    expect(financialYear(Date.parse('2027-03-31T18:30:00Z'))).toBe('2027-28');
    expect(financialYear(Date.parse('2026-04-01T00:00:00+05:30'))).toBe('2026-27');
    expect(financialYear(Date.parse('2099-12-01T00:00:00Z'))).toBe('2099-00');
  });

  it('numbers invoices and credit notes in sixteen characters, one series each per year', () => {
    const november = Date.parse('2026-11-20T10:00:00Z');
    expect(seriesName('invoice', 'GB', november)).toBe('GB/2026-27');
    expect(seriesName('credit-note', 'GB', november)).toBe('CN/2026-27');
    expect(invoiceNumber('GB/2026-27', 123)).toBe('GB/2026-27/00123');
    expect(invoiceNumber('GB/2026-27', 99_999)).toHaveLength(16);
    expect(() => invoiceNumber('GB/2026-27', 100_000)).toThrow('at most 5 digits');
  });

  it('lets a sale move only from recorded to cancelled, by the desk', () => {
    expect(expectOnlyTheseMoves(SALE_TRANSITIONS, SALE_STATUSES, SALE_EVENTS)).toBe(SALE_STATUSES.length * SALE_EVENTS.length * 4 - SALE_TRANSITIONS.length);
    expect(readableTable(SALE_TRANSITIONS)).toMatchInlineSnapshot(`"recorded --cancel (desk)--> cancelled"`);
  });
});
