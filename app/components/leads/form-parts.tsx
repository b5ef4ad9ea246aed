import { Link, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root.tsx';
import { solveBotCheck } from '../../lib/bot-check-client.ts';
import { HONEYPOT_FIELD } from '../../lib/lead-forms.ts';
import { paths } from '../../lib/paths.ts';

/**
 * The honeypot: a field bots fill and people never meet. Off screen rather than display:none
 * (some bots skip hidden fields), out of the tab order and hidden from screen readers.
 */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] top-0 h-px w-px overflow-hidden">
      <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
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
        How we handle your details
      </Link>
      .
    </p>
  );
}

/** Solves the bot check for a lead form; an empty token when it cannot run (the server then decides). */
export function useLeadBotCheck() {
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
