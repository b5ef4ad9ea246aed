import { useState, type ReactNode } from 'react';
import { Form } from 'react-router';
import { SelectField, TextAreaField, TextField } from '../form.tsx';
import { useHydrated } from './admin-ui.tsx';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { KeyValueEditor } from './key-value-editor.tsx';
import { BODY_TYPES, COLOURS } from '../../lib/listing-filters.ts';
import { RentalTermsFields } from './rental-terms-fields.tsx';
import type { RentalFieldErrors, RentalFormValues } from '../../lib/rental-terms-form.ts';
import {
  FINANCE_AVAILABLE,
  FINANCE_NOT_AVAILABLE,
  FUEL_TYPES,
  INSPECTION_STATUSES,
  STATUS_LABELS,
  TRANSMISSIONS,
  VEHICLE_STATUSES,
  type VehicleFieldErrors,
  type VehicleFormValues,
} from '../../lib/vehicle-schema.ts';

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

/** A choice list that also keeps a stored value outside the list (so saving never changes it silently). */
function choices(list: readonly string[], current: string): string[] {
  return current && !list.includes(current) ? [...list, current] : [...list];
}

/** A select's options, each a value shown as it is or a [value, label] pair, led by "Not set" where empty is allowed. */
function Options({ choices, notSet }: { choices: ReadonlyArray<string | readonly [string, string]>; notSet: boolean }) {
  return (
    <>
      {notSet ? <option value="">Not set</option> : null}
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
  const id = (name: string) => `vehicle-${name}`;

  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" aria-busy={busy}>
      <input type="hidden" name="intent" value="save" />
      <Section title="Vehicle">
        <div className={grid}>
          <TextField
            id={id('name')}
            name="name"
            label="Vehicle Name"
            required
            maxLength={120}
            defaultValue={values.name}
            error={errors.name}
            placeholder="e.g. Maruti Suzuki Swift VXi"
          />
          <SelectField id={id('category')} name="categoryId" label="Category" required defaultValue={values.categoryId} error={errors.categoryId}>
            <option value="">Select a category</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </SelectField>
          <TextField
            id={id('price')}
            name="price"
            label="Price in rupees"
            required
            inputMode="numeric"
            maxLength={40}
            defaultValue={values.price}
            error={errors.price}
            placeholder="e.g. 545000"
          />
          <TextField id={id('make')} name="make" label="Make" maxLength={60} defaultValue={values.make} error={errors.make} placeholder="e.g. Maruti Suzuki" />
          <TextField id={id('model')} name="model" label="Model" maxLength={60} defaultValue={values.model} error={errors.model} placeholder="e.g. Swift" />
          <TextField id={id('variant')} name="variant" label="Variant" maxLength={60} defaultValue={values.variant} error={errors.variant} placeholder="e.g. VXi" />
          <TextField id={id('year')} name="year" label="Year" inputMode="numeric" maxLength={20} defaultValue={values.year} error={errors.year} placeholder="e.g. 2019" />
          <label className="flex items-center gap-3 self-end rounded-xl px-1 py-3 font-semibold">
            <input type="checkbox" name="featured" defaultChecked={values.featured} className="h-5 w-5 accent-brand-700" />
            Featured (shown first in the listing)
          </label>
        </div>
      </Section>

      <RentalTermsFields values={rental.values} errors={rental.errors} />

      <Section title="Specifications">
        <div className={grid}>
          <SelectField id={id('fuel')} name="fuelType" label="Fuel Type" defaultValue={values.fuelType} error={errors.fuelType}>
            <Options choices={choices(FUEL_TYPES, values.fuelType)} notSet={values.fuelType === ''} />
          </SelectField>
          <SelectField id={id('transmission')} name="transmission" label="Transmission" defaultValue={values.transmission} error={errors.transmission}>
            <Options choices={choices(TRANSMISSIONS, values.transmission)} notSet={values.transmission === ''} />
          </SelectField>
          <SelectField id={id('body')} name="bodyType" label="Body Type" defaultValue={values.bodyType} error={errors.bodyType}>
            <Options choices={Object.entries(BODY_TYPES)} notSet />
          </SelectField>
          <SelectField id={id('colour')} name="colour" label="Colour" defaultValue={values.colour} error={errors.colour}>
            <Options choices={Object.entries(COLOURS)} notSet />
          </SelectField>
          <TextField
            id={id('odometer')}
            name="odometer"
            label="Odometer in km"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            defaultValue={values.odometer}
            error={errors.odometer}
          />
          <TextField id={id('owners')} name="owners" label="Owners" maxLength={40} defaultValue={values.owners} error={errors.owners} placeholder="e.g. 1st Owner" />
          <TextField
            id={id('registration')}
            name="registration"
            label="Registration Number"
            maxLength={40}
            defaultValue={values.registration}
            error={errors.registration}
            placeholder="e.g. MH-02"
          />
          <TextField
            id={id('insurance')}
            name="insuranceValidity"
            label="Insurance Validity"
            type="date"
            defaultValue={values.insuranceValidity}
            error={errors.insuranceValidity}
          />
          <TextField id={id('fitness')} name="fitnessFC" label="Fitness / FC" maxLength={80} defaultValue={values.fitnessFC} error={errors.fitnessFC} placeholder="e.g. Valid till Jul 2034" />
          <TextField id={id('tyre')} name="tyrePoint" label="Tyre Point" maxLength={80} defaultValue={values.tyrePoint} error={errors.tyrePoint} placeholder="e.g. 80%" />
          <TextField
            id={id('video')}
            name="videoUrl"
            label="Video URL"
            type="url"
            maxLength={500}
            defaultValue={values.videoUrl}
            error={errors.videoUrl}
            placeholder="https://www.youtube.com/watch?v=…"
          />
        </div>
        <TextAreaField id={id('description')} name="description" label="Description" rows={5} maxLength={5000} defaultValue={values.description} error={errors.description} />
      </Section>

      {mode === 'edit' ? (
        <Section title="Status">
          <div className={grid}>
            <SelectField
              id={id('status')}
              name="status"
              label="Status"
              value={status}
              onChange={(event) => setStatus(event.currentTarget.value as VehicleFormValues['status'])}
              error={errors.status}
              hint="Sold vehicles leave the listing and search; their page shows Sold."
            >
              <Options choices={VEHICLE_STATUSES.map((value) => [value, STATUS_LABELS[value]] as const)} notSet={false} />
            </SelectField>
            {showSold ? (
              <>
                <TextField
                  id={id('sold-price')}
                  name="soldPrice"
                  label="Sold price in rupees"
                  inputMode="numeric"
                  maxLength={20}
                  required={hydrated}
                  defaultValue={values.soldPrice}
                  error={errors.soldPrice}
                  {...(hydrated ? {} : { hint: 'Only when the status is Sold.' })}
                />
                <TextField
                  id={id('sold-at')}
                  name="soldAt"
                  label="Sold date"
                  type="date"
                  required={hydrated}
                  defaultValue={values.soldAt}
                  error={errors.soldAt}
                  {...(hydrated ? {} : { hint: 'Only when the status is Sold.' })}
                />
              </>
            ) : null}
          </div>
        </Section>
      ) : null}

      <KeyValueEditor
        name="inspection"
        title="Vehicle Condition Report"
        description="Each item checked and its status, e.g. Engine: Excellent."
        keyLabel="Item"
        valueLabel="Status"
        valueKind="text"
        suggestions={INSPECTION_STATUSES}
        rows={values.inspection}
        error={errors.inspection}
      />
      <KeyValueEditor
        name="refurbishment"
        title="Refurbishment Details"
        description="What was done, e.g. Parts replaced. Several lines make a list."
        keyLabel="Label"
        valueLabel="Details"
        valueKind="lines"
        rows={values.refurbishment}
        error={errors.refurbishment}
      />
      <KeyValueEditor
        name="financial"
        title="Finance Options"
        description={`Each option and ${FINANCE_AVAILABLE} / ${FINANCE_NOT_AVAILABLE}, or a text such as an EMI.`}
        keyLabel="Option"
        valueLabel="Value"
        valueKind="text"
        suggestions={[FINANCE_AVAILABLE, FINANCE_NOT_AVAILABLE]}
        rows={values.financial}
        error={errors.financial}
      />

      {mode === 'add' ? (
        <Section title="Photos">
          <div className="flex flex-col gap-1">
            <label htmlFor={id('images')} className="font-semibold">
              Images
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
              Up to {maxImages ?? 10} photos, at most {MAX_IMAGE_MB} MB each. The first is the cover. JPEG, PNG, WebP or HEIC.
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
