import { Form, Link } from 'react-router';
import { FormMessage, primaryButton, secondaryButton } from '../../components/form.tsx';
import { formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { formatPaise } from '../../lib/money.ts';
import { handoverMoneyText, onlineRefundText, settlementMoneyText, type HandoverMoney, type SettlementMoney } from './rental-money.ts';
import { rentText as t } from './rent-texts.ts';
import { bookingStatusLabels, type BookingStatus } from './rentals.ts';
import { formatRange } from './rent-view.ts';
import { paths } from '../../lib/paths.ts';
import type { RentalQuote } from './rental-price.ts';
import { QuoteLines } from './quote-parts.tsx';
import type { ChargeLine, ChecklistView } from './rental-checklist.ts';
import { ChargeList, ChecklistRecords } from './checklist-records.tsx';

export type MyBooking = {
  id: number;
  carName: string;
  vehicleId: number;
  status: BookingStatus;
  from: string;
  to: string;
  /** The quote as booked: its lines, the deposit apart. */
  quote: RentalQuote;
  /** Paid online: what was paid (0 while the payment is awaited); null when paid at pickup. */
  paidOnline: number | null;
  /** When an unpaid online booking lapses. */
  holdExpiresAt: string | null;
  /** What cancelling now gives back, when it can be cancelled. */
  cancel: { window: 'free' | 'late' | 'after-pickup'; refund: number; rentKept: number; paid: number } | null;
  charges: { total: number; depositRefund: number; amountDue: number } | null;
  /** Money given back online, in paise: refunded so far, and still on its way (a refund the provider has not completed yet, which the desk retries). */
  refunds: { refundedOnlinePaise: number; owedPaise: number };
  /** When the car actually went out and came back (India time, +05:30). */
  handedOverAt: string | null;
  returnedAt: string | null;
  /** What was paid at the handover and what moved at the settlement, and how. */
  handoverMoney: HandoverMoney | null;
  settlement: SettlementMoney | null;
  /** The handover and return checklists and the charges with their photos (once handed over). */
  condition: { handover: ChecklistView | null; return: ChecklistView | null; charges: ChargeLine[] } | null;
};

const tone: Partial<Record<BookingStatus, string>> = {
  requested: 'bg-amber-100 text-amber-900',
  confirmed: 'bg-green-100 text-green-800',
  active: 'bg-blue-100 text-blue-800',
  closed: 'bg-slate-200 text-slate-800',
};

/** What the booking costs and how it is paid, in one line; the lines themselves open below it. */
function paymentText(booking: MyBooking): string {
  const { quote } = booking;
  const deposit =
    quote.depositAt === 'online'
      ? t('payDepositIncluded', { deposit: formatRupees(quote.deposit) })
      : t('payDepositAtPickup', { deposit: formatRupees(quote.deposit) });
  if (booking.paidOnline === null)
    return t('payAtPickupLine', { due: formatRupees(quote.dueAtPickup), total: formatRupees(quote.total), deposit: formatRupees(quote.deposit) });
  if (booking.paidOnline > 0) return t('payPaidOnline', { paid: formatRupees(booking.paidOnline), deposit });
  return t('payToPayOnline', { amount: formatRupees(quote.payableNow), deposit });
}

function cancelText(cancel: NonNullable<MyBooking['cancel']>): string {
  if (cancel.window === 'free') return cancel.paid > 0 ? t('cancelFreeRefund', { refund: formatRupees(cancel.refund) }) : t('cancelFreeNothing');
  // The window's length is a setting: the terms page says it; here only what it means for this booking.
  const kept = t('cancelKept', { kept: formatRupees(cancel.rentKept) });
  return cancel.paid > 0 ? t('cancelLateRefund', { kept, refund: formatRupees(cancel.refund) }) : t('cancelLateTerms', { kept });
}

/**
 * The money of a booking as it moved, one sentence each: paid at the handover, settled at the
 * return, and refunds through the gateway (other than the settlement's, which its own sentence says).
 */
function moneyTexts(booking: MyBooking): string[] {
  const { refundedOnlinePaise, owedPaise } = booking.refunds;
  const settledOnline = booking.settlement?.method === 'online' ? Math.min(booking.settlement.paise, refundedOnlinePaise) : 0;
  const otherOnline = refundedOnlinePaise - settledOnline;
  return [
    booking.handoverMoney ? handoverMoneyText(booking.handoverMoney) : '',
    booking.settlement ? settlementMoneyText(booking.settlement, { deposit: booking.quote.deposit }) : '',
    otherOnline > 0 ? onlineRefundText(otherOnline) : '',
    owedPaise > 0 ? t('refundComing', { amount: formatPaise(owedPaise) }) : '',
  ].filter(Boolean);
}

/** The renter's bookings on /profile, with status, and Cancel showing the refund before it is confirmed. */
export function MyBookings({ bookings, error }: { bookings: MyBooking[]; error?: string | null | undefined }) {
  return (
    <section id="bookings" aria-labelledby="my-bookings" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="my-bookings" className="text-lg font-bold">
        {t('myBookings')}
      </h2>
      {error ? (
        <div className="mt-3">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      ) : null}
      {bookings.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">
          {t('noBookings')}{' '}
          <Link to={paths.rent()} reloadDocument className="font-semibold text-brand-700 underline">
            {t('rentACar')}
          </Link>
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {bookings.map((booking) => (
            <li key={booking.id} className="rounded-xl p-4 ring-1 ring-slate-200" data-booking={booking.id}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-semibold">
                  #{booking.id} · {booking.carName}
                </p>
                <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${tone[booking.status] ?? 'bg-slate-100 text-slate-700'}`}>
                  {bookingStatusLabels()[booking.status]}
                </span>
              </div>
              <p className="mt-1 text-sm text-slate-600">{formatRange(booking.from, booking.to)}</p>
              <p className="text-sm text-slate-600">{paymentText(booking)}</p>
              <details className="mt-1">
                <summary className="cursor-pointer text-sm font-semibold text-brand-700">{t('priceLines')}</summary>
                <div className="mt-1 max-w-md">
                  <QuoteLines quote={booking.quote} />
                </div>
              </details>
              {booking.paidOnline === 0 && booking.status === 'requested' ? (
                <p className="mt-2 flex flex-wrap items-center gap-3 text-sm text-amber-900">
                  {/* Loaded as a document: only a pay page's own CSP lets Razorpay Checkout run (server/http/security.ts). */}
                  <Link to={paths.payBooking(booking.id)} reloadDocument className={`${primaryButton} px-4 py-2 text-sm`}>
                    {t('payNow', { amount: formatRupees(booking.quote.payableNow) })}
                  </Link>
                  {booking.holdExpiresAt ? t('heldUntil', { when: formatIndiaDateTime(booking.holdExpiresAt) }) : null}
                </p>
              ) : null}
              {booking.charges ? (
                <p className="mt-1 text-sm text-slate-800">
                  {t('chargesAtReturn', { total: formatRupees(booking.charges.total), refund: formatRupees(booking.charges.depositRefund) })}
                  {booking.charges.amountDue > 0 ? ` · ${t('stillOwed', { amount: formatRupees(booking.charges.amountDue) })}` : ''}
                </p>
              ) : null}
              {booking.handedOverAt ? (
                <p className="mt-1 text-sm text-slate-800" data-times>
                  {t('handedOverAt', { when: formatIndiaDateTime(booking.handedOverAt) })}
                  {booking.returnedAt ? ` · ${t('returnedAt', { when: formatIndiaDateTime(booking.returnedAt) })}` : ''}
                </p>
              ) : null}
              {moneyTexts(booking).length > 0 ? (
                <ul className="mt-1 flex flex-col text-sm text-slate-800" data-refunds>
                  {moneyTexts(booking).map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              ) : null}
              {booking.condition && (booking.condition.handover || booking.condition.return) ? (
                <details className="mt-2" open={booking.condition.charges.length > 0}>
                  <summary className="cursor-pointer text-sm font-semibold text-brand-700">{t('conditionSummary')}</summary>
                  <div className="mt-2 flex flex-col gap-3">
                    <ChecklistRecords
                      bookingId={booking.id}
                      handover={booking.condition.handover}
                      returned={booking.condition.return}
                      handedOverAt={booking.handedOverAt}
                      returnedAt={booking.returnedAt}
                    />
                    {booking.charges ? (
                      <div>
                        <h3 className="mb-1 text-sm font-semibold">{t('charges')}</h3>
                        <ChargeList bookingId={booking.id} lines={booking.condition.charges} />
                      </div>
                    ) : null}
                  </div>
                </details>
              ) : null}
              {booking.cancel ? (
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm font-semibold text-red-700">{t('cancelBooking')}</summary>
                  <Form method="post" action={paths.profile} className="mt-2 flex flex-col gap-2 rounded-lg bg-red-50 p-3">
                    <p className="text-sm text-red-900">{cancelText(booking.cancel)}</p>
                    <input type="hidden" name="intent" value="cancel-booking" />
                    <input type="hidden" name="bookingId" value={booking.id} />
                    <button type="submit" className={`${secondaryButton} self-start px-4 py-2 text-sm text-red-700`}>
                      {t('yesCancel', { id: booking.id })}
                    </button>
                  </Form>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
