import { describe, expect, it } from 'vitest';
import { cardPriceLabel, detailPriceLabel, formatRupees } from '../../app/lib/format.ts';

describe('rupee formatting', () => {
  it('groups digits the Indian way', () => {
    expect(formatRupees(1234567)).toBe('₹12,34,567');
    expect(formatRupees(545000)).toBe('₹5,45,000');
  });
  it('labels card prices', () => {
    expect(cardPriceLabel('1234567')).toBe('Starting from ₹12,34,567');
    expect(cardPriceLabel('')).toBe('Price on request');
  });
  it('labels detail prices', () => {
    expect(detailPriceLabel('')).toBe('—');
    expect(detailPriceLabel('Call for best price')).toBe('Call for best price');
  });
});
