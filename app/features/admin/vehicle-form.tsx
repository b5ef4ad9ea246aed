import { useState, type ReactNode } from 'react';
import { Form } from 'react-router';
import { SelectField, TextAreaField, TextField } from '../../components/form.tsx';
import { useHydrated } from './admin-ui.tsx';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { KeyValueEditor } from './key-value-editor.tsx';
import { RichText } from '../../lib/i18n/rich.tsx';
import { BODY_TYPES, bodyTypeLabel, COLOURS, colourLabel } from '../../lib/listing-filters/options.ts';
import { RentalTermsFields } from './rental-terms-fields.tsx';
import type { RentalFieldErrors, RentalFormValues } from '../rentals/rental-terms-form.ts';
import {
  FINANCE_AVAILABLE,
  FINANCE_NOT_AVAILABLE,
  FUEL_TYPES,
  INSPECTION_STATUSES,
  TRANSMISSIONS,
  VEHICLE_STATUSES,
  type FormTextField,
  type VehicleFieldErrors,
  type VehicleFormValues,
} from '../../lib/vehicle-schema.ts';
import { adminVehiclesText as t } from './admin-vehicles-texts.ts';
import type { VehicleStatus } from '../../lib/vehicle.ts';

type Props = {
  mode: 'add' | 'edit';
  values: VehicleFormValues;
  errors: VehicleFieldErrors;
  categories: Array<{ id: number; name: string }>;
  /** Add only: the photos field (the edit page manages photos on their own). */
  maxImages?: number;
  /** The buttons at the end (Back/Cancel and the submit). */
  actions: ReactNode;
  busy: boolean;
  /** The "Sale or rental" section: the purpose and the fleet terms. */
  rental: { values: RentalFormValues; errors: RentalFieldErrors };
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 className="text-lg font-bold">{title}</h2>
      {children}
    </section>
  );
}

const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

/** A vehicle status as the admin screens name it, in the page's language. */
export function vehicleStatusLabel(status: VehicleStatus): string {
  return { available: t('statusAvailable'), reserved: t('statusReserved'), sold: t('statusSold'), draft: t('statusDraft') }[status];
}

/** A choice list that also keeps a stored value outside the list (so saving never changes it silently). */
function choices(list: readonly string[], current: string): string[] {
  return current && !list.includes(current) ? [...list, current] : [...list];
}

