import { Form } from 'react-router';
import { FormMessage, primaryButton, SelectField, TextAreaField, TextField } from '../../components/form.tsx';
import { adminSettingsText as t } from '../admin/admin-settings-texts.ts';

/** The sale's settings (decision 114), as the form shows and sends them. */
export const SALES_SETTING_KEYS = [
  'dealerLegalName',
  'dealerAddress',
  'dealerGstin',
  'invoicePrefix',
  'salePanThresholdRupees',
  'gstScheme',
  'gstMarginRatePercent',
  'gstSmallCarRatePercent',
  'gstLargeCarRatePercent',
  'gstLargeCarCessPercent',
  'rcTransferOverdueDays',
] as const;
export type SalesSettingKey = (typeof SALES_SETTING_KEYS)[number];
export type SalesSettingsValues = Record<SalesSettingKey, string | number>;
export type SalesSettingsErrors = Partial<Record<SalesSettingKey, string>>;

const RATE_KEYS = ['gstMarginRatePercent', 'gstSmallCarRatePercent', 'gstLargeCarRatePercent', 'gstLargeCarCessPercent'] as const;

/** Its own form (intent `sales`) on the settings page: saved without touching the other settings. */
export function SalesSettingsSection({
  values,
  errors,
  labels,
  busy,
}: {
  values: SalesSettingsValues;
  errors: SalesSettingsErrors;
  labels: Record<SalesSettingKey, string>;
  busy: boolean;
}) {
  const field = (key: SalesSettingKey) => ({ id: key, name: key, label: labels[key], error: errors[key], defaultValue: String(values[key]) });
  return (
    <section aria-labelledby="sales-settings" className="w-full max-w-2xl rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="sales-settings" className="text-lg font-bold">
        {t('salesGroup')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('salesGroupHint')}</p>
      <Form method="post" className="mt-4 flex flex-col gap-5" noValidate>
        <input type="hidden" name="intent" value="sales" />
        {Object.keys(errors).length > 0 ? <FormMessage tone="error">{Object.values(errors)[0]}</FormMessage> : null}
        <TextField {...field('dealerLegalName')} maxLength={300} autoComplete="organization" />
        <TextAreaField {...field('dealerAddress')} maxLength={300} rows={3} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField {...field('dealerGstin')} maxLength={15} autoCapitalize="characters" spellCheck={false} />
          <TextField {...field('invoicePrefix')} maxLength={2} autoCapitalize="characters" spellCheck={false} />
          <TextField {...field('salePanThresholdRupees')} inputMode="numeric" />
          <SelectField {...field('gstScheme')}>
            <option value="margin">{t('gstSchemeMargin')}</option>
            <option value="normal">{t('gstSchemeNormal')}</option>
          </SelectField>
          {RATE_KEYS.map((key) => (
            <TextField key={key} {...field(key)} inputMode="decimal" />
          ))}
          <TextField {...field('rcTransferOverdueDays')} inputMode="numeric" />
        </div>
        <div>
          <button type="submit" className={primaryButton} disabled={busy}>
            {t('salesSave')}
          </button>
        </div>
      </Form>
    </section>
  );
}
