import { QuoteLines } from '../../features/rentals/quote-parts.tsx';
import { data, Form, redirect, useNavigation } from 'react-router';
import { getProfile, personName } from '../../../server/accounts/profiles.ts';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { answerError } from '../../../server/http/action-errors.ts';
import { flashHeaders, takeFlash } from '../../../server/http/flash.ts';
import { FormReadError, readUploadForm, uploadTempDir, type UploadForm } from '../../../server/http/forms.ts';
import { checklistsOf } from '../../../server/rentals/checklists.ts';
import { checklistFromForm, damageFromForm } from '../../../server/rentals/http/checklist-form.ts';
import { rentalDeskServices } from '../../../server/rentals/http/rental-services.ts';
import { getBooking } from '../../../server/rentals/bookings.ts';
import { licenceStatusFor } from '../../../server/rentals/licences.ts';
import { confirmBooking, handOver, markNoShow, previewReturn, refuseBooking, returnCar, settleDeposit } from '../../../server/rentals/lifecycle.ts';
import { refundsOf, retryBookingRefunds } from '../../../server/rentals/refunds.ts';
import { issueRentalDocuments } from '../../../server/rentals/rental-documents.ts';
import { salesText } from '../../features/sales/sales-texts.ts';
import { formatPaise, IN_PERSON_METHODS, MAX_REFERENCE_LENGTH, paiseAsRupeesText, rupeesToPaise } from '../../lib/money.ts';
import type { HandoverMoney, SettlementMoney } from '../../features/rentals/rental-money.ts';
import { InvalidInputError, NotFoundError } from '../../../server/errors.ts';
import { PageHeader } from '../../features/admin/admin-ui.tsx';
import { ChargeList, ChecklistRecords } from '../../features/rentals/checklist-records.tsx';
import { ChecklistFields, FuelField, NumberField } from '../../features/rentals/checklist-fields.tsx';
import { FormMessage, inputClass, primaryButton, secondaryButton, SelectField, TextField } from '../../components/form.tsx';
import { appContext } from '../../context.ts';
import { formError, noFormErrors, parseForm, typedValues } from '../../lib/form-errors.ts';
import { deskHandoverSchema, deskRefusalSchema, deskReturnSchema, deskSettleSchema } from '../../features/rentals/desk-schemas.ts';
import type { z } from 'zod';
import { formatKilometres, formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { parseId } from '../../lib/input.ts';
import { licenceStatusText } from '../../features/rentals/licence.ts';
import { adminPaths } from '../../lib/paths.ts';
import type { ReturnCharges } from '../../features/rentals/rental-price.ts';
import { chargeLines } from '../../features/rentals/rental-checklist.ts';
import { imageTooLarge } from '../../lib/uploads.ts';
import { formatRange } from '../../features/rentals/rent-view.ts';
import { bookingStatusLabels, EARLY_HANDOVER_HOURS } from '../../features/rentals/rentals.ts';
import { seo, siteFromMatches } from '../../lib/seo.ts';
import { deskRentalsText as t } from '../../features/rentals/desk-rentals-texts.ts';
import type { Route } from './+types/rental-booking';
import { indiaDateTimeParam } from '../../lib/india-time.ts';
import { MAX_ODOMETER_KM } from '../../lib/vehicle.ts';

export function meta({ matches, location, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: t('bookingNumbered', { id: params.id }), noIndex: true });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const id = parseId(params.id);
  const booking = id === null ? null : await getBooking(services.database, id);
  if (!booking) throw data({ message: t('bookingNotFound') }, { status: 404 });
  // A booking kept after its customer deleted the account has no one to look up (decision 029).
  const userId = booking.userId || null;
  const [user, profile, licence, refunds, checklists, flash, documents] = await Promise.all([
    userId ? services.database.db.selectFrom('user').select(['email', 'name']).where('id', '=', userId).executeTakeFirst() : undefined,
    userId ? getProfile(services.database, userId) : null,
    userId ? licenceStatusFor(services.database, userId) : null,
    refundsOf(services, booking.id),
    checklistsOf(services.database, booking.id),
    takeFlash(services.config.authSecret, request),
    // Those the job has not made yet are made now (decision 119).
    issueRentalDocuments(rentalDeskServices(services), booking),
  ]);
  return data(
    {
      booking,
      customer: {
        name: userId ? personName(profile, user) : t('accountDeleted'),
        email: user?.email ?? '',
        phone: profile?.phone ?? '',
        phoneVerified: Boolean(profile?.phoneVerified),
      },
      licence: licence?.status ?? null,
      checklists,
      charges: booking.charges ? chargeLines(booking.charges, checklists.return) : [],
      refunds: refunds.map((refund) => ({
        id: refund.id,
        amount: formatPaise(refund.amountPaise, refund.currency),
        reason: refund.reason,
        owed: refund.status === 'owed',
        attempts: refund.attempts,
        lastError: refund.lastError,
        nextTry: refund.status === 'owed' && refund.nextTryMs !== null ? formatIndiaDateTime(refund.nextTryMs) : null,
        refundedAt: refund.refundedAt ? formatIndiaDateTime(Date.parse(refund.refundedAt)) : null,
      })),
      refundOwed: booking.refundOwedPaise > 0 ? formatPaise(booking.refundOwedPaise) : null,
      documents: documents.map((document) => ({ id: document.id, kind: document.kind, number: document.number })),
      now: indiaDateTimeParam(services.clock.now()),
      // The earliest a handover may be entered, and a return (docs/decisions/099), as the fields' hints say them.
      handoverEarliest: formatIndiaDateTime(booking.fromMs),
      returnEarliest: booking.handedOverMs !== null ? formatIndiaDateTime(booking.handedOverMs) : null,
      toast: flash.toast,
    },
    { headers: flash.headers },
  );
}

