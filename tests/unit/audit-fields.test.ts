import { describe, expect, it } from 'vitest';
import { auditFieldLabel, auditNestedLabel, hasAuditFieldLabel } from '../../app/features/admin/audit-fields.ts';
import type { DamageCharge, ReturnCharges } from '../../app/features/rentals/rental-price.ts';
import type { Vehicle } from '../../app/lib/vehicle.ts';
import { settingsSchema } from '../../server/admin/settings.ts';
import type { auditView } from '../../server/inspections/inspection-desk.ts';
import type { RentalTerms } from '../../server/rentals/fleet.ts';
import type { Block } from '../../server/rentals/store.ts';
import type { ScheduledTestDrive } from '../../server/test-drives/test-drives.ts';
import { inLanguage } from '../../server/i18n.ts';

/**
 * The audit log names every field a change can touch, in English and Hindi, instead of its code
 * (`depositRefund`). The records below list the fields of each kind of record the log keeps: the
 * typed ones must name every key of their type (the compiler holds them to it), the others are
 * the objects written beside recordAudit's calls.
 */
const every = <Key extends string>(fields: Record<Key, true>) => Object.keys(fields);

const vehicle = every<keyof Vehicle>({
  id: true,
  categoryId: true,
  categoryName: true,
  categorySlug: true,
  name: true,
  make: true,
  model: true,
  variant: true,
  year: true,
  fuelType: true,
  transmission: true,
  bodyType: true,
  colour: true,
  price: true,
  owners: true,
  registration: true,
  insuranceValidity: true,
  fitnessFC: true,
  tyrePoint: true,
  description: true,
  videoUrl: true,
  priceRupees: true,
  odometer: true,
  featured: true,
  inspection: true,
  refurbishment: true,
  financial: true,
  status: true,
  soldPrice: true,
  soldAt: true,
  images: true,
  createdAt: true,
  updatedAt: true,
});
const rentalTerms = every<keyof RentalTerms>({
  vehicleId: true,
  hourlyRate: true,
  dailyRate: true,
  weeklyRate: true,
  kmPerDay: true,
  extraKmRate: true,
  deposit: true,
  fuelPolicy: true,
  minAge: true,
  minHours: true,
  seats: true,
  commercialRegistration: true,
  deliveryAvailable: true,
});
const rentalBlock = every<keyof Block>({ id: true, vehicleId: true, fromMs: true, toMs: true, from: true, to: true, note: true, createdBy: true });
const testDrive = every<keyof ScheduledTestDrive>({
  id: true,
  vehicleId: true,
  vehicleTitle: true,
  mode: true,
  pinCode: true,
  street: true,
  landmark: true,
  slot: true,
  status: true,
  createdAt: true,
  name: true,
  phone: true,
  email: true,
  remindedAt: true,
});
const inspection = every<keyof ReturnType<typeof auditView> | keyof NonNullable<ReturnType<typeof auditView>['offer']>>({
  status: true,
  slot: true,
  condition: true,
  odometer: true,
  photos: true,
  offer: true,
  draftVehicleId: true,
  rupees: true,
  validUntil: true,
  state: true,
});

// A return's charges, recorded inside the return's "after" (and the damage inside them).
const charges = every<keyof ReturnCharges | keyof DamageCharge>({
  kmDriven: true,
  extraKm: true,
  extraKmCharge: true,
  lateHours: true,
  lateFee: true,
  fuelCharge: true,
  damage: true,
  damageCharge: true,
  total: true,
  depositRefund: true,
  amountDue: true,
  note: true,
  charge: true,
  photoId: true,
});

const records: Array<[entity: string, keys: string[]]> = [
  ['vehicle', vehicle],
  ['category', ['name', 'slug', 'image']],
  ['car_model', ['make', 'makeHi', 'model', 'modelHi', 'variant', 'bodyType']],
  ['reservation', ['heldUntil', 'status', 'salePrice', 'balance']],
  ['rental-booking', ['status', 'odometerOut', 'fuelOut', 'charges', 'reason', 'depositRefund', 'owed', 'refunded', ...charges]],
  ['rental-terms', rentalTerms],
  ['rental-block', rentalBlock],
  ['driving-licence', ['status', 'refusalReason']],
  ['vehicle_request', ['status', 'notes']],
  ['test_drive', testDrive],
  ['inspection', inspection],
  ['admin', ['email', 'createdBy']],
  ['settings', Object.keys(settingsSchema.shape)],
];

describe('the audit log’s field names', () => {
  it.each(records)('names every field of a %s record in English and Hindi', (entity, keys) => {
    for (const key of keys) {
      expect(hasAuditFieldLabel(entity, key), `${entity}.${key}`).toBe(true);
      const english = inLanguage('en', () => auditFieldLabel(entity, key));
      const hindi = inLanguage('hi', () => auditFieldLabel(entity, key));
      expect(english, `${entity}.${key}`).not.toBe(key);
      expect(hindi, `${entity}.${key}`).toMatch(/[\u0900-\u097F]/);
    }
  });

  it('says the fields the desk meets in words', () => {
    expect(inLanguage('en', () => auditFieldLabel('rental-booking', 'depositRefund'))).toBe('Deposit refund');
    expect(inLanguage('hi', () => auditFieldLabel('rental-booking', 'depositRefund'))).toBe('डिपॉज़िट रिफ़ंड');
    expect(inLanguage('en', () => auditFieldLabel('settings', 'itemsPerPage'))).toBe('Items Per Page');
    expect(inLanguage('en', () => auditFieldLabel('reservation', 'heldUntil'))).toBe('Held until');
    // A field nobody has named yet still reads as words, never as its code.
    expect(inLanguage('en', () => auditFieldLabel('job', 'lastErrorAt'))).toBe('last error at');
    // Inside a value: the code's fields by name, the desk's own words (a condition report's items) as typed.
    expect(inLanguage('en', () => auditNestedLabel('extraKmCharge'))).toBe('Extra-km charge');
    expect(inLanguage('en', () => auditNestedLabel('AC & Heating'))).toBe('AC & Heating');
  });
});
