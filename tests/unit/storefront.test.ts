import { describe, expect, it } from 'vitest';
import { googleButtonState, googleNotConfigured } from '../../app/features/auth/auth-messages.ts';
import { budgetChips, bodyChips, entryRows, fuelChips, makeChips, showsStorefront, trustPointList } from '../../app/lib/storefront.ts';
import { buildSellChatText } from '../../app/features/sell/sell-chat.ts';

describe('the home page storefront', () => {
  it('shows on the plain home page only: a search, a filter or a later page goes straight to the results', () => {
    expect(showsStorefront(new URLSearchParams(''))).toBe(true);
    expect(showsStorefront(new URLSearchParams('page=1'))).toBe(true);
    expect(showsStorefront(new URLSearchParams('page=2'))).toBe(false);
    expect(showsStorefront(new URLSearchParams('q=creta'))).toBe(false);
    expect(showsStorefront(new URLSearchParams('budget=5-8'))).toBe(false);
  });

  it('links its chips with the listing filter parameters', () => {
    expect(budgetChips().map((chip) => chip.href)).toEqual(['/?budget=-3', '/?budget=3-5', '/?budget=5-8', '/?budget=8-12', '/?budget=12-20', '/?budget=20-']);
    expect(bodyChips().find((chip) => chip.label === 'SUV')?.href).toBe('/?body=suv');
    expect(fuelChips().find((chip) => chip.label === 'Diesel')?.href).toBe('/?fuel=diesel');
    expect(makeChips.find((chip) => chip.label === 'Maruti Suzuki')?.href).toBe('/?make=maruti-suzuki');
    expect(entryRows().map((row) => row.title)).toEqual(['By budget', 'By body type', 'By fuel', 'Popular makes']);
  });

  it('reads the trust points one a line, blank lines dropped, at most six', () => {
    expect(trustPointList(' Inspected \r\n\r\nWarranty\n')).toEqual(['Inspected', 'Warranty']);
    expect(trustPointList('a\nb\nc\nd\ne\nf\ng')).toHaveLength(6);
    expect(trustPointList('')).toEqual([]);
  });
});

describe('the Google button', () => {
  it('works when configured, says so plainly in the demo and tests when not, and is left out in production', () => {
    expect(googleButtonState(true, 'production')).toBe('on');
    expect(googleButtonState(true, 'demo')).toBe('on');
    expect(googleButtonState(false, 'demo')).toBe('not-configured');
    expect(googleButtonState(false, 'test')).toBe('not-configured');
    expect(googleButtonState(false, 'production')).toBe('hidden');
    expect(googleNotConfigured()).toMatch(/not set up/);
  });
});

describe('the sell chat', () => {
  const fields = { name: 'Asha', phone: '9876543210', vehicle: 'Honda City', year: '2018', description: '' };
  it('says the expected price in rupees with Indian grouping', () => {
    expect(buildSellChatText({ ...fields, price: '210000' })).toContain('Expected Price: ₹2,10,000');
    expect(buildSellChatText({ ...fields, price: 'Rs. 2,10,000' })).toContain('Expected Price: ₹2,10,000');
    expect(buildSellChatText({ ...fields, price: 'around 2 lakh' })).toContain('Expected Price: around 2 lakh');
  });
});
