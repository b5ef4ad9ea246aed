import { describe, expect, it } from 'vitest';
import { parseRentalTerms } from '../../app/features/rentals/rentals.ts';
import { lastValidDay, validityOf } from '../../app/lib/validity.ts';
import { demoFitnessCertificate, demoInsuranceValidity, demoVehicles } from '../../server/db/demo/inventory.ts';
import { demoRentalTerms } from '../../server/db/demo/rental-fleet.ts';

describe('the demo rental fleet', () => {
  it('gives every car of the Rental Cars category valid self-drive terms, and no other car any', () => {
    const rentalNames = demoVehicles
      .filter((vehicle) => vehicle.category === 'Rental Cars')
      .map((vehicle) => vehicle.name)
      .sort();
    expect(Object.keys(demoRentalTerms).sort()).toEqual(rentalNames);
    for (const [name, terms] of Object.entries(demoRentalTerms)) {
      expect(parseRentalTerms(terms as unknown as Record<string, unknown>), name).toEqual({ ok: true, terms });
      expect(terms.commercialRegistration, name).toBe(true);
    }
  });
});

describe('the demo cars’ insurance', () => {
  it('runs into the future from whatever day the demo is seeded, as a year’s policy does, and no car shows Expired that day', () => {
    for (const seedDay of ['2026-01-10', '2026-11-28', '2031-02-28']) {
      const dates = demoVehicles.map((vehicle) => demoInsuranceValidity(vehicle, seedDay));
      const dated = dates.filter(Boolean);
      // Three cars have no insurance date on file (the Kwid's lapsed, its description says); every other one is insured.
      expect(dated.length, seedDay).toBe(demoVehicles.length - 3);
      for (const date of dated) {
        expect(date > seedDay, `${date} after ${seedDay}`).toBe(true);
        expect(Date.parse(date) - Date.parse(seedDay), date).toBeLessThanOrEqual(365 * 86_400_000);
      }
      const notes = dated.map((date) => validityOf(date, seedDay)?.label ?? null);
      expect(notes).not.toContain('Expired');
      // A couple run out within the month ("Expires in N days"): the demo shows that note too.
      expect(notes.filter((note) => note?.startsWith('Expires in')).length, seedDay).toBeGreaterThanOrEqual(1);
      expect(notes.filter((note) => note === null).length, seedDay).toBeGreaterThan(dated.length * 0.9);
    }
  });
});

describe('the demo cars’ fitness certificates', () => {
  it('run past whatever day the demo is seeded: no car shows Expired or Expires soon, and a rental car’s is renewed within two years', () => {
    for (const seedDay of ['2026-01-10', '2026-11-28', '2031-02-28']) {
      for (const vehicle of demoVehicles) {
        const certificate = demoFitnessCertificate(vehicle, seedDay);
        if (!certificate) continue;
        expect(certificate, vehicle.name).toMatch(/^Valid till [A-Z][a-z]{2} \d{4}$/);
        // The private cars' fixed dates hold for years; the seeds checked stop before they run out.
        expect(validityOf(certificate, seedDay), `${vehicle.name}: ${certificate} on ${seedDay}`).toBeNull();
      }
      const rentals = demoVehicles.filter((vehicle) => vehicle.category === 'Rental Cars' && demoFitnessCertificate(vehicle, seedDay));
      expect(rentals.length).toBeGreaterThanOrEqual(5);
      for (const vehicle of rentals) {
        const last = lastValidDay(demoFitnessCertificate(vehicle, seedDay))!;
        expect(Date.parse(last) - Date.parse(seedDay), vehicle.name).toBeLessThanOrEqual(2 * 366 * 86_400_000);
      }
    }
    // The Dzire's, on the day the issue was found: ten months on, not "Valid till Sep 2026" (Expired).
    const dzire = demoVehicles.find((vehicle) => vehicle.name.startsWith('Swift Dzire Tour S CNG'))!;
    expect(demoFitnessCertificate(dzire, '2026-11-28')).toBe('Valid till Sep 2027');
  });
});
