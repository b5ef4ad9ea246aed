import { rentText as t } from './rent-texts.ts';
import { cleanLine } from '../../lib/input.ts';
import { DEFAULT_MIN_AGE, DEFAULT_MIN_HOURS, FUEL_POLICIES, type FuelPolicy, type RentalTermsInput } from './rentals.ts';

/**
 * The admin vehicle form's "Sale or rental" section as typed: the purpose and the fleet
 * terms, as text (what the admin typed is shown again as typed when something is wrong).
 * The rule itself is parseRentalTerms (app/features/rentals/rentals.ts); this only maps the form to it.
 */

export type VehiclePurpose = 'sale' | 'rental';

export type RentalFormValues = {
  purpose: VehiclePurpose;
  hourlyRate: string;
  dailyRate: string;
  weeklyRate: string;
  kmPerDay: string;
  unlimitedKm: boolean;
  extraKmRate: string;
  deposit: string;
  fuelPolicy: FuelPolicy;
  minAge: string;
  minHours: string;
  seats: string;
  commercialRegistration: boolean;
  deliveryAvailable: boolean;
};

export type RentalFieldErrors = Partial<Record<keyof RentalFormValues, string>>;

export function emptyRentalValues(purpose: VehiclePurpose = 'sale'): RentalFormValues {
  return {
    purpose,
    hourlyRate: '',
    dailyRate: '',
    weeklyRate: '',
    kmPerDay: '',
    unlimitedKm: false,
    extraKmRate: '',
    deposit: '',
    fuelPolicy: 'full-to-full',
    minAge: String(DEFAULT_MIN_AGE),
    minHours: String(DEFAULT_MIN_HOURS),
    seats: '5',
    commercialRegistration: false,
    deliveryAvailable: false,
  };
}

/** A vehicle's stored purpose and terms as the form shows them. */
export function rentalValuesFrom(purpose: VehiclePurpose, terms: RentalTermsInput | null): RentalFormValues {
  if (!terms) return emptyRentalValues(purpose);
  const text = (value: number | null) => (value === null ? '' : String(value));
  return {
    purpose,
    hourlyRate: text(terms.hourlyRate),
    dailyRate: text(terms.dailyRate),
    weeklyRate: text(terms.weeklyRate),
    kmPerDay: text(terms.kmPerDay),
    unlimitedKm: terms.kmPerDay === null,
    extraKmRate: text(terms.extraKmRate),
    deposit: text(terms.deposit),
    fuelPolicy: terms.fuelPolicy,
    minAge: text(terms.minAge),
    minHours: text(terms.minHours),
    seats: text(terms.seats),
    commercialRegistration: terms.commercialRegistration,
    deliveryAvailable: terms.deliveryAvailable,
  };
}

const FIELD = 24;

/** The section's fields from a posted form (missing fields read as empty, odd values kept for the message). */
export function rentalValuesFromForm(form: FormData): RentalFormValues {
  const text = (name: string) => {
    const value = form.get(name);
    return cleanLine(value, FIELD);
  };
  const fuel = text('fuelPolicy');
  return {
    purpose: text('purpose') === 'rental' ? 'rental' : 'sale',
    hourlyRate: text('hourlyRate'),
    dailyRate: text('dailyRate'),
    weeklyRate: text('weeklyRate'),
    kmPerDay: text('kmPerDay'),
    unlimitedKm: form.has('unlimitedKm'),
    extraKmRate: text('extraKmRate'),
    deposit: text('deposit'),
    fuelPolicy: (FUEL_POLICIES as readonly string[]).includes(fuel) ? (fuel as FuelPolicy) : 'full-to-full',
    minAge: text('minAge'),
    minHours: text('minHours'),
    seats: text('seats'),
    commercialRegistration: form.has('commercialRegistration'),
    deliveryAvailable: form.has('deliveryAvailable'),
  };
}

/** What parseRentalTerms reads: unlimited km is an empty allowance; an allowance is required otherwise. */
export function termsValuesFrom(values: RentalFormValues): Record<string, unknown> {
  return { ...values, kmPerDay: values.unlimitedKm ? '' : values.kmPerDay };
}

export function kmAllowanceRequired(): string {
  return t('kmAllowanceRequired');
}

export function rentalTermsWrong(): string {
  return t('rentalTermsWrong');
}
