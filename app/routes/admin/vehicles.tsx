import { data, Form, Link, redirect, useActionData, useLocation, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { settingsFor } from '../../../server/admin/settings.ts';
import { deleteVehicle, listAdminVehicles, type AdminVehiclePage } from '../../../server/catalog/admin-vehicles.ts';
import { answerError, throwIfDatabaseOutage } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { latestToast, PageHeader, smallButton, stamp, StatusBadge } from '../../features/admin/admin-ui.tsx';
import { inputClass, primaryButton } from '../../components/form.tsx';
import { pageUrl } from '../../features/admin/admin-paths.ts';
import { adminPaths } from '../../lib/paths.ts';
import { ConfirmDelete, useDeleteStep } from '../../features/admin/confirm-dialog.tsx';
import { Toast } from '../../features/admin/toast.tsx';
import { MAX_ADMIN_SEARCH, VEHICLE_STATUSES, vehicleMessages } from '../../lib/vehicle-schema.ts';
import { Pagination } from '../../components/pagination.tsx';
import { vehicleStatusLabel } from '../../features/admin/vehicle-form.tsx';
import { VehicleImage } from '../../features/vehicle/vehicle-image.tsx';
import { appContext } from '../../context.ts';
import { detailPriceLabel } from '../../lib/format.ts';
import { parseId, parsePage } from '../../lib/input.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import { detailTitle, type VehicleStatus } from '../../lib/vehicle.ts';
import type { Route } from './+types/vehicles';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { adminVehiclesText as t } from '../../features/admin/admin-vehicles-texts.ts';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('manageVehicles'))(args);
}

