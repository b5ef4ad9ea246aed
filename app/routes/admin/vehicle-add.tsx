import { data, Link, redirect, useActionData, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { categoryChoices } from '../../../server/catalog/admin-categories.ts';
import { refusedWhileReading, uploadMessages } from '../../../server/catalog/admin-images.ts';
import { answerError, throwIfDatabaseOutage } from '../../../server/http/action-errors.ts';
import { uploadsFrom, uploadTempDir, withUploadForm, type UploadForm } from '../../../server/http/forms.ts';
import { addVehicle } from '../../../server/catalog/admin-vehicles.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { adminPaths } from '../../lib/paths.ts';
import { FormActions, latestToast, PageHeader, stamp } from '../../features/admin/admin-ui.tsx';
import { categoryMessages } from '../../lib/category-rules.ts';
import { Toast } from '../../features/admin/toast.tsx';
import { VehicleForm } from '../../features/admin/vehicle-form.tsx';
import {
  emptyVehicleValues,
  MAX_VEHICLE_IMAGES,
  parseVehicleValues,
  valuesFromForm,
  vehicleMessages,
  type VehicleFieldErrors,
  type VehicleFormValues,
} from '../../lib/vehicle-schema.ts';
import { FormMessage } from '../../components/form.tsx';
import { appContext, type AppServices } from '../../context.ts';
import { applyRental, checkRentalValues } from '../../../server/rentals/http/rental-terms.ts';
import {
  emptyRentalValues,
  rentalTermsWrong,
  rentalValuesFromForm,
  type RentalFieldErrors,
  type RentalFormValues,
} from '../../features/rentals/rental-terms-form.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/vehicle-add';
import { adminVehiclesText as t } from '../../features/admin/admin-vehicles-texts.ts';
import { RichText } from '../../lib/i18n/rich.tsx';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('addVehicle'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const { toast, headers } = await takeFlash(services.config.authSecret, request);
  let categories: Array<{ id: number; name: string }> = [];
  let failed = false;
  try {
    categories = await categoryChoices(services.database);
  } catch (error) {
    throwIfDatabaseOutage(error);
    services.logger.error({ err: error }, 'loading categories failed');
    failed = true;
  }
  return data({ categories, toast: failed ? stamp('error', categoryMessages.loadFailed) : toast ? stamp(toast.tone, toast.text) : null }, { headers });
}

function failure(
  message: string,
  values: VehicleFormValues,
  errors: VehicleFieldErrors = {},
  status = 400,
  rental: { values: RentalFormValues; errors: RentalFieldErrors } = { values: emptyRentalValues(), errors: {} },
) {
  return data({ error: message, values, errors, rental, toast: stamp('error', message) }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  return withUploadForm(
    request,
    { tempDir: uploadTempDir(services.config.dataDir), messages: uploadMessages },
    (upload) => saveNewVehicle(services, admin.email, upload),
    (error) =>
      error.problem === 'file-too-large'
        ? // Refused like any other photo, with what was typed.
          failure(refusedWhileReading(error), newVehicleValues(error.fields), {}, error.status, { values: rentalValuesFromForm(error.fields), errors: {} })
        : failure(error.message, emptyVehicleValues(), {}, error.status),
  );
}

/** What was typed; a new vehicle is available and not sold. */
function newVehicleValues(form: FormData): VehicleFormValues {
  return { ...valuesFromForm(form), status: 'available' as const, soldPrice: '', soldAt: '' };
}

async function saveNewVehicle(services: AppServices, adminEmail: string, upload: UploadForm) {
  const values = newVehicleValues(upload.fields);
  const parsed = parseVehicleValues(values);
  const rentalValues = rentalValuesFromForm(upload.fields);
  const rental = checkRentalValues(rentalValues);
  if (!parsed.ok || !rental.ok) {
    return failure(parsed.ok ? rentalTermsWrong() : parsed.message, values, parsed.ok ? {} : parsed.errors, 400, {
      values: rentalValues,
      errors: rental.ok ? {} : rental.errors,
    });
  }
  try {
    const uploads = uploadsFrom(upload, 'images');
    const id = await addVehicle(services, parsed.vehicle, uploads, adminEmail);
    await applyRental(services, id, rental, adminEmail);
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: vehicleMessages.addFailed, log: 'add vehicle failed' });
    return failure(answer.message, values, answer.fields.categoryId ? { categoryId: answer.fields.categoryId } : {}, answer.status, {
      values: rentalValues,
      errors: {},
    });
  }
  return redirect(adminPaths.vehicles, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: vehicleMessages.added }) });
}

export default function VehicleAdd({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('addVehicle')} back={{ to: adminPaths.dashboard, label: t('back') }} />
      {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      {loaderData.categories.length === 0 && !loaderData.toast ? (
        <FormMessage tone="error">
          <RichText
            text={t('noCategoriesYet')}
            parts={{
              add: (words) => (
                <Link to={adminPaths.addCategory} className="underline">
                  {words}
                </Link>
              ),
            }}
          />
        </FormMessage>
      ) : null}
      <VehicleForm
        mode="add"
        values={actionData?.values ?? emptyVehicleValues()}
        errors={actionData?.errors ?? {}}
        rental={actionData?.rental ?? { values: emptyRentalValues(), errors: {} }}
        categories={loaderData.categories}
        maxImages={MAX_VEHICLE_IMAGES}
        busy={busy}
        actions={<FormActions back={{ to: adminPaths.dashboard, label: t('back') }} busy={busy} label={t('addVehicle')} busyLabel={t('adding')} />}
      />
      <Toast toast={latestToast(loaderData.toast, actionData?.toast)} position="bottom-center" />
    </div>
  );
}
