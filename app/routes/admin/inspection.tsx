import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { recordAudit } from '../../../server/audit/audit.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { categoryChoices } from '../../../server/catalog/admin-categories.ts';
import { refusedWhileReading, uploadMessages } from '../../../server/catalog/admin-images.ts';
import { getVehicleForAdmin } from '../../../server/catalog/vehicles.ts';
import { InvalidInputError, NotFoundError } from '../../../server/errors.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { uploadsFrom, uploadTempDir, withUploadForm, type UploadForm } from '../../../server/http/forms.ts';
import {
  auditView,
  changeInspectionStatus,
  createVehicleDraft,
  getDeskInspection,
  makeOffer,
  recordInspection,
} from '../../../server/inspections/inspection-desk.ts';
import { PageHeader, PhoneFact, StatusBadge } from '../../features/admin/admin-ui.tsx';
import { Toast } from '../../features/admin/toast.tsx';
import { FieldNotes, FormMessage, inputClass, primaryButton, secondaryButton, SelectField, TextAreaField, TextField } from '../../components/form.tsx';
import { parseForm } from '../../lib/form-errors.ts';
import { inspectionRecordSchema } from '../../features/appointments/inspection-desk-schemas.ts';
import { VehicleImage } from '../../features/vehicle/vehicle-image.tsx';
import { appContext, type AppServices } from '../../context.ts';
import { formatKilometres, formatRupees } from '../../lib/format.ts';
import {
  CONDITION_ITEMS,
  CONDITION_STATUSES,
  conditionItemLabel,
  conditionStatusLabel,
  DESK_STATUS_TONE,
  OFFER_LIMITS,
  deskOfferStateLabels,
  offerFormSchema,
} from '../../features/appointments/inspection-desk.ts';
import { deskInspectionsText as t } from '../../features/appointments/desk-inspections-texts.ts';
import { cleanLine, parseId } from '../../lib/input.ts';
import { adminPaths } from '../../lib/paths.ts';
import { REGISTRATION_STATES } from '../../lib/listing-filters/registration.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { dayLabel, slotLabel, STATUS_LABELS } from '../../features/appointments/test-drives.ts';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { MAX_VEHICLE_IMAGES } from '../../lib/vehicle-schema.ts';
import type { Route } from './+types/inspection';
import { homeAddressLine } from '../../features/appointments/home-address.ts';
import { addDays, indiaDay } from '../../lib/india-time.ts';
import { purchaseOfInspection, recordPurchase } from '../../../server/purchases/purchases.ts';
import { documentField, PURCHASE_DOCUMENTS, PURCHASE_PAYMENT_METHODS, purchaseFormSchema } from '../../features/purchases/schemas.ts';
import { purchasesText as pt } from '../../features/purchases/purchases-texts.ts';
import { formatPaise, paiseAsRupeesText } from '../../lib/money.ts';
import { formatIndiaDateTime } from '../../lib/format.ts';

/**
 * One seller's inspection at the desk (decision 084): confirm or no-show, record what was found
 * (condition items, notes, odometer, photos), make the offer, and once the seller accepted it,
 * create the vehicle draft. Every step is checked again by its service and audit-logged here.
 */

export function meta({ matches, location, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: t('inspectionNumbered', { id: params.id }), noIndex: true });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const id = parseId(params.id);
  if (id === null) throw data({ message: t('notFound') }, { status: 404 });
  let inspection;
  try {
    inspection = await getDeskInspection(services, id);
  } catch (error) {
    if (error instanceof NotFoundError) throw data({ message: error.message }, { status: 404 });
    throw error;
  }
  const [categories, draft, purchase, flash] = await Promise.all([
    categoryChoices(services.database),
    inspection.draftVehicleId === null ? null : getVehicleForAdmin(services.database, inspection.draftVehicleId),
    purchaseOfInspection(services.database, id),
    takeFlash(services.config.authSecret, request),
  ]);
  const today = indiaDay(services.clock.now());
  return data(
    {
      inspection,
      categories,
      draft: draft ? { id: draft.id, name: draft.name, status: draft.status, editTo: adminPaths.editVehicle(draft.categorySlug, draft.id) } : null,
      offerDays: { min: today, max: addDays(today, OFFER_LIMITS.maxDaysValid), usual: addDays(today, 7) },
      purchase,
      today,
      toast: flash.toast,
    },
    { headers: flash.headers },
  );
}

