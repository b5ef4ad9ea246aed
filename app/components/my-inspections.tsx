import { Form, Link } from 'react-router';
import { formatRupees } from '../lib/format.ts';
import { offerStateLabels, type Offer } from '../lib/inspection-desk.ts';
import { paths } from '../lib/paths.ts';
import { accountText as t } from '../lib/i18n/account.ts';
import { dayLabel, slotLabel, STATUS_LABELS, type TestDriveStatus } from '../lib/test-drives.ts';
import { BookingActions, BookingCard, BookingList, ProfileSection } from './profile-bookings.tsx';

export type MyInspection = {
  id: number;
  car: { make: string; model: string; year: number };
  estimate: { kind: 'range'; low: number; high: number } | { kind: 'not-enough-data' };
  mode: 'hub' | 'home';
  pinCode: string;
  slot: string;
  status: TestDriveStatus;
  changeable: boolean;
  offer: Offer | null;
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
export function MyInspections({ inspections }: { inspections: MyInspection[] }) {
  if (inspections.length === 0) return null;
  return (
    <ProfileSection id="inspections" title={t('myInspections')}>
      <BookingList>
        {inspections.map((item) => (
          <BookingCard
            key={item.id}
            status={STATUS_LABELS[item.status]}
            statusTone="bg-slate-100 text-slate-700"
            about={
              <>
                <p className="font-semibold">
                  {item.car.year} {item.car.make} {item.car.model}
                </p>
                <p className="text-sm text-slate-700">{slotLabel(item.slot)}</p>
                <p className="text-sm text-slate-600">{item.mode === 'home' ? t('atHome', { pin: item.pinCode }) : t('atHub')}</p>
                {item.estimate.kind === 'range' ? (
                  <p className="text-sm text-slate-600">
                    {t('estimate', { low: formatRupees(item.estimate.low), high: formatRupees(item.estimate.high) })}
                  </p>
                ) : null}
              </>
            }
          >
            {item.offer ? <OfferBox inspectionId={item.id} offer={item.offer} /> : null}
            {item.changeable ? (
              <BookingActions>
                <Link to={`${paths.sellInspection}?${new URLSearchParams({ reschedule: String(item.id), date: item.slot.slice(0, 10) })}`} className="rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 hover:bg-slate-100">
                  {t('reschedule')}
                </Link>
                <Form method="post" action={paths.sellInspection}>
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="id" value={item.id} />
                  <button type="submit" className="rounded-lg px-3 py-2 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                    {t('cancelInspection')}
                  </button>
                </Form>
              </BookingActions>
            ) : null}
          </BookingCard>
        ))}
      </BookingList>
    </ProfileSection>
  );
}

/** The desk's offer after the inspection (decision 084): the amount, its last day, and Accept / Decline while it is open. */
function OfferBox({ inspectionId, offer }: { inspectionId: number; offer: Offer }) {
  const open = offer.state === 'open';
  return (
    <div className={`mt-3 rounded-lg p-3 ${open ? 'bg-brand-50 ring-1 ring-brand-100' : 'bg-slate-50 ring-1 ring-slate-200'}`} data-offer={offer.state}>
      <p className="text-sm font-semibold text-slate-700">{t('ourOffer')}</p>
      <p className="text-2xl font-extrabold tabular-nums">{formatRupees(offer.rupees)}</p>
      <p className="text-sm text-slate-700">
        {t(offer.state === 'expired' ? 'offerExpiredOn' : 'offerValidUntil', { day: dayLabel(offer.validUntil) })} · {offerStateLabels()[offer.state]}
      </p>
      {open ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Form method="post" action={paths.sellInspection}>
            <input type="hidden" name="intent" value="accept-offer" />
            <input type="hidden" name="id" value={inspectionId} />
            <button type="submit" className="min-h-11 rounded-lg bg-brand-700 px-4 font-semibold text-white hover:bg-brand-800">
              {t('acceptOffer')}
            </button>
          </Form>
          <Form method="post" action={paths.sellInspection}>
            <input type="hidden" name="intent" value="decline-offer" />
            <input type="hidden" name="id" value={inspectionId} />
            <button type="submit" className="min-h-11 rounded-lg px-4 font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100">
              {t('declineOffer')}
            </button>
          </Form>
        </div>
      ) : null}
    </div>
  );
}
