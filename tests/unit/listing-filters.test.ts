import { describe, expect, it } from 'vitest';
import { activeFilterCount, listingParams, parseListingQuery, withoutFilter } from '../../app/lib/listing-filters/url.ts';
import { chipLabel } from '../../app/lib/listing-filters/chips.ts';
import { colourIn, fuelKey, modelYear, ownerCount, transmissionKey } from '../../server/catalog/dealer-text.ts';
import { emptyFilters } from '../../app/lib/listing-filters/options.ts';
import { registrationPlace, registrationState } from '../../app/lib/listing-filters/registration.ts';

const parse = (query: string) => parseListingQuery(new URLSearchParams(query));

describe('reading what the dealer typed', () => {
  it('normalises fuel without caring how it was written', () => {
    expect(['Petrol', 'PETROL', ' petrol ', 'Diesel', 'CNG', 'Petrol + CNG', 'Electric', 'EV', 'Hybrid', 'Strong Hybrid (Petrol)', '', 'Steam'].map(fuelKey)).toEqual([
      'petrol', 'petrol', 'petrol', 'diesel', 'cng', 'cng', 'electric', 'electric', 'hybrid', 'hybrid', null, null,
    ]);
  });

  it('counts AMT, CVT, DCT and the like as automatic', () => {
    expect(['Manual', 'manual', 'MT', 'Automatic', 'AMT', 'CVT', 'DCT', 'iMT', '', 'Sequential'].map(transmissionKey)).toEqual([
      'manual', 'manual', 'manual', 'automatic', 'automatic', 'automatic', 'automatic', 'manual', null, null,
    ]);
  });

  it('reads owners, model years and registration states', () => {
    expect(['1st Owner', '2nd Owner', '3rd Owner', 'Second owner', 'Single owner', '4', '', 'many'].map(ownerCount)).toEqual([1, 2, 3, 2, 1, 4, null, null]);
    expect(['2019', 'Dec 2019', '2019-20', '19', ''].map(modelYear)).toEqual([2019, 2019, 2019, null, null]);
    expect(['MH-02', 'ka05ab1234', ' dl 3c ', 'XX-01', '22 BH 1234', 'M'].map(registrationState)).toEqual(['MH', 'KA', 'DL', '', '', '']);
    expect(registrationPlace('MH-12')).toBe('Pune Maharashtra');
    expect(registrationPlace('MH 2')).toBe('Mumbai Maharashtra');
    expect(registrationPlace('DL-8C')).toBe('Delhi');
    expect(registrationPlace('GA-07')).toBe('Goa');
  });

  it('finds the first colour a description names', () => {
    expect(colourIn('Pearl white with a black roof')).toBe('white');
    expect(colourIn('Finished in grey; red calipers')).toBe('grey');
    expect(colourIn('Reduced price, redone seats')).toBe('');
  });
});

describe('the listing parameters', () => {
  it('reads every filter and the sort', () => {
    const { filters, sort, problems } = parse('budget=5-8,20-&make=maruti-suzuki&model=swift&fuel=diesel,CNG&trans=manual&body=suv&year=2019-&km=-50000&owners=1,3&color=white&state=mh,KA&sort=price_asc');
    expect(problems).toEqual([]);
    expect(sort).toBe('price_asc');
    expect(filters).toEqual({
      budget: [{ min: 500_000, max: 800_000 }, { min: 2_000_000, max: null }],
      make: ['maruti-suzuki'],
      model: ['swift'],
      fuel: ['diesel', 'cng'],
      trans: ['manual'],
      body: ['suv'],
      year: { min: 2019, max: null },
      km: [{ min: null, max: 50_000 }],
      owners: [1, 3],
      color: ['white'],
      state: ['MH', 'KA'],
    });
    expect(activeFilterCount(filters)).toBe(15);
  });

  it('leaves out what means nothing and says why', () => {
    const { filters, sort, problems } = parse('fuel=diesel,coal&budget=8-5&sort=cheap&year=abc&owners=0&make=Ma%20ruti');
    expect(filters.fuel).toEqual(['diesel']);
    expect(filters.budget).toEqual([]);
    expect(filters.year).toBeNull();
    expect(sort).toBe('newest');
    expect(problems).toHaveLength(6);
  });

  it('writes a listing back in one order, so equal listings have equal URLs', () => {
    const { filters } = parse('state=KA&fuel=diesel&budget=5-8');
    expect(listingParams({ q: ' creta ', filters, sort: 'newest', page: 1 }).toString()).toBe('q=creta&budget=5-8&fuel=diesel&state=KA');
    expect(listingParams({ filters, sort: 'km_asc', page: 3, category: 'suvs' }).toString()).toBe('category=suvs&budget=5-8&fuel=diesel&state=KA&sort=km_asc&page=3');
    expect(listingParams({ filters: emptyFilters() }).toString()).toBe('');
  });

  it('removes one value (a chip) or a whole filter', () => {
    const { filters } = parse('fuel=diesel,petrol&budget=5-8&year=2019-');
    expect(listingParams({ filters: withoutFilter(filters, 'fuel', 'diesel') }).toString()).toBe('budget=5-8&fuel=petrol&year=2019-');
    expect(listingParams({ filters: withoutFilter(filters, 'year', '2019-') }).toString()).toBe('budget=5-8&fuel=diesel%2Cpetrol');
  });

  it('labels chips in words', () => {
    expect(chipLabel('budget', '5-8')).toBe('₹5–8 lakh');
    expect(chipLabel('budget', '4.5-9')).toBe('₹4.5–9 lakh');
    expect(chipLabel('year', '2019-')).toBe('2019 or newer');
    expect(chipLabel('km', '-25000')).toBe('Under 25,000 km');
    expect(chipLabel('owners', '3')).toBe('3 or more owners');
    expect(chipLabel('state', 'MH')).toBe('MH (Maharashtra)');
    expect(chipLabel('make', 'maruti-suzuki', { make: { 'maruti-suzuki': 'Maruti Suzuki' } })).toBe('Maruti Suzuki');
  });
});
