import { data, Link } from 'react-router';
import { listFleet } from '../../server/rentals/fleet.ts';
import { rentalPolicy } from '../../server/rentals/store.ts';
import { RentalTermsCard } from '../features/rentals/quote-parts.tsx';
import { appContext } from '../context.ts';
import { rentText as t } from '../features/rentals/rent-texts.ts';
import { paths } from '../lib/paths.ts';
import { carFacts, generalFacts } from '../features/rentals/rental-facts.ts';
import { pageMeta } from '../lib/seo.ts';
import type { Route } from './+types/rent-terms';

export const meta = pageMeta(() => ({
  path: paths.rentTerms,
  title: t('termsTitle'),
  description: t('termsDescription'),
}));

/** The terms page: the same sentences the car pages, the booking page, the mails and the API say (app/features/rentals/rental-facts.ts). */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const [policy, fleet] = await Promise.all([rentalPolicy(services), listFleet(services.database, { rentableOnly: true })]);
  return data(
    { facts: generalFacts(policy), cars: fleet.map((car) => ({ id: car.id, name: car.name, facts: carFacts(car.terms!) })) },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

export default function RentTerms({ loaderData }: Route.ComponentProps) {
  const { facts, cars } = loaderData;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-5">
      <header>
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('termsTitle')}</h1>
        <p className="mt-1 text-slate-600">{t('termsIntro')}</p>
      </header>
      <RentalTermsCard headingId="terms-all" heading={t('everyCar')} facts={facts} data-terms="all" />
      <section aria-labelledby="terms-cars" className="flex flex-col gap-3">
        <h2 id="terms-cars" className="text-lg font-bold">
          {t('eachCar')}
        </h2>
        {cars.map((car) => (
          <RentalTermsCard
            key={car.id}
            level="h3"
            headingId={`terms-car-${car.id}`}
            heading={
              <Link to={paths.rentalCar(car.id)} className="hover:text-brand-700">
                {car.name}
              </Link>
            }
            facts={car.facts}
            data-terms-car={car.id}
          />
        ))}
      </section>
    </div>
  );
}
