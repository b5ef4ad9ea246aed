import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../lib/paths.ts';

/**
 * The pieces the profile's lists of bookings share (test drives, reservations, inspections):
 * one look for each kind, so a person reads them the same way.
 */

/** A section of the profile: its heading, then the list (or a line saying there is none). */
export function ProfileSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-8 border-t border-slate-200 pt-6">
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function BookingList({ children }: { children: ReactNode }) {
  return <ul className="mt-3 flex flex-col gap-3">{children}</ul>;
}

/** One booking: what and when (`about`) with its status beside it, then the rest (an offer, what can be done). */
export function BookingCard({ about, status, statusTone, children }: { about: ReactNode; status: string; statusTone: string; children?: ReactNode }) {
  return (
    <li className="rounded-xl p-4 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">{about}</div>
        <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${statusTone}`}>{status}</span>
      </div>
      {children}
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

/** The row of a booking's actions (reschedule, pay, cancel). */
export function BookingActions({ children }: { children: ReactNode }) {
  return <div className="mt-3 flex flex-wrap gap-2">{children}</div>;
}
