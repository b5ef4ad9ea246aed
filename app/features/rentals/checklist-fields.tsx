import { inputClass } from '../../components/form.tsx';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { deskRentalsText as t } from './desk-rentals-texts.ts';
import {
  checklistItemLabels,
  CHECKLIST_ITEMS,
  damageField,
  fuelText,
  MAX_DAMAGE_NOTES,
  MAX_DAMAGE_NOTE_LENGTH,
  type ChecklistStage,
} from './rental-checklist.ts';
import { FUEL_EIGHTHS_MAX } from './rentals.ts';

/**
 * The inputs of a handover's checklist (decision 067): the odometer, the fuel gauge, a photo of
 * each side and the dashboard, the damage rows. The rental desk's handover and return and a sold
 * car's delivery (decision 116) show the same fields, read on the server by the same engine
 * (server/rentals/checklists.ts, server/rentals/http/checklist-form.ts).
 */

/** The checklist's inputs: a photo of each side and the dashboard (the phone's camera opens), and the damage rows. */
export function ChecklistFields({ stage, fields }: { stage: ChecklistStage; fields: Record<string, string> }) {
  const fileClass = 'block w-full text-sm file:mr-2 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:font-semibold';
  return (
    <fieldset className="flex flex-col gap-3 sm:col-span-full">
      <legend className="text-sm font-semibold">{t('photosLegend', { mb: MAX_IMAGE_MB })}</legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {CHECKLIST_ITEMS.map((item) => (
          <label key={item} className="flex flex-col gap-1 rounded-lg p-2 text-sm font-semibold ring-1 ring-slate-200">
            {checklistItemLabels()[item]}
            <input
              type="file"
              name={item}
              accept="image/*"
              capture="environment"
              required
              aria-invalid={fields[item] ? true : undefined}
              className={fileClass}
            />
            {fields[item] ? <span className="font-medium text-red-700">{fields[item]}</span> : null}
          </label>
        ))}
      </div>
      <details className="rounded-lg p-2 ring-1 ring-slate-200" open={Object.keys(fields).some((name) => name.startsWith('damage'))}>
        <summary className="cursor-pointer text-sm font-semibold">
          {t(stage === 'return' ? 'damageSummaryReturn' : 'damageSummary', { max: MAX_DAMAGE_NOTES })}
        </summary>
        <div className="mt-2 flex flex-col gap-3">
          {Array.from({ length: MAX_DAMAGE_NOTES }, (_, index) => (
            <div key={index} className="grid grid-cols-1 gap-2 border-t border-slate-100 pt-2 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
              <label className="flex flex-col gap-1 text-sm font-semibold">
                {t('damageNumbered', { number: index + 1 })}
                <input
                  name={damageField(index, 'Note')}
                  maxLength={MAX_DAMAGE_NOTE_LENGTH}
                  placeholder={t('damagePlaceholder')}
                  aria-invalid={fields[damageField(index, 'Note')] ? true : undefined}
                  className={`${inputClass} py-2`}
                />
                {fields[damageField(index, 'Note')] ? <span className="font-medium text-red-700">{fields[damageField(index, 'Note')]}</span> : null}
              </label>
              <label className="flex flex-col gap-1 text-sm font-semibold">
                {t('itsPhoto')}
                <input type="file" name={damageField(index, 'Photo')} accept="image/*" capture="environment" className={fileClass} />
                {fields[damageField(index, 'Photo')] ? <span className="font-medium text-red-700">{fields[damageField(index, 'Photo')]}</span> : null}
              </label>
              {stage === 'return' ? (
                <>
                  <label className="flex items-center gap-2 text-sm font-semibold">
                    <input type="checkbox" name={damageField(index, 'New')} defaultChecked className="h-5 w-5" />
                    {t('newSinceHandover')}
                  </label>
                  <label className="flex flex-col gap-1 text-sm font-semibold">
                    {t('chargeRupees')}
                    <input
                      name={damageField(index, 'Charge')}
                      type="number"
                      min={0}
                      step={1}
                      inputMode="numeric"
                      placeholder="0"
                      className={`${inputClass} py-2`}
                    />
                    {fields[damageField(index, 'Charge')] ? <span className="font-medium text-red-700">{fields[damageField(index, 'Charge')]}</span> : null}
                  </label>
                </>
              ) : null}
            </div>
          ))}
        </div>
      </details>
    </fieldset>
  );
}

export function FuelField({ name, label, defaultValue, error }: { name: string; label: string; defaultValue: number | string; error?: string | undefined }) {
  return (
    <label className="flex flex-col gap-1 text-sm font-semibold">
      {label}
      <select name={name} defaultValue={defaultValue} aria-invalid={error ? true : undefined} className={inputClass}>
        {Array.from({ length: FUEL_EIGHTHS_MAX + 1 }, (_, eighths) => (
          <option key={eighths} value={eighths}>
            {fuelText(eighths)}
          </option>
        ))}
      </select>
      {error ? <span className="font-medium text-red-700">{error}</span> : null}
    </label>
  );
}

export function NumberField({
  name,
  label,
  max,
  defaultValue,
  error,
}: {
  name: string;
  label: string;
  max: number;
  defaultValue?: string | number | undefined;
  error?: string | undefined;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-semibold">
      {label}
      <input
        name={name}
        type="number"
        min={0}
        max={max}
        step={1}
        inputMode="numeric"
        required
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        className={inputClass}
      />
      {error ? <span className="font-medium text-red-700">{error}</span> : null}
    </label>
  );
}
