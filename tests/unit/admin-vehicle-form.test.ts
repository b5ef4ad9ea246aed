import { describe, expect, it } from 'vitest';
import { pageUrl } from '../../app/features/admin/admin-paths.ts';
import { latestToast, stamp } from '../../app/features/admin/admin-ui.tsx';
import {
  emptyVehicleValues,
  financialValue,
  FUEL_TYPES,
  parseVehicleValues,
  refurbishmentValue,
  valuesFromForm,
  valuesFromVehicle,
  type VehicleFormValues,
} from '../../app/lib/vehicle-schema.ts';
import type { Vehicle } from '../../app/lib/vehicle.ts';

function values(overrides: Partial<VehicleFormValues> = {}): VehicleFormValues {
  return { ...emptyVehicleValues(), name: 'Maruti Suzuki Swift VXi', categoryId: '3', price: '5,45,000', ...overrides };
}

describe('parseVehicleValues', () => {
  it('accepts the least a vehicle needs: name, category and price', () => {
    const result = parseVehicleValues(values());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.vehicle).toMatchObject({
      name: 'Maruti Suzuki Swift VXi',
      categoryId: 3,
      price: '5,45,000',
      odometer: null,
      inspection: null,
      status: 'available',
      soldPrice: null,
      soldAt: null,
    });
  });

  it('names the first problem the way the spec does', () => {
    expect(parseVehicleValues(values({ categoryId: '' }))).toMatchObject({
      ok: false,
      message: 'Please select a category',
      errors: { categoryId: 'Please select a category' },
    });
    expect(parseVehicleValues(values({ name: '   ' }))).toMatchObject({ ok: false, message: 'Vehicle name is required' });
    expect(parseVehicleValues(values({ price: ' ' }))).toMatchObject({ ok: false, message: 'Price is required' });
    const both = parseVehicleValues(values({ name: '', price: '' }));
    expect(both.ok).toBe(false);
    if (!both.ok) expect(Object.keys(both.errors)).toEqual(['name', 'price']);
  });

  it('offers the five fuel types and keeps a blank one; anything else is refused', () => {
    expect(FUEL_TYPES).toEqual(['Petrol', 'Diesel', 'Electric', 'Hybrid', 'CNG']);
    for (const fuelType of [...FUEL_TYPES, '']) expect(parseVehicleValues(values({ fuelType })).ok, fuelType).toBe(true);
    expect(parseVehicleValues(values({ fuelType: 'LPG' }))).toMatchObject({ ok: false, errors: { fuelType: 'Please choose a fuel type from the list' } });
    expect(parseVehicleValues(values({ transmission: 'CVT' })).ok).toBe(false);
  });

  it('takes the odometer as whole km, 0 or more', () => {
    const parse = (odometer: string) => parseVehicleValues(values({ odometer }));
    expect(parse('0')).toMatchObject({ ok: true, vehicle: { odometer: 0 } });
    expect(parse(' 45210 ')).toMatchObject({ ok: true, vehicle: { odometer: 45210 } });
    for (const bad of ['-1', '12.5', '1e5', 'ten', '99999999999']) expect(parse(bad).ok, bad).toBe(false);
  });

  it('takes dates as dates and video links as http(s) URLs', () => {
    expect(parseVehicleValues(values({ insuranceValidity: '2027-02-28' })).ok).toBe(true);
    expect(parseVehicleValues(values({ insuranceValidity: '2027-02-30' })).ok).toBe(false);
    expect(parseVehicleValues(values({ insuranceValidity: 'next year' })).ok).toBe(false);
    expect(parseVehicleValues(values({ videoUrl: 'https://youtu.be/abcdefgh' })).ok).toBe(true);
    expect(parseVehicleValues(values({ videoUrl: 'javascript:alert(1)' }))).toMatchObject({
      ok: false,
      errors: { videoUrl: 'Please enter a valid video URL starting with https://' },
    });
  });

  it('needs the sold price and date only for a sold vehicle', () => {
    expect(parseVehicleValues(values({ status: 'reserved', soldPrice: 'x' })).ok).toBe(true);
    expect(parseVehicleValues(values({ status: 'sold' }))).toMatchObject({
      ok: false,
      errors: { soldPrice: 'Please enter the price it was sold for, in rupees', soldAt: 'Please enter the date it was sold' },
    });
    expect(parseVehicleValues(values({ status: 'sold', soldPrice: '₹ 5,10,000', soldAt: '2026-02-01' }))).toMatchObject({
      ok: true,
      vehicle: { status: 'sold', soldPrice: 510000, soldAt: '2026-02-01' },
    });
    expect(parseVehicleValues(values({ status: 'sold', soldPrice: '510000', soldAt: '2999-01-01' }))).toMatchObject({
      ok: false,
      errors: { soldAt: 'The sold date cannot be in the future' },
    });
  });

  it('turns the row editors into maps: blank rows dropped, lists by line, Available / Not Available as yes and no', () => {
    const result = parseVehicleValues(
      values({
        inspection: [
          { key: ' Engine ', value: 'Excellent' },
          { key: '', value: '' },
        ],
        refurbishment: [
          { key: 'Work Done', value: 'Ceramic coating\r\n\r\nInterior deep clean\n' },
          { key: 'Paint', value: 'Front bumper' },
        ],
        financial: [
          { key: 'Loan', value: 'available' },
          { key: 'Exchange', value: 'Not Available' },
          { key: 'EMI', value: '₹9,999 a month' },
        ],
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      vehicle: {
        inspection: { Engine: 'Excellent' },
        refurbishment: { 'Work Done': ['Ceramic coating', 'Interior deep clean'], Paint: 'Front bumper' },
        financial: { Loan: true, Exchange: false, EMI: '₹9,999 a month' },
      },
    });
  });

  it('refuses a value without a label and a label given twice', () => {
    expect(parseVehicleValues(values({ inspection: [{ key: '', value: 'Good' }] }))).toMatchObject({
      ok: false,
      errors: { inspection: 'Please name each inspection item or clear its value' },
    });
    expect(
      parseVehicleValues(
        values({
          financial: [
            { key: 'Loan', value: 'Available' },
            { key: 'loan', value: 'Not Available' },
          ],
        }),
      ),
    ).toMatchObject({ ok: false, errors: { financial: '"loan" appears twice: each finance option once, please' } });
  });
});

