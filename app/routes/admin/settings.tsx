import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { recordAudit } from '../../../server/admin/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { resetSettings, saveSettings, settingsFor, settingsSchema, type Settings } from '../../../server/admin/settings.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormMessage, primaryButton, secondaryButton, TextAreaField, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { ITEMS_PER_PAGE_OPTIONS } from '../../lib/admin-pages.ts';
import { withNetworkErrorMessage } from '../../lib/network.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { cleanLine, cleanText, MAX_EMAIL_LENGTH } from '../../lib/input.ts';
import type { Route } from './+types/settings';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { adminPaths } from '../../lib/paths.ts';

/** SPEC 2, Admin settings; saved on the server and in effect (design.md). */
export const SETTINGS_SAVED = 'Settings saved successfully!';
export const SETTINGS_RESET = 'Settings restored to their defaults.';

const LABELS: Record<keyof Settings, string> = {
  siteName: 'Site Name',
  adminEmail: 'Admin Email',
  itemsPerPage: 'Items Per Page',
  emailNotifications: 'Enable Email Notifications',
  maintenanceMode: 'Maintenance Mode',
  rentalBufferHours: 'Turnaround buffer (hours)',
  rentalMinNoticeHours: 'Minimum notice before pickup (hours)',
  rentalHorizonDays: 'Book up to (days ahead)',
  rentalGraceHours: 'Late-return grace (hours)',
  rentalLateFeePerHour: 'Late fee per hour',
  rentalFreeCancelHours: 'Free cancellation until (hours before pickup)',
  rentalLateCancelKeepDays: 'Days of rent kept on late cancellation',
  rentalDeliveryFee: 'Delivery fee',
  servicePinCodes: 'Serviceable PIN codes',
};

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: 'Settings', noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const [settings, flash] = await Promise.all([settingsFor(services), takeFlash(services.config.authSecret, request)]);
  return data({ settings, message: flash.toast }, { headers: flash.headers });
}

