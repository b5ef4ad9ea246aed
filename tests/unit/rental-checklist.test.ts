import { describe, expect, it } from 'vitest';
import { chargeLines, checklistComparison, fuelText, type ChecklistView } from '../../app/features/rentals/rental-checklist.ts';
import { returnCharges } from '../../app/features/rentals/rental-price.ts';

/** The checklist's shared rules: each charge with its photo, the comparison, the fuel wording. */

const record = (stage: 'handover' | 'return', odometer: number, fuel: number): ChecklistView => ({
  stage,
  odometer,
  fuel,
  recordedAt: '2026-11-25T10:00:00.000Z',
  photos: [
    { id: `${stage}-front`, item: 'front', note: '', isNew: false, charge: 0 },
    { id: `${stage}-dashboard`, item: 'dashboard', note: '', isNew: false, charge: 0 },
  ],
});

describe('the rental checklist rules', () => {
  it('lists each charge above zero with its photo: dashboard for km and fuel, its own for damage, none for lateness', () => {
    const charges = returnCharges({
      odometerOut: 1000,
      odometerIn: 1600,
      kmIncluded: 480,
      extraKmRate: 12,
      dueMs: 0,
      returnedMs: 3 * 3_600_000,
      fuelCharge: 500,
      damage: [{ note: 'Scratch on the bumper', charge: 2000, photoId: 'd1' }],
      deposit: 5000,
      rule: { graceHours: 1, lateFeePerHour: 200 },
    });
    expect(charges).toMatchObject({ extraKmCharge: 1440, lateFee: 400, damageCharge: 2000, total: 4340, depositRefund: 660 });
    expect(chargeLines(charges, record('return', 1600, 6))).toEqual([
      { kind: 'extra-km', label: 'Extra km (120 km over the allowance)', amount: 1440, photoId: 'return-dashboard' },
      { kind: 'late', label: 'Late return (2 h)', amount: 400, photoId: null },
      { kind: 'fuel', label: 'Fuel shortfall', amount: 500, photoId: 'return-dashboard' },
      { kind: 'damage', label: 'New damage: Scratch on the bumper', amount: 2000, photoId: 'd1' },
    ]);
  });

  it('reads a return stored before the checklist (no damage list) and a charge-free return', () => {
    const old = { kmDriven: 10, extraKm: 0, extraKmCharge: 0, lateHours: 0, lateFee: 0, fuelCharge: 0, total: 0, depositRefund: 5000, amountDue: 0 };
    expect(chargeLines(old, null)).toEqual([]);
  });

  it('compares the return with the handover, and names the fuel level', () => {
    expect(checklistComparison(record('handover', 20_000, 8), record('return', 20_580, 6))).toEqual({ kmDriven: 580, fuelDifference: -2 });
    expect(checklistComparison(record('handover', 20_000, 8), null)).toBeNull();
    expect([fuelText(8), fuelText(6), fuelText(5), fuelText(0)]).toEqual(['8/8 (full)', '6/8 (¾ tank)', '5/8', '0/8 (empty)']);
  });
});
