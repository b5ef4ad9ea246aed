import { Link } from 'react-router';
import { ConfirmDialog, useConfirmStep } from '../../components/confirm-dialog.tsx';
import { formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { RESERVATION_STATUS_LABELS, timeLeft, type ReservationStatus, type ReservationSummary } from './reservations.ts';
import { reservationText as t } from './reservation-texts.ts';
import { RichText } from '../../lib/i18n/rich.tsx';
import { BookedCar, BookingCard, BookingsSection, bookingLinkClass, CancelBooking } from '../../components/profile-bookings.tsx';

/** A reservation as the profile lists it (server/reservations/store.ts `Reservation`). */
export type MyReservation = ReservationSummary & { payBy: string };

const statusTone: Record<ReservationStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  active: 'bg-green-100 text-green-800',
  lapsed: 'bg-slate-100 text-slate-700',
  cancelled: 'bg-slate-100 text-slate-700',
  expired: 'bg-slate-100 text-slate-700',
  converted: 'bg-brand-50 text-brand-800',
};

/**
 * The buyer's reservations on the profile (decision 080): the time left, Cancel with its refund, and a test drive of the car.
 * Cancel asks first in the site's dialog (its refund said, "Keep it" focused); without script the button cancels at once.
 */
export function MyReservations({ reservations, nowMs }: { reservations: MyReservation[]; nowMs: number }) {
  const step = useConfirmStep<MyReservation>();
  const confirming = step.confirming;
  return (
    <BookingsSection
      id="reservations"
      title={t('myReservations')}
      bookings={reservations}
      card={(reservation) => (
        <BookingCard
          status={RESERVATION_STATUS_LABELS[reservation.status]}
          statusTone={statusTone[reservation.status]}
          about={
            <>
              <BookedCar vehicleId={reservation.vehicleId} title={reservation.vehicleTitle} />
              <p className="text-sm text-slate-700">{t('tokenLine', { id: reservation.id, amount: formatRupees(reservation.amount) })}</p>
              {reservation.status === 'active' && reservation.heldUntil ? (
                <p className="text-sm text-slate-700">
                  <RichText
                    text={t('heldUntil', { until: formatIndiaDateTime(reservation.heldUntil), left: timeLeft(Date.parse(reservation.heldUntil), nowMs) })}
                    parts={{ left: (words) => <strong>{words}</strong> }}
                  />
                </p>
              ) : null}
              {reservation.status === 'pending' ? (
                <p className="text-sm text-slate-700">{t('payByToReserve', { time: formatIndiaDateTime(reservation.payBy) })}</p>
              ) : null}
              {reservation.amountRefunded > 0 ? (
                <p className="text-sm text-green-800">{t('refunded', { amount: formatRupees(reservation.amountRefunded) })}</p>
              ) : null}
              {reservation.refundOwed > 0 ? (
                <p className="text-sm text-amber-900">{t('refundOnWay', { amount: formatRupees(reservation.refundOwed) })}</p>
              ) : null}
            </>
          }
          actions={
            reservation.status === 'active' || reservation.status === 'pending' ? (
              <>
                {/* Loaded as a document: only a pay page's own CSP lets Razorpay Checkout run (server/http/security.ts). */}
                {reservation.status === 'pending' ? (
                  <Link
                    to={paths.payReservation(reservation.id)}
                    reloadDocument
                    className="rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800"
                  >
                    {t('pay', { amount: formatRupees(reservation.amount) })}
                  </Link>
                ) : null}
                {reservation.status === 'active' && reservation.vehicleId !== null ? (
                  <Link to={paths.testDrive(reservation.vehicleId)} className={bookingLinkClass}>
                    {t('bookTestDrive')}
                  </Link>
                ) : null}
                <CancelBooking
                  action={paths.cancelReservation(reservation.id)}
                  label={reservation.status === 'active' ? t('cancelRefund', { amount: formatRupees(reservation.amount) }) : t('cancel')}
                  onAsk={(event) => step.ask(reservation, event)}
                />
              </>
            ) : null
          }
        />
      )}
    >
      {confirming ? (
        <ConfirmDialog
          title={t('cancelDialogTitle', { car: confirming.vehicleTitle })}
          message={confirming.status === 'active' ? t('cancelDialogRefund', { amount: formatRupees(confirming.amount) }) : t('cancelDialogUnpaid')}
          confirmLabel={t('cancelDialogConfirm')}
          cancelLabel={t('keepReservation')}
          cancelHref={paths.myReservations}
          action={paths.cancelReservation(confirming.id)}
          onCancel={step.keep}
          onConfirm={step.confirmed}
        />
      ) : null}
    </BookingsSection>
  );
}
