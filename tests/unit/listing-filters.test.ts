import { describe, expect, it } from 'vitest';
import { activeFilterCount, listingParams, withoutFilter } from '../../app/features/listing/filter-url.ts';
import { readListingQuery } from '../../app/features/listing/schemas.ts';
import { chipLabel, emptyFilters } from '../../app/lib/listing-filters/catalogue.ts';
import { colourIn, fuelKey, modelYear, ownerCount, transmissionKey } from '../../server/catalog/dealer-text.ts';
import { registrationPlace, registrationState } from '../../app/lib/listing-filters/registration.ts';

const parse = (query: string) => readListingQuery(new URLSearchParams(query));

describe('reading what the dealer typed', () => {
  it('normalises fuel without caring how it was written', () => {
    expect(
      ['Petrol', 'PETROL', ' petrol ', 'Diesel', 'CNG', 'Petrol + CNG', 'Electric', 'EV', 'Hybrid', 'Strong Hybrid (Petrol)', '', 'Steam'].map(fuelKey),
    ).toEqual(['petrol', 'petrol', 'petrol', 'diesel', 'cng', 'cng', 'electric', 'electric', 'hybrid', 'hybrid', null, null]);
  });

  it('counts AMT, CVT, DCT and the like as automatic', () => {
    expect(['Manual', 'manual', 'MT', 'Automatic', 'AMT', 'CVT', 'DCT', 'iMT', '', 'Sequential'].map(transmissionKey)).toEqual([
      'manual',
      'manual',
      'manual',
      'automatic',
      'automatic',
      'automatic',
      'automatic',
      'manual',
      null,
      null,
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
    const { filters, sort, problems } = parse(
      'budget=5-8,20-&make=maruti-suzuki&model=swift&fuel=diesel,CNG&trans=manual&body=suv&year=2019-&km=-50000&owners=1,3&color=white&state=mh,KA&sort=price_asc',
    );
    expect(problems).toEqual([]);
    expect(sort).toBe('price_asc');
    expect(filters).toEqual({
      budget: [
        { min: 500_000, max: 800_000 },
        { min: 2_000_000, max: null },
      ],
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
    expect(listingParams({ filters, sort: 'km_asc', page: 3, category: 'suvs' }).toString()).toBe(
      'category=suvs&budget=5-8&fuel=diesel&state=KA&sort=km_asc&page=3',
    );
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

describe('hostile listing URLs: dropped, named, never an error', () => {
  it('drops numbers too large to be a price, a distance or a year', () => {
    const { filters, problems } = parse('budget=99999-&km=1234567890-&year=99999-&page=99999999999999999999&owners=4');
    expect(filters).toEqual(emptyFilters());
    expect(problems).toHaveLength(4);
    expect(parse('page=99999999999999999999').page).toBe(1);
    expect(parse('page=999999999999').page).toBe(2_147_483_647);
    expect(parse('page=1e9').page).toBe(1);
  });

  it('drops negative, reversed and empty ranges', () => {
    const { filters, problems } = parse('budget=-5--3,8-5,-,5-5&km=-100--50&year=2019-2015');
    expect(filters.budget).toEqual([]);
    expect(filters.km).toEqual([]);
    expect(filters.year).toBeNull();
    expect(problems).toEqual([
      'budget must be lakh ranges such as 5-8, -3 or 20-, separated by commas',
      'year must be a range of years such as 2019-, -2015 or 2015-2019',
      'km must be kilometre ranges such as -50000 or 25000-50000, separated by commas',
    ]);
    expect(parse('page=-3').page).toBe(1);
  });

  it('drops values holding NUL or other control characters, and keeps the good ones', () => {
    const { filters, sort, problems } = parse('fuel=diesel%00,petrol&make=maruti%00suzuki&state=MH%00&sort=price_asc%00&year=2019%00-');
    expect(filters.fuel).toEqual(['petrol']);
    expect(filters.make).toEqual([]);
    expect(filters.state).toEqual([]);
    expect(filters.year).toBeNull();
    expect(sort).toBe('newest');
    expect(problems).toHaveLength(5);
    // The search text is passed on: a word with a control character matches nothing (search.ts).
    expect(parse('q=swift%00').term).toBe('swift\u0000');
  });

  it('reads a repeated parameter as one list, or its first value when it takes one', () => {
    const query = parse('fuel=diesel&fuel=petrol,diesel&sort=km_asc&sort=price_asc&year=2019-&year=2020-&page=2&page=3&q=swift&q=creta');
    expect(query.filters.fuel).toEqual(['diesel', 'petrol']);
    expect(query).toMatchObject({ sort: 'km_asc', filters: { year: { min: 2019, max: null } }, page: 2, term: 'swift', problems: [] });
  });

  it('cuts a crafted list to twenty values and a search to the search box length', () => {
    const makes = Array.from({ length: 500 }, (_, index) => `make-${index}`).join(',');
    const { filters, problems } = parse(`make=${makes}`);
    expect(filters.make).toHaveLength(20);
    expect(problems).toEqual([]);
    expect(parse(`make=${'a'.repeat(5000)}`).problems).toEqual(['make must be slugs such as maruti-suzuki, separated by commas']);
    expect(parse(`q=${'x'.repeat(5000)}`).term).toHaveLength(100);
  });

  it('ignores parameters it does not know and names that look like an object’s own', () => {
    const { filters, problems } = parse('__proto__=1&constructor=x&fuel=constructor,__proto__&color=toString&body=hasOwnProperty');
    expect(filters).toEqual(emptyFilters());
    expect(problems).toHaveLength(3);
  });

  it('reads the page size only for the API, within 1 to 100', async () => {
    const { queryObject, vehiclesQuerySchema } = await import('../../app/features/listing/schemas.ts');
    const perPage = (value: string) => vehiclesQuerySchema.parse(queryObject(new URLSearchParams({ perPage: value }))).perPage;
    expect([perPage('24'), perPage('0'), perPage('100000'), perPage('-1'), perPage('ten'), perPage('')]).toEqual([24, 1, 100, null, null, null]);
  });
});
