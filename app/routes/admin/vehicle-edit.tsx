import { data, redirect, useActionData, useFetcher, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { categoryChoices } from '../../../server/catalog/admin-categories.ts';
import {
  addVehicleImages,
  refusedWhileReading,
  uploadMessages,
  listVehicleImages,
  moveVehicleImage,
  removeVehicleImage,
} from '../../../server/catalog/admin-images.ts';
import { updateVehicle } from '../../../server/catalog/admin-vehicles.ts';
import { getVehicleForAdmin } from '../../../server/catalog/vehicles.ts';
import { purchasesText as pt } from '../../features/purchases/purchases-texts.ts';
import { formatPaise } from '../../lib/money.ts';
import { answerError, throwIfDatabaseOutage } from '../../../server/http/action-errors.ts';
import { NotFoundError } from '../../../server/errors.ts';
import { uploadsFrom, uploadTempDir, withUploadForm, type UploadForm } from '../../../server/http/forms.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormActions, latestToast, PageHeader, stamp, StatusBadge, type StampedToast } from '../../features/admin/admin-ui.tsx';
import { IMAGE_FETCHER_KEY, ImageManager } from '../../features/admin/image-manager.tsx';
import { Toast } from '../../features/admin/toast.tsx';
import { ReservationsDesk } from '../../features/admin/reservations-desk.tsx';
import { listCarReservations } from '../../../server/reservations/reservations.ts';
import { VehicleForm } from '../../features/admin/vehicle-form.tsx';
import {
  MAX_VEHICLE_IMAGES,
  parseVehicleValues,
  valuesFromForm,
  valuesFromVehicle,
  vehicleMessages,
  type VehicleFieldErrors,
  type VehicleFormValues,
} from '../../lib/vehicle-schema.ts';
import { appContext, type AppServices } from '../../context.ts';
import { applyRental, checkRentalValues, rentalValuesOf } from '../../../server/rentals/http/rental-terms.ts';
import { rentalTermsWrong, rentalValuesFromForm, type RentalFieldErrors, type RentalFormValues } from '../../features/rentals/rental-terms-form.ts';
import { adminPaths, paths } from '../../lib/paths.ts';
import { parseId } from '../../lib/input.ts';
import { parseForm } from '../../lib/form-errors.ts';
import { vehicleEditSchema } from '../../features/admin/vehicle-edit-schemas.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { detailTitle } from '../../lib/vehicle.ts';
import type { Route } from './+types/vehicle-edit';
import { adminVehiclesText as t } from '../../features/admin/admin-vehicles-texts.ts';

export function meta({ matches, location, loaderData }: Route.MetaArgs) {
  const title = loaderData?.vehicle ? t('editNamed', { name: detailTitle(loaderData.vehicle) }) : t('editVehicle');
  return seo({ site: siteFromMatches(matches), path: location.pathname, title, noIndex: true });
}

/** Both load failures go back to the vehicle list with their toast (SPEC 8). */
async function backToList(secret: string, text: string): Promise<Response> {
  return redirect(adminPaths.vehicles, { headers: await flashHeaders(secret, { tone: 'error', text }) });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const secret = services.config.authSecret;
  const id = parseId(params.id);
  if (id === null) throw await backToList(secret, vehicleMessages.notFound);
  let loaded;
  try {
    const vehicle = await getVehicleForAdmin(services.database, id);
    if (vehicle) {
      const [images, categories, rental, reservations, cost] = await Promise.all([
        listVehicleImages(services.database, id),
        categoryChoices(services.database),
        rentalValuesOf(services, id),
        listCarReservations(services, id),
        // What the dealer paid, when the car was bought from a seller (decision 118).
        services.database.db.selectFrom('vehicles').select(['purchase_price_paise', 'purchased_at']).where('id', '=', id).executeTakeFirst(),
      ]);
      const purchase = cost?.purchase_price_paise == null ? null : { pricePaise: Number(cost.purchase_price_paise), since: cost.purchased_at ?? '' };
      loaded = { vehicle, images, categories, rental, reservations, purchase, nowMs: services.clock.now() };
    }
  } catch (error) {
    throwIfDatabaseOutage(error);
    services.logger.error({ err: error, id }, 'loading a vehicle for editing failed');
    throw await backToList(secret, vehicleMessages.loadFailed);
  }
  if (!loaded) throw await backToList(secret, vehicleMessages.notFound);
  const { toast, headers } = await takeFlash(secret, request);
  return data({ ...loaded, values: valuesFromVehicle(loaded.vehicle), toast: toast ? stamp(toast.tone, toast.text) : null }, { headers });
}

type ActionResult = {
  intent: string;
  toast: StampedToast;
  values?: VehicleFormValues;
  errors?: VehicleFieldErrors;
  rental?: { values: RentalFormValues; errors: RentalFieldErrors };
};

function result(intent: string, tone: 'success' | 'error', text: string, status = tone === 'error' ? 400 : 200, extra: Partial<ActionResult> = {}) {
  return data<ActionResult>({ intent, toast: stamp(tone, text), ...extra }, { status });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const id = parseId(params.id);
  if (id === null) return result('save', 'error', vehicleMessages.notFound, 404);
  return withUploadForm(
    request,
    { tempDir: uploadTempDir(services.config.dataDir), messages: uploadMessages },
    (upload) => editVehicle(services, admin.email, id, upload),
    (error) =>
      result(
        'add-images',
        'error',
        error.problem === 'file-too-large' ? refusedWhileReading(error) : `${vehicleMessages.uploadFailed}: ${error.message}`,
        error.status,
      ),
  );
}

async function editVehicle(services: AppServices, adminEmail: string, id: number, upload: UploadForm) {
  const secret = services.config.authSecret;
  const admin = { email: adminEmail };
  const form = upload.fields;
  const parsed = parseForm(vehicleEditSchema, form);
  if (!parsed.ok) return result(parsed.values.intent ?? '', 'error', parsed.error);
  const asked = parsed.value;
  const { intent } = asked;

  switch (asked.intent) {
    case 'save': {
      const values = valuesFromForm(form);
      const parsed = parseVehicleValues(values);
      const rentalValues = rentalValuesFromForm(form);
      const rental = checkRentalValues(rentalValues);
      if (!parsed.ok || !rental.ok) {
        return result(intent, 'error', parsed.ok ? rentalTermsWrong() : parsed.message, 400, {
          values,
          errors: parsed.ok ? {} : parsed.errors,
          rental: { values: rentalValues, errors: rental.ok ? {} : rental.errors },
        });
      }
      try {
        await updateVehicle(services, id, parsed.vehicle, admin.email);
        await applyRental(services, id, rental, admin.email);
      } catch (error) {
        // Deleted meanwhile: back to the list, as when the page is opened for it.
        if (error instanceof NotFoundError) return backToList(secret, vehicleMessages.notFound);
        const answer = answerError(error, services.logger, {
          prefix: vehicleMessages.updateFailed,
          fallback: vehicleMessages.updateFailed,
          log: 'update vehicle failed',
          context: { id },
        });
        return result(intent, 'error', answer.message, answer.status, {
          values,
          errors: answer.fields,
          rental: { values: rentalValues, errors: answer.fields },
        });
      }
      return redirect(adminPaths.vehicles, { headers: await flashHeaders(secret, { tone: 'success', text: vehicleMessages.updated }) });
    }
    case 'add-images': {
      try {
        const uploads = uploadsFrom(upload, 'images');
        await addVehicleImages(services, id, uploads, admin.email);
        return result(intent, 'success', uploads.length === 1 ? t('imageAdded') : t('imagesAdded', { number: uploads.length }));
      } catch (error) {
        const answer = answerError(error, services.logger, {
          prefix: vehicleMessages.uploadFailed,
          fallback: vehicleMessages.uploadFailed,
          log: 'adding vehicle images failed',
          context: { id },
        });
        return result(intent, 'error', answer.message, answer.status);
      }
    }
    case 'remove-image': {
      const { imageId } = asked;
      try {
        await removeVehicleImage(services, id, imageId, admin.email);
        return result(intent, 'success', t('imageRemoved'));
      } catch (error) {
        const answer = answerError(error, services.logger, {
          fallback: vehicleMessages.removeImageFailed,
          log: 'removing a vehicle image failed',
          context: { id, imageId },
        });
        // One message whatever the reason: the page reloads the images from the server after every fetcher action.
        return result(intent, 'error', vehicleMessages.removeImageFailed, answer.status);
      }
    }
    case 'move-image': {
      const { imageId, direction } = asked;
      try {
        await moveVehicleImage(services, id, imageId, direction, admin.email);
        return result(intent, 'success', direction === 'left' ? t('movedLeft') : t('movedRight'));
      } catch (error) {
        const answer = answerError(error, services.logger, { fallback: t('moveFailed'), log: 'moving a vehicle image failed', context: { id, imageId } });
        return result(intent, 'error', t('moveFailed'), answer.status);
      }
    }
  }
}

export default function VehicleEdit({ loaderData }: Route.ComponentProps) {
  const { vehicle, images, categories } = loaderData;
  const actionData = useActionData<typeof action>();
  const imageFetcher = useFetcher<typeof action>({ key: IMAGE_FETCHER_KEY });
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const title = detailTitle(vehicle);
  const saved = actionData && actionData.intent === 'save' ? actionData : null;
  const toast = latestToast(loaderData.toast, actionData?.toast, imageFetcher.data?.toast);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('editVehicle')} back={{ to: adminPaths.vehicles, label: t('vehiclesLink') }} />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700">
        <span className="font-semibold">{title}</span>
        <StatusBadge status={vehicle.status} />
        <span className="text-sm text-slate-600">{vehicle.categoryName}</span>
        <a href={paths.vehicle(vehicle.id)} target="_blank" rel="noopener" className="ml-auto text-sm font-semibold text-brand-700 underline">
          {t('viewOnSite')}
        </a>
        {loaderData.purchase ? (
          <p className="w-full text-sm" data-purchase-price={loaderData.purchase.pricePaise}>
            {pt('boughtFor', { price: formatPaise(loaderData.purchase.pricePaise), day: loaderData.purchase.since })}
          </p>
        ) : null}
      </div>
      {loaderData.reservations.length > 0 ? (
        <section aria-labelledby="reservations-heading" className="flex flex-col gap-3">
          <h2 id="reservations-heading" className="text-lg font-bold">
            {t('reservations')}
          </h2>
          <ReservationsDesk reservations={loaderData.reservations} nowMs={loaderData.nowMs} backTo={adminPaths.editVehicle(vehicle.categorySlug, vehicle.id)} />
        </section>
      ) : null}
      <ImageManager images={images} max={MAX_VEHICLE_IMAGES} title={title} />
      <VehicleForm
        key={vehicle.id}
        mode="edit"
        values={saved?.values ?? loaderData.values}
        errors={saved?.errors ?? {}}
        rental={saved?.rental ?? { values: loaderData.rental, errors: {} }}
        categories={categories}
        busy={busy}
        actions={<FormActions back={{ to: adminPaths.vehicles, label: t('cancel') }} busy={busy} label={t('saveChanges')} busyLabel={t('saving')} />}
      />
      <Toast toast={toast} position="bottom-right" />
    </div>
  );
}
