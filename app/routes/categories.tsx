import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { listCategories } from '../../server/catalog/vehicles.ts';
import { loadListingPage } from '../../server/catalog/listing-page.ts';
import { settingsFor } from '../../server/admin/settings.ts';
import { FilteredListing, HiddenFields, NoMatchingCars } from '../features/listing/listing-filters.tsx';
import { Pagination } from '../components/pagination.tsx';
import { VehicleGrid } from '../features/vehicle/vehicle-card.tsx';
import { appContext } from '../context.ts';
import { vehiclesFoundText } from '../lib/format.ts';
import { categoryListing } from '../features/listing/listing-view.ts';
import { listingParameters, readListingQuery } from '../features/listing/schemas.ts';
import { pageQuery } from '../lib/page-query.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { photoShareImage } from '../lib/share-image.ts';
import type { Route } from './+types/categories';
import { SearchedForNote, SearchSuggestions } from '../features/search/spelling-help.tsx';
import { homeText as t } from '../features/storefront/home-texts.ts';
import { dealerWord } from '../lib/dealer-words.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { itemsPerPage } = await settingsFor(services);
  const categories = await listCategories(services.database);
  // The home listing's filters, sort and search, within the category (decision 038).
  const { category, term, filters, sort, page } = readListingQuery(pageQuery(new URL(request.url), listingParameters));
  // The first category is chosen until the visitor picks another.
  const selected = categories.find(({ slug }) => slug === category) ?? categories[0] ?? null;
  const listing = selected
    ? await loadListingPage(services, { scope: categoryListing(selected.slug), categoryId: selected.id, term, filters, sort, page, perPage: itemsPerPage })
    : null;
  // Category names in the page's language (the demo's have Hindi names, decision 101), named here so the page's script need not carry the table.
  return {
    categories: categories.map(({ id, name, slug, vehicleCount, fleetCount }) => ({ id, name: dealerWord(name), slug, vehicleCount, fleetCount })),
    selected: selected && { ...selected, name: dealerWord(selected.name) },
    term,
    listing,
  };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const selected = loaderData?.selected;
  const listing = loaderData?.listing;
  return seo({
    site,
    path: listing?.canonicalPath ?? paths.categories(),
    noIndex: listing ? !listing.indexable : false,
    followLinks: true,
    title: selected ? categoryTitle(selected) : t('browseByCategory'),
    description: selected ? categoryDescription(selected) : t('categoriesDescription'),
    // The category's own photo when it has one; else the site's card (seo's default).
    ...(selected?.image ? { image: photoShareImage(selected.image, t('categoryImageAlt', { name: selected.name, site: site.siteName })) } : {}),
  });
}

/** What a category holds: cars for sale, self-drive cars for rent, or both (an empty one is for sale). */
function categoryHolds({ vehicleCount, fleetCount }: { vehicleCount: number; fleetCount: number }): 'sale' | 'rent' | 'both' {
  if (fleetCount === 0) return 'sale';
  return vehicleCount === 0 ? 'rent' : 'both';
}

/** A category's page title by what it holds: "SUVs for sale", "Rental Cars for self-drive rent" (never "for sale" when none is). */
function categoryTitle(category: { name: string; vehicleCount: number; fleetCount: number }): string {
  const key = { sale: 'categoryForSale', rent: 'categoryForRent', both: 'categoryForSaleAndRent' } as const;
  return t(key[categoryHolds(category)], { name: category.name });
}

function categoryDescription(category: { name: string; vehicleCount: number; fleetCount: number }): string {
  const key = { sale: 'categoryDescriptionSale', rent: 'categoryDescriptionRent', both: 'categoryDescription' } as const;
  return t(key[categoryHolds(category)], { name: category.name.toLowerCase() });
}

/**
 * A category in the picker with what it holds: its cars for sale, and its self-drive cars when it
 * has any ("Rental Cars (7 for rent)"), so a category of rental cars does not read as empty.
 */
function categoryOption({ name, vehicleCount, fleetCount }: { name: string; vehicleCount: number; fleetCount: number }): string {
  const holds = categoryHolds({ vehicleCount, fleetCount });
  if (holds === 'sale') return t('categoryOption', { name, count: vehicleCount });
  if (holds === 'rent') return t('categoryOptionForRent', { name, count: fleetCount });
  return t('categoryOptionBoth', { name, sale: vehicleCount, rent: fleetCount });
}

export default function Categories({ loaderData }: Route.ComponentProps) {
  const { categories, selected, term, listing } = loaderData;
  const filtered = (listing?.filtersView.activeCount ?? 0) > 0;
  const navigation = useNavigation();
  const submit = useSubmit();
  const loading = navigation.state === 'loading' && navigation.location.pathname === paths.categories();

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('browseByCategory')}</h1>
      {categories.length === 0 ? (
        <p className="text-slate-600">{t('noContent')}</p>
      ) : (
        <Form method="get" className="flex flex-wrap items-end gap-3" onChange={(event) => void submit(event.currentTarget)}>
          <div className="flex flex-col gap-1">
            <label htmlFor="category" className="font-semibold">
              {t('selectCategory')}
            </label>
            <select
              id="category"
              name="category"
              defaultValue={selected?.slug}
              key={selected?.slug}
              className="min-w-56 rounded-xl border border-slate-300 bg-white px-3 py-3 text-base shadow-sm"
            >
              {categories.map((category) => (
                <option key={category.id} value={category.slug}>
                  {categoryOption(category)}
                </option>
              ))}
            </select>
          </div>
          {/* Another category keeps the order but starts without filters: its makes, models and counts are its own. */}
          {listing ? <HiddenFields view={listing.filtersView} keep={(name) => name === 'sort'} /> : null}
          {/* Without JavaScript the choice is sent with this button. */}
          <noscript>
            <button type="submit" className="rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white">
              {t('show')}
            </button>
          </noscript>
        </Form>
      )}

      {selected && listing ? (
        <section aria-labelledby="results-heading" className="flex flex-col gap-4">
          <div>
            <h2 id="results-heading" tabIndex={-1} className="text-xl font-bold outline-none">
              {selected.name}
            </h2>
            {term || filtered ? (
              <p className="text-slate-600" role="status">
                {vehiclesFoundText(listing.total, listing.totalCapped)}
              </p>
            ) : null}
            <SearchedForNote spelling={listing.spelling} />
          </div>
          <FilteredListing view={listing.filtersView} total={listing.total} totalCapped={listing.totalCapped}>
            {loading ? (
              <p role="status" className="py-6 text-center text-slate-600">
                {t('loading')}
              </p>
            ) : (
              <>
                {listing.total === 0 && filtered ? (
                  <NoMatchingCars view={listing.filtersView} />
                ) : listing.total === 0 && selected.fleetCount > 0 ? (
                  <p className="rounded-2xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">
                    {t('rentedOut')}{' '}
                    <Link to={paths.rent()} className="font-semibold text-brand-700 underline">
                      {t('seeTheRentalCars')}
                    </Link>
                  </p>
                ) : (
                  <>
                    <VehicleGrid vehicles={listing.items} emptyText={t('noContent')} beside />
                    <SearchSuggestions spelling={listing.spelling} />
                  </>
                )}
                <Pagination
                  page={listing.page}
                  pageCount={listing.pageCount}
                  hrefFor={(target) => (target < listing.page ? listing.pageHrefs.previous : listing.pageHrefs.next)}
                />
              </>
            )}
          </FilteredListing>
        </section>
      ) : null}
    </div>
  );
}
