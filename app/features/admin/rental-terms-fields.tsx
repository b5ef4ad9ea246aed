import { SelectField, TextField } from '../../components/form.tsx';
import { FUEL_POLICIES, fuelPolicyLabels } from '../rentals/rentals.ts';
import type { RentalFieldErrors, RentalFormValues } from '../rentals/rental-terms-form.ts';
import { adminVehiclesText as t } from './admin-vehicles-texts.ts';

const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

function Check({ name, label, hint, defaultChecked }: { name: keyof RentalFormValues; label: string; hint?: string; defaultChecked: boolean }) {
  const id = `rental-${name}`;
  return (
    <div className="flex items-start gap-3 rounded-xl px-1 py-2">
      <input
        id={id}
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
      />
      <div>
        <label htmlFor={id} className="font-semibold">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-slate-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The vehicle form's "Sale or rental" section: stock for sale, or a car of the rental fleet
 * with its terms (whole rupees). Plain fields: it works before the page's script has loaded;
 * the terms are ignored (and kept as they were) while the car is for sale.
 */
export function RentalTermsFields({ values, errors }: { values: RentalFormValues; errors: RentalFieldErrors }) {
  const field = (name: keyof RentalFormValues) => `rental-${name}`;
  const money = { inputMode: 'numeric' as const, maxLength: 9 };
  return (
    <section className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" aria-labelledby="rental-section">
      <h2 id="rental-section" className="text-lg font-bold">
        {t('saleOrRental')}
      </h2>
      <SelectField id={field('purpose')} name="purpose" label={t('thisVehicleIs')} defaultValue={values.purpose} error={errors.purpose} hint={t('purposeHint')}>
        <option value="sale">{t('forSale')}</option>
        <option value="rental">{t('inRentalFleet')}</option>
      </SelectField>
      <fieldset className="flex flex-col gap-4">
        <legend className="pb-2 font-semibold text-slate-700">{t('rentalTerms')}</legend>
        <div className={grid}>
          <TextField
            id={field('hourlyRate')}
            name="hourlyRate"
            label={t('hourlyRate')}
            {...money}
            defaultValue={values.hourlyRate}
            error={errors.hourlyRate}
            placeholder={t('example', { value: 250 })}
          />
          <TextField
            id={field('dailyRate')}
            name="dailyRate"
            label={t('dailyRate')}
            {...money}
            defaultValue={values.dailyRate}
            error={errors.dailyRate}
            placeholder={t('example', { value: 2200 })}
          />
          <TextField
            id={field('weeklyRate')}
            name="weeklyRate"
            label={t('weeklyRate')}
            {...money}
            defaultValue={values.weeklyRate}
            error={errors.weeklyRate}
            hint={t('weeklyRateHint')}
          />
          <TextField
            id={field('kmPerDay')}
            name="kmPerDay"
            label={t('kmPerDay')}
            {...money}
            defaultValue={values.kmPerDay}
            error={errors.kmPerDay}
            placeholder={t('example', { value: 240 })}
          />
          <Check name="unlimitedKm" label={t('unlimitedKm')} defaultChecked={values.unlimitedKm} />
          <TextField
            id={field('extraKmRate')}
            name="extraKmRate"
            label={t('extraKmRate')}
            {...money}
            defaultValue={values.extraKmRate}
            error={errors.extraKmRate}
            placeholder={t('example', { value: 12 })}
          />
          <TextField
            id={field('deposit')}
            name="deposit"
            label={t('deposit')}
            {...money}
            defaultValue={values.deposit}
            error={errors.deposit}
            placeholder={t('example', { value: 5000 })}
          />
          <SelectField id={field('fuelPolicy')} name="fuelPolicy" label={t('fuelPolicy')} defaultValue={values.fuelPolicy} error={errors.fuelPolicy}>
            {FUEL_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {fuelPolicyLabels()[policy]}
              </option>
            ))}
          </SelectField>
          <TextField
            id={field('minAge')}
            name="minAge"
            label={t('minAge')}
            inputMode="numeric"
            maxLength={3}
            defaultValue={values.minAge}
            error={errors.minAge}
          />
          <TextField
            id={field('minHours')}
            name="minHours"
            label={t('minHours')}
            inputMode="numeric"
            maxLength={4}
            defaultValue={values.minHours}
            error={errors.minHours}
          />
          <TextField id={field('seats')} name="seats" label={t('seats')} inputMode="numeric" maxLength={2} defaultValue={values.seats} error={errors.seats} />
        </div>
        <Check
          name="commercialRegistration"
          label={t('commercialRegistration')}
          hint={t('commercialRegistrationHint')}
          defaultChecked={values.commercialRegistration}
        />
        <Check name="deliveryAvailable" label={t('deliveryAllowed')} hint={t('deliveryAllowedHint')} defaultChecked={values.deliveryAvailable} />
      </fieldset>
    </section>
  );
}
