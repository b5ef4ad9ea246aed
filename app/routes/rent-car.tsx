import { data, Link } from 'react-router';
import { getVehicle } from '../../server/catalog/vehicles.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { carAvailability, takenRanges } from '../../server/rentals/bookings.ts';
import { getFleetCar } from '../../server/rentals/fleet.ts';
import { rentalPolicy } from '../../server/rentals/store.ts';
import { primaryButton, secondaryButton } from '../components/form.tsx';
import { WhatsAppIcon } from '../components/icons.tsx';
import { MonthCalendar, QuoteBreakdown, RentalTermsCard } from '../features/rentals/quote-parts.tsx';
import { RangePicker } from '../features/rentals/rent-parts.tsx';
import { useSite } from './site-layout.tsx';
import { VehicleGallery } from '../features/vehicle/vehicle-gallery.tsx';
import { appContext } from '../context.ts';
import { whatsappLink } from '../lib/contact.ts';
import { formatRupees, formatIndiaDateTime } from '../lib/format.ts';
import { rentText as t } from '../features/rentals/rent-texts.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { askedRange } from '../features/rentals/schemas.ts';
import { formatRange, monthCalendar, rentalEnquiryText, pickerRange } from '../features/rentals/rent-view.ts';
import { rentalFacts } from '../features/rentals/rental-facts.ts';
import { typedFuelText, typedTransmissionText } from '../lib/listing-filters/options.ts';
import { TypedText } from '../components/typed-text.tsx';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { coverShareImage } from '../lib/share-image.ts';
import { jsonLdText, rentalCarStructuredData } from '../lib/structured-data.ts';
import { useNonce } from '../lib/nonce.tsx';
import type { Route } from './+types/rent-car';
import { indiaDateTimeParam, indiaMonth, parseIndiaMonth } from '../lib/india-time.ts';

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const car = loaderData?.car;
  if (!car) return seo({ site, path: paths.rentalCar(params.id), title: t('carNotFoundTitle'), noIndex: true });
  return seo({
    site,
    path: paths.rentalCar(car.id),
    title: t('carTitle', { car: car.name }),
    description: t('carDescription', {
      car: car.name,
      daily: formatRupees(car.terms.dailyRate),
      hourly: formatRupees(car.terms.hourlyRate),
      deposit: formatRupees(car.terms.deposit),
    }),
    image: coverShareImage(loaderData.images, car.name, site.siteName),
    type: 'product',
  });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const id = parseId(params.id);
  const fleetCar = id === null ? null : await getFleetCar(services.database, id);
  if (!fleetCar || !fleetCar.terms || !fleetCar.rentable) throw data({ message: t('carNotFound') }, { status: 404 });
  const url = new URL(request.url);
  const nowMs = services.clock.now();
  const policy = await rentalPolicy(services);
  const { range, problem } = askedRange(url.searchParams);
  let message = problem;
  let status = problem ? 400 : 200;
  let availability = null;
  if (range) {
    try {
      availability = await carAvailability(services, fleetCar.id, range);
    } catch (error) {
      const answer = answerError(error, services.logger, { fallback: t('priceFailed'), log: 'rental quote failed' });
      if (answer.status === 500) throw data({ message: answer.message }, { status: 500 });
      // A range the rules refuse (passed, too soon, too far ahead): the car page, saying why.
      message = answer.message;
      status = answer.status;
    }
  }
  const monthParam = url.searchParams.get('month');
  // A refused range (passed, years ahead) does not move the calendar there: it opens on this month.
  const month = parseIndiaMonth(monthParam) ? monthParam! : indiaMonth(availability && range ? range.fromMs : nowMs);
  const monthRange = parseIndiaMonth(month)!;
  const [taken, vehicle] = await Promise.all([takenRanges(services, fleetCar.id, monthRange), getVehicle(services.database, fleetCar.id)]);
  return data(
    {
      car: {
        id: fleetCar.id,
        name: fleetCar.name,
        make: fleetCar.make,
        model: fleetCar.model,
        year: fleetCar.year,
        fuelType: fleetCar.fuelType,
        transmission: fleetCar.transmission,
        terms: fleetCar.terms,
      },
      // Named in the page's language here, on the server: the page's script need not carry the listing's texts for two words.
      fuelAndGear: [typedFuelText(fleetCar.fuelType), typedTransmissionText(fleetCar.transmission)],
      images: vehicle?.images ?? [],
      description: vehicle?.description ?? '',
      range: availability && range ? range : null,
      picked: pickerRange(url.searchParams, nowMs),
      message,
      available: availability?.available ?? null,
      nextFree: availability?.nextFree ?? null,
      quote: availability?.quote ?? null,
      month,
      calendar: monthCalendar(month, taken, nowMs),
      facts: rentalFacts(fleetCar.terms, policy),
      pageUrl: new URL(paths.rentalCar(fleetCar.id), services.config.siteOrigin).href,
    },
    { status, headers: { 'Cache-Control': 'no-store' } },
  );
}