describe('form values', () => {
  it('reads the posted form, map rows as parallel fields', () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ name: 'Creta', categoryId: '2', price: '1', featured: 'on', status: 'sold' })) form.append(key, value);
    form.append('inspection.key', 'Engine');
    form.append('inspection.value', 'Good');
    form.append('inspection.key', 'Tyres');
    form.append('inspection.value', 'Fair');
    const read = valuesFromForm(form);
    expect(read).toMatchObject({
      name: 'Creta',
      featured: true,
      status: 'sold',
      inspection: [
        { key: 'Engine', value: 'Good' },
        { key: 'Tyres', value: 'Fair' },
      ],
    });
    expect(valuesFromForm(new FormData())).toMatchObject({ featured: false, status: 'available', inspection: [] });
  });

  it('shows a stored vehicle in the form and reads back the same', () => {
    const vehicle = {
      name: 'Swift',
      make: 'Maruti Suzuki',
      model: 'Swift',
      categoryId: 1,
      price: '545000',
      year: '2019',
      variant: 'VXi',
      fuelType: 'Petrol',
      transmission: 'Manual',
      bodyType: 'hatchback',
      colour: 'red',
      owners: '1st Owner',
      registration: 'MH-02',
      insuranceValidity: '2026-08-14',
      odometer: 42000,
      fitnessFC: '',
      tyrePoint: '80%',
      description: '',
      videoUrl: '',
      featured: true,
      inspection: { Engine: 'Excellent' },
      refurbishment: { 'Work Done': ['Polish', 'Service'], Paint: 'None' },
      financial: { Loan: true, Exchange: false, EMI: '₹9,999' },
      status: 'sold',
      soldPrice: 500000,
      soldAt: '2026-03-01',
    } as unknown as Vehicle;
    const shown = valuesFromVehicle(vehicle);
    expect(shown.refurbishment).toEqual([
      { key: 'Work Done', value: 'Polish\nService' },
      { key: 'Paint', value: 'None' },
    ]);
    expect(shown.financial).toEqual([
      { key: 'Loan', value: 'Available' },
      { key: 'Exchange', value: 'Not Available' },
      { key: 'EMI', value: '₹9,999' },
    ]);
    expect(parseVehicleValues(shown)).toMatchObject({
      ok: true,
      vehicle: {
        refurbishment: vehicle.refurbishment,
        financial: vehicle.financial,
        inspection: vehicle.inspection,
        odometer: 42000,
        soldPrice: 500000,
        soldAt: '2026-03-01',
      },
    });
  });

  it('converts single values', () => {
    expect(refurbishmentValue('one')).toBe('one');
    expect(refurbishmentValue('one\ntwo')).toEqual(['one', 'two']);
    expect(financialValue(' AVAILABLE ')).toBe(true);
    expect(financialValue('not available')).toBe(false);
    expect(financialValue('On request')).toBe('On request');
  });
});

describe('pageUrl', () => {
  it('drops the data-request suffix, _routes and the named parameters', () => {
    expect(pageUrl('http://x/admin-panel/categories.data?edit=5&_routes=a', ['edit'])).toBe('/admin-panel/categories');
    expect(pageUrl('http://x/admin-panel/vehicles.data?q=swift&delete=3&page=2', ['delete'])).toBe('/admin-panel/vehicles?q=swift&page=2');
    expect(pageUrl('http://x/admin/manage-vehicles')).toBe('/admin/manage-vehicles');
    expect(pageUrl('http://x/admin-panel/_.data')).toBe('/admin-panel/');
  });
});

describe('latestToast', () => {
  it('shows the newest of the page’s toasts', () => {
    const older = { ...stamp('success', 'Image added successfully'), at: 1 };
    const newer = { ...stamp('error', 'Failed to update vehicle'), at: 2 };
    expect(latestToast(older, newer)).toBe(newer);
    expect(latestToast(newer, older, null, undefined)).toBe(newer);
    expect(latestToast(null, undefined)).toBeNull();
  });
});
