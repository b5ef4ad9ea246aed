import { data, Link } from 'react-router';
import { answerError } from '../../server/http/action-errors.ts';
import { fleetAvailability, type CarAvailability } from '../../server/rentals/bookings.ts';
import { rentalSettings } from '../../server/rentals/store.ts';
import { RangePicker, RentalCarCard } from '../features/rentals/rent-parts.tsx';
import { appContext } from '../context.ts';
import { rentText as t } from '../features/rentals/rent-texts.ts';
import { RichText } from '../lib/i18n/rich.tsx';
import { paths } from '../lib/paths.ts';
import { formatRange, pickerRange } from '../features/rentals/rent-view.ts';
import { askedRange } from '../features/rentals/schemas.ts';
import { pageMeta } from '../lib/seo.ts';
import { typedFuelText, typedTransmissionText } from '../lib/listing-filters/options.ts';
import type { Route } from './+types/rent';

export const meta = pageMeta(() => ({
  path: paths.rent(),
  title: t('rentTitle'),
  description: t('rentDescription'),
}));

/** The fleet as the page shows a car: what the card needs, nothing of the terms it does not show. */
function cardOf(car: CarAvailability) {
  return {
    id: car.id,
    name: car.name,
    year: car.year,
    // Named in the page's language here, on the server: the page's script need not carry the listing's texts for two words.
    fuelType: typedFuelText(car.fuelType),
    transmission: typedTransmissionText(car.transmission),
    seats: car.terms?.seats ?? null,
    cover: car.cover,
    dailyRate: car.terms?.dailyRate ?? 0,
    deposit: car.terms?.deposit ?? 0,
    kmPerDay: car.terms?.kmPerDay ?? null,
    available: car.available,
    nextFree: car.nextFree,
    total: car.quote ? car.quote.rent : null,
    hours: car.quote?.hours ?? null,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const url = new URL(request.url);
  const { range, problem } = askedRange(url.searchParams);
  const settings = await rentalSettings(services);
  const nowMs = services.clock.now();
  let cars: CarAvailability[];
  let message = problem;
  let status = problem ? 400 : 200;
  try {
    cars = await fleetAvailability(services, range);
  } catch (error) {
    // A range the rules refuse (too soon, too far ahead, too long): the fleet without dates, and why.
    const answer = answerError(error, services.logger, { fallback: t('carsNotLoaded'), log: 'rental fleet failed' });
    if (answer.status === 500) throw data({ message: answer.message }, { status: 500 });
    message = answer.message;
    status = answer.status;
    cars = await fleetAvailability(services, null);
  }
  const dated = Boolean(range) && !message;
  return data(
    {
      range: dated ? range : null,
      picked: pickerRange(url.searchParams, nowMs),
      message,
      minNoticeHours: settings.rentalMinNoticeHours,
      cars: cars.map((car) => cardOf(dated ? car : { ...car, available: true, nextFree: null, quote: null })),
    },
    { status, headers: { 'Cache-Control': 'no-store' } },
  );
}

export default function Rent({ loaderData }: Route.ComponentProps) {
  const { cars, range, picked, message, minNoticeHours } = loaderData;
  const available = cars.filter((car) => car.available);
  const taken = cars.filter((car) => !car.available);
  return (
    <div className="flex flex-col gap-5">
      <header>
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('rentTitle')}</h1>
        <p className="mt-1 text-slate-600">
          <RichText
            text={t('rentIntro', { hours: minNoticeHours })}
            parts={{
              terms: (words) => (
                <Link to={paths.rentTerms} className="font-semibold text-brand-700 underline">
                  {words}
                </Link>
              ),
            }}
          />
        </p>
      </header>
      <RangePicker action={paths.rent()} from={picked.from} to={picked.to} button={range ? t('update') : t('showAvailable')} message={message} />
      {range ? (
        <p className="text-sm font-semibold text-slate-700" aria-live="polite">
          {t('carsFree', { free: available.length, count: cars.length, range: formatRange(range.fromMs, range.toMs) })}
        </p>
      ) : null}
      {cars.length === 0 ? <p className="rounded-2xl bg-white p-6 text-slate-600 ring-1 ring-slate-200">{t('noCars')}</p> : null}
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[...available, ...taken].map((car, index) => (
          <li key={car.id}>
            <RentalCarCard car={car} range={range ? { from: range.from, to: range.to } : null} priority={index < 2} />
          </li>
        ))}
      </ul>
    </div>
  );
}
