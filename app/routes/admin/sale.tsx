import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { NotFoundError } from '../../../server/errors.ts';
import { cancelSale, saleWithDocuments } from '../../../server/sales/sales.ts';
import { deliverySummary } from '../../../server/sales/delivery-store.ts';
import { latestToast, PageHeader, stamp } from '../../features/admin/admin-ui.tsx';
import { Toast } from '../../features/admin/toast.tsx';
import { FormMessage, secondaryButton, TextAreaField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { formatRate } from '../../features/sales/gst.ts';
import { RcTransferSection } from '../../features/sales/rc-transfer-section.tsx';
import { saleCancelSchema } from '../../features/sales/schemas.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { SaleDeliverySection } from '../../features/sales/sale-delivery-section.tsx';
import { parseForm } from '../../lib/form-errors.ts';
import { parseId } from '../../lib/input.ts';
import { formatPaise } from '../../lib/money.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/sale';

/** One sale at the desk (decision 114): its figures, its documents to download, its delivery (decision 116), its cancellation by credit note. */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('salesTitle'))(args);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const id = parseId(params.id);
  if (id === null) throw data({ message: t('saleNotFound') }, { status: 404 });
  const found = await saleWithDocuments(services, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) throw data({ message: error.message }, { status: 404 });
    throw error;
  });
  const { sale, documents } = found;
  const flash = await takeFlash(services.config.authSecret, request);
  return data(
    {
      sale: {
        id: sale.id,
        status: sale.status,
        invoiceNumber: sale.invoiceNumber,
        invoiceDate: sale.invoiceDate,
        creditNoteNumber: sale.creditNoteNumber,
        cancelReason: sale.cancelReason,
        car: `${sale.vehicle.title} · ${sale.vehicle.registration} · ${sale.vehicle.chassisNumber}`,
        buyer: `${sale.buyer.name}, ${sale.buyer.address} · ${sale.buyer.phone}${sale.buyer.pan ? ` · PAN ${sale.buyer.pan}` : ''}`,
        price: formatPaise(sale.pricePaise),
        token: sale.tokenPaise > 0 ? formatPaise(sale.tokenPaise) : null,
        taxLines: sale.taxLines.map((line) => ({ label: t(line.kind, { rate: formatRate(line.rateBasisPoints) }), amount: formatPaise(line.amountPaise) })),
      },
      documents: documents.map((document) => ({ id: document.id, kind: document.kind, number: document.number })),
      delivery: await deliverySummary(services.database, sale.id),
      toast: flash.toast ? stamp(flash.toast.tone, flash.toast.text) : null,
    },
    { headers: flash.headers },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const id = parseId(params.id);
  if (id === null) throw data({ message: t('saleNotFound') }, { status: 404 });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError)
    return data({ error: form.message, fields: {} as Record<string, string>, values: {} as Record<string, string> }, { status: form.status });
  const parsed = parseForm(saleCancelSchema, form);
  if (!parsed.ok) return data({ error: parsed.error, fields: parsed.fields, values: parsed.values }, { status: 400 });
  try {
    const sale = await cancelSale(services, { saleId: id, reason: parsed.value.reason, actorEmail: admin.email });
    return redirect(adminPaths.sale(id), {
      status: 303,
      headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: t('saleCancelled', { number: sale.creditNoteNumber ?? '' }) }),
    });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('saleFailed'), log: 'cancelling a sale failed' });
    return data({ error: answer.message, fields: { ...answer.fields }, values: parsed.values }, { status: answer.status });
  }
}

export default function SalePage({ loaderData }: Route.ComponentProps) {
  const { sale, documents } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('saleHeading', { number: sale.invoiceNumber })} back={{ to: adminPaths.sales, label: t('backToSales') }} />
      <section className="w-full max-w-2xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <p className="font-semibold">{t(`status_${sale.status}`)}</p>
        <dl className="mt-2 grid gap-2 text-sm">
          <div>
            <dt className="text-slate-600">{t('colCar')}</dt>
            <dd>{sale.car}</dd>
          </div>
          <div>
            <dt className="text-slate-600">{t('colBuyer')}</dt>
            <dd>{sale.buyer}</dd>
          </div>
          <div>
            <dt className="text-slate-600">{t('colPrice')}</dt>
            <dd>{sale.price}</dd>
          </div>
          {sale.token ? (
            <div>
              <dt className="text-slate-600">{t('tokenCounted')}</dt>
              <dd>{sale.token}</dd>
            </div>
          ) : null}
          {sale.taxLines.map((line) => (
            <div key={line.label}>
              <dt className="text-slate-600">{line.label}</dt>
              <dd>{line.amount}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="sale-documents" className="w-full max-w-2xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="sale-documents" className="text-lg font-bold">
          {t('documentsHeading')}
        </h2>
        <ul className="mt-2 flex flex-col gap-2">
          {documents.map((document) => (
            <li key={document.id}>
              {t(`kind_${document.kind}`)} {document.number}:{' '}
              <a className="font-semibold text-brand-700 underline" href={adminPaths.saleDocument(sale.id, document.id)} download>
                {t('downloadDocument')}
              </a>
            </li>
          ))}
        </ul>
      </section>
      <SaleDeliverySection saleId={sale.id} recorded={sale.status === 'recorded'} delivery={loaderData.delivery} />
      <RcTransferSection saleId={sale.id} />
      {sale.status === 'recorded' ? (
        <section aria-labelledby="sale-cancel" className="w-full max-w-2xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h2 id="sale-cancel" className="text-lg font-bold">
            {t('cancelHeading')}
          </h2>
          <Form method="post" className="mt-3 flex flex-col gap-3" noValidate>
            {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
            <TextAreaField
              id="sale-cancel-reason"
              name="reason"
              label={t('cancelReasonLabel')}
              rows={2}
              maxLength={300}
              error={actionData?.fields?.reason}
              defaultValue={actionData?.values?.reason ?? ''}
            />
            <button type="submit" disabled={busy} className={`${secondaryButton} sm:self-start`}>
              {t('cancelButton')}
            </button>
          </Form>
        </section>
      ) : null}
      <Toast toast={latestToast(loaderData.toast)} position="bottom-center" />
    </div>
  );
}
