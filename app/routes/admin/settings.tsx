import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { recordAudit } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { SELL_MARGIN_PERCENT } from '../../features/sell/estimate-schemas.ts';
import { resetSettings, saveSettings, SETTING_LABELS, settingsFor, settingsSchema, type Settings } from '../../../server/admin/settings.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormMessage, primaryButton, secondaryButton, SelectField, TextAreaField, TextField } from '../../components/form.tsx';
import { appContext, type AppServices } from '../../context.ts';
import { ITEMS_PER_PAGE_OPTIONS } from '../../features/admin/admin-pages.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { cleanLine, cleanText, MAX_EMAIL_LENGTH } from '../../lib/input.ts';
import { MAX_PRICE_INCLUDES_LENGTH, MAX_PROMISE_LENGTH, MAX_TRUST_POINT_LENGTH, MAX_TRUST_POINTS } from '../../lib/storefront.ts';
import { priceLabel } from '../../lib/format.ts';
import type { Route } from './+types/settings';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { adminPaths } from '../../lib/paths.ts';
import { parseServiceAreaLines } from '../../lib/service-areas.ts';
import { TestDriveSettingsSection, type TestDriveSettingsErrors } from '../../features/admin/test-drive-settings.tsx';
import { FINANCE_SETTING_LIMITS, TENURE_OPTIONS } from '../../features/emi/emi.ts';
import { adminSettingsText as t } from '../../features/admin/admin-settings-texts.ts';
import { ConfirmDialog } from '../../features/admin/confirm-dialog.tsx';
import { useConfirmStep } from '../../components/confirm-dialog.tsx';
import type { Language } from '../../lib/i18n/language.ts';
import { SALES_SETTING_KEYS, SalesSettingsSection, type SalesSettingsErrors } from '../../features/sales/sales-settings-section.tsx';

/** Each setting's name, in the page's language (or the one asked for: the audit log's summaries are English), as its domain declares it. */
function labels(language?: Language): Record<keyof Settings, string> {
  return Object.fromEntries(Object.entries(SETTING_LABELS).map(([key, label]) => [key, t(label, undefined, language)])) as Record<keyof Settings, string>;
}

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('title'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const [settings, flash] = await Promise.all([settingsFor(services), takeFlash(services.config.authSecret, request)]);
  // The names come from each domain's declaration (server code), so the loader hands them over.
  return data({ settings, labels: labels(), message: flash.toast }, { headers: flash.headers });
}

