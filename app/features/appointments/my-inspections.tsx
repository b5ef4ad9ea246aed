import { Form, Link } from 'react-router';
import { formatKilometres, formatRupees } from '../../lib/format.ts';
import { conditionItemLabel, conditionStatusLabel, offerStateLabels, type InspectionReport, type Offer } from './inspection-desk.ts';
import { paths } from '../../lib/paths.ts';
import { accountText as t } from '../../lib/i18n/account.ts';
import { dayLabel, slotLabel, STATUS_LABELS, type TestDriveStatus } from './test-drives.ts';
import { homeAddressLine } from './home-address.ts';
import { BookingCard, BookingsSection, bookingLinkClass } from '../../components/profile-bookings.tsx';

export type MyInspection = {
  id: number;
  car: { make: string; model: string; year: number };
  estimate: { kind: 'range'; low: number; high: number } | { kind: 'not-enough-data' };
  mode: 'hub' | 'home';
  pinCode: string;
  street: string;
  landmark: string;
  slot: string;
  status: TestDriveStatus;
  changeable: boolean;
  offer: Offer | null;
  report: InspectionReport | null;
};

const INSPECTION_NOTICES = {
  booked: 'inspectionBooked',
  rescheduled: 'inspectionRescheduled',
  cancelled: 'inspectionCancelled',
  'offer-accepted': 'offerAccepted',
  'offer-declined': 'offerDeclined',
} as const;

/** What `?inspection=` on /profile says after a booking, a change or a cancel, in the page's language. */
export function inspectionNoticeFor(key: string): string | undefined {
  return Object.hasOwn(INSPECTION_NOTICES, key) ? t(INSPECTION_NOTICES[key as keyof typeof INSPECTION_NOTICES]) : undefined;
}

/** The profile's list of the seller's inspections (decision 081), each upcoming one with Reschedule and Cancel; nothing when there are none. */
export function MyInspections({ inspections, confirmOffer }: { inspections: MyInspection[]; confirmOffer: number | null }) {
  return (
    <BookingsSection
      id="inspections"
      title={t('myInspections')}
      bookings={inspections}
      card={(item) => (
        <BookingCard
          status={STATUS_LABELS[item.status]}
          statusTone="bg-slate-100 text-slate-700"
          about={
            <>
              <p className="font-semibold">
                {item.car.year} {item.car.make} {item.car.model}
              </p>
              <p className="text-sm text-slate-700">{slotLabel(item.slot)}</p>
              <p className="break-words text-sm text-slate-600">{item.mode === 'home' ? t('atHome', { address: homeAddressLine(item) }) : t('atHub')}</p>
              {item.estimate.kind === 'range' ? (
                <p className="text-sm text-slate-600">{t('estimate', { low: formatRupees(item.estimate.low), high: formatRupees(item.estimate.high) })}</p>
              ) : null}
            </>
          }
          actions={
            item.changeable ? (
              <>
                <Link
                  to={`${paths.sellInspection}?${new URLSearchParams({ reschedule: String(item.id), date: item.slot.slice(0, 10) })}`}
                  className={bookingLinkClass}
                >
                  {t('reschedule')}
                </Link>
                <Form method="post" action={paths.sellInspection}>
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="id" value={item.id} />
                  <button type="submit" className="rounded-lg px-3 py-2 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                    {t('cancelInspection')}
                  </button>
                </Form>
              </>
            ) : null
          }
        >
          {item.report ? <ReportDetails report={item.report} /> : null}
          {item.offer ? <OfferBox inspection={item} offer={item.offer} confirming={confirmOffer === item.id} /> : null}
        </BookingCard>
      )}
    />
  );
}

/** What the desk found (decision 084): each item checked, the odometer and the notes, folded until opened. */
function ReportDetails({ report }: { report: InspectionReport }) {
  return (
    <details className="mt-3 rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <summary className="min-h-11 cursor-pointer content-center font-semibold text-brand-800">{t('inspectionReport')}</summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {report.condition.map(({ item, status }) => (
          <div key={item} className="contents">
            <dt className="text-slate-600">{conditionItemLabel(item)}</dt>
            <dd className="font-medium">{conditionStatusLabel(status)}</dd>
          </div>
        ))}
        {report.odometer !== null ? (
          <div className="contents">
            <dt className="text-slate-600">{t('reportOdometer')}</dt>
            <dd className="font-medium tabular-nums">{formatKilometres(report.odometer)}</dd>
          </div>
        ) : null}
      </dl>
      {report.notes ? <p className="mt-2 whitespace-pre-line text-sm text-slate-700">{report.notes}</p> : null}
    </details>
  );
}

/**
 * The desk's offer after the inspection (decision 084): the amount, its last day, and Accept /
 * Decline while it is open. Accepting binds the seller to sell at that price, so "Accept offer"
 * first asks to confirm the amount (`?confirmOffer=`, which works before the page's script too).
 */
function OfferBox({ inspection, offer, confirming }: { inspection: MyInspection; offer: Offer; confirming: boolean }) {
  const open = offer.state === 'open';
  const amount = formatRupees(offer.rupees);
  const car = `${inspection.car.year} ${inspection.car.make} ${inspection.car.model}`;
  return (
    <div className={`mt-3 rounded-lg p-3 ${open ? 'bg-brand-50 ring-1 ring-brand-100' : 'bg-slate-50 ring-1 ring-slate-200'}`} data-offer={offer.state}>
      <p className="text-sm font-semibold text-slate-700">{t('ourOffer')}</p>
      <p className="text-2xl font-extrabold tabular-nums">{amount}</p>
      <p className="text-sm text-slate-700">
        {t(offer.state === 'expired' ? 'offerExpiredOn' : 'offerValidUntil', { day: dayLabel(offer.validUntil) })} · {offerStateLabels()[offer.state]}
      </p>
      {open && confirming ? (
        <div role="group" aria-labelledby={`confirm-offer-${inspection.id}`} className="mt-3 rounded-lg bg-white p-3 ring-1 ring-brand-200">
          <p id={`confirm-offer-${inspection.id}`} className="font-semibold">
            {t('confirmOfferQuestion', { amount, car })}
          </p>
          <p className="mt-1 text-sm text-slate-700">{t('confirmOfferNext')}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post" action={paths.sellInspection}>
              <input type="hidden" name="intent" value="accept-offer" />
              <input type="hidden" name="id" value={inspection.id} />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" className="min-h-11 rounded-lg bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800">
                {t('confirmOfferYes', { amount })}
              </button>
            </Form>
            <Link
              to={`${paths.profile}#inspections`}
              className="inline-flex min-h-11 items-center rounded-lg px-4 font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"
            >
              {t('confirmOfferNo')}
            </Link>
          </div>
        </div>
      ) : open ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Link
            to={paths.confirmOffer(inspection.id)}
            className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800"
          >
            {t('acceptOffer')}
          </Link>
          <Form method="post" action={paths.sellInspection}>
            <input type="hidden" name="intent" value="decline-offer" />
            <input type="hidden" name="id" value={inspection.id} />
            <button type="submit" className="min-h-11 rounded-lg px-4 font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100">
              {t('declineOffer')}
            </button>
          </Form>
        </div>
      ) : null}
    </div>
  );
}
