import { Fragment, type MouseEvent, type ReactNode } from 'react';
import { Form, Link } from 'react-router';
import { paths } from '../lib/paths.ts';

/**
 * The pieces the profile's lists of bookings share (test drives, reservations, inspections):
 * one look for each kind, so a person reads them the same way.
 */

/** A section of the profile: its heading, then the list (or a line saying there is none). */
function ProfileSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-8 border-t border-slate-200 pt-6">
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * A profile section of one kind of booking, a card each. With no bookings it says `none`, or is
 * left out when there is nothing to say; `children` follow the list (a confirm dialog).
 */
export function BookingsSection<Booking extends { id: number }>({
  id,
  title,
  bookings,
  none,
  card,
  children,
}: {
  id: string;
  title: string;
  bookings: readonly Booking[];
  none?: string;
  card: (booking: Booking) => ReactNode;
  children?: ReactNode;
}) {
  if (bookings.length === 0 && none === undefined) return null;
  return (
    <ProfileSection id={id} title={title}>
      {bookings.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{none}</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {bookings.map((booking) => (
            <Fragment key={booking.id}>{card(booking)}</Fragment>
          ))}
        </ul>
      )}
      {children}
    </ProfileSection>
  );
}

/**
 * One booking: what and when (`about`) with its status beside it, then the rest (a report, an
 * offer) and the row of what can be done (reschedule, pay, cancel).
 */
export function BookingCard({
  about,
  status,
  statusTone,
  actions,
  children,
}: {
  about: ReactNode;
  status: string;
  statusTone: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="rounded-xl p-4 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">{about}</div>
        <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${statusTone}`}>{status}</span>
      </div>
      {children}
      {actions ? <div className="mt-3 flex flex-wrap gap-2">{actions}</div> : null}
    </li>
  );
}

/** The booked car's title: a link to its page while the car has one. */
export function BookedCar({ vehicleId, title }: { vehicleId: number | null; title: string }) {
  return vehicleId !== null ? (
    <Link to={paths.vehicle(vehicleId)} className="font-semibold text-brand-700 underline">
      {title}
    </Link>
  ) : (
    <span className="font-semibold">{title}</span>
  );
}

/** A booking's way to another page (reschedule, book a test drive). */
export const bookingLinkClass = 'rounded-lg px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 hover:bg-slate-100';

/**
 * Cancel, posted to the booking's own action. `onAsk` opens the site's confirm dialog first
 * (useConfirmStep's `ask`); before the page's script runs the button cancels at once.
 */
export function CancelBooking({ action, label, onAsk }: { action: string; label: string; onAsk: (event: MouseEvent<HTMLElement>) => void }) {
  return (
    <Form method="post" action={action}>
      <button
        type="submit"
        aria-haspopup="dialog"
        className="rounded-lg px-3 py-2 text-sm font-semibold text-red-700 ring-1 ring-slate-300 hover:bg-red-50"
        onClick={onAsk}
      >
        {label}
      </button>
    </Form>
  );
}
