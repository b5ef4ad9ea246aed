import { data, Form, Link, redirect, useActionData, useLocation, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { deleteCategory, listAdminCategories, updateCategory, type AdminCategory } from '../../../server/catalog/admin-categories.ts';
import { withCategoryForm } from '../../../server/catalog/http/category-form.ts';
import { answerError, throwIfDatabaseOutage } from '../../../server/http/action-errors.ts';
import { uploadsFrom, type UploadForm } from '../../../server/http/forms.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { latestToast, PageHeader, smallButton, stamp } from '../../features/admin/admin-ui.tsx';
import { FieldNotes, inputClass, primaryButton } from '../../components/form.tsx';
import { pageUrl } from '../../features/admin/admin-paths.ts';
import { adminPaths } from '../../lib/paths.ts';
import { ConfirmDelete, useDeleteStep } from '../../features/admin/confirm-dialog.tsx';
import { categoryMessages, MAX_CATEGORY_NAME } from '../../lib/category-rules.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { VehicleImage } from '../../features/vehicle/vehicle-image.tsx';
import { appContext, type AppServices } from '../../context.ts';
import { parseId } from '../../lib/input.ts';
import { parseForm, typedValues } from '../../lib/form-errors.ts';
import { categoryChangeSchema } from '../../features/admin/category-schemas.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/categories';
import { adminVehiclesText as t } from '../../features/admin/admin-vehicles-texts.ts';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('manageCategories'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const { toast, headers } = await takeFlash(services.config.authSecret, request);
  const url = new URL(request.url);
  let categories: AdminCategory[] = [];
  let failed = false;
  try {
    categories = await listAdminCategories(services.database);
  } catch (error) {
    throwIfDatabaseOutage(error);
    services.logger.error({ err: error }, 'loading categories failed');
    failed = true;
  }
  return data(
    {
      categories,
      editId: parseId(url.searchParams.get('edit')),
      deleteId: parseId(url.searchParams.get('delete')),
      toast: failed ? stamp('error', categoryMessages.loadFailed) : toast ? stamp(toast.tone, toast.text) : null,
    },
    { headers },
  );
}

/** Back to the list as it was, without the row being edited or the delete being confirmed. */
function listUrl(request: Request): string {
  return pageUrl(request.url, ['edit', 'delete']);
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  return withCategoryForm(
    request,
    services.config.dataDir,
    (upload) => manageCategory(services, admin.email, request, upload),
    (error) =>
      data(
        { ...refusal(null, typedValues(error.fields)), toast: stamp('error', `${categoryMessages.updateFailed}: ${error.message}`) },
        { status: error.status },
      ),
  );
}

async function manageCategory(services: AppServices, adminEmail: string, request: Request, upload: UploadForm) {
  const secret = services.config.authSecret;
  const admin = { email: adminEmail };
  const parsed = parseForm(categoryChangeSchema, upload.fields);
  if (!parsed.ok) return data({ ...refusal(parsed.error, parsed.values, parsed.fields), toast: stamp('error', parsed.error) }, { status: 400 });
  const change = parsed.value;
  const { id } = change;
  const fail = (text: string, status = 400) => data({ ...refusal(text, parsed.values), toast: stamp('error', text) }, { status });

  if (change.intent === 'update') {
    try {
      const [image] = uploadsFrom(upload, 'image');
      await updateCategory(services, id, { name: change.name, image: image ?? null, removeImage: change.removeImage }, admin.email);
    } catch (error) {
      const answer = answerError(error, services.logger, {
        prefix: categoryMessages.updateFailed,
        fallback: categoryMessages.updateFailed,
        log: 'update category failed',
        context: { id },
      });
      return fail(answer.message, answer.status);
    }
    return redirect(listUrl(request), { headers: await flashHeaders(secret, { tone: 'success', text: categoryMessages.updated }) });
  }

  try {
    await deleteCategory(services, id, admin.email);
  } catch (error) {
    const answer = answerError(error, services.logger, {
      prefix: categoryMessages.deleteFailed,
      fallback: categoryMessages.deleteFailed,
      log: 'delete category failed',
      context: { id },
    });
    return fail(answer.message, answer.status);
  }
  return redirect(listUrl(request), { headers: await flashHeaders(secret, { tone: 'success', text: categoryMessages.deleted }) });
}

/** A refused change: its message, the fields to mark, and what was typed (to show again in the row it was for). */
function refusal(error: string | null, values: Record<string, string>, fields: Record<string, string> = {}) {
  return { error, fields, values };
}

function CategoryRow({
  category,
  editing,
  failed,
  busy,
  listHref,
  onDelete,
}: {
  category: AdminCategory;
  editing: boolean;
  failed: { name: string | undefined; error: string | undefined } | null;
  busy: boolean;
  listHref: string;
  onDelete: (id: number) => void;
}) {
  const formId = `category-${category.id}`;
  const cell = 'px-3 py-3 align-middle sm:px-4';
  return (
    <tr className="border-t border-slate-200">
      <td className={`${cell} w-20 sm:w-28`}>
        <VehicleImage image={category.image} alt={category.name} sizes="96px" className="aspect-[4/3] w-16 rounded-lg sm:w-24" />
      </td>
      <td className={`${cell} min-w-0`}>
        {editing ? (
          <div className="flex min-w-0 flex-col gap-2">
            <label htmlFor={`${formId}-name`} className="sr-only">
              {t('categoryName')}
            </label>
            <input
              id={`${formId}-name`}
              form={formId}
              name="name"
              // Not `required`: a blank name gets the spec's toast from the server.
              maxLength={MAX_CATEGORY_NAME}
              defaultValue={failed?.name ?? category.name}
              aria-invalid={failed?.error ? true : undefined}
              aria-describedby={failed?.error ? `${formId}-name-error` : undefined}
              className={inputClass}
              // The row was opened to edit the name: type at once.
              autoFocus
            />
            <FieldNotes id={`${formId}-name`} error={failed?.error} />
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium text-slate-700">{category.image ? t('replaceImage') : t('addImage')}</span>
              <input
                form={formId}
                name="image"
                type="file"
                accept="image/*"
                className="w-full min-w-0 text-sm file:mr-2 file:rounded-lg file:border-0 file:bg-slate-200 file:px-3 file:py-1.5 file:font-semibold"
              />
            </label>
            {category.image ? (
              <label className="flex items-center gap-2 text-sm">
                <input form={formId} type="checkbox" name="removeImage" className="h-4 w-4" /> {t('removeTheImage')}
              </label>
            ) : null}
          </div>
        ) : (
          <div className="flex min-w-0 flex-col">
            <span className="break-words font-semibold">{category.name}</span>
            <span className="text-sm text-slate-600">{t('vehicleCount', { count: category.vehicleCount })}</span>
          </div>
        )}
      </td>
      <td className={`${cell} w-px`}>
        {editing ? (
          <Form id={formId} method="post" encType="multipart/form-data" className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={category.id} />
            <button type="submit" disabled={busy} className={`${primaryButton} px-4 py-2 text-sm`}>
              {busy ? t('saving') : t('save')}
            </button>
            <Link to={listHref} preventScrollReset className={`${smallButton}`}>
              {t('cancel')}
            </Link>
          </Form>
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            <Link to={`?edit=${category.id}`} preventScrollReset className={smallButton} aria-label={t('editNamed', { name: category.name })}>
              {t('edit')}
            </Link>
            <Form method="get" preventScrollReset>
              <button
                type="submit"
                name="delete"
                value={category.id}
                className={`${smallButton} w-full text-red-700`}
                aria-label={t('deleteNamed', { name: category.name })}
                onClick={(event) => {
                  event.preventDefault();
                  onDelete(category.id);
                }}
              >
                {t('delete')}
              </button>
            </Form>
          </div>
        )}
      </td>
    </tr>
  );
}

export default function ManageCategories({ loaderData }: Route.ComponentProps) {
  const { categories, editId, deleteId } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const listHref = location.pathname;
  const { confirming, open: openDelete, dialog: deleteDialog } = useDeleteStep(categories, deleteId, listHref);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('manageCategories')} back={{ to: adminPaths.dashboard, label: t('back') }}>
        <Link to={adminPaths.addCategory} className={`${primaryButton} px-4 py-2.5 text-sm`}>
          {t('addCategory')}
        </Link>
      </PageHeader>
      <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full table-auto text-left">
          <thead className="bg-slate-50 text-sm uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-3 sm:px-4">
                {t('image')}
              </th>
              <th scope="col" className="px-3 py-3 sm:px-4">
                {t('name')}
              </th>
              <th scope="col" className="px-3 py-3 text-right sm:px-4">
                {t('actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {categories.length === 0 ? (
              <tr>
                <td colSpan={3} className="px-4 py-8 text-center text-slate-600">
                  {t('noCategoriesFound')}
                </td>
              </tr>
            ) : (
              categories.map((category) => (
                <CategoryRow
                  key={category.id}
                  category={category}
                  editing={editId === category.id}
                  failed={
                    actionData?.values.intent === 'update' && actionData.values.id === String(category.id)
                      ? { name: actionData.values.name, error: actionData.fields.name }
                      : null
                  }
                  busy={busy}
                  listHref={listHref}
                  onDelete={openDelete}
                />
              ))
            )}
          </tbody>
        </table>
      </div>
      {confirming ? (
        <ConfirmDelete
          key={confirming.id}
          id={confirming.id}
          title={t('deleteCategoryQuestion', { name: confirming.name })}
          message={categoryMessages.confirmDelete}
          {...deleteDialog}
        />
      ) : null}
      <Toast toast={latestToast(loaderData.toast, actionData?.toast)} position="bottom-center" />
    </div>
  );
}
