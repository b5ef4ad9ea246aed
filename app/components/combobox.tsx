import { useId, useState, type KeyboardEvent } from 'react';
import { inputClass } from './field-styles.ts';
import { FieldNotes } from './form.tsx';
import { useHydrated } from './use-hydrated.ts';

/** One choice of a combobox: the text it puts in the field, and a second name shown beside it (the Hindi name). */
export type ComboboxOption = { value: string; aside?: string };

type ComboboxProps = {
  id: string;
  name: string;
  label: string;
  /** The field's text; the parent keeps it, so a choice here can change another field's options. */
  value: string;
  onChange: (value: string) => void;
  /** The options for this text, nearest first (the parent ranks them with the site's matcher). */
  optionsFor: (text: string) => ComboboxOption[];
  error?: string | undefined;
  hint?: string | undefined;
  placeholder?: string;
  maxLength?: number;
  required?: boolean;
  /** Read to screen readers when the list is empty for the text typed. */
  emptyText: string;
};

/** At most this many suggestions at once: a phone screen holds them above the keyboard. */
const SHOWN = 8;

/**
 * A text field that offers choices as one types: the WAI-ARIA combobox with a list popup
 * (aria-autocomplete="list"). Arrow keys move through the list, Enter picks, Escape closes;
 * focus stays in the field. Before the page's script runs (or without it) it is a plain text
 * field, and the server reads what was typed with the same matcher.
 */
export function Combobox({ id, name, label, value, onChange, optionsFor, error, hint, placeholder, maxLength, required, emptyText }: ComboboxProps) {
  const hydrated = useHydrated();
  const listId = `${id}-list`;
  const optionId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const options = open ? optionsFor(value).slice(0, SHOWN) : [];
  const expanded = open && options.length > 0;

  function choose(option: ComboboxOption) {
    onChange(option.value);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const count = open ? options.length : Math.min(SHOWN, optionsFor(value).length);
      if (!open) setOpen(true);
      if (count === 0) return;
      setActive((current) => (event.key === 'ArrowDown' ? (current + 1) % count : current <= 0 ? count - 1 : current - 1));
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      // Picks the highlighted choice instead of sending the form.
      event.preventDefault();
      choose(options[active]!);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold">
        {label}
      </label>
      {/* Its list and the field's combobox role come with the script (the hydration test skips what is inside). */}
      <div className="relative" data-changes-once-hydrated="">
        <input
          id={id}
          name={name}
          type="text"
          autoComplete="off"
          value={value}
          placeholder={placeholder}
          maxLength={maxLength}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={inputClass}
          onChange={(event) => {
            onChange(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          {...(hydrated
            ? {
                role: 'combobox',
                'aria-autocomplete': 'list' as const,
                'aria-expanded': expanded,
                'aria-controls': listId,
                'aria-activedescendant': expanded && active >= 0 ? `${optionId}-${active}` : undefined,
              }
            : {})}
        />
        {hydrated ? (
          <ul
            id={listId}
            role="listbox"
            aria-label={label}
            hidden={!expanded}
            className="absolute top-full right-0 left-0 z-20 mt-1 max-h-72 overflow-auto rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-300"
          >
            {options.map((option, index) => (
              <li
                key={option.value}
                id={`${optionId}-${index}`}
                role="option"
                aria-selected={index === active}
                // Keeps the focus in the field: the pick happens on the click below.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(option)}
                className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-3 ${index === active ? 'bg-brand-100 text-brand-800' : 'hover:bg-slate-100'}`}
              >
                <span lang="en" className="font-medium">
                  {option.value}
                </span>
                {option.aside ? (
                  <span lang="hi" className="text-sm text-slate-600">
                    {option.aside}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {/* Over the page, as the list is, so nothing below moves while the seller types or leaves the field. */}
        {hydrated && open && value.trim() && options.length === 0 ? (
          <p
            role="status"
            className="absolute top-full right-0 left-0 z-20 mt-1 rounded-xl bg-white px-3 py-2 text-sm text-slate-600 shadow-lg ring-1 ring-slate-300"
          >
            {emptyText}
          </p>
        ) : null}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
