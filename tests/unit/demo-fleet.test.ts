import { describe, expect, it } from 'vitest';
import { parseRentalTerms } from '../../app/lib/rentals.ts';
import { demoVehicles } from '../../server/db/demo/inventory.ts';
import { demoRentalTerms } from '../../server/db/demo/rental-fleet.ts';

describe('the demo rental fleet', () => {
  it('gives every car of the Rental Cars category valid self-drive terms, and no other car any', () => {
    const rentalNames = demoVehicles.filter((vehicle) => vehicle.category === 'Rental Cars').map((vehicle) => vehicle.name).sort();
    expect(Object.keys(demoRentalTerms).sort()).toEqual(rentalNames);
    for (const [name, terms] of Object.entries(demoRentalTerms)) {
      expect(parseRentalTerms(terms as unknown as Record<string, unknown>), name).toEqual({ ok: true, terms });
      expect(terms.commercialRegistration, name).toBe(true);
    }
  });
});
