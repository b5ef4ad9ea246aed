import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { addCategory } from '../../../server/catalog/admin-categories.ts';
import { withCategoryForm } from '../../../server/catalog/http/category-form.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { uploadsFrom, type UploadForm } from '../../../server/http/forms.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { latestToast, PageHeader, stamp } from '../../features/admin/admin-ui.tsx';
import { adminPaths } from '../../lib/paths.ts';
import { categoryMessages, MAX_CATEGORY_NAME } from '../../lib/category-rules.ts';
import { formError, parseForm, typedValues } from '../../lib/form-errors.ts';
import { categoryAddSchema } from '../../features/admin/category-schemas.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { FormMessage, primaryButton, TextField } from '../../components/form.tsx';
import { appContext, type AppServices } from '../../context.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import type { Route } from './+types/category-add';
import { adminVehiclesText as t } from '../../features/admin/admin-vehicles-texts.ts';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('addCategory'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const { toast, headers } = await takeFlash(services.config.authSecret, request);
  return data({ toast: toast ? stamp(toast.tone, toast.text) : null }, { headers });
}

function failure(message: string, values: Record<string, string>, fields: Record<string, string> = {}, status = 400) {
  return data({ ...formError(message, fields), values, toast: stamp('error', message) }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  // One image and a name.
  return withCategoryForm(
    request,
    services.config.dataDir,
    (upload) => saveNewCategory(services, admin.email, upload),
    (error) => failure(error.message, typedValues(error.fields), {}, error.status),
  );
}

async function saveNewCategory(services: AppServices, adminEmail: string, upload: UploadForm) {
  const admin = { email: adminEmail };
  const form = upload.fields;
  const parsed = parseForm(categoryAddSchema, form);
  if (!parsed.ok) return failure(parsed.error, parsed.values, parsed.fields);
  try {
    const [image] = uploadsFrom(upload, 'image');
    await addCategory(services, { name: parsed.value.name, image: image ?? null }, admin.email);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: categoryMessages.addFailed, log: 'add category failed' });
    return failure(answer.message, parsed.values, { ...answer.fields }, answer.status);
  }
  return redirect(adminPaths.categories, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: categoryMessages.added }) });
}

export default function CategoryAdd({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('addCategory')} back={{ to: adminPaths.dashboard, label: t('back') }} />
      <section className="w-full max-w-[560px] rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4">
          {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
          <TextField
            id="category-name"
            name="name"
            label={t('categoryNameLabel')}
            required
            maxLength={MAX_CATEGORY_NAME}
            defaultValue={actionData?.values.name ?? ''}
            error={actionData?.fields.name}
            placeholder={t('categoryNamePlaceholder')}
            autoComplete="off"
          />
          <div className="flex flex-col gap-1">
            <label htmlFor="category-image" className="font-semibold">
              {t('imageOptional')}
            </label>
            <input
              id="category-image"
              name="image"
              type="file"
              accept="image/*"
              aria-describedby="category-image-hint"
              className="w-full rounded-xl border border-dashed border-slate-400 bg-slate-50 p-3 text-base file:mr-3 file:rounded-lg file:border-0 file:bg-brand-700 file:px-4 file:py-2 file:font-semibold file:text-white"
            />
            <p id="category-image-hint" className="text-sm text-slate-600">
              {t('categoryImageHint', { mb: MAX_IMAGE_MB })}
            </p>
          </div>
          <button type="submit" disabled={busy} className={`${primaryButton} sm:self-start`}>
            {busy ? t('adding') : t('addCategory')}
          </button>
        </Form>
      </section>
      <Toast toast={latestToast(loaderData.toast, actionData?.toast)} position="bottom-center" />
    </div>
  );
}