export default function RentCar({ loaderData }: Route.ComponentProps) {
  const site = useSite();
  const { car, range, picked, message, available, nextFree, quote, calendar, month, facts: termFacts, images, description, fuelAndGear } = loaderData;
  const { terms } = car;
  const facts = [car.year, ...fuelAndGear, t('seatsCount', { count: terms.seats })].filter(Boolean).join(' · ');
  const chat = whatsappLink(site.whatsappNumber, rentalEnquiryText(car.name, range, loaderData.pageUrl));
  const rangeParams = range ? { from: range.from, to: range.to } : null;
  const nonce = useNonce();
  const structured = rentalCarStructuredData(
    { ...car, seats: terms.seats, dailyRate: terms.dailyRate, hourlyRate: terms.hourlyRate, weeklyRate: terms.weeklyRate },
    images,
    loaderData.pageUrl,
    site,
  );
  return (
    <div className="flex flex-col gap-5">
      <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: jsonLdText(structured) }} />
      <nav aria-label={t('breadcrumb')} className="text-sm">
        <Link to={paths.rent(rangeParams)} className="font-semibold text-brand-700 underline">
          ← {t('allRentalCars')}
        </Link>
      </nav>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
        <div className="flex min-w-0 flex-col gap-5">
          <VehicleGallery images={images} title={car.name} />
          <header>
            <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{car.name}</h1>
            <p className="mt-1 text-slate-600">{t('selfDriveFacts', { facts })}</p>
            <p className="mt-2 text-slate-800">
              <strong>{formatRupees(terms.dailyRate)}</strong>
              {t('perDay')} · <strong>{formatRupees(terms.hourlyRate)}</strong>
              {t('perHour')}
              {terms.weeklyRate !== null ? (
                <>
                  {' '}
                  · <strong>{formatRupees(terms.weeklyRate)}</strong>
                  {t('perWeek')}
                </>
              ) : null}
            </p>
          </header>
          <section aria-labelledby="calendar-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <h2 id="calendar-heading" className="sr-only">
              {t('availability')}
            </h2>
            <MonthCalendar month={month} weeks={calendar} linkFor={(target) => paths.rentalCar(car.id, rangeParams, target)} />
          </section>
          {description ? <TypedText as="p" text={description} className="whitespace-pre-line text-slate-700" /> : null}
          <RentalTermsCard headingId="terms-heading" heading={t('rentalTerms')} facts={termFacts} data-terms="car" />
        </div>
        <aside className="flex flex-col gap-4 lg:sticky lg:top-20 lg:self-start">
          <RangePicker action={paths.rentalCar(car.id)} from={picked.from} to={picked.to} button={t('seePrice')} message={message} />
          {quote && range ? (
            <section aria-labelledby="quote-heading" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <h2 id="quote-heading" className="text-lg font-bold">
                {t('yourPrice')}
              </h2>
              <p className="text-sm text-slate-600">{formatRange(range.fromMs, range.toMs)}</p>
              <QuoteBreakdown quote={quote} />
              {available ? (
                <Link to={paths.rentalBook(car.id, rangeParams)} className={`${primaryButton} mt-4 w-full`}>
                  {t('book')}
                </Link>
              ) : (
                <div className="mt-4 flex flex-col gap-2">
                  <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm font-semibold text-slate-800">{t('takenForDatesDot')}</p>
                  {nextFree ? (
                    <Link
                      to={paths.rentalCar(car.id, {
                        from: indiaDateTimeParam(Date.parse(nextFree)),
                        to: indiaDateTimeParam(Date.parse(nextFree) + (range.toMs - range.fromMs)),
                      })}
                      className={secondaryButton}
                    >
                      {t('nextFree', { when: formatIndiaDateTime(nextFree) })}
                    </Link>
                  ) : null}
                </div>
              )}
            </section>
          ) : (
            <p className="rounded-2xl bg-white p-4 text-sm text-slate-700 ring-1 ring-slate-200">{t('chooseTimes')}</p>
          )}
          <a href={chat} target="_blank" rel="noopener" className={`${secondaryButton} text-green-800`}>
            <WhatsAppIcon className="h-5 w-5" /> {t('askOnWhatsApp')}
          </a>
        </aside>
      </div>
    </div>
  );
}
