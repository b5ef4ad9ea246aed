import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { settingsFor } from '../../../server/admin/settings.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { findReservation } from '../../../server/reservations/store.ts';
import { recordSale } from '../../../server/sales/sales.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { FormMessage, primaryButton, SelectField, TextAreaField, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { stateOfGstin, STATE_CODES, CAR_CLASSES } from '../../features/sales/gst.ts';
import { saleFormSchema, SALE_PAYMENT_METHODS } from '../../features/sales/schemas.ts';
import { salesText as t } from '../../features/sales/sales-texts.ts';
import { parseForm } from '../../lib/form-errors.ts';
import { parseId } from '../../lib/input.ts';
import { formatPaise, paiseAsRupeesText } from '../../lib/money.ts';
import { adminPaths } from '../../lib/paths.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/sale-new';

/**
 * The desk records a sale (decision 114): a walk-in's car chosen from the stock, or a buyer's
 * reservation (`?reservation=`), whose buyer and token the form starts from. The form is read
 * by the schema the service shares; a refusal shows beside its field with what was typed.
 */

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('recordSale'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const settings = await settingsFor(services);
  const query = new URL(request.url).searchParams;
  const reservationId = parseId(query.get('reservation'));
  const reservation = reservationId === null ? null : await findReservation(services.database, reservationId);
  const cars = reservation
    ? []
    : await services.database.db
        .selectFrom('vehicles')
        .select(['id', 'name', 'registration', 'purchase_price_paise'])
        .where('purpose', '=', 'sale')
        .where('status', 'in', ['available', 'draft'])
        .orderBy('name')
        .limit(500)
        .execute();
  // The car's purchase price, when it was bought from a seller (decision 118): the margin scheme's base, filled in.
  const chosenId = reservation?.vehicleId ?? parseId(query.get('vehicle'));
  const chosen =
    chosenId === null
      ? undefined
      : await services.database.db.selectFrom('vehicles').select(['id', 'purchase_price_paise']).where('id', '=', chosenId).executeTakeFirst();
  return {
    vehicleId: chosen && !reservation ? Number(chosen.id) : null,
    purchasePrice: chosen?.purchase_price_paise == null ? '' : paiseAsRupeesText(Number(chosen.purchase_price_paise)),
    reservation: reservation && {
      id: reservation.id,
      vehicleTitle: reservation.vehicleTitle,
      name: reservation.name,
      phone: reservation.phone,
      email: reservation.email,
      status: reservation.status,
      salePrice: reservation.salePrice,
    },
    cars: cars.map((car) => ({ id: Number(car.id), label: car.registration ? `${car.name} · ${car.registration}` : car.name })),
    dealerReady: settings.dealerGstin !== '' && settings.dealerLegalName !== '' && settings.dealerAddress !== '',
    dealerState: settings.dealerGstin ? stateOfGstin(settings.dealerGstin) : '',
    panThreshold: formatPaise(settings.salePanThresholdRupees * 100),
    scheme: settings.gstScheme,
    // The price the desk typed beside the reservation's convert button, shown as the price to start from.
    price: (query.get('price') ?? '').replace(/[^\d,.₹\s]/g, '').slice(0, 20),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError)
    return data({ error: form.message, fields: {} as Record<string, string>, values: {} as Record<string, string> }, { status: form.status });
  const parsed = parseForm(saleFormSchema, form);
  if (!parsed.ok) return data({ error: parsed.error, fields: parsed.fields, values: parsed.values }, { status: 400 });
  try {
    const sale = await recordSale(services, { ...parsed.value, actorEmail: admin.email });
    return redirect(adminPaths.sale(sale.id), {
      status: 303,
      headers: await flashHeaders(services.config.authSecret, { tone: 'success', text: t('saleRecorded', { number: sale.invoiceNumber }) }),
    });
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('saleFailed'), log: 'recording a sale failed' });
    return data({ error: answer.message, fields: { ...answer.fields }, values: parsed.values }, { status: answer.status });
  }
}

