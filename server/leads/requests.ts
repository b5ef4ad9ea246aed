import type { Selectable } from 'kysely';
import type { RequestInput } from '../../app/lib/lead-forms.ts';
import type { Database } from '../db/connection.ts';
import type { VehicleRequestTable } from '../db/schema.ts';
import { leadFromRow, type LeadFromRow } from './rows.ts';

/** Request a Vehicle (SPEC 3, Vehicle request): a car a visitor asks the dealer to find. */

export type VehicleRequest = LeadFromRow<Selectable<VehicleRequestTable>>;

export function toVehicleRequest(row: Selectable<VehicleRequestTable>): VehicleRequest {
  return leadFromRow(row);
}

/** Stores a validated request (status 'new') and returns it. */
export async function createVehicleRequest(database: Database, input: RequestInput, now: Date): Promise<VehicleRequest> {
  const at = now.toISOString();
  const row = await database.db
    .insertInto('vehicle_requests')
    .values({
      name: input.name,
      phone: input.phone,
      model: input.model,
      year: input.year,
      budget: input.budget,
      description: input.description,
      status: 'new',
      notes: '',
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toVehicleRequest(row);
}

export const requestCsvHeaders = ['ID', 'Created', 'Name', 'Phone', 'Model', 'Year', 'Budget', 'Description', 'Status', 'Notes'] as const;

export function requestCsvRow(request: VehicleRequest): string[] {
  return [
    String(request.id),
    request.createdAt,
    request.name,
    request.phone,
    request.model,
    request.year,
    request.budget,
    request.description,
    request.status,
    request.notes,
  ];
}
