import { useEffect, useRef, useState } from 'react';
import { data, useNavigation, useSubmit } from 'react-router';
import { answerError } from '../../server/http/action-errors.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { honeypotFilled, leadFormLoader, leadProofFrom } from '../../server/leads/http/lead-intake.ts';
import { admitLead, parseRequestLead, submitLead } from '../../server/leads/intake.ts';
import { FormCard, FormMessage, primaryButton, TextAreaField, TextField } from '../components/form.tsx';
import { ContactFields, focusFirstError, Honeypot, leadFieldProps, PrivacyNotice, useLeadSubmission } from '../features/sell/lead-form-parts.tsx';
import { useSite } from './site-layout.tsx';
import { appContext } from '../context.ts';
import {
  FORM_TOKEN_FIELD,
  formValues,
  LEAD_LIMITS,
  parseRequestForm,
  requestFailed,
  requestSent,
  requestFields,
  type FieldErrors,
  type RequestField,
} from '../lib/lead-forms.ts';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';
import type { Route } from './+types/request-vehicle';
import { retryAfterHeaders } from '../lib/retry-after.ts';
import { leadsText as t } from '../lib/i18n/leads.ts';

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export const meta = pageMeta(() => ({
  path: paths.requestVehicle,
  title: t('requestTitle'),
  description: t('requestMetaDescription'),
}));

export const loader = leadFormLoader('request');

type Values = Record<RequestField, string>;
export type RequestResult =
  | { status: 'sent'; message: string }
  | { status: 'invalid'; errors: FieldErrors<RequestField>; values: Values | null }
  | { status: 'failed'; message: string; values: Values | null };

/**
 * Rate limit per visitor, then a bounded read, honeypot (answered like success, nothing
 * stored), the shared rules, and the lead's way in (server/leads/intake.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const failed = (error: unknown, values: Values | null) => {
    const answer = answerError(error, services.logger, { fallback: requestFailed(), log: 'request form: the request could not be saved' });
    // Only the rate limit says more than "failed": that visitor must wait rather than retry.
    const message = answer.status === 429 ? answer.message : requestFailed();
    return data<RequestResult>({ status: 'failed', message, values }, { status: answer.status, headers: answer.headers });
  };
  try {
    await admitLead(services, 'request');
  } catch (error) {
    return failed(error, null);
  }
  const form = await readFormOrError(request);
  if (form instanceof FormReadError)
    return data<RequestResult>({ status: 'failed', message: form.status === 413 ? requestFailed() : form.message, values: null }, { status: form.status });
  if (honeypotFilled(form, services.logger, 'request')) return data<RequestResult>({ status: 'sent', message: requestSent() });
  const values = formValues(form, requestFields);
  const parsed = parseRequestLead(form);
  if (!parsed.ok) return data<RequestResult>({ status: 'invalid', errors: parsed.errors, values }, { status: 400 });
  try {
    await submitLead(services, { kind: 'request', input: parsed.data }, leadProofFrom(form));
  } catch (error) {
    return failed(error, values);
  }
  return data<RequestResult>({ status: 'sent', message: requestSent() });
}

/**
 * A request that never got an answer (connection lost, server down) is a failure, not an error
 * page. Answered as a 503 so the router does not reload the page's data over the same dead
 * connection (that failure would replace the form, and what was typed, with an error page).
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return data<RequestResult>({ status: 'failed', message: requestFailed(), values: null }, { status: 503 });
  }
}

export default function RequestVehicle({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSite();
  const submit = useSubmit();
  const navigation = useNavigation();
  const { solving, clientErrors, fieldsToSend } = useLeadSubmission<RequestField>('REQUEST_FORM');
  const formRef = useRef<HTMLFormElement>(null);
  // A result stays on screen until the next submission starts.
  const [superseded, setSuperseded] = useState<unknown>(null);
  const result = actionData && actionData !== superseded ? actionData : undefined;
  const busy = solving || (navigation.state !== 'idle' && navigation.formMethod === 'POST' && navigation.formAction === paths.requestVehicle);
  const errors: FieldErrors<RequestField> = clientErrors ?? (result?.status === 'invalid' ? result.errors : {});
  const values: Partial<Values> = (result && result.status !== 'sent' ? result.values : null) ?? {};

  useEffect(() => {
    if (!result) return;
    if (result.status === 'sent') formRef.current?.reset();
    if (result.status === 'invalid') focusFirstError(formRef.current, result.errors);
  }, [result]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    setSuperseded(actionData);
    const fields = await fieldsToSend(event, busy, (typed) => {
      const parsed = parseRequestForm(typed);
      return parsed.ok ? {} : parsed.errors;
    });
    if (fields) await submit(fields, { method: 'post', action: paths.requestVehicle, preventScrollReset: true });
  }

  const field = leadFieldProps<RequestField>('request', errors, values, ['year', 'description']);

  return (
    <FormCard title={t('requestTitle')}>
      <p className="mb-5 text-slate-700">{t('requestIntro')}</p>
      <form ref={formRef} method="post" action={paths.requestVehicle} className="relative flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <ContactFields field={field} />
        <TextField {...field('model')} label={t('preferredModel')} placeholder={t('preferredModelPlaceholder')} maxLength={LEAD_LIMITS.model} />
        <TextField {...field('year')} label={t('yearOptional')} inputMode="numeric" placeholder={t('yearPlaceholder')} maxLength={LEAD_LIMITS.requestYear} />
        <TextField {...field('budget')} label={t('budget')} placeholder={t('budgetPlaceholder')} maxLength={LEAD_LIMITS.budget} />
        <TextAreaField
          {...field('description')}
          label={t('descriptionOptional')}
          placeholder={t('requestDescriptionPlaceholder')}
          maxLength={LEAD_LIMITS.description}
        />
        <Honeypot />
        <input type="hidden" name={FORM_TOKEN_FIELD} value={loaderData.formToken} />
        <PrivacyNotice>{t('requestPrivacy', { site: site.siteName })}</PrivacyNotice>
        <div aria-live="polite" className="empty:hidden">
          {result?.status === 'sent' ? <FormMessage tone="success">{result.message}</FormMessage> : null}
          {result?.status === 'failed' ? <FormMessage tone="error">{result.message}</FormMessage> : null}
        </div>
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? t('submitting') : t('submitRequest')}
        </button>
      </form>
    </FormCard>
  );
}
