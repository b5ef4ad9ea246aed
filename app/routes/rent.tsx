import { data, Link } from 'react-router';
import { fleetAvailability, type TimeRange } from '../../server/rentals/bookings.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { appContext } from '../context.ts';
import { formatRupees } from '../lib/format.ts';
import { paths } from '../lib/paths.ts';
import { parseIndiaDateTime } from '../lib/rentals.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/rent';

/**
 * The rental fleet for a pickup and return time (`?from=2026-12-01T10:00&to=…`, India time):
 * each car with its rent for that range, unavailable ones with their next free time. A plain
 * first version of the page; the booking steps build on it.
 */

export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const url = new URL(request.url);
  const fromText = url.searchParams.get('from') ?? '';
  const toText = url.searchParams.get('to') ?? '';
  const fromMs = parseIndiaDateTime(fromText);
  const toMs = parseIndiaDateTime(toText);
  const range: TimeRange | null = fromMs !== null && toMs !== null ? { fromMs, toMs } : null;
  const asked = Boolean(fromText || toText);
  try {
    if (asked && !range) throw new RangeError('Please pick a pickup and a return date and time.');
    const cars = await fleetAvailability(services, range);
    return { cars, range: range ? { from: fromText, to: toText } : null, error: null };
  } catch (error) {
    const message = error instanceof RangeError ? error.message : answerError(error, services.logger, { fallback: 'The fleet could not be loaded. Please try again.', log: 'rent: fleet failed' }).message;
    const cars = await fleetAvailability(services, null);
    return data({ cars, range: null, error: message }, { status: 400 });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.rent(), title: 'Self-drive car rental', description: 'Pick your dates and rent a self-drive car: hourly and daily rates, refundable deposit, km included.' });
}

export default function Rent({ loaderData }: Route.ComponentProps) {
  const { cars, range, error } = loaderData;
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-extrabold tracking-tight">Self-drive car rental</h1>
      <form method="get" className="flex flex-wrap items-end gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <label className="flex flex-col text-sm font-semibold">
          Pickup
          <input type="datetime-local" name="from" defaultValue={range?.from ?? ''} className="rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <label className="flex flex-col text-sm font-semibold">
          Return
          <input type="datetime-local" name="to" defaultValue={range?.to ?? ''} className="rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
          Show cars
        </button>
      </form>
      {error ? <p role="alert" className="text-red-700">{error}</p> : null}
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {cars.map((car) => (
          <li key={car.id} className={`rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 ${car.available ? '' : 'opacity-60'}`}>
            <Link to={paths.rentCar(car.id, range ?? undefined)} className="font-bold">
              {car.name}
            </Link>
            {car.quote ? (
              <p>
                {formatRupees(car.quote.rent)} for {car.quote.hours} hours
              </p>
            ) : (
              <p>from {formatRupees(car.terms?.dailyRate ?? 0)}/day</p>
            )}
            {car.available ? null : <p className="text-sm">Not free then; next free {car.nextFree}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
