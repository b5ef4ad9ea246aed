import { useId, useRef, useState } from 'react';
import type { MapName, MapRow } from '../../lib/vehicle-schema.ts';
import { RemoveLabel, smallButton, useHydrated } from './admin-ui.tsx';
import { inputClass } from '../../components/form.tsx';
import { adminVehiclesText as t } from './admin-vehicles-texts.ts';

type Props = {
  name: MapName;
  title: string;
  description: React.ReactNode;
  keyLabel: string;
  valueLabel: string;
  /** 'lines': a textarea where each line is a list entry; otherwise one line with suggestions. */
  valueKind: 'text' | 'lines';
  suggestions?: readonly string[];
  rows: MapRow[];
  error?: string | undefined;
};

/** Blank rows sent with the page, so rows can be added without script too. */
const SPARE_ROWS = 2;

/**
 * Rows of label + value for one of a vehicle's maps (condition report, refurbishment, finance).
 * The rows post as parallel `{name}.key` / `{name}.value` fields. Without script the page
 * carries two spare rows and a cleared label removes its row; with script rows are added and
 * removed with buttons.
 */
export function KeyValueEditor({ name, title, description, keyLabel, valueLabel, valueKind, suggestions, rows, error }: Props) {
  const hydrated = useHydrated();
  const listId = useId();
  const headingId = useId();
  const nextId = useRef(rows.length + SPARE_ROWS);
  const [entries, setEntries] = useState(() =>
    [...rows, ...Array.from({ length: SPARE_ROWS }, () => ({ key: '', value: '' }))].map((row, index) => ({ ...row, id: index })),
  );

  const add = () => {
    const id = nextId.current++;
    setEntries((current) => [...current, { key: '', value: '', id }]);
  };
  const remove = (id: number) => setEntries((current) => current.filter((entry) => entry.id !== id));

  return (
    <fieldset
      className="flex min-w-0 flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      aria-describedby={error ? `${headingId}-error` : undefined}
      data-changes-once-hydrated=""
    >
      <legend id={headingId} className="float-left w-full text-lg font-bold">
        {title}
      </legend>
      <p className="text-sm text-slate-600">
        {description} {hydrated ? null : t('clearRowLabel')}
      </p>
      {error ? (
        <p id={`${headingId}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {suggestions ? (
        <datalist id={listId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      ) : null}
      <ol className="flex flex-col gap-3">
        {entries.map((entry, index) => (
          <li
            key={entry.id}
            className={
              valueKind === 'lines'
                ? 'grid grid-cols-[minmax(0,1fr)_auto] gap-2 border-b border-slate-200 pb-3 last:border-0 last:pb-0 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] sm:items-start sm:border-0 sm:pb-0'
                : 'grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-center gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]'
            }
          >
            <input
              name={`${name}.key`}
              defaultValue={entry.key}
              aria-label={t('rowField', { label: keyLabel, number: index + 1 })}
              placeholder={keyLabel}
              maxLength={80}
              className={`${inputClass} col-start-1 row-start-1`}
            />
            {valueKind === 'lines' ? (
              <textarea
                name={`${name}.value`}
                defaultValue={entry.value}
                aria-label={t('rowField', { label: valueLabel, number: index + 1 })}
                placeholder={t('onePerLine', { label: valueLabel })}
                rows={2}
                className={`${inputClass} col-span-2 col-start-1 row-start-2 sm:col-span-1 sm:col-start-2 sm:row-start-1`}
              />
            ) : (
              <input
                name={`${name}.value`}
                defaultValue={entry.value}
                aria-label={t('rowField', { label: valueLabel, number: index + 1 })}
                placeholder={valueLabel}
                list={suggestions ? listId : undefined}
                maxLength={2000}
                className={`${inputClass} col-start-2 row-start-1`}
              />
            )}
            {hydrated ? (
              <button
                type="button"
                onClick={() => remove(entry.id)}
                aria-label={t('removeRow', { label: keyLabel.toLowerCase(), number: index + 1 })}
                title={t('removeRowTitle')}
                className={`${smallButton} row-start-1 h-11 w-11 px-0 text-red-700 sm:w-auto sm:px-3 ${valueKind === 'lines' ? 'col-start-2 sm:col-start-3' : 'col-start-3'}`}
              >
                <RemoveLabel from="sm" />
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {hydrated ? (
        <button type="button" onClick={add} className={`${smallButton} self-start`}>
          {t('addRow')}
        </button>
      ) : null}
    </fieldset>
  );
}
