import { Link } from 'react-router';
import { cardPriceLabel, cardPriceParts, formatKilometres, priceLabel } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { cardTitle, type VehicleSummary } from '../../lib/vehicle.ts';
import { CompareToggle } from '../compare/compare.tsx';
import { EmiFrom } from '../emi/emi-from.tsx';
import { useRootData } from '../../components/root-data.ts';
import { VehicleImage } from './vehicle-image.tsx';
import { WishlistButton } from '../wishlist/wishlist-button.tsx';
import { LaterHydration } from '../../components/later-hydration.tsx';
import { CardReserveButton } from '../reservations/reserve-button.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';
import { priceIncludesText } from '../../lib/storefront.ts';
import { typedFuelText, typedTransmissionText } from '../../lib/listing-filters/options.ts';

// On a phone the photo takes 40% of the card's width (photo left, details right).
const CARD_IMAGE_SIZES = '(min-width: 1280px) 296px, (min-width: 1024px) 30vw, (min-width: 640px) 46vw, 40vw';

/**
 * A car for sale in a list. From 640 px up a photo above its details; on a phone a row, the
 * photo left and the details right, as the big used-car sites draw them there, so that two or
 * three cars fit on a screen instead of one (decision 063). The whole card opens the car. Its
 * title is a heading one level below the list's own: h3 under a section's h2, h2 straight under
 * the page's h1 (the wishlist), so a screen reader's outline skips no level.
 */
