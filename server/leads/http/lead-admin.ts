import { data, type RouterContextProvider } from 'react-router';
import { cleanLine, parseId, parsePage } from '../../../app/lib/input.ts';
import { parseForm } from '../../../app/lib/form-errors.ts';
import { isLeadStatus, MAX_SEARCH } from '../../../app/lib/lead-forms.ts';
import { leadChangeSchema } from '../../../app/features/admin/lead-schemas.ts';
import type { Toast } from '../../../app/lib/toast.ts';
import { requireAdmin } from '../../admin/guard.ts';
import { settingsFor } from '../../admin/settings.ts';
import { deleteLead, updateLead, type LeadFilter, type LeadKind } from '../leads.ts';
import { listLeads } from '../lists.ts';
import { appContext } from '../../services.ts';
import { answerError } from '../../http/action-errors.ts';
import { FormReadError, readFormOrError } from '../../http/forms.ts';
import { deskLeadsText as t } from '../../../app/features/admin/desk-leads-texts.ts';

/**
 * The loader and action both admin lead lists (Requested Vehicles, Selling Vehicles) use: the
 * route modules keep only what they show. This is the edge: it reads the request and the form
 * and hands the lead services plain values.
 */

type RouteArgs = { request: Request; context: Readonly<RouterContextProvider> };

/** ?status=contacted&q=ravi&page=2 -> the filter and the page; anything odd falls back to all / page 1. */
export function parseLeadQuery(params: URLSearchParams): LeadFilter & { page: number } {
  const status = params.get('status');
  return {
    status: isLeadStatus(status) ? status : null,
    q: cleanLine(params.get('q'), MAX_SEARCH),
    page: parsePage(params.get('page')),
  };
}

/** The list page's data: one page of leads of this kind, the filter it was read with, the site's name for the chat texts. */
export function leadListLoader<K extends LeadKind>(kind: K) {
  return async ({ request, context }: RouteArgs) => {
    const services = context.get(appContext);
    await requireAdmin(services, request);
    const query = parseLeadQuery(new URL(request.url).searchParams);
    const settings = await settingsFor(services);
    const list = await listLeads(services.database, kind, { ...query, perPage: settings.itemsPerPage });
    return { ...list, filter: { status: query.status, q: query.q }, siteName: settings.siteName };
  };
}

/** The toast to show, the lead it was about, and a refused form's message per field (shown beside them). */
export type LeadActionResult = { toast: Toast; id: number | null; fields?: Record<string, string> };

/** The toasts' words per kind of lead (keys of the deskLeads texts). */
const toastKeys = { request: { deleted: 'requestDeleted', saved: 'requestSaved' }, sell: { deleted: 'submissionDeleted', saved: 'submissionSaved' } } as const;
const statusWords = { new: 'statusWordNew', contacted: 'statusWordContacted', closed: 'statusWordClosed' } as const;

/** The list's one action: save a lead's status and notes (intent 'update'), or delete it (intent 'delete'). */
export function leadChangeAction(kind: LeadKind) {
  return async ({ request, context }: RouteArgs) => {
    const services = context.get(appContext);
    const admin = await requireAdmin(services, request);
    const answer = (result: LeadActionResult, status = 200) => data(result, { status });
    const failed = (text: string, status: number, id: number | null, fields: Record<string, string> = {}) =>
      answer({ toast: { tone: 'error', text }, id, fields }, status);

    const form = await readFormOrError(request);
    if (form instanceof FormReadError) return failed(form.message, form.status, null);
    const parsed = parseForm(leadChangeSchema, form);
    if (!parsed.ok) return failed(parsed.error, 400, parseId(parsed.values.id), parsed.fields);
    const change = parsed.value;
    const { id } = change;
    try {
      if (change.intent === 'delete') {
        await deleteLead(services, kind, id, admin.email);
        return answer({ toast: { tone: 'success', text: t(toastKeys[kind].deleted, { id }) }, id });
      }
      const { status, notes } = change;
      await updateLead(services, kind, id, { status, notes }, admin.email);
      return answer({ toast: { tone: 'success', text: t(toastKeys[kind].saved, { id, status: t(statusWords[status]) }) }, id });
    } catch (error) {
      const refused = answerError(error, services.logger, { fallback: t('changeNotSaved'), log: 'leads: admin change failed', context: { kind, id } });
      return failed(refused.message, refused.status, id);
    }
  };
}