function changedKeys(before: Settings, after: Settings): Array<keyof Settings> {
  return (Object.keys(labels('en')) as Array<keyof Settings>).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

function summaryOf(prefix: string, keys: Array<keyof Settings>): string {
  const names = labels('en');
  return keys.length ? `${prefix}: ${keys.map((key) => names[key]).join(', ')}` : `${prefix}: no changes`;
}

type FieldErrors = Partial<Record<keyof Settings, string>>;
type Values = {
  siteName: string;
  adminEmail: string;
  itemsPerPage: string;
  emailNotifications: boolean;
  whatsappTeamNumbers: string;
  maintenanceMode: boolean;
  emiRatePercent: string;
  emiTenureMonths: string;
  emiFinancedPercent: string;
  sellEstimateMarginPercent: string;
  inspectionOpeningHour: string;
  inspectionClosingHour: string;
  inspectionCapacity: string;
  storefrontPromise: string;
  trustPoints: string;
  priceIncludes: string;
} & Record<RentalNumberKey, string>;

/** The self-drive rental settings, each a whole number typed in the form (the PIN codes aside). */
const RENTAL_NUMBER_SETTINGS = [
  { key: 'rentalBufferHours', hint: 'rentalBufferHoursHint' },
  { key: 'rentalMinNoticeHours', hint: 'rentalMinNoticeHoursHint' },
  { key: 'rentalHorizonDays', hint: 'rentalHorizonDaysHint' },
  { key: 'rentalGraceHours', hint: 'rentalGraceHoursHint' },
  { key: 'rentalLateFeePerHour', hint: 'rentalLateFeePerHourHint' },
  { key: 'rentalFreeCancelHours', hint: 'rentalFreeCancelHoursHint' },
  { key: 'rentalLateCancelKeepDays', hint: 'rentalLateCancelKeepDaysHint' },
  { key: 'rentalDeliveryFee', hint: 'rentalDeliveryFeeHint' },
  { key: 'rentalGstPercent', hint: 'rentalGstPercentHint' },
  { key: 'rentalProtectionPerDay', hint: 'rentalProtectionPerDayHint' },
  { key: 'rentalProtectionCap', hint: 'rentalProtectionCapHint' },
  { key: 'rentalRefundWorkingDays', hint: 'rentalRefundWorkingDaysHint' },
] as const satisfies ReadonlyArray<{ key: keyof Settings; hint: Parameters<typeof t>[0] }>;

/** Reserving a car for sale (decision 080): whole numbers typed like the rental ones. */
const RESERVATION_NUMBER_SETTINGS = [
  { key: 'reservationAmount', hint: 'reservationAmountHint' },
  { key: 'reservationHoldHours', hint: 'reservationHoldHoursHint' },
] as const satisfies ReadonlyArray<{ key: keyof Settings; hint: Parameters<typeof t>[0] }>;
type RentalNumberKey = (typeof RENTAL_NUMBER_SETTINGS)[number]['key'] | (typeof RESERVATION_NUMBER_SETTINGS)[number]['key'];

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  const before = await settingsFor(services);

  if (form.get('intent') === 'reset') {
    await resetSettings(services);
    return auditAndReturn(
      services,
      admin.email,
      { action: 'reset', summary: 'Reset settings to defaults', toast: t('restored') },
      before,
      await settingsFor(services),
    );
  }

  if (form.get('intent') === 'test-drives') return saveTestDriveSettings(services, admin.email, form, before);
  if (form.get('intent') === 'sales') return saveSalesSettings(services, admin.email, form, before);

  const values: Values = {
    siteName: cleanLine(form.get('siteName'), 200),
    adminEmail: cleanLine(form.get('adminEmail'), MAX_EMAIL_LENGTH),
    itemsPerPage: cleanLine(form.get('itemsPerPage'), 10),
    // An unticked checkbox is not sent at all.
    emailNotifications: form.has('emailNotifications'),
    whatsappTeamNumbers: form.has('whatsappTeamNumbers') ? cleanLine(form.get('whatsappTeamNumbers'), 300) : before.whatsappTeamNumbers,
    maintenanceMode: form.has('maintenanceMode'),
    // A field the form did not send at all keeps the value in force.
    emiRatePercent: form.has('emiRatePercent') ? cleanLine(form.get('emiRatePercent'), 20) : String(before.emiRatePercent),
    emiTenureMonths: form.has('emiTenureMonths') ? cleanLine(form.get('emiTenureMonths'), 10) : String(before.emiTenureMonths),
    emiFinancedPercent: form.has('emiFinancedPercent') ? cleanLine(form.get('emiFinancedPercent'), 20) : String(before.emiFinancedPercent),
    sellEstimateMarginPercent: form.has('sellEstimateMarginPercent')
      ? cleanLine(form.get('sellEstimateMarginPercent'), 20)
      : String(before.sellEstimateMarginPercent),
    inspectionOpeningHour: form.has('inspectionOpeningHour') ? cleanLine(form.get('inspectionOpeningHour'), 4) : String(before.inspectionOpeningHour),
    inspectionClosingHour: form.has('inspectionClosingHour') ? cleanLine(form.get('inspectionClosingHour'), 4) : String(before.inspectionClosingHour),
    inspectionCapacity: form.has('inspectionCapacity') ? cleanLine(form.get('inspectionCapacity'), 6) : String(before.inspectionCapacity),
    // Storefront: a form without these fields (an older page still open) keeps what is saved.
    storefrontPromise: form.has('storefrontPromise') ? cleanLine(form.get('storefrontPromise'), 1000) : before.storefrontPromise,
    trustPoints: form.has('trustPoints') ? cleanText(form.get('trustPoints'), { multiline: true, maxLength: 2000 }) : before.trustPoints,
    priceIncludes: form.has('priceIncludes') ? cleanLine(form.get('priceIncludes'), 1000) : before.priceIncludes,
    ...(Object.fromEntries(
      [...RENTAL_NUMBER_SETTINGS, ...RESERVATION_NUMBER_SETTINGS].map(({ key }) => [
        key,
        form.has(key) ? cleanLine(form.get(key), 12).replace(/[₹,\s]/g, '') : String(before[key]),
      ]),
    ) as Record<RentalNumberKey, string>),
  };
  // The other sections' settings (the test drives' own form, the PIN codes) are kept as they are.
  const parsed = settingsSchema.safeParse({ ...before, ...values });
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof Settings;
      errors[key] ??= key === 'itemsPerPage' ? t('itemsPerPageChoice') : issue.message;
    }
    return data({ errors, values });
  }

  const after = parsed.data;
  await saveSettings(services, after, admin.email);
  return auditAndReturn(services, admin.email, { action: 'update', summary: 'Changed settings', toast: t('saved') }, before, after);
}

