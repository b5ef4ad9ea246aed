import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { FormMessage, primaryButton, TextField } from '../../components/form.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { formatPaise } from '../../lib/money.ts';
import { adminPaths } from '../../lib/paths.ts';
import { APPLICATION_NUMBER_EXAMPLE, type RcStep, type RcTransferView } from './rc-transfer-rules.ts';
import { salesText as t } from './sales-texts.ts';

/** An instant as India reads it, in the page's language. */
const when = (ms: number) => formatDateTime(new Date(ms).toISOString());

/** What a step added: the application number, the fee and receipt, the new registration. */
export function rcStepDetails(transfer: RcTransferView, step: RcStep): string {
  if (step === 'submitted' && transfer.applicationNumber) return t('rcDetailApplication', { number: transfer.applicationNumber });
  if (step === 'fee-paid' && transfer.feePaise !== null)
    return t('rcDetailFee', { amount: formatPaise(transfer.feePaise), receipt: transfer.feeReceipt ?? '' });
  if (step === 'rc-issued' && transfer.newRegistration) return t('rcDetailRegistration', { registration: transfer.newRegistration });
  return '';
}

/** The steps in order as a timeline: each done one with its date (and, for the desk, who recorded it), the rest to come. */
export function RcTimeline({ transfer, showWho }: { transfer: RcTransferView; showWho: boolean }) {
  return (
    <ol className="mt-3 flex flex-col gap-0">
      {transfer.steps.map(({ step, doneMs, by }, index) => {
        const done = doneMs !== null;
        const details = done ? rcStepDetails(transfer, step) : '';
        return (
          <li key={step} className="relative flex gap-3 pb-4 last:pb-0" data-step={step} data-done={done ? 'yes' : 'no'}>
            {index < transfer.steps.length - 1 ? (
              <span aria-hidden="true" className="absolute left-[0.9rem] top-8 h-[calc(100%-2rem)] w-0.5 bg-slate-200" />
            ) : null}
            <span
              aria-hidden="true"
              className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${done ? 'bg-green-700 text-white' : 'bg-slate-200 text-slate-700'}`}
            >
              {done ? '✓' : index + 1}
            </span>
            <div className="min-w-0">
              <p className={done ? 'font-semibold' : 'text-slate-700'}>{t(`rcStep_${step}`)}</p>
              <p className="text-sm text-slate-600">
                {done ? (showWho && by ? t('rcDoneBy', { date: when(doneMs), by }) : t('rcDoneOn', { date: when(doneMs) })) : t('rcToCome')}
              </p>
              {details ? <p className="break-words text-sm">{details}</p> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

type StepAnswer =
  | { ok: true; recorded: string; error?: undefined; fields?: undefined; values?: undefined }
  | { ok: false; error: string; reason?: string; fields: Record<string, string>; values: Record<string, string> };

/**
 * The sale page's "Registration transfer" (decision 117), whole in itself: it reads the transfer
 * from its own route and records the next step there, so the sale's page only places it. Only the
 * next step's form is shown; a refusal is shown beside its field with what was typed.
 */
export function RcTransferSection({ saleId }: { saleId: number }) {
  const source = useFetcher<{ transfer: RcTransferView }>({ key: `rc-transfer-${saleId}` });
  const step = useFetcher<StepAnswer>({ key: `rc-transfer-step-${saleId}` });
  const url = adminPaths.saleTransfer(saleId);
  useEffect(() => {
    if (source.state === 'idle' && source.data === undefined) void source.load(url);
    // Loaded once; React Router loads it again after each step recorded.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  const transfer = source.data?.transfer;
  const answer = step.state === 'idle' ? step.data : undefined;
  const refused = answer && !answer.ok ? answer : null;
  return (
    <section aria-labelledby="rc-transfer" className="w-full max-w-2xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="rc-transfer" className="text-lg font-bold">
        {t('rcHeading')}
      </h2>
      {!transfer ? (
        <p className="mt-2 text-sm text-slate-600" aria-busy="true">
          …
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('rcSoldOn', { date: when(transfer.soldMs) })}</p>
          {transfer.form35Needed || transfer.form28Needed ? (
            <ul className="mt-2 flex flex-col gap-1 text-sm font-semibold text-amber-800">
              {transfer.form35Needed ? <li>{t('rcForm35Flag')}</li> : null}
              {transfer.form28Needed ? <li>{t('rcForm28Flag')}</li> : null}
            </ul>
          ) : null}
          <RcTimeline transfer={transfer} showWho />
          {answer?.ok ? (
            <div className="mt-3" role="status">
              <FormMessage tone="success">{answer.recorded}</FormMessage>
            </div>
          ) : null}
          {transfer.state === 'closed' ? <p className="mt-3 font-semibold text-slate-700">{t('rcClosedNote')}</p> : null}
          {transfer.state === 'delivered' ? <p className="mt-3 font-semibold text-green-700">{t('rcComplete')}</p> : null}
          {transfer.next ? (
            // Keyed by the step: once recorded, the next step's form starts empty.
            <step.Form key={transfer.next} method="post" action={url} className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4" noValidate>
              <h3 className="font-bold">{t('rcNextHeading', { step: t(`rcStep_${transfer.next}`) })}</h3>
              <input type="hidden" name="step" value={transfer.next} />
              {refused ? <FormMessage tone="error">{refused.error}</FormMessage> : null}
              <NextStepFields next={transfer.next} fields={refused?.fields ?? {}} values={refused?.values ?? {}} />
              <button type="submit" disabled={step.state !== 'idle'} className={`${primaryButton} sm:self-start`}>
                {t('rcRecordButton')}
              </button>
            </step.Form>
          ) : null}
        </>
      )}
    </section>
  );
}

const checkboxClass = 'h-5 w-5 shrink-0 rounded border-slate-400 text-brand-700';

/** The fields the next step asks for; a refused value stays as typed. */
function NextStepFields({ next, fields, values }: { next: RcStep; fields: Record<string, string>; values: Record<string, string> }) {
  switch (next) {
    case 'forms-signed':
      return (
        <>
          <label className="flex min-h-11 items-center gap-3">
            <input type="checkbox" name="form35Needed" className={checkboxClass} defaultChecked={values.form35Needed === 'on'} />
            <span>{t('rcForm35Label')}</span>
          </label>
          <label className="flex min-h-11 items-center gap-3">
            <input type="checkbox" name="form28Needed" className={checkboxClass} defaultChecked={values.form28Needed === 'on'} />
            <span>{t('rcForm28Label')}</span>
          </label>
        </>
      );
    case 'submitted':
      return (
        <TextField
          id="rc-application-number"
          name="applicationNumber"
          label={t('rcApplicationLabel')}
          hint={t('rcApplicationHint', { example: APPLICATION_NUMBER_EXAMPLE })}
          error={fields.applicationNumber}
          defaultValue={values.applicationNumber ?? ''}
          maxLength={40}
          autoCapitalize="characters"
          spellCheck={false}
        />
      );
    case 'fee-paid':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField id="rc-fee" name="fee" label={t('rcFeeLabel')} error={fields.fee} defaultValue={values.fee ?? ''} inputMode="decimal" maxLength={20} />
          <TextField
            id="rc-fee-receipt"
            name="feeReceipt"
            label={t('rcReceiptLabel')}
            error={fields.feeReceipt}
            defaultValue={values.feeReceipt ?? ''}
            maxLength={60}
          />
        </div>
      );
    case 'rc-issued':
      return (
        <TextField
          id="rc-new-registration"
          name="newRegistration"
          label={t('rcNewRegistrationLabel')}
          hint={t('rcNewRegistrationHint')}
          error={fields.newRegistration}
          defaultValue={values.newRegistration ?? ''}
          maxLength={20}
          autoCapitalize="characters"
          spellCheck={false}
        />
      );
    case 'delivered':
      return null;
  }
}