export function VehicleCard({ vehicle, priority = false, headingLevel = 3 }: { vehicle: VehicleSummary; priority?: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const title = cardTitle(vehicle);
  const href = paths.vehicle(vehicle.id);
  const facts = [
    vehicle.year,
    typedFuelText(vehicle.fuelType),
    typedTransmissionText(vehicle.transmission),
    vehicle.odometer === null ? '' : formatKilometres(vehicle.odometer),
  ].filter(Boolean);
  const { finance, priceIncludes, reserve } = useRootData();
  const sold = vehicle.status === 'sold';
  const price = cardPriceParts(vehicle.price);
  const badge = 'rounded-full px-2.5 py-1 text-xs font-bold max-sm:px-2 max-sm:py-0.5 max-sm:text-[11px]';
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 transition hover:shadow-md max-sm:flex-row">
      <div className="relative max-sm:w-2/5 max-sm:shrink-0 max-sm:self-start">
        <VehicleImage image={vehicle.cover} alt={title} sizes={CARD_IMAGE_SIZES} priority={priority} className="aspect-[4/3] w-full" />
        <div className="absolute left-3 top-3 flex flex-col items-start gap-1.5 max-sm:left-1.5 max-sm:top-1.5 max-sm:gap-1">
          {vehicle.featured ? <span className={`${badge} bg-accent-500 text-slate-900`}>{t('featured')}</span> : null}
          {vehicle.status === 'reserved' ? <span className={`${badge} bg-slate-900/85 text-white`}>{t('reserved')}</span> : null}
          {sold ? <span className={`${badge} bg-red-600 text-white`}>{t('sold')}</span> : null}
        </div>
        {/* Above the card's link, so a tap on the heart does not open the car. */}
        <WishlistButton vehicleId={vehicle.id} action={href} carName={title} className="absolute right-3 top-3 z-10 max-sm:right-1 max-sm:top-1 max-sm:p-2.5" />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4 max-sm:min-w-0 max-sm:gap-0.5 max-sm:py-2 max-sm:pl-3 max-sm:pr-2">
        <Heading className="text-lg font-semibold leading-snug max-sm:truncate max-sm:text-[15px]">
          {/* The title link covers the whole card, so a tap anywhere opens the vehicle. */}
          <Link
            to={href}
            prefetch="intent"
            className="after:absolute after:inset-0 after:content-[''] focus:outline-none focus-visible:after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-brand-600"
          >
            {title}
          </Link>
        </Heading>
        {vehicle.variant ? <p className="text-sm text-slate-600 max-sm:hidden">{vehicle.variant}</p> : null}
        {/* On a phone the variant leads the facts, two lines at most. */}
        {facts.length > 0 || vehicle.variant ? (
          <p className="text-sm text-slate-600 max-sm:line-clamp-2 max-sm:text-xs">
            {vehicle.variant ? <span className="sm:hidden">{facts.length > 0 ? `${vehicle.variant} · ` : vehicle.variant}</span> : null}
            {facts.join(' · ')}
          </p>
        ) : null}
        <p className="mt-2 text-base font-bold text-brand-700 max-sm:mt-1 max-sm:text-sm" title={priceIncludes ? priceIncludesText(priceIncludes) : undefined}>
          {price ? (
            <>
              <span className="text-xs font-semibold text-slate-600 max-sm:text-[11px] max-sm:font-medium">{price.label}</span> {price.amount}
            </>
          ) : (
            cardPriceLabel(vehicle.price)
          )}
        </p>
        <EmiFrom priceRupees={sold ? null : vehicle.priceRupees} terms={finance} className="max-sm:text-xs" />
        {reserve && vehicle.status === 'available' ? <CardReserveButton vehicleId={vehicle.id} amount={reserve.amount} carName={title} /> : null}
        <div className="mt-auto flex gap-2 pt-3 max-sm:p-0">
          {/* On a phone Compare sits on the photo's bottom left: the photo is 40% of the card's
              width at 4:3, so its bottom is 30% of the width down, and a margin in percent is
              a share of the width. */}
          {sold ? null : (
            <CompareToggle
              item={{ id: vehicle.id, title }}
              compact
              className="relative z-10 flex-1 max-sm:absolute max-sm:left-1.5 max-sm:top-0 max-sm:mt-[calc(30%-2.25rem)]"
            />
          )}
          <span
            className="inline-flex flex-1 items-center justify-center whitespace-nowrap rounded-xl bg-brand-700 px-2 py-2.5 text-sm font-semibold text-white group-hover:bg-brand-800 max-sm:hidden"
            aria-hidden="true"
          >
            {t('viewDetails')}
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
export function VehicleGrid({
  vehicles,
  emptyText,
  priorityFirst = true,
  beside = false,
}: {
  vehicles: VehicleSummary[];
  emptyText: string;
  priorityFirst?: boolean;
  beside?: boolean;
}) {
  if (vehicles.length === 0) return <p className="py-6 text-center text-slate-600">{emptyText}</p>;
  return (
    <>
      <ul className={`grid grid-cols-1 gap-4 sm:grid-cols-2 ${beside ? 'xl:grid-cols-3' : 'lg:grid-cols-3 xl:grid-cols-4'}`}>
        {vehicles.map((vehicle, index) => (
          // Cards after the first are laid out and painted only as they near the screen (their
          // size until then is a card's, then the size last seen): a phone draws the first screen
          // sooner (decision 043).
          <li
            key={vehicle.id}
            className={index === 0 ? 'flex' : 'flex [contain-intrinsic-size:auto_28rem] [content-visibility:auto] max-sm:[contain-intrinsic-size:auto_8rem]'}
          >
            <LaterHydration id={`card-${vehicle.id}`}>
              <div className="h-full w-full">
                <VehicleCard vehicle={vehicle} priority={priorityFirst && index === 0} />
              </div>
            </LaterHydration>
          </li>
        ))}
      </ul>
      <PriceIncludesNote />
    </>
  );
}

/** What the one price label includes (the admin's words, decision 062), said once under a list of cards. */
export function PriceIncludesNote({ className = '' }: { className?: string }) {
  const { priceIncludes } = useRootData();
  if (!priceIncludes) return null;
  return (
    <p className={`text-xs text-slate-600 ${className}`}>
      {t('priceIncludesNote', { label: priceLabel(), includes: priceIncludesText(priceIncludes).replace(/[.।]$/, '') })}
    </p>
  );
}
