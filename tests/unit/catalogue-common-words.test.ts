import { describe, expect, it } from 'vitest';
import { commonWords } from '../../server/catalog/catalogue-index.ts';

/** A coded column of `values` as the listing index holds it (code 0 is NULL). */
function column(values: Array<string | null>) {
  const dictionary = [null, ...[...new Set(values.filter((value): value is string => value !== null))].sort()];
  return { values: dictionary, codes: Uint16Array.from(values.map((value) => dictionary.indexOf(value))) };
}

function held(cars: Array<{ make: string; model: string; trans: string; variant: string; fuel: string | null }>) {
  return {
    size: cars.length,
    coded: {
      make: column(cars.map((car) => car.make)),
      model: column(cars.map((car) => car.model)),
      transmission_key: column(cars.map((car) => car.trans)),
    },
    named: { variant: column(cars.map((car) => car.variant)), fuel_type: column(cars.map((car) => car.fuel)) },
  };
}

describe('the common words the listing index reads ahead', () => {
  it('takes the words of three letters or more held by a twentieth of the cars, most held first', () => {
    const cars = [
      ...Array.from({ length: 60 }, () => ({ make: 'Maruti Suzuki', model: 'Swift', trans: 'manual', variant: 'VXi', fuel: 'Petrol' })),
      ...Array.from({ length: 36 }, () => ({ make: 'Hyundai', model: 'Creta', trans: 'automatic', variant: 'SX AT', fuel: 'Diesel' })),
      ...Array.from({ length: 4 }, () => ({ make: 'Tata', model: 'Nexon EV', trans: 'automatic', variant: 'XZ+', fuel: 'Electric' })),
    ];
    const words = commonWords(held(cars));
    expect(words.slice(0, 5)).toEqual(['manual', 'maruti', 'petrol', 'suzuki', 'swift']);
    expect(words).toEqual(expect.arrayContaining(['automatic', 'hyundai', 'creta', 'diesel', 'vxi']));
    // Four cars of a hundred: under a twentieth. Two letters: no trigram holds them.
    expect(words).not.toContain('tata');
    expect(words).not.toContain('nexon');
    expect(words).not.toContain('sx');
    expect(words).not.toContain('ev');
  });

  it('reads sixteen at the most', () => {
    const cars = Array.from({ length: 100 }, (_, index) => ({
      make: `Make${index % 10}`,
      model: `Model${index % 10}`,
      trans: 'manual',
      variant: `Trim${index % 10}`,
      fuel: 'Petrol',
    }));
    expect(commonWords(held(cars))).toHaveLength(16);
  });
});