type ActionAnswer = { error: string; fields: Record<string, string>; values?: Record<string, string> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const id = parseId(params.id);
  if (id === null) return data<ActionAnswer>({ error: t('notFound'), fields: {} }, { status: 404 });
  return withUploadForm(
    request,
    { tempDir: uploadTempDir(services.config.dataDir), messages: uploadMessages },
    (upload) => act(services, admin.email, id, upload),
    (error) =>
      data<ActionAnswer>({ error: error.problem === 'file-too-large' ? refusedWhileReading(error) : error.message, fields: {} }, { status: error.status }),
  );
}

async function act(services: AppServices, actorEmail: string, id: number, upload: UploadForm) {
  const form = upload.fields;
  const read = (name: string) => cleanLine(form.get(name), 4000);
  const intent = cleanLine(form.get('intent'), 20);
  let text: string;
  try {
    switch (intent) {
      case 'confirm':
      case 'no_show': {
        const { before, after } = await changeInspectionStatus(services, id, intent);
        await recordAudit(services, {
          actorEmail,
          action: intent,
          entity: 'inspection',
          entityId: id,
          summary: `${intent === 'confirm' ? 'Confirmed' : 'Marked no-show'} inspection #${id} (${slotLabel(after.slot)})`,
          before: { status: before.status },
          after: { status: after.status },
        });
        text = intent === 'confirm' ? t('inspectionConfirmed') : t('inspectionNoShow');
        break;
      }
      case 'record': {
        // Read by its schema (decision 109): each wrong field told beside it, what was typed kept.
        const parsed = parseForm(inspectionRecordSchema, form);
        if (!parsed.ok) return data<ActionAnswer>({ error: parsed.error, fields: parsed.fields, values: parsed.values }, { status: 400 });
        const record = parsed.value;
        const { before, after } = await recordInspection(services, id, record, uploadsFrom(upload, 'images'));
        await recordAudit(services, {
          actorEmail,
          action: 'record',
          entity: 'inspection',
          entityId: id,
          summary: `Recorded inspection #${id}: ${Object.keys(after.condition).length} items, ${after.photos.length} photos`,
          before: auditView(before),
          after: auditView(after),
        });
        text = t('inspectionRecorded');
        break;
      }
      case 'offer': {
        const parsed = offerFormSchema.safeParse({ amount: read('amount'), validUntil: read('validUntil') });
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
          throw new InvalidInputError(Object.values(fields)[0] ?? t('checkTheOffer'), fields);
        }
        const { before, after } = await makeOffer(services, id, { rupees: parsed.data.amount, validUntil: parsed.data.validUntil });
        await recordAudit(services, {
          actorEmail,
          action: 'offer',
          entity: 'inspection',
          entityId: id,
          summary: `Offered ${formatRupees(parsed.data.amount)} for inspection #${id}, valid until ${dayLabel(parsed.data.validUntil)}`,
          before: auditView(before).offer,
          after: auditView(after).offer,
        });
        text = t('offerSent', { amount: formatRupees(parsed.data.amount) });
        break;
      }
      case 'draft': {
        const categoryId = parseId(read('categoryId'));
        if (categoryId === null) throw new InvalidInputError(t('chooseCategoryForVehicle'), { categoryId: t('chooseCategory') });
        const result = await createVehicleDraft(services, id, categoryId);
        if (result.created) {
          await recordAudit(services, {
            actorEmail,
            action: 'create',
            entity: 'vehicle',
            entityId: result.vehicleId,
            summary: `Created vehicle draft #${result.vehicleId} from inspection #${id}`,
            before: null,
            after: auditView(result.inspection),
          });
        }
        text = result.created ? t('draftCreated') : t('draftExists');
        break;
      }
      case 'purchase': {
        // Read by its schema (decision 118): each wrong field told beside it, what was typed kept.
        const parsed = parseForm(purchaseFormSchema, form);
        if (!parsed.ok) return data<ActionAnswer>({ error: parsed.error, fields: parsed.fields, values: parsed.values }, { status: 400 });
        try {
          const purchase = await recordPurchase(services, id, { ...parsed.value, actorEmail });
          text = pt('purchaseRecorded', { price: formatPaise(purchase.pricePaise) });
        } catch (error) {
          const answer = answerError(error, services.logger, { fallback: pt('purchaseFailed'), log: 'recording a purchase failed', context: { id } });
          return data<ActionAnswer>({ error: answer.message, fields: { ...answer.fields }, values: parsed.values }, { status: answer.status });
        }
        break;
      }
      default:
        throw new InvalidInputError(t('formUnreadable'));
    }
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('changeFailed'), log: 'admin inspection change failed', context: { id, intent } });
    return data<ActionAnswer>({ error: answer.message, fields: { ...answer.fields } }, { status: answer.status });
  }
  throw redirect(adminPaths.inspection(id), { status: 303, headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
}

const card = 'flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5';
const sectionTitle = 'text-lg font-bold';

export default function AdminInspection({ loaderData }: Route.ComponentProps) {
  const { inspection: item, categories, draft, offerDays, purchase, today, toast } = loaderData;
  const answer = useActionData<typeof action>() as ActionAnswer | undefined;
  const busy = useNavigation().state !== 'idle';
  const fieldError = (name: string) => answer?.fields?.[name];
  const typed = (name: string) => answer?.values?.[name];
  const canConfirm = item.status === 'booked';
  const canNoShow = item.status === 'booked' || item.status === 'confirmed';
  const canRecord = item.status !== 'cancelled' && item.offer?.state !== 'accepted';
  const canOffer = item.status === 'done' && item.recordedAt !== null && (item.offer === null || item.offer.state === 'open' || item.offer.state === 'expired');
  const title = `${item.car.year} ${item.car.make} ${item.car.model}`;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('inspectionNumbered', { id: item.id })} back={{ to: adminPaths.inspectionsOn(item.slot.slice(0, 10)), label: t('backToDay') }} />
      {answer?.error ? <FormMessage tone="error">{answer.error}</FormMessage> : null}
      <section className={card} aria-labelledby="car-title">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id="car-title" className="text-xl font-bold">
              {title}
            </h2>
            <p className="text-slate-700">{slotLabel(item.slot)}</p>
          </div>
          <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${DESK_STATUS_TONE[item.status]}`}>{STATUS_LABELS[item.status]}</span>
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
          <Fact label={t('seller')} value={item.name || '—'} />
          <PhoneFact label={t('phone')} phone={item.phone} />
          <Fact label={t('email')} value={item.email} />
          <Fact label={t('where')} value={item.mode === 'home' ? t('atSellersHome', { address: homeAddressLine(item) }) : t('atOurHub')} />
          <Fact label={t('fuelAndGearbox')} value={`${item.car.fuel}, ${item.car.transmission}`} />
          <Fact label={t('kmSellersWord')} value={formatKilometres(item.car.km)} />
          <Fact label={t('owners')} value={String(item.car.owners)} />
          <Fact label={t('registeredIn')} value={REGISTRATION_STATES[item.car.registrationState] ?? item.car.registrationState} />
          <Fact
            label={t('estimateShown')}
            value={item.estimate.kind === 'range' ? `${formatRupees(item.estimate.low)} – ${formatRupees(item.estimate.high)}` : t('notEnoughData')}
          />
        </dl>
        {canConfirm || canNoShow ? (
          <Form method="post" preventScrollReset className="flex flex-wrap gap-2">
            {canConfirm ? (
              <button type="submit" name="intent" value="confirm" disabled={busy} className={primaryButton}>
                {t('confirm')}
              </button>
            ) : null}
            {canNoShow ? (
              <button type="submit" name="intent" value="no_show" disabled={busy} className={secondaryButton}>
                {t('noShow')}
              </button>
            ) : null}
          </Form>
        ) : null}
      </section>

      <section className={card} aria-labelledby="record-title">
        <h2 id="record-title" className={sectionTitle}>
          {t('inspectionRecord')}
        </h2>
        {item.recordedAt && canRecord ? <p className="text-sm text-slate-600">{t('recordedAgainHint')}</p> : null}
        {item.photos.length > 0 ? (
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label={t('inspectionPhotos')}>
            {item.photos.map((photo, index) => (
              <li key={photo.key}>
                <VehicleImage
                  image={photo}
                  alt={t('photoAlt', { title, number: index + 1 })}
                  sizes="(min-width: 640px) 25vw, 50vw"
                  className="aspect-[4/3] w-full rounded-lg object-cover"
                />
              </li>
            ))}
          </ul>
        ) : null}
        {canRecord ? (
          // Keyed by the saved record: after a save the fields show what was kept and the chosen photos are cleared.
          <Form
            key={`${item.recordedAt ?? 'new'}-${item.photos.length}`}
            method="post"
            encType="multipart/form-data"
            preventScrollReset
            className="flex flex-col gap-4"
          >
            <fieldset className="grid grid-cols-2 gap-3 lg:grid-cols-3">
              <legend className="mb-2 font-semibold">
                {t('conditionItems')} <span className="font-normal text-slate-600">{t('notCheckedHint')}</span>
              </legend>
              {CONDITION_ITEMS.map((conditionItem, index) => (
                <label key={conditionItem} className="flex flex-col gap-1 text-sm font-semibold">
                  {conditionItemLabel(conditionItem)}
                  <select
                    name={`item-${index}`}
                    defaultValue={typed(`item-${index}`) ?? item.condition[conditionItem] ?? ''}
                    className={`${inputClass} py-2`}
                    aria-invalid={fieldError(`item-${index}`) ? true : undefined}
                    aria-describedby={fieldError(`item-${index}`) ? `item-${index}-error` : undefined}
                  >
                    <option value="">—</option>
                    {CONDITION_STATUSES.map((status) => (
                      <option key={status} value={status}>
                        {conditionStatusLabel(status)}
                      </option>
                    ))}
                  </select>
                  <FieldNotes id={`item-${index}`} error={fieldError(`item-${index}`)} />
                </label>
              ))}
            </fieldset>
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('odometerReading')}
              <input
                name="odometer"
                inputMode="numeric"
                maxLength={9}
                defaultValue={typed('odometer') ?? item.odometer ?? ''}
                className={`${inputClass} max-w-xs`}
                aria-invalid={fieldError('odometer') ? true : undefined}
                aria-describedby={fieldError('odometer') ? 'odometer-error' : undefined}
              />
              <FieldNotes id="odometer" error={fieldError('odometer')} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('notes')}
              <textarea
                name="notes"
                rows={4}
                maxLength={2000}
                defaultValue={typed('notes') ?? item.notes}
                className={inputClass}
                aria-invalid={fieldError('notes') ? true : undefined}
                aria-describedby={fieldError('notes') ? 'notes-error' : undefined}
              />
              <FieldNotes id="notes" error={fieldError('notes')} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('photosUpTo', { more: MAX_VEHICLE_IMAGES - item.photos.length, mb: MAX_IMAGE_MB })}
              <input type="file" name="images" accept="image/*" multiple className="text-sm font-normal" aria-describedby="photo-hint" />
              <span id="photo-hint" className="font-normal text-slate-600">
                {t('photoHint')}
              </span>
              {fieldError('images') ? <span className="font-normal text-red-700">{fieldError('images')}</span> : null}
            </label>
            <button type="submit" name="intent" value="record" disabled={busy} className={`${primaryButton} self-start`}>
              {busy ? t('saving') : t('saveRecord')}
            </button>
          </Form>
        ) : (
          <ConditionList condition={item.condition} notes={item.notes} odometer={item.odometer} />
        )}
      </section>

      <section className={card} aria-labelledby="offer-title">
        <h2 id="offer-title" className={sectionTitle}>
          {t('offer')}
        </h2>
        {item.offer ? (
          <p>
            <span className="text-2xl font-extrabold tabular-nums">{formatRupees(item.offer.rupees)}</span>{' '}
            <span className="text-slate-700">
              {t('validUntilDay', { day: dayLabel(item.offer.validUntil) })}
              <strong>{deskOfferStateLabels()[item.offer.state]}</strong>
            </span>
          </p>
        ) : (
          <p className="text-slate-600">{item.recordedAt ? t('noOfferYet') : t('recordFirstHint')}</p>
        )}
        {canOffer ? (
          <Form key={item.offer?.madeAt ?? 'none'} method="post" preventScrollReset className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('amountInRupees')}
              <input
                name="amount"
                inputMode="numeric"
                required
                maxLength={16}
                placeholder="4,50,000"
                defaultValue={item.offer?.rupees ?? ''}
                className={inputClass}
                aria-invalid={fieldError('amount') ? true : undefined}
              />
              {fieldError('amount') ? <span className="font-normal text-red-700">{fieldError('amount')}</span> : null}
            </label>
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('validUntil')}
              <input
                type="date"
                name="validUntil"
                required
                min={offerDays.min}
                max={offerDays.max}
                defaultValue={item.offer?.state === 'open' ? item.offer.validUntil : offerDays.usual}
                className={inputClass}
                aria-invalid={fieldError('validUntil') ? true : undefined}
              />
              {fieldError('validUntil') ? <span className="font-normal text-red-700">{fieldError('validUntil')}</span> : null}
            </label>
            <button type="submit" name="intent" value="offer" disabled={busy} className={primaryButton}>
              {item.offer ? t('sendNewOffer') : t('sendOffer')}
            </button>
          </Form>
        ) : null}
      </section>

      {item.offer?.state === 'accepted' ? (
        <section className={card} aria-labelledby="draft-title">
          <h2 id="draft-title" className={sectionTitle}>
            {t('vehicleDraft')}
          </h2>
          {draft ? (
            <p className="flex flex-wrap items-center gap-2">
              <StatusBadge status={draft.status} />
              <Link to={draft.editTo} className="font-semibold text-brand-700 underline">
                {t('draftLink', { name: draft.name, id: draft.id })}
              </Link>
              <span className="text-sm text-slate-600">{t('draftPublishHint')}</span>
            </p>
          ) : (
            <Form method="post" preventScrollReset className="flex flex-wrap items-end gap-3">
              <p className="w-full text-sm text-slate-600">{t('draftIntro')}</p>
              <label className="flex flex-col gap-1 text-sm font-semibold">
                {t('category')}
                <select name="categoryId" required defaultValue="" className={`${inputClass} py-2`}>
                  <option value="" disabled>
                    {t('choose')}
                  </option>
                  {categories.map((category) => (
                    <option key={category.id} value={category.id}>
                      {category.name}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" name="intent" value="draft" disabled={busy} className={primaryButton}>
                {t('createDraft')}
              </button>
            </Form>
          )}
        </section>
      ) : null}
      {item.offer?.state === 'accepted' ? (
        <section className={card} aria-labelledby="purchase-title">
          <h2 id="purchase-title" className={sectionTitle}>
            {purchase ? pt('purchaseTitle') : pt('recordPurchase')}
          </h2>
          {purchase ? (
            <PurchaseSummary purchase={purchase} draft={draft} />
          ) : (
            <Form method="post" preventScrollReset className="flex flex-col gap-4" noValidate>
              <p className="text-sm text-slate-600">{pt('purchaseIntro')}</p>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  id="purchase-price"
                  name="price"
                  label={pt('priceLabel')}
                  inputMode="decimal"
                  maxLength={20}
                  defaultValue={typed('price') ?? paiseAsRupeesText(item.offer.rupees * 100)}
                  error={fieldError('price')}
                />
                <SelectField
                  id="purchase-method"
                  name="method"
                  label={pt('methodLabel')}
                  defaultValue={typed('method') ?? 'transfer'}
                  error={fieldError('method')}
                >
                  {PURCHASE_PAYMENT_METHODS.map((method) => (
                    <option key={method} value={method}>
                      {pt(`method_${method}`)}
                    </option>
                  ))}
                </SelectField>
                <TextField
                  id="purchase-reference"
                  name="reference"
                  label={pt('referenceLabel')}
                  hint={pt('referenceHint')}
                  maxLength={60}
                  autoComplete="off"
                  spellCheck={false}
                  defaultValue={typed('reference') ?? ''}
                  error={fieldError('reference')}
                />
                <TextField
                  id="purchase-possession"
                  name="possessionDate"
                  type="date"
                  label={pt('possessionLabel')}
                  hint={pt('possessionHint')}
                  max={today}
                  defaultValue={typed('possessionDate') ?? today}
                  error={fieldError('possessionDate')}
                />
                <TextField
                  id="purchase-seller-name"
                  name="sellerName"
                  label={pt('sellerNameLabel')}
                  maxLength={100}
                  defaultValue={typed('sellerName') ?? item.name}
                  error={fieldError('sellerName')}
                />
                <TextField
                  id="purchase-seller-phone"
                  name="sellerPhone"
                  type="tel"
                  label={pt('sellerPhoneLabel')}
                  defaultValue={typed('sellerPhone') ?? item.phone}
                  error={fieldError('sellerPhone')}
                />
              </div>
              <TextAreaField
                id="purchase-seller-address"
                name="sellerAddress"
                label={pt('sellerAddressLabel')}
                rows={2}
                maxLength={300}
                defaultValue={typed('sellerAddress') ?? (item.mode === 'home' ? homeAddressLine(item) : '')}
                error={fieldError('sellerAddress')}
              />
              <fieldset className="flex flex-col gap-2">
                <legend className="mb-1 text-sm font-semibold">{pt('documentsLabel')}</legend>
                <div className="grid gap-2 sm:grid-cols-3">
                  {PURCHASE_DOCUMENTS.map((document) => (
                    <label key={document} className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        name={documentField(document)}
                        defaultChecked={answer?.values ? typed(documentField(document)) === 'on' : false}
                        className="h-5 w-5"
                      />
                      {pt(`doc_${document}`)}
                    </label>
                  ))}
                </div>
              </fieldset>
              <TextField
                id="purchase-documents-other"
                name="documentsOther"
                label={pt('documentsOtherLabel')}
                maxLength={300}
                defaultValue={typed('documentsOther') ?? ''}
                error={fieldError('documentsOther')}
              />
              {draft ? null : (
                <SelectField
                  id="purchase-category"
                  name="categoryId"
                  label={pt('categoryLabel')}
                  defaultValue={typed('categoryId') ?? ''}
                  error={fieldError('categoryId')}
                >
                  <option value="">{pt('choose')}</option>
                  {categories.map((category) => (
                    <option key={category.id} value={category.id}>
                      {category.name}
                    </option>
                  ))}
                </SelectField>
              )}
              <button type="submit" name="intent" value="purchase" disabled={busy} className={`${primaryButton} self-start`}>
                {busy ? pt('saving') : pt('savePurchase')}
              </button>
            </Form>
          )}
        </section>
      ) : null}
      <Toast toast={toast} />
    </div>
  );
}

function PurchaseSummary({
  purchase,
  draft,
}: {
  purchase: NonNullable<Route.ComponentProps['loaderData']['purchase']>;
  draft: Route.ComponentProps['loaderData']['draft'];
}) {
  const documents = [...purchase.documents.map((document) => pt(`doc_${document}`)), ...(purchase.documentsOther ? [purchase.documentsOther] : [])];
  return (
    <div className="flex flex-col gap-2 text-sm" data-purchase={purchase.id}>
      <p className="text-base font-semibold">
        {pt('paidOn', { price: formatPaise(purchase.pricePaise), method: pt(`method_${purchase.paymentMethod}`), reference: purchase.paymentReference })}
      </p>
      <p>{pt('possessionOn', { day: dayLabel(purchase.possessionDate) })}</p>
      <p>{documents.length > 0 ? pt('documentsReceived', { list: documents.join(', ') }) : pt('noDocuments')}</p>
      <p className="text-slate-700">
        {purchase.seller.name} · {purchase.seller.phone} · {purchase.seller.address}
      </p>
      {draft ? (
        <p>
          <Link to={draft.editTo} className="font-semibold text-brand-700 underline">
            {pt('draftCarLink', { name: draft.name, id: draft.id })}
          </Link>
        </p>
      ) : null}
      <p className="text-slate-600">{pt('recordedBy', { who: purchase.recordedBy, when: formatIndiaDateTime(purchase.createdAt) })}</p>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 break-words">
      <dt className="inline text-slate-600">{label}: </dt>
      <dd className="inline font-medium">{value}</dd>
    </div>
  );
}

function ConditionList({ condition, notes, odometer }: { condition: Record<string, string>; notes: string; odometer: number | null }) {
  const entries = Object.entries(condition);
  return (
    <div className="flex flex-col gap-2 text-sm">
      {entries.length > 0 ? (
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
          {entries.map(([name, status]) => (
            <Fact key={name} label={conditionItemLabel(name)} value={conditionStatusLabel(status)} />
          ))}
        </dl>
      ) : (
        <p className="text-slate-600">{t('noItemsRecorded')}</p>
      )}
      {odometer !== null ? <p>{t('odometerValue', { km: formatKilometres(odometer) })}</p> : null}
      {notes ? <p className="whitespace-pre-wrap">{notes}</p> : null}
    </div>
  );
}