/** Records a reset or a save in the audit log (with what changed), then back to the page with its toast. */
async function auditAndReturn(
  services: AppServices,
  actorEmail: string,
  change: { action: 'reset' | 'update'; summary: string; toast: string },
  before: Settings,
  after: Settings,
): Promise<never> {
  await recordAudit(services, {
    actorEmail,
    action: change.action,
    entity: 'settings',
    summary: summaryOf(change.summary, changedKeys(before, after)),
    before,
    after,
  });
  throw redirect(adminPaths.settings, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: change.toast }) });
}

/** The test-drive section's own save: only its fields change (the areas typed one a line). */
async function saveTestDriveSettings(services: AppServices, actorEmail: string, form: FormData, before: Settings) {
  const areasText = cleanText(form.get('serviceAreas'), { multiline: true, maxLength: 40_000 });
  const areas = parseServiceAreaLines(areasText);
  const testDriveValues = {
    testDriveOpeningHour: cleanLine(form.get('testDriveOpeningHour'), 4),
    testDriveClosingHour: cleanLine(form.get('testDriveClosingHour'), 4),
    testDriveCapacity: cleanLine(form.get('testDriveCapacity'), 6),
    testDriveLeadHours: cleanLine(form.get('testDriveLeadHours'), 6),
    testDriveDaysAhead: cleanLine(form.get('testDriveDaysAhead'), 6),
    serviceAreas: areasText,
  };
  const errors: TestDriveSettingsErrors = {};
  if (areas.problems.length) errors.serviceAreas = areas.problems.slice(0, 3).join(' ');
  const parsed = settingsSchema.safeParse({ ...before, ...testDriveValues, serviceAreas: areas.areas });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof TestDriveSettingsErrors;
      errors[key] ??= issue.message;
    }
  } else if (parsed.data.testDriveClosingHour <= parsed.data.testDriveOpeningHour) {
    errors.testDriveClosingHour = t('testDrivesEndAfterStart');
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return data({ testDriveErrors: errors, testDriveValues }, { status: 400 });
  await saveSettings(services, parsed.data, actorEmail);
  return auditAndReturn(services, actorEmail, { action: 'update', summary: 'Changed test-drive settings', toast: t('saved') }, before, parsed.data);
}

/** The sales and GST section's own save (decision 114): only its fields change. */
async function saveSalesSettings(services: AppServices, actorEmail: string, form: FormData, before: Settings) {
  // A field the form did not send keeps its value (a form from before the field was added).
  const salesValues = Object.fromEntries(SALES_SETTING_KEYS.filter((key) => form.has(key)).map((key) => [key, cleanLine(form.get(key), 300)])) as Record<
    (typeof SALES_SETTING_KEYS)[number],
    string
  >;
  const parsed = settingsSchema.safeParse({ ...before, ...salesValues });
  if (!parsed.success) {
    const errors: SalesSettingsErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof SalesSettingsErrors;
      errors[key] ??= issue.message;
    }
    return data({ salesErrors: errors, salesValues }, { status: 400 });
  }
  await saveSettings(services, parsed.data, actorEmail);
  return auditAndReturn(services, actorEmail, { action: 'update', summary: 'Changed sales and GST settings', toast: t('saved') }, before, parsed.data);
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

/** A percentage typed as a number within its limits, the hint saying them and the usual value. */
function percentInput(limits: { min: number; max: number }, usual: number, step: '0.01' | '1') {
  return {
    type: 'number',
    inputMode: step === '1' ? 'numeric' : 'decimal',
    step,
    min: limits.min,
    max: limits.max,
    hint: t('percentHint', { min: limits.min, max: limits.max, usual }),
  } as const;
}

function Checkbox({ id, label, hint, defaultChecked }: { id: keyof Settings; label: string; hint: string; defaultChecked: boolean }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        name={id}
        type="checkbox"
        defaultChecked={defaultChecked}
        aria-describedby={`${id}-hint`}
        className="mt-1 h-5 w-5 shrink-0 rounded border-slate-300 accent-brand-700"
      />
      <div>
        <label htmlFor={id} className="font-semibold">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      </div>
    </div>
  );
}