/** A select's options, each a value shown as it is or a [value, label] pair, led by "Not set" where empty is allowed. */
function Options({ choices, notSet }: { choices: ReadonlyArray<string | readonly [string, string]>; notSet: boolean }) {
  return (
    <>
      {notSet ? <option value="">{t('notSet')}</option> : null}
      {choices.map((choice) => {
        const [value, label] = typeof choice === 'string' ? [choice, choice] : choice;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </>
  );
}

/**
 * The vehicle form of Add Vehicle and Vehicle Edit: the same fields on both (SPEC 2 and 5;
 * decision 007), posting plain form fields so it works before the page's script has loaded.
 */
export function VehicleForm({ mode, values, errors, categories, maxImages, actions, busy, rental }: Props) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState(values.status);
  const showSold = !hydrated || status === 'sold';
  // Before the script runs both sold fields show whatever the status, so they say when they apply.
  const soldHint = hydrated ? {} : { hint: t('onlyWhenSold') };
  const id = (name: string) => `vehicle-${name}`;
  /** What a text or choice field shares: its element id, the form field it posts, its label, the value shown and its error. */
  const field = (name: FormTextField, label: string, idName: string = name) => ({
    id: id(idName),
    name,
    label,
    defaultValue: values[name],
    error: errors[name],
  });

  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" aria-busy={busy}>
      <input type="hidden" name="intent" value="save" />
      <Section title={t('sectionVehicle')}>
        <div className={grid}>
          <TextField {...field('name', t('vehicleName'))} required maxLength={120} placeholder={t('example', { value: 'Maruti Suzuki Swift VXi' })} />
          <SelectField {...field('categoryId', t('category'), 'category')} required>
            <option value="">{t('selectCategory')}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </SelectField>
          <TextField {...field('price', t('priceInRupees'))} required inputMode="numeric" maxLength={40} placeholder={t('example', { value: 545000 })} />
          <TextField {...field('make', t('make'))} maxLength={60} placeholder={t('example', { value: 'Maruti Suzuki' })} />
          <TextField {...field('model', t('model'))} maxLength={60} placeholder={t('example', { value: 'Swift' })} />
          <TextField {...field('variant', t('variant'))} maxLength={60} placeholder={t('example', { value: 'VXi' })} />
          <TextField {...field('year', t('year'))} inputMode="numeric" maxLength={20} placeholder={t('example', { value: 2019 })} />
          <label className="flex items-center gap-3 self-end rounded-xl px-1 py-3 font-semibold">
            <input type="checkbox" name="featured" defaultChecked={values.featured} className="h-5 w-5 accent-brand-700" />
            {t('featuredFirst')}
          </label>
        </div>
      </Section>

      <RentalTermsFields values={rental.values} errors={rental.errors} />

      <Section title={t('specifications')}>
        <div className={grid}>
          <SelectField {...field('fuelType', t('fuelType'), 'fuel')}>
            <Options choices={choices(FUEL_TYPES, values.fuelType)} notSet={values.fuelType === ''} />
          </SelectField>
          <SelectField {...field('transmission', t('transmission'))}>
            <Options choices={choices(TRANSMISSIONS, values.transmission)} notSet={values.transmission === ''} />
          </SelectField>
          <SelectField {...field('bodyType', t('bodyType'), 'body')}>
            <Options choices={Object.keys(BODY_TYPES).map((key) => [key, bodyTypeLabel(key)] as const)} notSet />
          </SelectField>
          <SelectField {...field('colour', t('colour'))}>
            <Options choices={Object.keys(COLOURS).map((key) => [key, colourLabel(key)] as const)} notSet />
          </SelectField>
          <TextField {...field('odometer', t('odometer'))} type="number" min={0} step={1} inputMode="numeric" />
          <TextField {...field('owners', t('owners'))} maxLength={40} placeholder={t('ownersPlaceholder')} />
          <TextField {...field('registration', t('registration'))} maxLength={40} placeholder={t('example', { value: 'MH-02' })} />
          <TextField {...field('insuranceValidity', t('insuranceValidity'), 'insurance')} type="date" />
          <TextField {...field('fitnessFC', t('fitness'), 'fitness')} maxLength={80} placeholder={t('fitnessPlaceholder')} />
          <TextField {...field('tyrePoint', t('tyrePoint'), 'tyre')} maxLength={80} placeholder={t('example', { value: '80%' })} />
          <TextField {...field('videoUrl', t('videoUrl'), 'video')} type="url" maxLength={500} placeholder="https://www.youtube.com/watch?v=…" />
        </div>
        <TextAreaField {...field('description', t('description'))} rows={5} maxLength={5000} />
      </Section>

      {mode === 'edit' ? (
        <Section title={t('status')}>
          <div className={grid} data-changes-once-hydrated="">
            <SelectField
              id={id('status')}
              name="status"
              label={t('status')}
              value={status}
              onChange={(event) => setStatus(event.currentTarget.value as VehicleFormValues['status'])}
              error={errors.status}
              hint={values.status === 'draft' ? t('draftHint') : t('soldHint')}
            >
              {/* Draft is where a car from an inspection starts (decision 084); once published it does not go back. */}
              <Options
                choices={VEHICLE_STATUSES.filter((value) => value !== 'draft' || values.status === 'draft').map(
                  (value) => [value, vehicleStatusLabel(value)] as const,
                )}
                notSet={false}
              />
            </SelectField>
            {showSold ? (
              <>
                <TextField {...field('soldPrice', t('soldPrice'), 'sold-price')} inputMode="numeric" maxLength={20} required={hydrated} {...soldHint} />
                <TextField {...field('soldAt', t('soldDate'), 'sold-at')} type="date" required={hydrated} {...soldHint} />
              </>
            ) : null}
          </div>
        </Section>
      ) : null}

      <KeyValueEditor
        name="inspection"
        title={t('conditionReport')}
        description={t('conditionReportText')}
        keyLabel={t('item')}
        valueLabel={t('status')}
        valueKind="text"
        suggestions={INSPECTION_STATUSES}
        rows={values.inspection}
        error={errors.inspection}
      />
      <KeyValueEditor
        name="refurbishment"
        title={t('refurbishment')}
        description={t('refurbishmentText')}
        keyLabel={t('label')}
        valueLabel={t('details')}
        valueKind="lines"
        rows={values.refurbishment}
        error={errors.refurbishment}
      />
      <KeyValueEditor
        name="financial"
        title={t('financeOptions')}
        // The two values are typed as they are stored, in English on a Hindi page too.
        description={
          <RichText
            text={t('financeOptionsText', { available: FINANCE_AVAILABLE, notAvailable: FINANCE_NOT_AVAILABLE })}
            parts={{ value: (word) => <span lang="en">{word}</span> }}
          />
        }
        keyLabel={t('option')}
        valueLabel={t('value')}
        valueKind="text"
        suggestions={[FINANCE_AVAILABLE, FINANCE_NOT_AVAILABLE]}
        rows={values.financial}
        error={errors.financial}
      />

      {mode === 'add' ? (
        <Section title={t('photos')}>
          <div className="flex flex-col gap-1">
            <label htmlFor={id('images')} className="font-semibold">
              {t('images')}
            </label>
            <input
              id={id('images')}
              name="images"
              type="file"
              accept="image/*"
              multiple
              aria-describedby={`${id('images')}-hint`}
              className="w-full rounded-xl border border-dashed border-slate-400 bg-slate-50 p-3 text-base file:mr-3 file:rounded-lg file:border-0 file:bg-brand-700 file:px-4 file:py-2 file:font-semibold file:text-white"
            />
            <p id={`${id('images')}-hint`} className="text-sm text-slate-600">
              {t('imagesHint', { max: maxImages ?? 10, mb: MAX_IMAGE_MB })}
            </p>
          </div>
        </Section>
      ) : null}

      <div className="sticky bottom-0 z-10 -mx-4 flex gap-3 border-t border-slate-200 bg-slate-100/95 px-4 py-3 backdrop-blur *:flex-1 *:whitespace-nowrap sm:static sm:mx-0 sm:justify-end sm:border-0 sm:bg-transparent sm:p-0 sm:*:flex-none">
        {actions}
      </div>
    </Form>
  );
}
