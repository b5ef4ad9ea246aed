import { paths } from '../../lib/paths.ts';
import { Link } from 'react-router';
import { entryRows, storefrontPromiseText, trustPointText } from '../../lib/storefront.ts';
import type { VehicleSummary } from '../../lib/vehicle.ts';
import { CheckIcon, KeyIcon } from '../../components/icons.tsx';
import { VehicleCard } from '../vehicle/vehicle-card.tsx';
import { LaterHydration } from '../../components/later-hydration.tsx';
import { homeText as t } from './home-texts.ts';
import { commonText } from '../../lib/i18n/common.ts';

/**
 * What the home page opens with before the listing: the promise and trust points, the ways into
 * the filtered listing, renting, and the featured cars. On a phone the featured cars come right
 * after the promise, so the first screen shows a car (decision 063). Plain links and server-rendered HTML:
 * no script of its own, and every box has its size before the photos arrive (no layout shift).
 */
export function Storefront({ promise, trustPoints, featured }: { promise: string; trustPoints: string[]; featured: VehicleSummary[] }) {
  return (
    <div className="flex flex-col gap-5">
      <section
        aria-label={t('whyBuy')}
        className="max-sm:order-1 rounded-2xl bg-gradient-to-br from-brand-800 to-brand-700 px-4 py-4 text-white shadow-sm sm:p-7"
      >
        <p className="max-w-3xl text-lg font-extrabold leading-snug tracking-tight sm:text-2xl">{storefrontPromiseText(promise)}</p>
        {trustPoints.length > 0 ? (
          <ul className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1.5 text-[13px] font-medium sm:flex sm:flex-wrap sm:gap-x-6 sm:text-sm">
            {trustPoints.map((point) => (
              <li key={point} className="flex items-start gap-1.5">
                <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-accent-500" />
                <span>{trustPointText(point)}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <LaterHydration id="find-your-car">
        <nav aria-label={t('findYourCar')} className="flex flex-col gap-2.5 max-sm:order-3 sm:gap-3">
          {entryRows().map((row) => (
            <div key={row.title} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
              <h2 className="shrink-0 text-sm font-bold text-slate-700 sm:w-32">{row.title}</h2>
              {/* One scrolling row on a phone; its last chip is cut at the edge, which says it scrolls. */}
              <ul className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
                {row.chips.map((chip) => (
                  <li key={chip.href} className="shrink-0">
                    <Link
                      to={chip.href}
                      className="flex min-h-11 items-center rounded-full bg-white px-4 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-brand-50 hover:text-brand-800 hover:ring-brand-600"
                    >
                      {chip.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </LaterHydration>

      <Link
        to={paths.rent()}
        className="flex items-center gap-4 rounded-2xl bg-white p-4 max-sm:order-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600 sm:p-5"
      >
        <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-accent-500/15 text-amber-700">
          <KeyIcon className="h-7 w-7" />
        </span>
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="text-lg font-bold">{commonText('rentACar')}</span>
          <span className="text-sm text-slate-600">{t('rentHint')}</span>
        </span>
        <span className="hidden rounded-xl bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white sm:inline" aria-hidden="true">
          {t('seeRentalCars')}
        </span>
      </Link>

      {featured.length > 0 ? (
        <section aria-labelledby="featured-heading" className="flex flex-col gap-3 max-sm:order-2">
          <h2 id="featured-heading" className="text-xl font-bold">
            {t('featuredCars')}
          </h2>
          <ul className="-mx-4 flex snap-x gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:overflow-visible sm:px-0 lg:grid-cols-4">
            {featured.map((vehicle, index) => (
              <li key={vehicle.id} className="flex w-[92%] shrink-0 snap-start sm:w-auto">
                <LaterHydration id={`featured-${vehicle.id}`}>
                  <div className="h-full w-full">
                    <VehicleCard vehicle={vehicle} priority={index === 0} />
                  </div>
                </LaterHydration>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
