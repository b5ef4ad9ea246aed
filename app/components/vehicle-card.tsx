import { Link } from 'react-router';
import { cardPriceLabel, formatKilometres } from '../lib/format.ts';
import { paths } from '../lib/paths.ts';
import { cardTitle, type VehicleSummary } from '../lib/vehicle.ts';
import { CompareToggle } from './compare.tsx';
import { EmiFrom } from './emi-from.tsx';
import { useRootData } from './root-data.ts';
import { VehicleImage } from './vehicle-image.tsx';
import { WishlistButton } from './wishlist-button.tsx';
import { LaterHydration } from './later-hydration.tsx';

const CARD_IMAGE_SIZES = '(min-width: 1280px) 296px, (min-width: 1024px) 30vw, (min-width: 640px) 46vw, 100vw';

export function VehicleCard({ vehicle, priority = false }: { vehicle: VehicleSummary; priority?: boolean }) {
  const title = cardTitle(vehicle);
  const href = paths.vehicle(vehicle.id);
  const facts = [vehicle.year, vehicle.fuelType, vehicle.transmission, vehicle.odometer === null ? '' : formatKilometres(vehicle.odometer)].filter(Boolean);
  const { signedIn, wishlist, finance } = useRootData();
  const sold = vehicle.status === 'sold';
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 transition hover:shadow-md">
      <div className="relative">
        <VehicleImage image={vehicle.cover} alt={title} sizes={CARD_IMAGE_SIZES} priority={priority} className="aspect-[4/3] w-full" />
        <div className="absolute left-3 top-3 flex flex-col items-start gap-1.5">
          {vehicle.featured ? <span className="rounded-full bg-accent-500 px-2.5 py-1 text-xs font-bold text-slate-900">Featured</span> : null}
          {vehicle.status === 'reserved' ? <span className="rounded-full bg-slate-900/85 px-2.5 py-1 text-xs font-bold text-white">Reserved</span> : null}
          {sold ? <span className="rounded-full bg-red-600 px-2.5 py-1 text-xs font-bold text-white">Sold</span> : null}
        </div>
        {/* Above the card's link, so a tap on the heart does not open the car. */}
        <WishlistButton signedIn={signedIn} wishlisted={wishlist.includes(vehicle.id)} action={href} carName={title} className="absolute right-3 top-3 z-10" />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="text-lg font-semibold leading-snug">
          {/* The title link covers the whole card, so a tap anywhere opens the vehicle. */}
          <Link to={href} prefetch="intent" className="after:absolute after:inset-0 after:content-[''] focus:outline-none focus-visible:after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-brand-600">
            {title}
          </Link>
        </h3>
        {vehicle.variant ? <p className="text-sm text-slate-600">{vehicle.variant}</p> : null}
        {facts.length > 0 ? <p className="text-sm text-slate-600">{facts.join(' · ')}</p> : null}
        <p className="mt-2 text-base font-bold text-brand-700">{cardPriceLabel(vehicle.price)}</p>
        <EmiFrom priceRupees={sold ? null : vehicle.priceRupees} terms={finance} />
        <div className="mt-auto flex gap-2 pt-3">
          {sold ? null : <CompareToggle item={{ id: vehicle.id, title }} className="relative z-10 flex-1" />}
          <span className="inline-flex flex-1 items-center justify-center whitespace-nowrap rounded-xl bg-brand-700 px-2 py-2.5 text-sm font-semibold text-white group-hover:bg-brand-800" aria-hidden="true">
            View Details
          </span>
        </div>
      </div>
    </article>
  );
}

/**
 * `priorityFirst`: the first card's photo is loaded first (off when something above it is the
 * page's largest picture). `beside`: the grid shares the width with the filters' column.
 */
export function VehicleGrid({ vehicles, emptyText, priorityFirst = true, beside = false }: { vehicles: VehicleSummary[]; emptyText: string; priorityFirst?: boolean; beside?: boolean }) {
  if (vehicles.length === 0) return <p className="py-6 text-center text-slate-600">{emptyText}</p>;
  return (
    <ul className={`grid grid-cols-1 gap-4 sm:grid-cols-2 ${beside ? 'xl:grid-cols-3' : 'lg:grid-cols-3 xl:grid-cols-4'}`}>
      {vehicles.map((vehicle, index) => (
        // Cards after the first are laid out and painted only as they near the screen (their
        // size until then is a card's, then the size last seen): a phone draws the first screen
        // sooner (decision 043).
        <li key={vehicle.id} className={index === 0 ? 'flex' : 'flex [contain-intrinsic-size:auto_28rem] [content-visibility:auto]'}>
          <LaterHydration id={`card-${vehicle.id}`}>
            <div className="h-full w-full">
              <VehicleCard vehicle={vehicle} priority={priorityFirst && index === 0} />
            </div>
          </LaterHydration>
        </li>
      ))}
    </ul>
  );
}
