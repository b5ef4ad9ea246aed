import { COMPARE_MAX } from '../../app/features/compare/compare.ts';
import type { Vehicle } from '../../app/lib/vehicle.ts';
import type { Database } from '../db/connection.ts';
import { getVehicle } from './vehicles.ts';

/** One column of the compare page: the car as it is now, or why it cannot be shown. */
export type CompareEntry = { id: number; vehicle: Vehicle; available: true } | { id: number; title: string | null; available: false };

/**
 * The cars to compare, in the order asked, at most COMPARE_MAX. A sold car and an id with no car
 * behind it come back as no longer available (the sold one keeps its name), never as an error.
 */
export async function carsToCompare(database: Database, ids: readonly number[]): Promise<CompareEntry[]> {
  const wanted = ids.slice(0, COMPARE_MAX);
  const vehicles = await Promise.all(wanted.map((id) => getVehicle(database, id)));
  return wanted.map((id, index): CompareEntry => {
    const vehicle = vehicles[index];
    if (!vehicle) return { id, title: null, available: false };
    if (vehicle.status === 'sold') return { id, title: vehicle.name || [vehicle.make, vehicle.model].join(' ').trim() || null, available: false };
    return { id, vehicle, available: true };
  });
}
