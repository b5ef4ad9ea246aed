import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders } from '../../../server/http/flash.ts';
import { FormReadError, readUploadForm, uploadTempDir, type UploadForm } from '../../../server/http/forms.ts';
import { checklistFromForm } from '../../../server/rentals/http/checklist-form.ts';
import { InvalidInputError, NotFoundError } from '../../../server/errors.ts';
import { recordDelivery } from '../../../server/sales/deliveries.ts';
import { deliveryNoteNumber, findDelivery } from '../../../server/sales/delivery-store.ts';
import { findSale } from '../../../server/sales/store.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { ChecklistFields, FuelField, NumberField } from '../../features/rentals/checklist-fields.tsx';
import { FormMessage, primaryButton, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { DELIVERY_DOCUMENTS, deliveryFormSchema, MAX_KEYS, MAX_OTHER_DOCUMENTS_LENGTH } from '../../features/sales/delivery.ts';
import { deliveryText as t } from '../../features/sales/delivery-texts.ts';
import { SignaturePad } from '../../features/sales/signature-pad.tsx';
import { parseForm, typedValues } from '../../lib/form-errors.ts';
import { parseId } from '../../lib/input.ts';
import { imageTooLarge } from '../../lib/uploads.ts';
import { MAX_ODOMETER_KM } from '../../lib/vehicle.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/sale-delivery';

/**
 * The handover of a sold car at the desk (decision 116): the rental checklist's reading and
 * photos, the keys and documents handed over, and the buyer's signature on this screen (drawn
 * on the pad, or the name typed, which works without JavaScript). Recorded once; the sale's
 * page then lists the delivery note.
 */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('deliveryTitle'))(args);
}

async function saleOrNotFound(services: Parameters<typeof findSale>[0], id: number | null) {
  const sale = id === null ? null : await findSale(services, id);
  if (!sale) throw data({ message: t('saleNotFound') }, { status: 404 });
  return sale;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const sale = await saleOrNotFound(services.database, parseId(params.id));
  // A car handed over (or a sale cancelled) has nothing to fill in: the page says why, and links to the sale.
  const closed =
    sale.status !== 'recorded'
      ? t('saleCancelledNoDelivery', { number: sale.creditNoteNumber ?? '' })
      : (await findDelivery(services.database, sale.id))
        ? t('alreadyDelivered')
        : null;
  return {
    closed,
    sale: {
      id: sale.id,
      invoiceNumber: sale.invoiceNumber,
      car: `${sale.vehicle.title} · ${sale.vehicle.registration}`,
      buyerName: sale.buyer.name,
    },
  };
}

type Answer = { error: string; fields: Record<string, string>; values: Record<string, string>; documents: string[] };

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const saleId = parseId(params.id);
  let upload: UploadForm;
  try {
    upload = await readUploadForm(request, { tempDir: uploadTempDir(services.config.dataDir), messages: { fileTooLarge: imageTooLarge() } });
  } catch (error) {
    if (error instanceof FormReadError) return data<Answer>({ error: error.message, fields: {}, values: {}, documents: [] }, { status: error.status });
    throw error;
  }
  const form = upload.fields;
  const documents = form.getAll('documents').filter((value): value is string => typeof value === 'string');
  try {
    if (saleId === null) throw new NotFoundError(t('saleNotFound'));
    const parsed = parseForm(deliveryFormSchema, form);
    if (!parsed.ok) throw new InvalidInputError(parsed.error, parsed.fields);
    const sale = await findSale(services.database, saleId);
    if (!sale) throw new NotFoundError(t('saleNotFound'));
    await recordDelivery(services, { ...parsed.value, saleId, documents, checklist: checklistFromForm(upload, 'handover'), actorEmail: admin.email });
    return redirect(adminPaths.sale(saleId), {
      status: 303,
      headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: t('delivered', { number: deliveryNoteNumber(sale.invoiceNumber) }) }),
    });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('deliveryFailed'), log: 'recording a delivery failed', context: { saleId } });
    // What was typed (and the drawn signature) goes back with the messages beside their fields.
    return data<Answer>({ error: answer.message, fields: { ...answer.fields }, values: typedValues(form), documents }, { status: answer.status });
  } finally {
    await upload.discard();
  }
}

