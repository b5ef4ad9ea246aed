import { bodyTypeLabel } from '../../app/lib/listing-filters/options.ts';
import { registrationPlace } from '../../app/lib/listing-filters/registration.ts';
import type { DemoVehicle } from '../../server/db/demo/inventory.ts';

/**
 * The search rule read independently of the database: every word typed is a case-insensitive
 * substring of one of these fields of the car (the body type by its label, the registration by
 * its RTO city and state name; decision 023).
 */
export const searchedFields = [
  'make',
  'model',
  'name',
  'variant',
  'year',
  'fuelType',
  'transmission',
  'bodyType',
  'category',
  'registration',
  'description',
] as const;
export type SearchedField = (typeof searchedFields)[number];

export function fieldText(vehicle: DemoVehicle, field: SearchedField): string {
  if (field === 'bodyType') return vehicle.bodyType ? bodyTypeLabel(vehicle.bodyType).toLowerCase() : '';
  if (field === 'registration') return registrationPlace(vehicle.registration).toLowerCase();
  return vehicle[field].toLowerCase();
}

/** Whether `query` finds `vehicle` (the first 100 characters, at most eight words). */
export function searchFinds(vehicle: DemoVehicle, query: string): boolean {
  const words = query.slice(0, 100).toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  const text = searchedFields.map((field) => fieldText(vehicle, field)).join('\n');
  return words.every((word) => text.includes(word));
}
