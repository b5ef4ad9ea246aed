import { data, redirect } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { NotFoundError } from '../../../server/errors.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../../../server/http/problem.ts';
import { findRcTransfer, rcStepLabel, recordRcStep } from '../../../server/sales/rc-transfers.ts';
import { appContext } from '../../context.ts';
import { isRcStep, rcStepSchema, type RcTransferView } from '../../features/sales/rc-transfer-rules.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { parseForm } from '../../lib/form-errors.ts';
import { parseId } from '../../lib/input.ts';
import { adminPaths } from '../../lib/paths.ts';
import type { Route } from './+types/sale-transfer';

/**
 * A sale's registration transfer for the desk (decision 117): the sale page's section reads it
 * here and records the next step here. The page's fetcher gets data; a program asking for JSON
 * gets problem+json refusals (409 `out-of-order` naming the next step); a plain form post
 * without the page's script lands back on the sale's page with the outcome as its notice.
 */

export type RcStepAnswer =
  | { ok: true; recorded: string; error?: undefined; fields?: undefined; values?: undefined }
  | { ok: false; error: string; reason?: string; fields: Record<string, string>; values: Record<string, string> };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const id = parseId(params.id);
  const transfer = id === null ? null : await findRcTransfer(services.database.db, id);
  if (!transfer) throw data({ message: t('saleNotFound') }, { status: 404 });
  return data({ transfer: transfer satisfies RcTransferView }, { headers: { 'Cache-Control': 'no-store' } });
}

type Client = 'program' | 'browser' | 'page';

/** Who posted: a program (asks for JSON), a browser's plain form (asks for HTML), or the page's fetcher. */
function clientOf(request: Request): Client {
  const accept = request.headers.get('accept') ?? '';
  if (/application\/(problem\+)?json/.test(accept)) return 'program';
  if (/text\/html/.test(accept)) return 'browser';
  return 'page';
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const client = clientOf(request);
  const id = parseId(params.id);
  const refuse = async (status: number, answer: Omit<Extract<RcStepAnswer, { ok: false }>, 'ok'>) => {
    if (client === 'program')
      return new Response(JSON.stringify(problemBody(status, answer.error, { fields: answer.fields, ...(answer.reason ? { reason: answer.reason } : {}) })), {
        status,
        headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
      });
    if (client === 'browser' && id !== null)
      return redirect(adminPaths.sale(id), { status: 303, headers: await flashHeaders(services.config.authSecret, { tone: 'error', text: answer.error }) });
    return data({ ok: false, ...answer } satisfies RcStepAnswer, { status });
  };
  if (id === null) return refuse(404, { error: t('saleNotFound'), fields: {}, values: {} });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return refuse(form.status, { error: form.message, fields: {}, values: {} });
  const asked = form.get('step');
  if (!isRcStep(asked)) return refuse(400, { error: t('rcStepUnknown'), fields: { step: t('rcStepUnknown') }, values: {} });
  const parsed = parseForm(rcStepSchema, form);
  if (!parsed.ok) return refuse(400, { error: parsed.error, fields: parsed.fields, values: parsed.values });
  try {
    await recordRcStep(services, { saleId: id, step: parsed.value, actorEmail: admin.email });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('rcStepFailed'), log: 'recording a registration transfer step failed' });
    return refuse(error instanceof NotFoundError ? 404 : answer.status, {
      error: answer.message,
      ...(answer.reason ? { reason: answer.reason } : {}),
      fields: { ...answer.fields },
      values: parsed.values,
    });
  }
  const recorded = t('rcStepRecorded', { step: rcStepLabel(parsed.value.step) });
  if (client === 'program') return Response.json({ recorded: parsed.value.step, transfer: await findRcTransfer(services.database.db, id) });
  if (client === 'browser')
    return redirect(adminPaths.sale(id), { status: 303, headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: recorded }) });
  return data({ ok: true, recorded } satisfies RcStepAnswer);
}
