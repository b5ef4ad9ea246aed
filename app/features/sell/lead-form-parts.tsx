import { useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root.tsx';
import { solveBotCheck } from '../../lib/bot-check-client.ts';
import { HONEYPOT_FIELD, LEAD_LIMITS, type FieldErrors } from '../../lib/lead-forms.ts';
import { TextField } from '../../components/form.tsx';
import { paths } from '../../lib/paths.ts';
import { leadsText as t } from '../../lib/i18n/leads.ts';

/**
 * The honeypot: a field bots fill and people never meet. Off screen rather than display:none
 * (some bots skip hidden fields), out of the tab order and hidden from screen readers.
 */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] top-0 h-px w-px overflow-hidden">
      <label htmlFor={HONEYPOT_FIELD}>{t('honeypotLabel')}</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** What happens with the details, before they are sent (with the link to the privacy page). */
export function PrivacyNotice({ children }: { children: React.ReactNode }) {
  return (
    <p className="text-sm text-slate-600">
      {children}{' '}
      <Link to={paths.privacy} className="font-semibold text-brand-700 underline">
        {t('howWeHandle')}
      </Link>
      .
    </p>
  );
}

/** Solves the bot check for a lead form; an empty token when it cannot run (the server then decides). */
function useLeadBotCheck() {
  const botCheck = useRouteLoaderData<typeof rootLoader>('root')?.botCheck;
  return async (action: 'REQUEST_FORM' | 'SELL_FORM'): Promise<string> => {
    try {
      return await solveBotCheck(action, botCheck ?? { provider: 'altcha' });
    } catch {
      return '';
    }
  };
}

/** Moves focus to the first field with an error, in the form's order. */
export function focusFirstError(form: HTMLFormElement | null, errors: Record<string, string | undefined>) {
  if (!form) return;
  for (const element of Array.from(form.elements)) {
    const name = (element as HTMLInputElement).name;
    if (name && errors[name]) {
      (element as HTMLElement).focus();
      return;
    }
  }
}

/**
 * The browser's part of sending a lead form. `fieldsToSend` handles the submit event: nothing
 * while `busy`; the errors `check` finds are shown and the first focused; otherwise
 * `beforeBotCheck` runs (still within the click) and the fields come back with the bot check
 * solved into them, the form showing busy (`solving`) meanwhile.
 */
export function useLeadSubmission<Field extends string>(action: 'REQUEST_FORM' | 'SELL_FORM') {
  const solveBotCheck = useLeadBotCheck();
  const [solving, setSolving] = useState(false);
  const [clientErrors, setClientErrors] = useState<FieldErrors<Field> | null>(null);
  async function fieldsToSend(
    event: React.FormEvent<HTMLFormElement>,
    busy: boolean,
    check: (fields: FormData) => FieldErrors<Field>,
    beforeBotCheck?: (form: HTMLFormElement, fields: FormData) => void,
  ): Promise<FormData | null> {
    event.preventDefault();
    if (busy) return null;
    const form = event.currentTarget;
    const fields = new FormData(form);
    const found = check(fields);
    const hasErrors = Object.keys(found).length > 0;
    setClientErrors(hasErrors ? found : null);
    if (hasErrors) {
      focusFirstError(form, found);
      return null;
    }
    beforeBotCheck?.(form, fields);
    setSolving(true);
    try {
      fields.set('botCheck', await solveBotCheck(action));
    } finally {
      setSolving(false);
    }
    return fields;
  }
  return { solving, clientErrors, fieldsToSend };
}

type LeadFieldProps = { id: string; name: string; error: string | undefined; defaultValue: string; 'aria-required': true | undefined };

/** A lead form's field props: its id, what was typed before and its error; all but the `optional` fields are marked required. */
export function leadFieldProps<Field extends string>(
  prefix: string,
  errors: FieldErrors<Field>,
  values: Partial<Record<Field, string>>,
  optional: readonly Field[],
) {
  return (name: Field): LeadFieldProps => ({
    id: `${prefix}-${name}`,
    name,
    error: errors[name],
    defaultValue: values[name] ?? '',
    'aria-required': optional.includes(name) ? undefined : true,
  });
}

/** Who is asking: the name and phone number every lead form starts with. */
export function ContactFields({ field }: { field: (name: 'name' | 'phone') => LeadFieldProps }) {
  return (
    <>
      <TextField {...field('name')} label={t('yourName')} autoComplete="name" maxLength={LEAD_LIMITS.name} />
      <TextField
        {...field('phone')}
        type="tel"
        label={t('phoneNumber')}
        inputMode="tel"
        autoComplete="tel"
        maxLength={LEAD_LIMITS.phone}
        hint={t('phoneHint')}
      />
    </>
  );
}
