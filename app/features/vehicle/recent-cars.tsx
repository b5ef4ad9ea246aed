import { Link } from 'react-router';
import { useRecentCars, type RecentCar as RecentCarEntry } from './recent-cars-store.ts';
import { browseText as t } from '../../lib/i18n/browse.ts';

/** A remembered car's link, whichever kind it is. */
const LINK_CLASS = 'flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600';

/**
 * The remembered cars as links. Plain `<a>` links by default, not the router's: offline, a
 * page comes from the service worker as a whole document; the router's data requests are never
 * kept. Online (`appLinks`) they are the router's, in the page's language (/hi/vehicle/… on a
 * Hindi page).
 */
export function RecentCarsList({ appLinks = false }: { appLinks?: boolean }) {
  const cars = useRecentCars();
  if (cars.length === 0) {
    return <p className="rounded-2xl bg-white p-5 text-slate-600 shadow-sm ring-1 ring-slate-200">{t('recentEmpty')}</p>;
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label={t('recentCars')}>
      {cars.map((car) => (
        <li key={car.id} className="min-w-0">
          {appLinks ? (
            <Link to={car.url} className={LINK_CLASS}>
              <RecentCar car={car} />
            </Link>
          ) : (
            <a href={car.url} className={LINK_CLASS}>
              <RecentCar car={car} />
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The cars this device opened, under a heading, for a page that has none of its own to show (an
 * empty wishlist or compare): the way back to a car looked at before. Nothing on a device that
 * has opened none, and nothing while rendering on the server (the list lives in the browser).
 */
export function RecentCarsSection() {
  const cars = useRecentCars();
  // Read from this device once hydrated: the server renders the wrapper empty (the hydration test allows what it holds to change).
  return (
    <div data-changes-once-hydrated="">
      {cars.length > 0 ? (
        <section aria-labelledby="recent-cars-heading" className="flex flex-col gap-3">
          <h2 id="recent-cars-heading" className="text-lg font-bold">
            {t('recentCars')}
          </h2>
          <RecentCarsList appLinks />
        </section>
      ) : null}
    </div>
  );
}

/** One remembered car: its photo, title and price. */
function RecentCar({ car }: { car: RecentCarEntry }) {
  return (
    <>
      {car.image ? (
        <img src={car.image} alt="" width={96} height={72} className="h-18 w-24 shrink-0 rounded-lg bg-slate-100 object-cover" />
      ) : (
        <span aria-hidden="true" className="h-18 w-24 shrink-0 rounded-lg bg-slate-100" />
      )}
      <span className="flex min-w-0 flex-col">
        <span className="truncate font-semibold text-slate-900">{car.title}</span>
        <span className="font-bold text-brand-800">{car.price}</span>
      </span>
    </>
  );
}