/** A form of the desk read by its schema; a refusal marks each field with its own message (decision 109). */
function read<Schema extends z.ZodType>(schema: Schema, form: FormData): z.output<Schema> {
  const parsed = parseForm(schema, form);
  if (!parsed.ok) throw new InvalidInputError(parsed.error, parsed.fields);
  return parsed.value;
}

/** The return as the desk typed it: odometer, fuel, when it came back, the fuel shortfall in rupees, the new damage's charges. */
function returnInput(upload: UploadForm, bookingId: number) {
  const { returnedAt, ...typed } = read(deskReturnSchema, upload.fields);
  return {
    bookingId,
    ...typed,
    damage: damageFromForm(upload, 'return')
      .filter((item) => item.isNew)
      .map((item) => ({ note: item.note, charge: Math.max(0, item.charge ?? 0) })),
    ...(returnedAt !== undefined ? { returnedMs: returnedAt } : {}),
  };
}

/** Each step of a booking at the desk, audit-logged by its service; the customer is told where the service says so. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const bookingId = parseId(params.id);
  // The handover and return send their checklist photos; every other step a plain form.
  let upload: UploadForm;
  try {
    upload = await readUploadForm(request, { tempDir: uploadTempDir(services.config.dataDir), messages: { fileTooLarge: imageTooLarge() } });
  } catch (error) {
    if (error instanceof FormReadError) return data({ ...formError(error.message), preview: null }, { status: error.status });
    throw error;
  }
  const form = upload.fields;
  const desk = rentalDeskServices(services);
  const actorEmail = admin.email;
  let text: string;
  try {
    if (bookingId === null) throw new NotFoundError(t('bookingNotFound'));
    switch (form.get('intent')) {
      case 'confirm':
        await confirmBooking(desk, { bookingId, actorEmail });
        text = t('bookingConfirmed');
        break;
      case 'refuse':
        await refuseBooking(desk, { bookingId, reason: read(deskRefusalSchema, form).reason, actorEmail });
        text = t('bookingRefused');
        break;
      case 'handover': {
        const typed = read(deskHandoverSchema, form);
        await handOver(desk, {
          bookingId,
          odometerOut: typed.odometerOut,
          fuelOut: typed.fuelOut,
          checklist: checklistFromForm(upload, 'handover'),
          handedOverMs: typed.handedOverAt,
          collected: { amountPaise: typed.collectedAmount, method: typed.collectedMethod, reference: typed.collectedReference },
          actorEmail,
        });
        text = t('handedOver');
        break;
      }
      case 'no-show':
        await markNoShow(desk, { bookingId, actorEmail });
        text = t('markedNoShow');
        break;
      case 'preview': {
        const preview = await previewReturn(desk, returnInput(upload, bookingId));
        return { ...noFormErrors(), preview };
      }
      case 'return':
        await returnCar(desk, { ...returnInput(upload, bookingId), checklist: checklistFromForm(upload, 'return'), actorEmail });
        text = t('carReturned');
        break;
      case 'settle': {
        const typed = read(deskSettleSchema, form);
        const closed = await settleDeposit(desk, {
          bookingId,
          depositRefund: typed.depositRefund,
          money: { amountPaise: typed.settleAmount, method: typed.settleMethod, reference: typed.settleReference },
          actorEmail,
        });
        text = closed.refundOwedPaise > 0 ? t('settledRefundOwed') : t('settled');
        break;
      }
      case 'retry-refund': {
        const result = await retryBookingRefunds(desk, { bookingId, actorEmail });
        if (result.owed > 0) {
          return data(
            {
              error: result.lastError ? t('refundFailedAgainWith', { error: result.lastError }) : t('refundFailedAgain'),
              preview: null,
              fields: {} as Record<string, string>,
            },
            { status: 502 },
          );
        }
        text = result.refunded > 0 ? t('refundSent') : t('noRefundOwed');
        break;
      }
      default:
        throw new InvalidInputError(t('formUnreadable'));
    }
  } catch (error) {
    const answer = answerError(error, services.logger, { fallback: t('changeNotSaved'), log: 'rental booking action failed', context: { bookingId } });
    // What was typed goes back with the messages, so a page without script shows it again.
    return data(
      { ...formError(answer.message, { ...answer.fields }), preview: null, intent: String(form.get('intent') ?? ''), values: typedValues(form) },
      { status: answer.status },
    );
  } finally {
    await upload.discard();
  }
  throw redirect(adminPaths.rentalBooking(bookingId), { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
}

/** The closing statement: each charge with its photo, then the totals. */
function Statement({
  bookingId,
  charges,
  lines,
  deposit,
  depositRefund,
}: {
  bookingId: number;
  charges: ReturnCharges;
  lines: ReturnType<typeof chargeLines>;
  deposit: number;
  depositRefund: number | null;
}) {
  const rows: Array<[string, string]> = [
    [t('kmDriven'), formatKilometres(charges.kmDriven)],
    [t('charges'), formatRupees(charges.total)],
    [t('deposit'), formatRupees(deposit)],
    [t('depositRefund'), formatRupees(depositRefund ?? charges.depositRefund)],
  ];
  if (charges.amountDue > 0) rows.push([t('stillOwed'), formatRupees(charges.amountDue)]);
  return (
    <div className="flex flex-col gap-3">
      <ChargeList bookingId={bookingId} lines={lines} />
      <dl className="divide-y divide-slate-100 text-sm" aria-label={t('closingStatement')}>
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-3 py-1.5">
            <dt className="text-slate-700">{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * Money at the desk as the desk reads it ("₹7,124 collected in cash"): the renter's own sentences
 * (app/features/rentals/rental-money.ts) speak to the renter ("returned to you").
 */
function deskMoneyText(money: HandoverMoney | SettlementMoney): string {
  const amount = formatPaise(money.paise);
  const reference = money.reference ? t('deskReference', { reference: money.reference }) : '';
  const direction = 'direction' in money ? money.direction : 'collected';
  if (money.method === 'online') return direction === 'returned' ? t('deskReturnedOnline', { amount }) : t('deskPaidOnlineBefore');
  if (direction === 'none' || money.method === null) return t('deskNothingMoved');
  const method = money.method === 'upi' ? 'Upi' : money.method === 'card' ? 'Card' : 'Cash';
  return t(`desk${direction === 'returned' ? 'Returned' : 'Collected'}${method}`, { amount, reference });
}

function MethodOptions() {
  const labels = { cash: t('methodCash'), upi: t('methodUpi'), card: t('methodCard') };
  return (
    <>
      <option value="">{t('chooseMethod')}</option>
      {IN_PERSON_METHODS.map((method) => (
        <option key={method} value={method}>
          {labels[method]}
        </option>
      ))}
    </>
  );
}

/**
 * Money taken or given at the desk: the amount (when the desk types it), how, and the UPI or card
 * reference; each error beside its field. `prefix` names the fields (collectedAmount, settleMethod…).
 */
function DeskMoneyFields({
  prefix,
  amount,
  methodLabel,
  fields,
  typed,
}: {
  prefix: 'collected' | 'settle';
  amount: { label: string; hint: string; paise: number } | null;
  methodLabel: string;
  fields: Record<string, string>;
  typed: Record<string, string>;
}) {
  return (
    <>
      {amount ? (
        <TextField
          id={`${prefix}Amount`}
          name={`${prefix}Amount`}
          label={amount.label}
          hint={amount.hint}
          error={fields[`${prefix}Amount`]}
          inputMode="decimal"
          required
          defaultValue={typed[`${prefix}Amount`] ?? paiseAsRupeesText(amount.paise)}
        />
      ) : null}
      <SelectField
        id={`${prefix}Method`}
        name={`${prefix}Method`}
        label={methodLabel}
        error={fields[`${prefix}Method`]}
        required={amount !== null}
        defaultValue={typed[`${prefix}Method`] ?? ''}
      >
        <MethodOptions />
      </SelectField>
      <TextField
        id={`${prefix}Reference`}
        name={`${prefix}Reference`}
        label={t('reference')}
        hint={t('referenceHint')}
        error={fields[`${prefix}Reference`]}
        maxLength={MAX_REFERENCE_LENGTH}
        autoComplete="off"
        defaultValue={typed[`${prefix}Reference`]}
      />
    </>
  );
}

/** The summary of a refused form, beside its button: each field's own message is at the field. */
function FormProblem({ message }: { message: string | null | undefined }) {
  return message ? (
    <p role="alert" className="text-sm font-semibold text-red-700 sm:col-span-full">
      {message}
    </p>
  ) : null;
}

export default function RentalBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, customer, licence, toast, now, refunds, refundOwed, checklists, charges, handoverEarliest, returnEarliest, documents } = loaderData;
  const busy = useNavigation().state === 'submitting';
  const fields = actionData?.fields ?? {};
  // What the desk typed into a refused form, shown again (a page without script reloads it).
  const typed = (actionData && 'values' in actionData ? actionData.values : {}) as Record<string, string>;
  // A refusal that names its fields is told beside them and beside the form's button, not at the top of the page.
  const fieldProblem =
    actionData?.error && Object.keys(fields).length > 0 ? { intent: 'intent' in actionData ? actionData.intent : null, message: actionData.error } : null;
  // The summary beside the button only when it says more than the fields' own messages (a checklist's missing items).
  const problemOf = (...intents: string[]) =>
    fieldProblem && intents.includes(String(fieldProblem.intent ?? '')) && !Object.values(fields).includes(fieldProblem.message) ? fieldProblem.message : null;
  const { quote } = booking;
  const duePaise = rupeesToPaise(quote.dueAtPickup);
  const amountDue = booking.charges?.amountDue ?? 0;
  const depositBackOnline = booking.paymentMethod === 'razorpay' && quote.depositAt === 'online';
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('bookingNumbered', { id: booking.id })} back={{ to: adminPaths.rentalDesk, label: t('rentalDesk') }} />
      {toast ? <FormMessage tone={toast.tone}>{toast.text}</FormMessage> : null}
      {actionData?.error && !fieldProblem ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <p className="text-lg font-bold">{booking.carName}</p>
          <p className="text-sm text-slate-600">{formatRange(booking.fromMs, booking.toMs)}</p>
          <p className="mt-2">
            {t('statusLabel')} <strong data-status={booking.status}>{bookingStatusLabels()[booking.status]}</strong>
          </p>
          <div className="mt-3 max-w-md">
            <QuoteLines quote={quote} />
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">{t('pickup')}</dt>
            <dd className="break-words">
              {booking.pickup === 'delivery' ? t('deliverTo', { address: booking.deliveryAddress, pin: booking.pinCode }) : t('atTheHub')}
            </dd>
            <dt className="text-slate-600">{t('damageProtection')}</dt>
            <dd>{booking.protection ? t('chosen') : t('notChosen')}</dd>
            <dt className="text-slate-600">{t('kmIncluded')}</dt>
            <dd>{quote.kmIncluded === null ? t('unlimited') : t('kmThenRate', { km: quote.kmIncluded, rate: formatRupees(quote.extraKmRate) })}</dd>
            <dt className="text-slate-600">{t('payment')}</dt>
            <dd>
              {booking.paymentMethod === 'pay-at-pickup'
                ? t('atPickupDepositIncluded', { amount: formatRupees(quote.dueAtPickup) })
                : t('onlinePaid', { paid: formatRupees(booking.amountPaid), due: formatRupees(quote.dueAtPickup) })}
            </dd>
            {booking.amountRefunded > 0 ? (
              <>
                <dt className="text-slate-600">{t('refunded')}</dt>
                <dd>{formatRupees(booking.amountRefunded)}</dd>
              </>
            ) : null}
            {booking.handedOverAt ? (
              <>
                <dt className="text-slate-600">{t('handedOverRow')}</dt>
                <dd data-handed-over>{formatIndiaDateTime(booking.handedOverAt)}</dd>
              </>
            ) : null}
            {booking.handoverMoney ? (
              <>
                <dt className="text-slate-600">{t('moneyAtHandover')}</dt>
                <dd data-money="handover">{deskMoneyText(booking.handoverMoney)}</dd>
              </>
            ) : null}
            {booking.returnedAt ? (
              <>
                <dt className="text-slate-600">{t('returnedRow')}</dt>
                <dd data-returned>{formatIndiaDateTime(booking.returnedAt)}</dd>
              </>
            ) : null}
            {booking.settlement ? (
              <>
                <dt className="text-slate-600">{t('moneyAtReturn')}</dt>
                <dd data-money="settlement">{deskMoneyText(booking.settlement)}</dd>
              </>
            ) : null}
            {booking.odometerOut !== null ? (
              <>
                <dt className="text-slate-600">{t('out')}</dt>
                <dd>{t('kmAndFuel', { km: formatKilometres(booking.odometerOut), fuel: booking.fuelOut })}</dd>
              </>
            ) : null}
            {booking.odometerIn !== null ? (
              <>
                <dt className="text-slate-600">{t('in')}</dt>
                <dd>{t('kmAndFuel', { km: formatKilometres(booking.odometerIn), fuel: booking.fuelIn })}</dd>
              </>
            ) : null}
          </dl>
        </section>
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="font-bold">{t('customer')}</h2>
          <p>{customer.name || '—'}</p>
          <p className="text-sm text-slate-600">{customer.email}</p>
          <p className="text-sm text-slate-600">
            {customer.phone ? (
              <a href={`tel:${customer.phone}`} className="text-brand-700 underline">
                {customer.phone}
              </a>
            ) : (
              t('noPhone')
            )}
            {customer.phoneVerified ? t('verified') : ''}
          </p>
          {/* "Licence: Approved · See the licences": the status, then where it is reviewed (never "Approved review"). */}
          <p className="mt-2 text-sm">
            {t('licenceLabel')} <strong>{licence ? licenceStatusText()[licence] : t('noneOnFile')}</strong>
            {licence ? (
              <>
                {' · '}
                <a href={`${adminPaths.rentalLicences}?status=${licence === 'pending' ? 'pending' : 'all'}`} className="text-brand-700 underline">
                  {licence === 'pending' ? t('reviewLicence') : t('seeLicences')}
                </a>
              </>
            ) : null}
          </p>
        </section>
      </div>

      {refunds.length > 0 || booking.paymentProblem ? (
        <section aria-labelledby="money-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="money-heading" className="text-lg font-bold">
            {t('money')}
            {refundOwed ? (
              <span className="ml-2 rounded bg-red-100 px-2 py-0.5 text-sm font-semibold text-red-800">{t('refundOwed', { amount: refundOwed })}</span>
            ) : null}
          </h2>
          {booking.paymentProblem ? (
            <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-900" data-payment-problem>
              {t('paymentProblem', { problem: booking.paymentProblem })}
            </p>
          ) : null}
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {refunds.map((refund) => (
              <li key={refund.id}>
                <strong>{refund.amount}</strong> ({refund.reason}):{' '}
                {refund.owed ? (
                  <span className="font-semibold text-red-800">
                    {t('owedAfterTries', { count: refund.attempts })}
                    {refund.lastError ? ` · ${refund.lastError}` : ''}
                    {refund.nextTry ? t('nextTry', { time: refund.nextTry }) : ''}
                  </span>
                ) : (
                  <span className="text-green-800">{t('refundedAt', { time: refund.refundedAt ?? '' })}</span>
                )}
              </li>
            ))}
          </ul>
          {refundOwed ? (
            <Form method="post" className="mt-3">
              <button type="submit" name="intent" value="retry-refund" disabled={busy} className={`${primaryButton} px-4 py-2 text-sm`}>
                {t('retryRefund')}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="documents-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-booking-documents>
        <h2 id="documents-heading" className="text-lg font-bold">
          {salesText('documentsHeading')}
        </h2>
        {booking.invoiceWithheld ? (
          <p className="mt-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-900" data-invoice-withheld>
            {salesText('rentalInvoiceWithheld')}
          </p>
        ) : null}
        {documents.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{salesText('rentalDocumentsNone')}</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-1">
            {documents.map((document) => (
              <li key={document.id}>
                {salesText(`kind_${document.kind}`)} {document.number}:{' '}
                <a className="font-semibold text-brand-700 underline" href={adminPaths.rentalBookingDocument(booking.id, document.id)} download>
                  {salesText('downloadDocument')}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>

      {booking.status === 'requested' ? (
        <section className="flex flex-wrap items-end gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <Form method="post" className="flex flex-col gap-1">
            <button type="submit" name="intent" value="confirm" disabled={busy || licence !== 'approved'} className={primaryButton}>
              {t('confirmBooking')}
            </button>
            {licence !== 'approved' ? <span className="text-sm text-amber-800">{t('approveLicenceFirst')}</span> : null}
          </Form>
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1 text-sm font-semibold">
              {t('reasonForRefusing')}
              <input name="reason" maxLength={300} defaultValue={typed.reason} className={`${inputClass} py-2`} />
            </label>
            <button type="submit" name="intent" value="refuse" disabled={busy} className={`${secondaryButton} text-red-700`}>
              {t('refuseBooking')}
            </button>
          </Form>
        </section>
      ) : null}

      {booking.status === 'confirmed' ? (
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">{t('handover')}</h2>
          <p className="text-sm text-slate-600">{t('handoverIntro')}</p>
          <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-start [&_label]:text-sm">
            <NumberField name="odometerOut" label={t('odometerOut')} max={MAX_ODOMETER_KM} defaultValue={typed.odometerOut} error={fields.odometerOut} />
            <FuelField name="fuelOut" label={t('fuelOut')} defaultValue={typed.fuelOut ?? 8} error={fields.fuelOut} />
            <TextField
              id="handedOverAt"
              name="handedOverAt"
              type="datetime-local"
              label={t('handedOverAtLabel')}
              hint={t('handedOverAtHint', { hours: EARLY_HANDOVER_HOURS, pickup: handoverEarliest })}
              error={fields.handedOverAt}
              defaultValue={typed.handedOverAt ?? now}
              max={now}
              required
            />
            {duePaise > 0 ? (
              <DeskMoneyFields
                prefix="collected"
                amount={{ label: t('collectedAmount'), hint: t('collectedHint', { due: formatPaise(duePaise) }), paise: duePaise }}
                methodLabel={t('howPaid')}
                fields={fields}
                typed={typed}
              />
            ) : (
              <p className="text-sm font-semibold text-green-800 sm:self-center" data-money="handover">
                {t('alreadyPaidOnline')}
              </p>
            )}
            <ChecklistFields stage="handover" fields={fields} />
            <FormProblem message={problemOf('handover')} />
            <button type="submit" name="intent" value="handover" disabled={busy} className={`${primaryButton} sm:col-span-full sm:justify-self-start`}>
              {t('handOver')}
            </button>
          </Form>
          <Form method="post" className="mt-3">
            <button type="submit" name="intent" value="no-show" disabled={busy} className={`${secondaryButton} px-4 py-2 text-sm`}>
              {t('markNoShow')}
            </button>
          </Form>
        </section>
      ) : null}

      {booking.status === 'active' ? (
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">{t('return')}</h2>
          <p className="text-sm text-slate-600">{t('returnIntro')}</p>
          <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-start [&_label]:text-sm">
            <NumberField
              name="odometerIn"
              label={t('odometerIn')}
              max={MAX_ODOMETER_KM}
              defaultValue={typed.odometerIn ?? booking.odometerOut ?? undefined}
              error={fields.odometerIn}
            />
            <FuelField name="fuelIn" label={t('fuelIn')} defaultValue={typed.fuelIn ?? booking.fuelOut ?? 8} error={fields.fuelIn} />
            <NumberField name="fuelCharge" label={t('fuelShortfall')} max={100_000} defaultValue={typed.fuelCharge ?? 0} error={fields.fuelCharge} />
            <TextField
              id="returnedAt"
              name="returnedAt"
              type="datetime-local"
              label={t('returnedAt')}
              hint={returnEarliest ? t('returnedAtHint', { when: returnEarliest }) : undefined}
              error={fields.returnedAt}
              defaultValue={typed.returnedAt ?? now}
              max={now}
              required
            />
            <ChecklistFields stage="return" fields={fields} />
            <FormProblem message={problemOf('return', 'preview')} />
            <div className="flex flex-wrap gap-2 lg:col-span-4">
              {/* The charges can be seen before the photos are chosen. */}
              <button type="submit" name="intent" value="preview" formNoValidate disabled={busy} className={secondaryButton}>
                {t('showCharges')}
              </button>
              <button type="submit" name="intent" value="return" disabled={busy} className={primaryButton}>
                {t('recordReturn')}
              </button>
            </div>
          </Form>
          {actionData?.preview ? (
            <div className="mt-4 rounded-xl bg-slate-50 p-3">
              <h3 className="font-semibold">{t('chargesIfReturned')}</h3>
              <Statement
                bookingId={booking.id}
                charges={actionData.preview}
                lines={chargeLines(actionData.preview, null)}
                deposit={quote.deposit}
                depositRefund={null}
              />
            </div>
          ) : null}
        </section>
      ) : null}

      {checklists.handover || checklists.return ? (
        <section aria-labelledby="condition-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 id="condition-heading" className="mb-2 text-lg font-bold">
            {t('carCondition')}
          </h2>
          <ChecklistRecords
            bookingId={booking.id}
            handover={checklists.handover}
            returned={checklists.return}
            handedOverAt={booking.handedOverAt}
            returnedAt={booking.returnedAt}
          />
        </section>
      ) : null}

      {booking.charges && (booking.status === 'returned' || booking.status === 'closed') ? (
        <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">{t('closingStatement')}</h2>
          <Statement bookingId={booking.id} charges={booking.charges} lines={charges} deposit={quote.deposit} depositRefund={booking.depositRefund} />
          {booking.status === 'returned' ? (
            <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-4 [&_label]:text-sm">
              <NumberField
                name="depositRefund"
                label={t('depositRefundRupees')}
                max={quote.deposit}
                defaultValue={typed.depositRefund ?? booking.charges.depositRefund}
                error={fields.depositRefund}
              />
              {amountDue > 0 ? (
                <DeskMoneyFields
                  prefix="settle"
                  amount={{ label: t('chargesCollected'), hint: t('chargesCollectedHint', { due: formatRupees(amountDue) }), paise: rupeesToPaise(amountDue) }}
                  methodLabel={t('howPaid')}
                  fields={fields}
                  typed={typed}
                />
              ) : depositBackOnline ? (
                <p className="text-sm text-slate-700 sm:col-span-3 sm:self-center">{t('depositBackOnline')}</p>
              ) : (
                <DeskMoneyFields prefix="settle" amount={null} methodLabel={t('howReturned')} fields={fields} typed={typed} />
              )}
              <FormProblem message={problemOf('settle')} />
              <button type="submit" name="intent" value="settle" disabled={busy} className={`${primaryButton} sm:col-span-full sm:justify-self-start`}>
                {t('settleAndClose')}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
