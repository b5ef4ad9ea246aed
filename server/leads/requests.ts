import type { Selectable } from 'kysely';
import type { RequestInput } from '../../app/lib/lead-forms.ts';
import type { Database } from '../db/connection.ts';
import type { LeadStatus, VehicleRequestTable } from '../db/schema.ts';

/** Request a Vehicle (SPEC 3, Vehicle request): a car a visitor asks the dealer to find. */

export type VehicleRequest = {
  id: number;
  name: string;
  phone: string;
  model: string;
  year: string;
  budget: string;
  description: string;
  status: LeadStatus;
  notes: string;
  createdAt: string;
  updatedAt: string;
};

export function toVehicleRequest(row: Selectable<VehicleRequestTable>): VehicleRequest {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    model: row.model,
    year: row.year,
    budget: row.budget,
    description: row.description,
    status: row.status,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Stores a validated request (status 'new') and returns it. */
export async function createVehicleRequest(database: Database, input: RequestInput, now: Date = new Date()): Promise<VehicleRequest> {
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
  return [String(request.id), request.createdAt, request.name, request.phone, request.model, request.year, request.budget, request.description, request.status, request.notes];
}
