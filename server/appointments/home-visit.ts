import { homeAddressMessages, type HomeAddress } from '../../app/features/appointments/home-address.ts';
import type { ServiceArea } from '../../app/lib/service-areas.ts';
import { homeVisitProblem } from '../../app/features/appointments/test-drives.ts';
import { InvalidInputError } from '../errors.ts';
import type { AppointmentKind } from './kinds.ts';

/**
 * The place of an appointment: the columns every appointment table shares (decision 097,
 * migration 033), the mode, and the address only when the visit is at home.
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

/**
 * Refuses a place the kind or the settings do not offer (InvalidInputError naming the field): a
 * mode the kind has not, a home visit without its street, or at a PIN code outside the areas
 * served (naming the nearest one and the hub).
 */
export function checkPlace(
  kind: AppointmentKind,
  input: { mode: 'hub' | 'home'; pinCode: string; street: string },
  areas: readonly ServiceArea[],
  hubAddress: string,
): void {
  if (!kind.modes.includes(input.mode)) throw new InvalidInputError(kind.chooseMode(), { mode: kind.chooseMode() });
  if (input.mode === 'home' && !input.street.trim())
    throw new InvalidInputError(homeAddressMessages.streetRequired, { street: homeAddressMessages.streetRequired });
  const pinProblem = homeVisitProblem(input, areas, hubAddress);
  if (pinProblem) throw new InvalidInputError(pinProblem, { pinCode: pinProblem });
}
