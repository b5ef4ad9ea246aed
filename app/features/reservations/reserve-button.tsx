import { paths } from '../../lib/paths.ts';
import { reserveLabel } from './reservations.ts';
import { reservationText as t } from './reservation-texts.ts';

/**
 * "Reserve for ₹5,000, fully refundable" on an available car for sale (decision 080): a plain
 * form, so it works before the page's script runs; the server sends the buyer on to sign in,
 * verify their phone or pay.
 */
export function ReserveButton({ vehicleId, amount, holdHours }: { vehicleId: number; amount: number; holdHours: number }) {
  return (
    <form method="post" action={paths.reserveVehicle(vehicleId)} className="flex flex-col gap-1">
      <button type="submit" className="flex items-center justify-center gap-2 rounded-xl bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800">
        <ShieldTick className="h-5 w-5" strokeWidth={2} />
        {reserveLabel(amount)}
      </button>
      <p className="text-center text-xs text-slate-600">{t('holdNote', { hours: holdHours })}</p>
    </form>
  );
}

/** Where the button would be on a site without online payment: why there is none, and what to do instead. */
export function ReserveNotOffered() {
  return <p className="rounded-xl bg-slate-100 px-4 py-2.5 text-center text-sm text-slate-700">{t('notOffered')}</p>;
}

/**
 * The same form on a car's card in a list: one line, above the card's link so a tap reserves
 * instead of opening the car.
 */
export function CardReserveButton({ vehicleId, amount, carName }: { vehicleId: number; amount: number; carName: string }) {
  return (
    <form method="post" action={paths.reserveVehicle(vehicleId)} className="relative z-10 mt-1.5 max-sm:mt-1">
      <button
        type="submit"
        aria-label={`${reserveLabel(amount)}: ${carName}`}
        className="inline-flex items-start gap-1 py-1 text-left text-xs font-semibold leading-snug text-brand-700 underline-offset-2 hover:underline max-sm:py-0.5 max-sm:text-[11px]"
      >
        <ShieldTick className="mt-px h-3.5 w-3.5 shrink-0" strokeWidth={2.2} />
        {reserveLabel(amount)}
      </button>
    </form>
  );
}

/** A shield with a tick: the token is safe, refunded in full. */
function ShieldTick({ className, strokeWidth }: { className: string; strokeWidth: number }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6z" />
      <path d="M9 12l2 2 4-4" />
    </svg>
  );
}