export default function AdminSettings({ loaderData }: Route.ComponentProps) {
  const { settings, labels: names, message } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const intent = navigation.state !== 'idle' && navigation.formMethod === 'POST' ? navigation.formData?.get('intent') : null;
  const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {};
  const testDriveErrors: TestDriveSettingsErrors = actionData && 'testDriveErrors' in actionData ? actionData.testDriveErrors : {};
  const networkError = actionData && 'error' in actionData ? String(actionData.error) : null;
  const shown: Values | Settings = actionData && 'values' in actionData ? actionData.values : settings;
  const hasErrors = Object.keys(errors).length > 0;
  /** What every field of the main form shares: the setting's key names it, its label and error come with it. */
  const fieldOf = (key: keyof Settings) => ({ id: key, name: key, label: names[key], error: errors[key] });
  // Reset asks first in the site's dialog; without script the button resets at once.
  const resetStep = useConfirmStep<true>();

  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-extrabold tracking-tight">{t('title')}</h1>
      <section className="w-full max-w-2xl rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        {/* A new key after each save or reset shows the values now in force in every field. */}
        <Form key={JSON.stringify(settings)} method="post" className="flex flex-col gap-5" noValidate>
          {message && !actionData ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
          {hasErrors ? <FormMessage tone="error">{t('correctFields')}</FormMessage> : null}
          {networkError ? <FormMessage tone="error">{networkError}</FormMessage> : null}

          <TextField {...fieldOf('siteName')} defaultValue={shown.siteName} hint={t('siteNameHint')} required maxLength={60} />
          <TextField {...fieldOf('adminEmail')} type="email" defaultValue={shown.adminEmail} hint={t('adminEmailHint')} autoComplete="email" />
          <div className="flex flex-col gap-1">
            <label htmlFor="itemsPerPage" className="font-semibold">
              {names.itemsPerPage}
            </label>
            <select
              id="itemsPerPage"
              name="itemsPerPage"
              defaultValue={String(shown.itemsPerPage)}
              aria-invalid={errors.itemsPerPage ? true : undefined}
              aria-describedby={errors.itemsPerPage ? 'itemsPerPage-error itemsPerPage-hint' : 'itemsPerPage-hint'}
              className="w-full rounded-xl border border-slate-300 bg-white px-3 py-3 text-base shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-500 sm:w-40"
            >
              {ITEMS_PER_PAGE_OPTIONS.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
            <p id="itemsPerPage-hint" className="text-sm text-slate-600">
              {t('itemsPerPageHint')}
            </p>
            {errors.itemsPerPage ? (
              <p id="itemsPerPage-error" className="text-sm font-medium text-red-700">
                {errors.itemsPerPage}
              </p>
            ) : null}
          </div>
          <Checkbox id="emailNotifications" label={names.emailNotifications} hint={t('emailNotificationsHint')} defaultChecked={shown.emailNotifications} />
          <TextField
            {...fieldOf('whatsappTeamNumbers')}
            type="tel"
            defaultValue={shown.whatsappTeamNumbers}
            hint={t('whatsappTeamNumbersHint')}
            maxLength={200}
          />
          <Checkbox id="maintenanceMode" label={names.maintenanceMode} hint={t('maintenanceModeHint')} defaultChecked={shown.maintenanceMode} />

          <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-5">
            <legend className="float-left mb-1 text-lg font-bold">{t('financeLegend')}</legend>
            <p className="clear-left text-sm text-slate-600">{t('financeText')}</p>
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField
                {...fieldOf('emiRatePercent')}
                {...percentInput(FINANCE_SETTING_LIMITS.ratePercent, 12, '0.01')}
                defaultValue={String(shown.emiRatePercent)}
              />
              <SelectField {...fieldOf('emiTenureMonths')} defaultValue={String(shown.emiTenureMonths)} hint={t('tenureHint')}>
                {TENURE_OPTIONS.map((months) => (
                  <option key={months} value={months}>
                    {months}
                  </option>
                ))}
              </SelectField>
              <TextField
                {...fieldOf('emiFinancedPercent')}
                {...percentInput(FINANCE_SETTING_LIMITS.financedPercent, 85, '1')}
                defaultValue={String(shown.emiFinancedPercent)}
              />
            </div>
          </fieldset>

          <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-5">
            <legend className="float-left mb-1 text-lg font-bold">{t('sellersEstimates')}</legend>
            <p className="clear-left text-sm text-slate-600">{t('sellersEstimatesText')}</p>
            <TextField
              {...fieldOf('sellEstimateMarginPercent')}
              {...percentInput(SELL_MARGIN_PERCENT, SELL_MARGIN_PERCENT.usual, '1')}
              defaultValue={String(shown.sellEstimateMarginPercent)}
            />
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField
                {...fieldOf('inspectionOpeningHour')}
                type="number"
                inputMode="numeric"
                min={0}
                max={23}
                defaultValue={String(shown.inspectionOpeningHour)}
                hint={t('inspectionOpeningHourHint')}
              />
              <TextField
                {...fieldOf('inspectionClosingHour')}
                type="number"
                inputMode="numeric"
                min={1}
                max={24}
                defaultValue={String(shown.inspectionClosingHour)}
                hint={t('inspectionClosingHourHint')}
              />
              <TextField
                {...fieldOf('inspectionCapacity')}
                type="number"
                inputMode="numeric"
                min={1}
                max={20}
                defaultValue={String(shown.inspectionCapacity)}
                hint={t('inspectionCapacityHint')}
              />
            </div>
          </fieldset>

          <fieldset className="flex flex-col gap-5 border-t border-slate-200 pt-5">
            <legend className="sr-only">{t('storefront')}</legend>
            <p className="text-lg font-bold" aria-hidden="true">
              {t('storefront')}
            </p>
            <TextField
              {...fieldOf('storefrontPromise')}
              defaultValue={shown.storefrontPromise}
              hint={t('storefrontPromiseHint')}
              required
              maxLength={MAX_PROMISE_LENGTH}
            />
            <TextAreaField
              {...fieldOf('trustPoints')}
              defaultValue={shown.trustPoints}
              hint={t('trustPointsHint', { max: MAX_TRUST_POINTS, length: MAX_TRUST_POINT_LENGTH })}
              rows={MAX_TRUST_POINTS}
            />
            <TextField
              {...fieldOf('priceIncludes')}
              defaultValue={shown.priceIncludes}
              hint={t('priceIncludesHint', { label: priceLabel() })}
              maxLength={MAX_PRICE_INCLUDES_LENGTH}
            />
          </fieldset>

          <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-5">
            <legend className="pb-1 pt-5 text-lg font-bold">{t('selfDriveRental')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              {RENTAL_NUMBER_SETTINGS.map(({ key, hint }) => (
                <TextField key={key} {...fieldOf(key)} inputMode="numeric" defaultValue={String(shown[key])} hint={t(hint)} required maxLength={12} />
              ))}
            </div>
            <p className="text-sm text-slate-600">{t('rentalDeliveryNote')}</p>
          </fieldset>

          <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-5">
            <legend className="pb-1 pt-5 text-lg font-bold">{t('reserveACar')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              {RESERVATION_NUMBER_SETTINGS.map(({ key, hint }) => (
                <TextField key={key} {...fieldOf(key)} inputMode="numeric" defaultValue={String(shown[key])} hint={t(hint)} required maxLength={12} />
              ))}
            </div>
          </fieldset>

          {/* Save comes first, so Enter in a field saves; on wide screens it sits on the right. */}
          <div className="flex flex-col gap-3 border-t border-slate-200 pt-5 sm:flex-row-reverse sm:justify-start">
            <button type="submit" name="intent" value="save" disabled={Boolean(intent)} className={primaryButton}>
              {intent === 'save' ? t('saving') : t('saveSettings')}
            </button>
            <button
              type="submit"
              name="intent"
              value="reset"
              disabled={Boolean(intent)}
              aria-haspopup="dialog"
              className={secondaryButton}
              onClick={(event) => resetStep.ask(true, event)}
            >
              {intent === 'reset' ? t('resetting') : t('resetToDefault')}
            </button>
          </div>
        </Form>
        {resetStep.confirming ? (
          <ConfirmDialog
            title={t('resetDialogTitle')}
            message={t('resetDialogMessage')}
            confirmLabel={t('resetToDefault')}
            cancelHref={adminPaths.settings}
            onCancel={resetStep.keep}
            onConfirm={resetStep.confirmed}
          >
            <input type="hidden" name="intent" value="reset" />
          </ConfirmDialog>
        ) : null}
      </section>
      <TestDriveSettingsSection
        key={`test-drives-${JSON.stringify(settings)}`}
        values={actionData && 'testDriveValues' in actionData ? actionData.testDriveValues : settings}
        errors={testDriveErrors}
        busy={Boolean(intent)}
      />
      <SalesSettingsSection
        key={`sales-${JSON.stringify(settings)}`}
        values={actionData && 'salesValues' in actionData ? actionData.salesValues : settings}
        errors={actionData && 'salesErrors' in actionData ? actionData.salesErrors : {}}
        labels={names}
        busy={Boolean(intent)}
      />
    </div>
  );
}
