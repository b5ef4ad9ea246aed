import { Form } from 'react-router';
import { FormMessage, primaryButton, SelectField, TextAreaField, TextField } from '../../components/form.tsx';
import { hourLabel } from '../appointments/test-drives.ts';
import { serviceAreaLines, type ServiceArea } from '../../lib/service-areas.ts';
import { adminSettingsText as t } from './admin-settings-texts.ts';
import type { Language } from '../../lib/i18n/language.ts';

/** The test-drive block of the admin settings, as the form shows and sends it. */
export type TestDriveSettingsValues = {
  testDriveOpeningHour: number | string;
  testDriveClosingHour: number | string;
  testDriveCapacity: number | string;
  testDriveLeadHours: number | string;
  testDriveDaysAhead: number | string;
  /** The areas as typed (one a line), or the saved areas. */
  serviceAreas: string | readonly ServiceArea[];
};

export type TestDriveSettingsErrors = Partial<Record<keyof TestDriveSettingsValues, string>>;

/** The block's setting names, in the page's language unless one is asked for. */
export function testDriveSettingsLabels(language?: Language): Record<keyof TestDriveSettingsValues, string> {
  return {
    testDriveOpeningHour: t('testDriveOpeningHourLabel', undefined, language),
    testDriveClosingHour: t('testDriveClosingHourLabel', undefined, language),
    testDriveCapacity: t('testDriveCapacityLabel', undefined, language),
    testDriveLeadHours: t('testDriveLeadHoursLabel', undefined, language),
    testDriveDaysAhead: t('testDriveDaysAheadLabel', undefined, language),
    serviceAreas: t('serviceAreasLabel', undefined, language),
  };
}

/** Its own form (intent `test-drives`), saved without touching the other settings' fields. */
export function TestDriveSettingsSection({ values, errors, busy }: { values: TestDriveSettingsValues; errors: TestDriveSettingsErrors; busy: boolean }) {
  const areas = typeof values.serviceAreas === 'string' ? values.serviceAreas : serviceAreaLines(values.serviceAreas);
  const hasErrors = Object.keys(errors).length > 0;
  const L = testDriveSettingsLabels();
  return (
    <section aria-labelledby="test-drive-settings" className="w-full max-w-2xl rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="test-drive-settings" className="text-lg font-bold">
        {t('testDrivesHeading')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('testDrivesText')}</p>
      <Form method="post" className="mt-4 flex flex-col gap-5" noValidate>
        {hasErrors ? <FormMessage tone="error">{t('correctTestDriveFields')}</FormMessage> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="testDriveOpeningHour"
            name="testDriveOpeningHour"
            label={L.testDriveOpeningHour}
            defaultValue={String(values.testDriveOpeningHour)}
            error={errors.testDriveOpeningHour}
          >
            {Array.from({ length: 24 }, (_, hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </SelectField>
          <SelectField
            id="testDriveClosingHour"
            name="testDriveClosingHour"
            label={L.testDriveClosingHour}
            defaultValue={String(values.testDriveClosingHour)}
            error={errors.testDriveClosingHour}
          >
            {Array.from({ length: 24 }, (_, index) => index + 1).map((hour) => (
              <option key={hour} value={hour}>
                {hour === 24 ? t('midnight') : hourLabel(hour)}
              </option>
            ))}
          </SelectField>
          <TextField
            id="testDriveCapacity"
            name="testDriveCapacity"
            type="number"
            inputMode="numeric"
            min={1}
            max={20}
            label={L.testDriveCapacity}
            defaultValue={String(values.testDriveCapacity)}
            error={errors.testDriveCapacity}
            hint={t('testDriveCapacityHint')}
          />
          <TextField
            id="testDriveLeadHours"
            name="testDriveLeadHours"
            type="number"
            inputMode="numeric"
            min={0}
            max={72}
            label={L.testDriveLeadHours}
            defaultValue={String(values.testDriveLeadHours)}
            error={errors.testDriveLeadHours}
            hint={t('testDriveLeadHoursHint')}
          />
          <TextField
            id="testDriveDaysAhead"
            name="testDriveDaysAhead"
            type="number"
            inputMode="numeric"
            min={0}
            max={30}
            label={L.testDriveDaysAhead}
            defaultValue={String(values.testDriveDaysAhead)}
            error={errors.testDriveDaysAhead}
            hint={t('testDriveDaysAheadHint')}
          />
        </div>
        <TextAreaField
          id="serviceAreas"
          name="serviceAreas"
          label={L.serviceAreas}
          defaultValue={areas}
          error={errors.serviceAreas}
          hint={t('serviceAreasHint')}
          rows={8}
        />
        <div className="flex border-t border-slate-200 pt-5 sm:justify-end">
          <button type="submit" name="intent" value="test-drives" disabled={busy} className={primaryButton}>
            {t('saveTestDriveSettings')}
          </button>
        </div>
      </Form>
    </section>
  );
}
