import { Form } from 'react-router';
import { ConfirmDialog, useConfirmStep } from '../../components/confirm-dialog.tsx';
import { formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { adminPaths } from '../../lib/paths.ts';
import { deskReservationsText as t } from './desk-reservations-texts.ts';
import { RESERVATION_STATUS_LABELS, timeLeft, type DeskReservation } from '../reservations/reservations.ts';

const small = 'min-h-11 rounded-lg px-3 text-sm font-semibold';

/**
 * Reservations on the dashboard and on a car's admin page (decision 080): who holds the car and
 * for how long, and the desk's three moves, each posted to the reservation's own action
 * (audit-logged there): extend, convert to a sale (the token counted towards the price), cancel
 * with a full refund (asked first in the site's dialog; without script at once). A converted
 * one shows its receipt.
 */
export function ReservationsDesk({ reservations, nowMs, backTo }: { reservations: DeskReservation[]; nowMs: number; backTo: string }) {
  const step = useConfirmStep<DeskReservation>();
  return (
    <>
      <ul className="flex flex-col gap-3">
        {reservations.map((reservation) => (
          <li key={reservation.id} className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-semibold">
                  #{reservation.id} · {reservation.vehicleTitle}
                </p>
                <p className="text-sm text-slate-700 [overflow-wrap:anywhere]">
                  {reservation.name || t('buyer')} ·{' '}
                  <a href={`tel:${reservation.phone}`} className="underline">
                    {reservation.phone}
                  </a>{' '}
                  · {reservation.email}
                </p>
                <p className="text-sm text-slate-700">
                  {t('token', { amount: formatRupees(reservation.amount) })}
                  {reservation.status === 'active' && reservation.heldUntil
                    ? t('heldUntil', { time: formatIndiaDateTime(reservation.heldUntil), left: timeLeft(Date.parse(reservation.heldUntil), nowMs) })
                    : ''}
                  {reservation.amountRefunded > 0 ? t('refundedAmount', { amount: formatRupees(reservation.amountRefunded) }) : ''}
                  {reservation.refundOwed > 0 ? t('refundOwedAmount', { amount: formatRupees(reservation.refundOwed) }) : ''}
                </p>
                {reservation.paymentProblem ? <p className="text-sm text-amber-900">{reservation.paymentProblem}</p> : null}
              </div>
              <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-semibold text-slate-800">
                {RESERVATION_STATUS_LABELS[reservation.status]}
              </span>
            </div>
            {reservation.status === 'converted' && reservation.salePrice !== null ? (
              <table className="w-full max-w-sm text-sm">
                <caption className="text-left font-semibold">{t('receipt')}</caption>
                <tbody>
                  <tr>
                    <th className="py-0.5 text-left font-normal">{t('priceOfCar')}</th>
                    <td className="text-right tabular-nums">{formatRupees(reservation.salePrice)}</td>
                  </tr>
                  <tr>
                    <th className="py-0.5 text-left font-normal">{t('tokenPaid', { id: reservation.id })}</th>
                    <td className="text-right tabular-nums">−{formatRupees(reservation.amount)}</td>
                  </tr>
                  <tr className="border-t border-slate-200 font-semibold">
                    <th className="py-0.5 text-left">{t('balanceToPay')}</th>
                    <td className="text-right tabular-nums">{formatRupees(reservation.salePrice - reservation.amount)}</td>
                  </tr>
                </tbody>
              </table>
            ) : null}
            {reservation.status === 'active' ? (
              <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end">
                <Form method="post" action={adminPaths.reservation(reservation.id)} className="flex items-end gap-2">
                  <input type="hidden" name="backTo" value={backTo} />
                  <label className="flex flex-col text-sm">
                    {t('extendByHours')}
                    <input
                      name="hours"
                      inputMode="numeric"
                      defaultValue="24"
                      required
                      maxLength={3}
                      className="min-h-11 w-24 rounded-lg px-3 ring-1 ring-slate-300"
                    />
                  </label>
                  <button type="submit" name="intent" value="extend" className={`${small} ring-1 ring-slate-300 hover:bg-slate-100`}>
                    {t('extend')}
                  </button>
                </Form>
                <Form method="post" action={adminPaths.reservation(reservation.id)} className="flex items-end gap-2">
                  <input type="hidden" name="backTo" value={backTo} />
                  <label className="flex flex-col text-sm">
                    {t('salePrice')}
                    <input name="salePrice" inputMode="numeric" required maxLength={14} className="min-h-11 w-36 rounded-lg px-3 ring-1 ring-slate-300" />
                  </label>
                  <button type="submit" name="intent" value="convert" className={`${small} bg-brand-700 text-white hover:bg-brand-800`}>
                    {t('convertToSale')}
                  </button>
                </Form>
                <Form method="post" action={adminPaths.reservation(reservation.id)}>
                  <input type="hidden" name="backTo" value={backTo} />
                  <button
                    type="submit"
                    name="intent"
                    value="cancel"
                    aria-haspopup="dialog"
                    className={`${small} text-red-700 ring-1 ring-slate-300 hover:bg-red-50`}
                    onClick={(event) => step.ask(reservation, event)}
                  >
                    {t('cancelWithRefund')}
                  </button>
                </Form>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {step.confirming ? (
        <ConfirmDialog
          title={t('cancelDialogTitle', { id: step.confirming.id, car: step.confirming.vehicleTitle })}
          message={t('cancelDialogMessage', { name: step.confirming.name || t('buyer'), amount: formatRupees(step.confirming.amount) })}
          confirmLabel={t('cancelWithRefund')}
          cancelLabel={t('keepReservation')}
          cancelHref={backTo}
          action={adminPaths.reservation(step.confirming.id)}
          onCancel={step.keep}
          onConfirm={step.confirmed}
        >
          <input type="hidden" name="backTo" value={backTo} />
          <input type="hidden" name="intent" value="cancel" />
        </ConfirmDialog>
      ) : null}
    </>
  );
}
