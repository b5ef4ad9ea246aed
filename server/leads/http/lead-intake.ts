import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '../../../app/lib/lead-forms.ts';
import type { RouterContextProvider } from 'react-router';
import { issueFormToken, type LeadProof } from '../form-guard.ts';
import type { LeadKind } from '../leads.ts';
import type { Logger } from '../../logger.ts';
import { appContext } from '../../services.ts';

/**
 * The edge of the public lead forms: what a post carries besides the lead's own fields. The
 * rest of the way in is server/leads/intake.ts.
 */

function nonEmpty(form: FormData, field: string): string | null {
  const value = form.get(field);
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The solved bot check (`botCheck`, set by the page's script) or the page's signed form token (no script). */
export function leadProofFrom(form: FormData): LeadProof {
  return { botCheck: nonEmpty(form, 'botCheck'), formToken: nonEmpty(form, FORM_TOKEN_FIELD) };
}

/**
 * Whether a form-filling bot filled the hidden field. Such a post is answered like a success
 * (the bot learns nothing) and nothing is stored or checked further.
 */
export function honeypotFilled(form: FormData, logger: Pick<Logger, 'info'>, kind: LeadKind): boolean {
  const value = form.get(HONEYPOT_FIELD);
  if (value === null || value === '') return false;
  logger.info({ form: kind }, 'lead form: honeypot filled, nothing stored');
  return true;
}

/** A lead form page's data: the signed form token for browsers that run no script (server/leads/form-guard.ts). */
export function leadFormLoader(kind: LeadKind) {
  return ({ context }: { context: Readonly<RouterContextProvider> }) => {
    const { config, clock } = context.get(appContext);
    return { formToken: issueFormToken(config.authSecret, kind, clock.now()) };
  };
}