function changedKeys(before: Settings, after: Settings): Array<keyof Settings> {
  return (Object.keys(LABELS) as Array<keyof Settings>).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

function summaryOf(prefix: string, keys: Array<keyof Settings>): string {
  return keys.length ? `${prefix}: ${keys.map((key) => LABELS[key]).join(', ')}` : `${prefix}: no changes`;
}

type FieldErrors = Partial<Record<keyof Settings, string>>;
/** The self-drive rental settings, each a whole number typed in the form (the PIN codes aside). */
const RENTAL_NUMBER_SETTINGS = [
  { key: 'rentalBufferHours', hint: 'Hours a car rests between two bookings (cleaning, inspection).' },
  { key: 'rentalMinNoticeHours', hint: 'How long before pickup a booking must be made.' },
  { key: 'rentalHorizonDays', hint: 'How far ahead a car can be booked.' },
  { key: 'rentalGraceHours', hint: 'After the return time, before the late fee starts.' },
  { key: 'rentalLateFeePerHour', hint: 'Rupees per hour late, after the grace period.' },
  { key: 'rentalFreeCancelHours', hint: 'Cancelling earlier than this before pickup refunds everything.' },
  { key: 'rentalLateCancelKeepDays', hint: 'Days of rent kept when cancelled later than that (before pickup).' },
  { key: 'rentalDeliveryFee', hint: 'Rupees for delivering a rental car to a serviceable PIN code.' },
] as const satisfies ReadonlyArray<{ key: keyof Settings; hint: string }>;
type RentalNumberKey = (typeof RENTAL_NUMBER_SETTINGS)[number]['key'];

type Values = { siteName: string; adminEmail: string; itemsPerPage: string; emailNotifications: boolean; maintenanceMode: boolean } & Record<RentalNumberKey, string> & {
    servicePinCodes: string;
  };

/** '400069, 400059 400093' -> ['400069', '400059', '400093'] (each checked by the settings schema). */
function pinCodeList(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ error: form.message }, { status: form.status });
  const before = await settingsFor(services);

  if (form.get('intent') === 'reset') {
    await resetSettings(services);
    const after = await settingsFor(services);
    await recordAudit(services.database, {
      actorEmail: admin.email,
      action: 'reset',
      entity: 'settings',
      summary: summaryOf('Reset settings to defaults', changedKeys(before, after)),
      before,
      after,
    });
    throw redirect(adminPaths.settings, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: SETTINGS_RESET }) });
  }

  const values: Values = {
    siteName: cleanLine(form.get('siteName'), 200),
    adminEmail: cleanLine(form.get('adminEmail'), MAX_EMAIL_LENGTH),
    itemsPerPage: cleanLine(form.get('itemsPerPage'), 10),
    // An unticked checkbox is not sent at all.
    emailNotifications: form.has('emailNotifications'),
    maintenanceMode: form.has('maintenanceMode'),
    ...(Object.fromEntries(
      RENTAL_NUMBER_SETTINGS.map(({ key }) => [key, form.has(key) ? cleanLine(form.get(key), 12).replace(/[₹,\s]/g, '') : String(before[key])]),
    ) as Record<RentalNumberKey, string>),
    servicePinCodes: form.has('servicePinCodes') ? cleanText(form.get('servicePinCodes'), { multiline: true, maxLength: 8000 }) : before.servicePinCodes.join(', '),
  };
  const parsed = settingsSchema.safeParse({ ...before, ...values, servicePinCodes: pinCodeList(values.servicePinCodes) });
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof Settings;
      errors[key] ??= key === 'itemsPerPage' ? 'Items per page must be 5, 10, 25 or 50' : issue.message;
    }
    return data({ errors, values });
  }

  const after = parsed.data;
  await saveSettings(services, after, admin.email);
  await recordAudit(services.database, {
    actorEmail: admin.email,
    action: 'update',
    entity: 'settings',
    summary: summaryOf('Changed settings', changedKeys(before, after)),
    before,
    after,
  });
  throw redirect(adminPaths.settings, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: SETTINGS_SAVED }) });
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
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
  const { settings, message } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const intent = navigation.state !== 'idle' && navigation.formMethod === 'POST' ? navigation.formData?.get('intent') : null;
  const errors: FieldErrors = actionData && 'errors' in actionData ? actionData.errors : {};
  const networkError = actionData && 'error' in actionData ? String(actionData.error) : null;
  const shown: Values | Settings = actionData && 'values' in actionData ? actionData.values : settings;
  const shownPinCodes = Array.isArray(shown.servicePinCodes) ? shown.servicePinCodes.join(', ') : shown.servicePinCodes;
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-extrabold tracking-tight">Settings</h1>
      <section className="w-full max-w-2xl rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        {/* A new key after each save or reset shows the values now in force in every field. */}
        <Form key={JSON.stringify(settings)} method="post" className="flex flex-col gap-5" noValidate>
          {message && !actionData ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
          {hasErrors ? <FormMessage tone="error">Please correct the highlighted fields.</FormMessage> : null}
          {networkError ? <FormMessage tone="error">{networkError}</FormMessage> : null}

          <TextField id="siteName" name="siteName" label={LABELS.siteName} defaultValue={shown.siteName} error={errors.siteName} hint="Shown in page titles and link previews." required maxLength={60} />
          <TextField
            id="adminEmail"
            name="adminEmail"
            type="email"
            label={LABELS.adminEmail}
            defaultValue={shown.adminEmail}
            error={errors.adminEmail}
            hint="Where new-lead notifications are sent."
            autoComplete="email"
          />
          <div className="flex flex-col gap-1">
            <label htmlFor="itemsPerPage" className="font-semibold">
              {LABELS.itemsPerPage}
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
              Vehicles per page on the public listing.
            </p>
            {errors.itemsPerPage ? (
              <p id="itemsPerPage-error" className="text-sm font-medium text-red-700">
                {errors.itemsPerPage}
              </p>
            ) : null}
          </div>
          <Checkbox id="emailNotifications" label={LABELS.emailNotifications} hint="Email the admin address when a visitor sends a request or a sell offer." defaultChecked={shown.emailNotifications} />
          <Checkbox
            id="maintenanceMode"
            label={LABELS.maintenanceMode}
            hint="Public pages show a maintenance notice (HTTP 503). The admin panel and sign-in keep working."
            defaultChecked={shown.maintenanceMode}
          />

          <fieldset className="flex flex-col gap-4 border-t border-slate-200 pt-5">
            <legend className="pb-1 pt-5 text-lg font-bold">Self-drive rental</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              {RENTAL_NUMBER_SETTINGS.map(({ key, hint }) => (
                <TextField key={key} id={key} name={key} label={LABELS[key]} inputMode="numeric" defaultValue={String(shown[key])} error={errors[key]} hint={hint} required maxLength={12} />
              ))}
            </div>
            <TextAreaField
              id="servicePinCodes"
              name="servicePinCodes"
              label={LABELS.servicePinCodes}
              defaultValue={shownPinCodes}
              error={errors.servicePinCodes}
              hint="Six-digit PIN codes where rental cars are delivered, separated by commas or spaces."
              rows={3}
            />
          </fieldset>

          {/* Save comes first, so Enter in a field saves; on wide screens it sits on the right. */}
          <div className="flex flex-col gap-3 border-t border-slate-200 pt-5 sm:flex-row-reverse sm:justify-start">
            <button type="submit" name="intent" value="save" disabled={Boolean(intent)} className={primaryButton}>
              {intent === 'save' ? 'Saving...' : 'Save Settings'}
            </button>
            <button
              type="submit"
              name="intent"
              value="reset"
              disabled={Boolean(intent)}
              className={secondaryButton}
              onClick={(event) => {
                if (!window.confirm('Reset every setting to its default value?')) event.preventDefault();
              }}
            >
              {intent === 'reset' ? 'Resetting...' : 'Reset to Default'}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}
