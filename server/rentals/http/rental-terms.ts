import type { AppServices } from '../../services.ts';
import { recordAudit } from '../../audit/audit.ts';
import { getRentalTerms, moveToSaleStock, saveRentalTerms, vehiclePurpose } from '../fleet.ts';
import { parseRentalTerms, type RentalTermsInput } from '../../../app/features/rentals/rentals.ts';
import {
  kmAllowanceRequired,
  rentalValuesFrom,
  termsValuesFrom,
  type RentalFieldErrors,
  type RentalFormValues,
} from '../../../app/features/rentals/rental-terms-form.ts';

/**
 * The admin vehicle form's "Sale or rental" section at the edge: checked before the vehicle is
 * saved (so a wrong term keeps the whole form as typed), applied after it with the fleet
 * service, audit-logged.
 */

export type CheckedRental = { ok: true; purpose: 'sale' } | { ok: true; purpose: 'rental'; terms: RentalTermsInput } | { ok: false; errors: RentalFieldErrors };

export function checkRentalValues(values: RentalFormValues): CheckedRental {
  if (values.purpose === 'sale') return { ok: true, purpose: 'sale' };
  if (!values.unlimitedKm && values.kmPerDay === '') return { ok: false, errors: { kmPerDay: kmAllowanceRequired() } };
  const parsed = parseRentalTerms(termsValuesFrom(values));
  return parsed.ok ? { ok: true, purpose: 'rental', terms: parsed.terms } : { ok: false, errors: parsed.fields as RentalFieldErrors };
}

/** A vehicle's purpose and terms as its edit form shows them. */
export async function rentalValuesOf(services: Pick<AppServices, 'database'>, vehicleId: number): Promise<RentalFormValues> {
  const [purpose, terms] = await Promise.all([vehiclePurpose(services.database, vehicleId), getRentalTerms(services.database, vehicleId)]);
  return rentalValuesFrom(purpose ?? 'sale', terms);
}

/** Puts the vehicle in the fleet with its terms, or back into sale stock; records what changed. */
export async function applyRental(
  services: Pick<AppServices, 'database' | 'clock'>,
  vehicleId: number,
  checked: Exclude<CheckedRental, { ok: false }>,
  adminEmail: string,
): Promise<void> {
  const [purposeBefore, termsBefore] = await Promise.all([vehiclePurpose(services.database, vehicleId), getRentalTerms(services.database, vehicleId)]);
  if (checked.purpose === 'rental') {
    const terms = await saveRentalTerms(services, { vehicleId, terms: checked.terms });
    if (purposeBefore === 'rental' && JSON.stringify(termsBefore) === JSON.stringify(terms)) return;
    await recordAudit(services, {
      actorEmail: adminEmail,
      action: 'update',
      entity: 'rental-terms',
      entityId: vehicleId,
      summary: purposeBefore === 'rental' ? `Changed the rental terms of vehicle #${vehicleId}` : `Put vehicle #${vehicleId} in the rental fleet`,
      before: termsBefore,
      after: terms,
    });
    return;
  }
  if (purposeBefore !== 'rental') return;
  await moveToSaleStock(services, vehicleId);
  await recordAudit(services, {
    actorEmail: adminEmail,
    action: 'update',
    entity: 'rental-terms',
    entityId: vehicleId,
    summary: `Moved vehicle #${vehicleId} from the rental fleet to sale stock`,
  });
}
