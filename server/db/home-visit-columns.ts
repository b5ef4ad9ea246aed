import type { HomeAddress } from '../../app/lib/home-address.ts';

/**
 * The columns of a home visit that the test drives and the inspections tables share (decision
 * 097, migration 033): the mode, and the address only when the visit is at home.
 */
type HomeVisitRow = { mode: 'hub' | 'home'; pin_code: string; street: string; landmark: string };

/** The row's columns for a booking: a hub visit keeps no address, whatever the form sent. */
export function homeVisitColumns(input: HomeAddress & { mode: 'hub' | 'home' }): HomeVisitRow {
  const home = input.mode === 'home';
  return { mode: input.mode, pin_code: home ? input.pinCode : '', street: home ? input.street : '', landmark: home ? input.landmark : '' };
}

/** The booking's place as the pages and the API answer it. */
export function homeVisitOf(row: HomeVisitRow): HomeAddress & { mode: 'hub' | 'home' } {
  return { mode: row.mode, pinCode: row.pin_code, street: row.street, landmark: row.landmark };
}
