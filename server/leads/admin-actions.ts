import { parseId } from '../../app/lib/input.ts';
import type { Toast } from '../../app/lib/toast.ts';
import type { Database } from '../db/connection.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../media/storage.ts';
import { deleteLead, LeadNotFoundError, parseLeadUpdate, updateLead, type LeadKind } from './leads.ts';

/**
 * The admin lead pages' one action: save a lead's status and notes, or delete it. The route
 * calls requireAdmin first and passes the admin's email; this only parses and applies.
 */

export type LeadActionResult = { toast: Toast; id: number | null };

const nouns = { request: 'Request', sell: 'Submission' } as const;

export async function leadAdminAction(
  deps: { database: Database; storage: Storage; logger: Pick<Logger, 'warn' | 'error'> },
  kind: LeadKind,
  form: FormData,
  actorEmail: string,
): Promise<{ result: LeadActionResult; status: number }> {
  const id = parseId(form.get('id'));
  if (id === null) return { result: { toast: { tone: 'error', text: 'This lead was not found.' }, id: null }, status: 400 };
  const intent = form.get('intent');
  try {
    if (intent === 'delete') {
      await deleteLead(deps, kind, id, actorEmail);
      return { result: { toast: { tone: 'success', text: `${nouns[kind]} #${id} deleted` }, id }, status: 200 };
    }
    const parsed = parseLeadUpdate(form);
    if (!parsed.ok) return { result: { toast: { tone: 'error', text: parsed.message }, id }, status: 400 };
    await updateLead(deps.database, kind, id, parsed.update, actorEmail);
    return { result: { toast: { tone: 'success', text: `${nouns[kind]} #${id} saved as ${parsed.update.status}` }, id }, status: 200 };
  } catch (error) {
    if (error instanceof LeadNotFoundError) return { result: { toast: { tone: 'error', text: error.message }, id }, status: 404 };
    deps.logger.error({ err: error, kind, id }, 'leads: admin change failed');
    return { result: { toast: { tone: 'error', text: 'The change could not be saved. Please try again.' }, id }, status: 500 };
  }
}
