import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { addCarModel, carCatalogue, carModelAdditions } from '../../../server/catalog/car-models.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { latestToast, PageHeader, stamp } from '../../features/admin/admin-ui.tsx';
import { Toast } from '../../features/admin/toast.tsx';
import { FormMessage, primaryButton, SelectField, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { formatDateTime } from '../../lib/format.ts';
import { carModelsText as t } from '../../lib/i18n/carModels.ts';
import { adminShellText } from '../../features/admin/admin-shell-texts.ts';
import { BODY_TYPES, bodyTypeLabel } from '../../lib/listing-filters/options.ts';
import { adminPaths } from '../../lib/paths.ts';
import { CAR_NAME_LIMITS, carModelAdditionFields, carModelAdditionSchema, type CarModelAddition } from '../../lib/schemas/car-models.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/car-models';

/**
 * The catalogue of cars sold in India that sellers pick from (decision 098): how big the shipped
 * list is, what the team added, and a form to add a make, model or variant it lacks.
 */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('pageTitle'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const [catalogue, additions, flash] = await Promise.all([
    carCatalogue(services.database),
    carModelAdditions(services.database),
    takeFlash(services.config.authSecret, request),
  ]);
  const shipped = { makes: catalogue.length, models: catalogue.reduce((count, make) => count + make.models.length, 0) };
  return data({ shipped, additions, toast: flash.toast ? stamp(flash.toast.tone, flash.toast.text) : null }, { headers: flash.headers });
}

type Values = Record<(typeof carModelAdditionFields)[number], string>;
type Errors = Partial<Record<keyof CarModelAddition, string>>;

function refused(message: string, values: Values, errors: Errors, status = 400) {
  return data({ error: message, values, errors, toast: stamp('error', message) }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  const empty = Object.fromEntries(carModelAdditionFields.map((field) => [field, ''])) as Values;
  if (form instanceof FormReadError) return refused(form.message, empty, {}, form.status);
  const values = Object.fromEntries(carModelAdditionFields.map((field) => [field, String(form.get(field) ?? '').slice(0, 200)])) as Values;
  const parsed = carModelAdditionSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Errors = {};
    for (const issue of parsed.error.issues) errors[issue.path[0] as keyof CarModelAddition] ??= issue.message;
    return refused(Object.values(errors)[0]!, values, errors);
  }
  try {
    await addCarModel(services, parsed.data, admin.email);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('addFailed'), log: 'adding a car model failed' });
    return refused(answer.message, values, {}, answer.status);
  }
  const car = [parsed.data.make, parsed.data.model, parsed.data.variant].filter(Boolean).join(' ');
  return redirect(adminPaths.carModels, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: t('added', { car }) }) });
}

export default function CarModels({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const values = actionData?.values;
  const errors: Errors = actionData?.errors ?? {};
  const field = (name: keyof CarModelAddition) => ({ id: `car-model-${name}`, name, defaultValue: values?.[name] ?? '', error: errors[name] });
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('pageTitle')} back={{ to: adminPaths.dashboard, label: adminShellText('navDashboard') }} />
      <p className="max-w-3xl text-slate-700">{t('pageIntro')}</p>
      <p className="text-sm text-slate-600">{t('shippedCount', loaderData.shipped)}</p>
      <section aria-labelledby="add-car-model" className="w-full max-w-[560px] rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="add-car-model" className="mb-4 text-lg font-bold">
          {t('addTitle')}
        </h2>
        {/* A new form after each addition: the one added is in the list below, not left in the fields. */}
        <Form key={loaderData.additions.length} method="post" className="grid gap-4 sm:grid-cols-2" noValidate>
          {actionData?.error && Object.keys(errors).length === 0 ? (
            <div className="sm:col-span-2">
              <FormMessage tone="error">{actionData.error}</FormMessage>
            </div>
          ) : null}
          <TextField {...field('make')} label={t('makeLabel')} maxLength={CAR_NAME_LIMITS.make} autoComplete="off" aria-required />
          <TextField {...field('makeHi')} label={t('makeHiLabel')} lang="hi" maxLength={CAR_NAME_LIMITS.make} autoComplete="off" />
          <TextField {...field('model')} label={t('modelLabel')} maxLength={CAR_NAME_LIMITS.model} autoComplete="off" aria-required />
          <TextField {...field('modelHi')} label={t('modelHiLabel')} lang="hi" maxLength={CAR_NAME_LIMITS.model} autoComplete="off" />
          <TextField {...field('variant')} label={t('variantLabel')} maxLength={CAR_NAME_LIMITS.variant} autoComplete="off" />
          <SelectField {...field('body')} label={t('bodyLabel')}>
            <option value="">{t('bodyNone')}</option>
            {Object.keys(BODY_TYPES).map((key) => (
              <option key={key} value={key}>
                {bodyTypeLabel(key)}
              </option>
            ))}
          </SelectField>
          <button type="submit" disabled={busy} className={`${primaryButton} sm:col-span-2 sm:justify-self-start`}>
            {busy ? t('adding') : t('add')}
          </button>
        </Form>
      </section>
      <section aria-labelledby="car-model-additions" className="w-full max-w-3xl">
        <h2 id="car-model-additions" className="mb-3 text-lg font-bold">
          {t('additionsTitle')}
        </h2>
        {loaderData.additions.length === 0 ? (
          <p className="text-slate-600">{t('noAdditions')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {loaderData.additions.map((addition) => (
              <li key={addition.id} className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
                <p className="font-semibold">
                  {[addition.make, addition.model, addition.variant].filter(Boolean).join(' ')}
                  {addition.makeHi || addition.modelHi ? (
                    <span lang="hi" className="ml-2 font-normal text-slate-600">
                      {[addition.makeHi, addition.modelHi].filter(Boolean).join(' ')}
                    </span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-600">
                  {addition.body ? `${bodyTypeLabel(addition.body)} · ` : ''}
                  {t('addedBy', { email: addition.addedBy })} · {formatDateTime(addition.createdAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Toast toast={latestToast(loaderData.toast, actionData?.toast)} position="bottom-center" />
    </div>
  );
}