export default function SaleNew({ loaderData }: Route.ComponentProps) {
  const { reservation, cars, dealerReady, dealerState, panThreshold, scheme, price, vehicleId, purchasePrice } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const fields: Record<string, string> = actionData?.fields ?? {};
  const values: Record<string, string> = actionData?.values ?? {};
  const value = (name: string, fallback = '') => values[name] ?? fallback;
  const field = (name: string, label: string, fallback = '') => ({ id: `sale-${name}`, name, label, error: fields[name], defaultValue: value(name, fallback) });
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('recordSale')} back={{ to: adminPaths.sales, label: t('backToSales') }} />
      {!dealerReady ? (
        <FormMessage tone="error">
          {t('noGstin')}{' '}
          <a className="font-semibold underline" href={adminPaths.settings}>
            {t('openSettings')}
          </a>
        </FormMessage>
      ) : null}
      <section className="w-full max-w-2xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <Form method="post" className="flex flex-col gap-4" noValidate>
          {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
          {reservation ? (
            <>
              <input type="hidden" name="reservationId" value={reservation.id} />
              <p className="rounded-xl bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
                {t('fromReservation', { id: reservation.id, car: reservation.vehicleTitle, name: reservation.name || '—', phone: reservation.phone })}
              </p>
            </>
          ) : (
            <SelectField {...field('vehicleId', t('carLabel'), vehicleId === null ? '' : String(vehicleId))}>
              <option value="">{t('chooseCar')}</option>
              {cars.map((car) => (
                <option key={car.id} value={car.id}>
                  {car.label}
                </option>
              ))}
            </SelectField>
          )}
          <TextField {...field('buyerName', t('buyerNameLabel'), reservation?.name ?? '')} autoComplete="off" maxLength={100} />
          <TextAreaField {...field('buyerAddress', t('buyerAddressLabel'))} rows={3} maxLength={300} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField {...field('buyerPhone', t('buyerPhoneLabel'), reservation?.phone ?? '')} type="tel" inputMode="tel" autoComplete="off" />
            <TextField {...field('buyerEmail', t('buyerEmailLabel'), reservation?.email ?? '')} type="email" autoComplete="off" />
            <TextField {...field('buyerPan', t('buyerPanLabel'))} hint={t('panHint', { threshold: panThreshold })} autoCapitalize="characters" maxLength={10} />
            <SelectField {...field('supplyState', t('supplyStateLabel'), dealerState)}>
              {STATE_CODES.map((code) => (
                <option key={code} value={code}>
                  {t(`state_${code}` as Parameters<typeof t>[0])} ({code})
                </option>
              ))}
            </SelectField>
            <SelectField {...field('language', t('languageLabel'), 'en')}>
              <option value="en">{t('language_en')}</option>
              <option value="hi">{t('language_hi')}</option>
            </SelectField>
            <TextField
              {...field('price', t('priceLabel'), price || (reservation?.salePrice ? paiseAsRupeesText(reservation.salePrice * 100) : ''))}
              inputMode="decimal"
            />
            <TextField {...field('paid', t('paidLabel'))} inputMode="decimal" />
            <SelectField {...field('paidMethod', t('paidMethodLabel'), 'transfer')}>
              {SALE_PAYMENT_METHODS.map((method) => (
                <option key={method} value={method}>
                  {t(`method_${method}`)}
                </option>
              ))}
            </SelectField>
            <TextField {...field('loan', t('loanLabel'))} inputMode="decimal" />
            <TextField {...field('lender', t('lenderLabel'))} maxLength={100} />
            {scheme === 'margin' ? (
              <TextField {...field('purchasePrice', t('purchaseLabel'), purchasePrice)} hint={t('purchaseHint')} inputMode="decimal" />
            ) : (
              <SelectField {...field('carClass', t('carClassLabel'), 'large')}>
                {CAR_CLASSES.map((carClass) => (
                  <option key={carClass} value={carClass}>
                    {t(`carClass_${carClass}`)}
                  </option>
                ))}
              </SelectField>
            )}
            <TextField {...field('chassisNumber', t('chassisLabel'))} autoCapitalize="characters" maxLength={20} spellCheck={false} />
            <TextField {...field('engineNumber', t('engineLabel'))} autoCapitalize="characters" maxLength={20} spellCheck={false} />
          </div>
          <button type="submit" disabled={busy || !dealerReady} className={`${primaryButton} sm:self-start`}>
            {t('saveSale')}
          </button>
        </Form>
      </section>
    </div>
  );
}