export default function SaleDelivery({ loaderData, actionData }: Route.ComponentProps) {
  const { sale, closed } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('deliveryHeading', { number: sale.invoiceNumber })} back={{ to: adminPaths.sale(sale.id), label: t('backToSale') }} />
      <section className="w-full max-w-3xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <p className="font-semibold">{sale.car}</p>
        {closed ? (
          <div className="mt-3 flex flex-col gap-3">
            <FormMessage tone="error">{actionData?.error ?? closed}</FormMessage>
            <Link to={adminPaths.sale(sale.id)} className="font-semibold text-brand-700 underline">
              {t('backToSale')}
            </Link>
          </div>
        ) : (
          <DeliveryForm saleBuyerName={sale.buyerName} busy={busy} actionData={actionData} />
        )}
      </section>
    </div>
  );
}

/** The handover's fields: the reading, the documents, the checklist's photos, the signature. */
function DeliveryForm({ saleBuyerName, busy, actionData }: { saleBuyerName: string; busy: boolean; actionData: Answer | undefined }) {
  const fields = actionData?.fields ?? {};
  const values = actionData?.values ?? {};
  const handed = new Set(actionData?.documents ?? []);
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">{t('deliveryIntro')}</p>
      <Form method="post" encType="multipart/form-data" className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-3" noValidate>
        {actionData?.error ? (
          <div className="sm:col-span-full">
            <FormMessage tone="error">{actionData.error}</FormMessage>
          </div>
        ) : null}
        <NumberField name="odometer" label={t('odometer')} max={MAX_ODOMETER_KM} defaultValue={values.odometer} error={fields.odometer} />
        <FuelField name="fuel" label={t('fuel')} defaultValue={values.fuel ?? 8} error={fields.fuel} />
        <NumberField name="keys" label={t('keys')} max={MAX_KEYS} defaultValue={values.keys ?? 2} error={fields.keys} />
        <fieldset className="flex flex-col gap-2 sm:col-span-full" aria-describedby={fields.documents ? 'documents-error' : undefined}>
          <legend className="text-sm font-semibold">{t('documentsLegend')}</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {DELIVERY_DOCUMENTS.map((document) => (
              <label key={document} className="flex min-h-11 items-center gap-3 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-200">
                <input type="checkbox" name="documents" value={document} defaultChecked={handed.has(document)} className="h-5 w-5" />
                {t(`doc_${document}`)}
              </label>
            ))}
          </div>
          {fields.documents ? (
            <span id="documents-error" className="text-sm font-medium text-red-700">
              {fields.documents}
            </span>
          ) : null}
        </fieldset>
        <div className="sm:col-span-full">
          <TextField
            id="delivery-other-documents"
            name="otherDocuments"
            label={t('otherDocuments')}
            hint={t('otherDocumentsHint')}
            maxLength={MAX_OTHER_DOCUMENTS_LENGTH}
            defaultValue={values.otherDocuments ?? ''}
            error={fields.otherDocuments}
          />
        </div>
        <ChecklistFields stage="handover" fields={fields} />
        <fieldset className="flex flex-col gap-3 sm:col-span-full" aria-describedby={fields.signature ? 'signature-error' : 'signature-hint'}>
          <legend className="text-sm font-semibold">{t('signatureLegend')}</legend>
          <p id="signature-hint" className="text-sm text-slate-600">
            {t('signatureHint')}
          </p>
          <SignaturePad initial={values.signature} error={fields.signature} />
          {fields.signature ? (
            <span id="signature-error" className="text-sm font-medium text-red-700">
              {fields.signature}
            </span>
          ) : null}
          <TextField
            id="delivery-typed-signature"
            name="typedSignature"
            label={t('typedSignature')}
            hint={t('typedSignatureHint')}
            maxLength={100}
            autoComplete="off"
            defaultValue={values.typedSignature ?? ''}
            error={fields.typedSignature}
          />
          <TextField
            id="delivery-signer-name"
            name="signerName"
            label={t('signerName')}
            maxLength={100}
            required
            defaultValue={values.signerName ?? saleBuyerName}
            error={fields.signerName}
          />
        </fieldset>
        <button type="submit" disabled={busy} className={`${primaryButton} sm:col-span-full sm:justify-self-start`}>
          {t('submitDelivery')}
        </button>
      </Form>
    </>
  );
}