function statusParam(value: string | null): VehicleStatus | null {
  return (VEHICLE_STATUSES as readonly string[]).includes(value ?? '') ? (value as VehicleStatus) : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const { toast, headers } = await takeFlash(services.config.authSecret, request);
  const url = new URL(request.url);
  const query = (url.searchParams.get('q') ?? '').slice(0, MAX_ADMIN_SEARCH);
  const status = statusParam(url.searchParams.get('status'));
  const page = parsePage(url.searchParams.get('page'));
  let vehicles: AdminVehiclePage = { items: [], total: 0, page: 1, pageCount: 1, perPage: 10 };
  let failed = false;
  try {
    const { itemsPerPage } = await settingsFor(services);
    vehicles = await listAdminVehicles(services.database, { query, status, page, perPage: itemsPerPage });
  } catch (error) {
    throwIfDatabaseOutage(error);
    services.logger.error({ err: error }, 'loading the inventory failed');
    failed = true;
  }
  return data(
    {
      vehicles,
      query,
      status,
      deleteId: parseId(url.searchParams.get('delete')),
      toast: failed ? stamp('error', vehicleMessages.listLoadFailed) : toast ? stamp(toast.tone, toast.text) : null,
    },
    { headers },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  const fail = (text: string, status = 400) => data({ toast: stamp('error', text) }, { status });
  if (form instanceof FormReadError) return fail(form.message, form.status);
  if (form.get('intent') !== 'delete') return fail(t('unknownAction'));
  const id = parseId(form.get('id'));
  if (id === null) return fail(vehicleMessages.missingInfo);
  let name: string;
  try {
    ({ name } = await deleteVehicle(services, id, admin.email));
  } catch (error) {
    const answer = answerError(error, services.logger, {
      prefix: vehicleMessages.deleteFailed,
      fallback: vehicleMessages.deleteFailed('please try again'),
      log: 'delete vehicle failed',
      context: { id },
    });
    return fail(answer.message, answer.status);
  }
  const text = vehicleMessages.deleted(name);
  return redirect(pageUrl(request.url, ['delete']), { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
}

export default function ManageVehicles({ loaderData }: Route.ComponentProps) {
  const { vehicles, query, status, deleteId } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const searching = navigation.state === 'loading' && navigation.location.pathname === location.pathname && navigation.formMethod !== 'POST';

  const listParams = new URLSearchParams(location.search);
  listParams.delete('delete');
  const listHref = `${location.pathname}${listParams.size > 0 ? `?${listParams}` : ''}`;
  const { confirming, open: openDelete, dialog: deleteDialog } = useDeleteStep(vehicles.items, deleteId, listHref);
  const hrefFor = (page: number) => {
    const params = new URLSearchParams();
    if (query) params.set('q', query);
    if (status) params.set('status', status);
    if (page > 1) params.set('page', String(page));
    return `${location.pathname}${params.size > 0 ? `?${params}` : ''}`;
  };

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('inventoryTitle')} back={{ to: adminPaths.dashboard, label: t('back') }}>
        <Link to={adminPaths.addVehicle} className={`${primaryButton} px-4 py-2.5 text-sm`}>
          {t('addNewVehicle')}
        </Link>
      </PageHeader>

      <Form
        method="get"
        role="search"
        className="grid grid-cols-1 gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      >
        <div className="flex flex-col gap-1">
          <label htmlFor="inventory-q" className="text-sm font-semibold">
            {t('search')}
          </label>
          <input
            id="inventory-q"
            type="search"
            name="q"
            defaultValue={query}
            key={query}
            maxLength={MAX_ADMIN_SEARCH}
            placeholder={t('searchPlaceholder')}
            className={inputClass}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="inventory-status" className="text-sm font-semibold">
            {t('status')}
          </label>
          <select id="inventory-status" name="status" defaultValue={status ?? ''} key={status ?? ''} className={inputClass}>
            <option value="">{t('allStatuses')}</option>
            {VEHICLE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {vehicleStatusLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={`${primaryButton} py-2.5`}>
          {searching ? t('searching') : t('search')}
        </button>
      </Form>

      <p className="text-sm text-slate-600" aria-live="polite">
        {query || status
          ? vehicles.total === 0
            ? t('vehiclesMatchNone')
            : t('vehiclesMatch', { count: vehicles.total })
          : t('vehiclesInInventory', { count: vehicles.total })}
        {query || status ? (
          <>
            {' · '}
            <Link to={location.pathname} className="font-semibold text-brand-700 underline">
              {t('showAll')}
            </Link>
          </>
        ) : null}
      </p>

      {vehicles.items.length === 0 ? (
        <p className="rounded-2xl bg-white p-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">{t('noVehiclesFound')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {vehicles.items.map((vehicle) => {
            const title = detailTitle(vehicle);
            return (
              <li
                key={vehicle.id}
                className="flex flex-wrap items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:flex-nowrap sm:gap-4"
              >
                <VehicleImage image={vehicle.cover} alt={title} sizes="128px" className="aspect-[4/3] w-24 shrink-0 rounded-xl sm:w-32" />
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="break-words font-bold leading-snug">{title}</h2>
                    <StatusBadge status={vehicle.status} />
                    {vehicle.featured ? <span className="rounded-full bg-accent-500 px-2 py-0.5 text-xs font-bold text-slate-900">{t('featured')}</span> : null}
                  </div>
                  <p className="text-sm text-slate-600">
                    {[vehicle.categoryName, vehicle.year, t('photoCount', { count: vehicle.imageCount })].filter(Boolean).join(' · ')}
                  </p>
                  <p className="font-semibold text-brand-800">{detailPriceLabel(vehicle.price)}</p>
                </div>
                <div className="flex w-full gap-2 sm:w-auto sm:flex-col lg:flex-row">
                  <Link
                    to={adminPaths.editVehicle(vehicle.categorySlug, vehicle.id)}
                    className={`${smallButton} flex-1`}
                    aria-label={t('editNamed', { name: title })}
                  >
                    {t('edit')}
                  </Link>
                  <Form method="get" preventScrollReset className="flex flex-1">
                    {query ? <input type="hidden" name="q" value={query} /> : null}
                    {status ? <input type="hidden" name="status" value={status} /> : null}
                    {vehicles.page > 1 ? <input type="hidden" name="page" value={vehicles.page} /> : null}
                    <button
                      type="submit"
                      name="delete"
                      value={vehicle.id}
                      className={`${smallButton} w-full text-red-700`}
                      aria-label={t('deleteNamed', { name: title })}
                      onClick={(event) => {
                        event.preventDefault();
                        openDelete(vehicle.id);
                      }}
                    >
                      {t('delete')}
                    </button>
                  </Form>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={vehicles.page} pageCount={vehicles.pageCount} hrefFor={hrefFor} />

      {confirming ? (
        <ConfirmDelete
          key={confirming.id}
          id={confirming.id}
          title={t('deleteVehicleQuestion')}
          message={vehicleMessages.confirmDelete(detailTitle(confirming))}
          {...deleteDialog}
        />
      ) : null}
      <Toast toast={latestToast(loaderData.toast, actionData?.toast)} position="bottom-center" />
    </div>
  );
}
