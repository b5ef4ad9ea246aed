import { data } from 'react-router';
import { carAvailability } from '../../server/rentals/bookings.ts';
import { getFleetCar } from '../../server/rentals/fleet.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { appContext } from '../context.ts';
import { formatRupees } from '../lib/format.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { parseIndiaDateTime } from '../lib/rentals.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/rent-car';

/** A rental car with its terms and, for `?from=…&to=…`, its quote. A plain first version of the page. */

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const id = parseId(params.id);
  const car = id === null ? null : await getFleetCar(services.database, id);
  if (!car || !car.terms) throw data('This rental car was not found.', { status: 404 });
  const url = new URL(request.url);
  const fromMs = parseIndiaDateTime(url.searchParams.get('from'));
  const toMs = parseIndiaDateTime(url.searchParams.get('to'));
  if (fromMs === null || toMs === null) return { car, availability: null, error: null };
  try {
    return { car, availability: await carAvailability(services, car.id, { fromMs, toMs }), error: null };
  } catch (error) {
    return { car, availability: null, error: answerError(error, services.logger, { fallback: 'The quote could not be worked out. Please try again.', log: 'rent car: quote failed' }).message };
  }
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.rentCar(params.id), title: loaderData?.car ? `Rent ${loaderData.car.name}` : 'Rental car' });
}

export default function RentCar({ loaderData }: Route.ComponentProps) {
  const { car, availability, error } = loaderData;
  const terms = car.terms!;
  return (
    <section className="flex flex-col gap-3 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight">{car.name}</h1>
      <p>
        {formatRupees(terms.hourlyRate)}/hour · {formatRupees(terms.dailyRate)}/day · deposit {formatRupees(terms.deposit)}
      </p>
      {error ? <p role="alert" className="text-red-700">{error}</p> : null}
      {availability?.quote ? (
        <p>
          {availability.available ? 'Free' : `Not free then; next free ${availability.nextFree}`}: rent {formatRupees(availability.quote.rent)} for {availability.quote.hours} hours
        </p>
      ) : null}
    </section>
  );
}
