import { Link, useHref } from 'react-router';
import { VehicleImage } from '../vehicle/vehicle-image.tsx';
import { primaryButton } from '../../components/form.tsx';
import { formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { rentText as t } from './rent-texts.ts';
import { RichText } from '../../lib/i18n/rich.tsx';
import { paths } from '../../lib/paths.ts';
import type { ImageRef } from '../../lib/vehicle.ts';

const pickerInput =
  'w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100';

/**
 * Pickup and return pickers: a plain GET form with the browser's own date-time inputs, so the
 * dates land in the URL (shareable, cacheable, no script needed) and the page stays light.
 */
export function RangePicker({
  action,
  from,
  to,
  button,
  message = null,
}: {
  action: string;
  from: string;
  to: string;
  button: string;
  message?: string | null;
}) {
  // Why the dates were refused sits inside the form, under the pickers it is about, and the
  // pickers point to it: a screen reader reads it with them.
  const invalid = message ? { 'aria-invalid': true, 'aria-describedby': 'rent-dates-problem' } : {};
  // A plain form: its address carries the page's language (/hi/rent on a Hindi page).
  const actionHref = useHref(action);
  return (
    // Laid out by the width it is given (a container query), not the screen's: on the car page it
    // sits in the narrow side column of a wide screen.
    <div className="@container">
      <form
        method="get"
        action={actionHref}
        className="grid grid-cols-1 gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 @xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] @xl:items-end"
      >
        {(
          [
            ['from', t('pickupIndiaTime'), from],
            ['to', t('returnIndiaTime'), to],
          ] as const
        ).map(([name, label, value]) => (
          <div key={name} className="flex flex-col gap-1">
            <label htmlFor={`rent-${name}`} className="text-sm font-semibold">
              {label}
            </label>
            <input id={`rent-${name}`} name={name} type="datetime-local" step={1800} required defaultValue={value} className={pickerInput} {...invalid} />
          </div>
        ))}
        <button type="submit" className={primaryButton}>
          {button}
        </button>
        {message ? (
          <p
            id="rent-dates-problem"
            role="alert"
            className="rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200 @xl:col-span-3"
          >
            {message}
          </p>
        ) : null}
      </form>
    </div>
  );
}

export type RentalCardData = {
  id: number;
  name: string;
  year: string;
  fuelType: string;
  transmission: string;
  seats: number | null;
  cover: ImageRef | null;
  dailyRate: number;
  deposit: number;
  kmPerDay: number | null;
  available: boolean;
  nextFree: string | null;
  /** Rent for the asked range; null without dates. */
  total: number | null;
  hours: number | null;
};

/** A fleet car on /rent: its rent for the dates (or its daily rate), greyed with the next free time when taken. */
export function RentalCarCard({ car, range, priority }: { car: RentalCardData; range: { from: string; to: string } | null; priority: boolean }) {
  const facts = [car.year, car.fuelType, car.transmission, car.seats ? t('seatsCount', { count: car.seats }) : ''].filter(Boolean).join(' · ');
  const href = paths.rentalCar(car.id, range);
  return (
    <article
      className={`flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 ${car.available ? '' : 'opacity-60 grayscale'}`}
      aria-label={car.name}
    >
      <Link to={href} className="block" tabIndex={-1} aria-hidden="true">
        <VehicleImage
          image={car.cover}
          alt=""
          sizes="(min-width: 1024px) 370px, (min-width: 640px) 50vw, 100vw"
          priority={priority}
          className="aspect-[16/10] w-full"
        />
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="text-lg font-bold leading-snug">
          <Link to={href} className="hover:text-brand-700">
            {car.name}
          </Link>
        </h2>
        {facts ? <p className="text-sm text-slate-600">{facts}</p> : null}
        <p className="text-sm text-slate-600">
          {car.kmPerDay === null ? t('unlimitedKm') : t('kmPerDayIncluded', { km: car.kmPerDay })} · {t('depositAmount', { amount: formatRupees(car.deposit) })}
        </p>
        <div className="mt-auto flex items-end justify-between gap-3 pt-2">
          {car.total !== null ? (
            <p>
              <span className="block text-xl font-extrabold text-slate-900">{formatRupees(car.total)}</span>
              <span className="text-sm text-slate-600">{t('rentForHours', { hours: car.hours })}</span>
            </p>
          ) : (
            <p className="text-sm text-slate-600">
              <RichText
                text={t('fromPerDay', { amount: formatRupees(car.dailyRate) })}
                parts={{ price: (words) => <span className="text-xl font-extrabold text-slate-900">{words}</span> }}
              />
            </p>
          )}
          {car.available ? (
            <Link to={href} className={`${primaryButton} px-4 py-2`}>
              {range ? t('book') : t('view')}
            </Link>
          ) : null}
        </div>
        {!car.available ? (
          <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm font-semibold text-slate-800">
            {t('takenForDates')}
            {car.nextFree ? ` · ${t('nextFreeLower', { when: formatIndiaDateTime(car.nextFree) })}` : ''}
          </p>
        ) : null}
      </div>
    </article>
  );
}
