import { useState } from 'react';
import { TENURE_OPTIONS } from './emi.ts';
import { CALCULATOR_LIMITS, calculatorAnswer, calculatorNote, parseCalculatorInput, type CalculatorFields, type CalculatorValues } from './calculator.ts';
import { emiText as t } from './emi-texts.ts';
import { formatRupees } from '../../lib/format.ts';
import { inputClass, primaryButton } from '../../components/field-styles.ts';

/**
 * The vehicle page's EMI calculator. Without JavaScript it is a GET form (`?dp=…&rate=…&tenure=…#emi`)
 * whose answer the server renders; with it, the answer follows each keystroke. Both read the
 * fields with the same rule (parseCalculatorInput) and work them out with the same function
 * (calculatorAnswer): while a field holds a value the calculator cannot take, it says why and
 * shows no figures rather than the figures of other values.
 */
export function EmiCalculator({ price, action, defaults, fields }: { price: number; action: string; defaults: CalculatorValues; fields: CalculatorFields }) {
  const [raw, setRaw] = useState(fields);
  const input = parseCalculatorInput(new URLSearchParams(raw), price, defaults);
  const summary = calculatorAnswer(price, input);
  const change = (name: keyof typeof raw) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setRaw((before) => ({ ...before, [name]: event.target.value }));
  };
  const { min, max, step } = CALCULATOR_LIMITS.rate;

  return (
    // noValidate: without JavaScript the server's message (in the page's language) says what is wrong, not the browser's.
    <form method="get" action={action} noValidate onSubmit={(event) => event.preventDefault()} className="flex flex-col gap-4" aria-describedby="emi-note">
      {/* The answer comes first: on a phone it stays in sight while the fields below it change. While a
          value is wrong, what is wrong takes the figures' place, so it is in sight too. */}
      <div
        aria-live="polite"
        className={`grid grid-cols-2 gap-3 rounded-2xl p-4 ring-1 sm:grid-cols-4 ${summary ? 'bg-brand-50 ring-brand-100' : 'bg-red-50 ring-red-200'}`}
      >
        <p className="col-span-2 sm:col-span-1">
          <span className="block text-xs font-semibold uppercase tracking-wide text-brand-700">{t('emi')}</span>
          <output htmlFor="emi-dp emi-rate emi-tenure" className="text-2xl font-extrabold text-brand-800">
            {summary ? formatRupees(summary.emi) : '—'}
          </output>
          {summary ? <span className="text-sm text-slate-700">{t('perMonth')}</span> : null}
        </p>
        {summary ? (
          <>
            <p>
              <span className="block text-xs font-semibold uppercase tracking-wide text-slate-600">{t('loanAmount')}</span>
              <span className="font-bold">{formatRupees(summary.loan)}</span>
            </p>
            <p>
              <span className="block text-xs font-semibold uppercase tracking-wide text-slate-600">{t('totalInterest')}</span>
              <span className="font-bold">{formatRupees(summary.totalInterest)}</span>
            </p>
            <p>
              <span className="block text-xs font-semibold uppercase tracking-wide text-slate-600">{t('totalPaid')}</span>
              <span className="font-bold">{formatRupees(summary.totalPaid)}</span>
            </p>
          </>
        ) : (
          <ul className="col-span-2 flex flex-col justify-center gap-1 text-sm font-medium text-red-800 sm:col-span-3">
            {input.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="emi-dp" className="font-semibold">
            {t('downPaymentLabel')}
          </label>
          <input
            id="emi-dp"
            name="dp"
            type="number"
            inputMode="numeric"
            min={0}
            max={price}
            step={1000}
            value={raw.dp}
            onChange={change('dp')}
            aria-describedby="emi-dp-hint"
            className={inputClass}
          />
          <p id="emi-dp-hint" className="text-xs text-slate-600">
            {t('rupeeRange', { min: formatRupees(0), max: formatRupees(price) })}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="emi-rate" className="font-semibold">
            {t('rateLabel')}
          </label>
          <input
            id="emi-rate"
            name="rate"
            type="number"
            inputMode="decimal"
            min={min}
            max={max}
            step={step}
            value={raw.rate}
            onChange={change('rate')}
            aria-describedby="emi-rate-hint"
            className={inputClass}
          />
          <p id="emi-rate-hint" className="text-xs text-slate-600">
            {t('rateRange', { min, max })}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="emi-tenure" className="font-semibold">
            {t('tenureLabel')}
          </label>
          <select id="emi-tenure" name="tenure" value={raw.tenure} onChange={change('tenure')} className={inputClass}>
            {TENURE_OPTIONS.map((months) => (
              <option key={months} value={months}>
                {t('tenureOption', { months, count: months / 12 })}
              </option>
            ))}
          </select>
        </div>
      </div>
      {/* Without JavaScript this sends the form; with it, the answer below is already up to date. */}
      <noscript>
        <button type="submit" className={primaryButton}>
          {t('calculate')}
        </button>
      </noscript>
      <p id="emi-note" className="text-xs text-slate-600">
        {calculatorNote()}
      </p>
    </form>
  );
}
