import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

import { inputClass } from './field-styles.ts';
import { PASSWORD_LENGTH } from '../lib/input.ts';

export { inputClass, primaryButton, secondaryButton } from './field-styles.ts';

type FieldProps = { label: string; id: string; error?: string | undefined; hint?: string | undefined };

function describedBy(id: string, error?: string, hint?: string): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

/** A field's label above, its hint and error below, linked for screen readers. */
function Field({ label, id, error, hint, children }: FieldProps & { children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold">
        {label}
      </label>
      {children}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A field's hint and error under it, with the ids its input names in aria-describedby (describedBy). */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function TextField({ label, error, id, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & FieldProps) {
  return (
    <Field label={label} id={id} error={error} hint={hint}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={inputClass} {...input} />
    </Field>
  );
}

/**
 * The password of an account being made (sign-up, the first admin, another admin): one rule
 * (PASSWORD_LENGTH) and the hint to password managers that this is a new one.
 */
export function NewPasswordField({ label, hint, error }: { label: string; hint: string; error?: string | undefined }) {
  return (
    <TextField
      id="password"
      name="password"
      type="password"
      label={label}
      autoComplete="new-password"
      required
      minLength={PASSWORD_LENGTH.min}
      hint={hint}
      error={error}
    />
  );
}

export function TextAreaField({ label, error, id, hint, ...textarea }: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldProps) {
  return (
    <Field label={label} id={id} error={error} hint={hint}>
      <textarea id={id} rows={4} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={inputClass} {...textarea} />
    </Field>
  );
}

export function SelectField({ label, error, id, hint, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & FieldProps) {
  return (
    <Field label={label} id={id} error={error} hint={hint}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} className={inputClass} {...select}>
        {children}
      </select>
    </Field>
  );
}

const messageTones = {
  error: 'bg-red-50 text-red-800 ring-1 ring-red-200',
  success: 'bg-green-50 text-green-800 ring-1 ring-green-200',
  info: 'bg-slate-100 text-slate-800 ring-1 ring-slate-200',
} as const;

export function FormMessage({ tone, children }: { tone: keyof typeof messageTones; children: React.ReactNode }) {
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`rounded-xl px-4 py-3 text-sm font-medium ${messageTones[tone]}`}>
      {children}
    </p>
  );
}

/** The card that holds the sign-in, sign-up and profile forms (SPEC 9: at most 560 px wide). */
export function FormCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-[560px] rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="mb-5 text-2xl font-extrabold tracking-tight">{title}</h1>
      {children}
    </section>
  );
}

export function GoogleIcon({ className = 'h-5 w-5' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden="true" focusable="false">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}
