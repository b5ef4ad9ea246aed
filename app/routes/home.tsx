import { useEffect, useRef } from 'react';
import { Form, Link, useLocation, useNavigation } from 'react-router';
import { loadListingPage } from '../../server/catalog/listing-page.ts';
import { settingsFor } from '../../server/admin/settings.ts';
import { listFeaturedVehicles } from '../../server/catalog/featured.ts';
import { MAX_SEARCH_LENGTH } from '../features/search/search.ts';
import { Pagination } from '../components/pagination.tsx';
import { FilteredListing, HiddenFields, NoMatchingCars } from '../features/listing/listing-filters.tsx';
import { EmptyPanel, EmptyPanelLink } from '../components/empty-state.tsx';
import { HOME_LISTING } from '../features/listing/listing-view.ts';
import { listingParameters, readListingQuery } from '../features/listing/schemas.ts';
import { pageQuery } from '../lib/page-query.ts';
import { SearchIcon } from '../components/icons.tsx';
import { VehicleGrid } from '../features/vehicle/vehicle-card.tsx';
import { Storefront } from '../features/storefront/storefront.tsx';
import { FEATURED_ON_HOME, showsStorefront, trustPointList } from '../lib/storefront.ts';
import { appContext } from '../context.ts';
import { vehiclesFoundText } from '../lib/format.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/home';
import { SearchedForNote, SearchSuggestions } from '../features/search/spelling-help.tsx';
import { homeText as t } from '../features/storefront/home-texts.ts';
import { browseText } from '../lib/i18n/browse.ts';
import { commonText } from '../lib/i18n/common.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const settings = await settingsFor(services);
  const query = pageQuery(new URL(request.url), listingParameters);
  const storefront = showsStorefront(query)
    ? {
        promise: settings.storefrontPromise,
        trustPoints: trustPointList(settings.trustPoints),
        featured: await listFeaturedVehicles(services.database, FEATURED_ON_HOME),
      }
    : null;
  // Filter values that mean nothing are dropped, as odd page numbers are (decision 023).
  const { term, filters, sort, page } = readListingQuery(query);
  const listing = await loadListingPage(services, { scope: HOME_LISTING, term, filters, sort, page, perPage: settings.itemsPerPage });
  return { term, storefront, ...listing };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const term = loaderData?.term ?? '';
  return seo({
    site,
    path: loaderData?.canonicalPath ?? paths.home,
    noIndex: loaderData ? !loaderData.indexable : false,
    followLinks: true,
    ...(term
      ? {
          title: t('searchTitle', { term }),
          description: t('searchDescription', { total: loaderData?.total ?? 0, term }),
        }
      : {}),
  });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { term, items, total, page, pageCount, storefront, filtersView, pageHrefs } = loaderData;
  const filtered = filtersView.activeCount > 0;
  const location = useLocation();
  const navigation = useNavigation();
  const searchInput = useRef<HTMLInputElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const state = location.state as { focusSearch?: boolean; fromSearch?: boolean } | null;
  const searching = navigation.state !== 'idle' && navigation.location?.pathname === paths.home;

  // The bottom bar's Search comes here asking for the search box; the overlay's search
  // arrives flagged fromSearch and moves focus to the results for screen readers.
  useEffect(() => {
    if (state?.focusSearch) searchInput.current?.focus();
    else if (state?.fromSearch) resultsHeading.current?.focus();
  }, [location.key, state?.focusSearch, state?.fromSearch]);

  return (
    <div className="flex flex-col gap-6 max-sm:gap-4">
      {storefront ? <Storefront promise={storefront.promise} trustPoints={storefront.trustPoints} featured={storefront.featured} /> : null}
      <section className="flex flex-col gap-4 max-sm:gap-3">
        <h1 className="text-2xl font-extrabold tracking-tight max-sm:text-xl sm:text-3xl">{t('availableVehicles')}</h1>
        <Form method="get" action={paths.home} role="search" className="flex gap-2">
          {/* A new search keeps the filters and the order. */}
          <HiddenFields view={filtersView} keep={(name) => name !== 'q'} />
          <label htmlFor="home-search" className="sr-only">
            {commonText('searchVehicles')}
          </label>
          <div className="relative flex-1">
            <SearchIcon className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-400" />
            <input
              ref={searchInput}
              key={term}
              id="home-search"
              type="search"
              name="q"
              defaultValue={term}
              placeholder={browseText('searchPlaceholder')}
              maxLength={MAX_SEARCH_LENGTH}
              enterKeyHint="search"
              className="w-full rounded-xl border border-slate-300 bg-white py-3 pl-10 pr-3 text-base shadow-sm outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100"
            />
          </div>
          <button type="submit" className="rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
            {searching ? browseText('searching') : commonText('search')}
          </button>
        </Form>
      </section>

      <section aria-labelledby="results-heading" className="flex flex-col gap-4 max-sm:gap-3">
        <div>
          <h2 id="results-heading" ref={resultsHeading} tabIndex={-1} className={term ? 'text-xl font-bold outline-none' : 'sr-only'}>
            {term ? t('searchResultsFor', { term }) : t('vehiclesForSale')}
          </h2>
          {term || filtered ? (
            <p className="text-slate-600" role="status">
              {vehiclesFoundText(total, loaderData.totalCapped)}
            </p>
          ) : null}
          <SearchedForNote spelling={loaderData.spelling} />
        </div>

        <FilteredListing view={filtersView} total={total} totalCapped={loaderData.totalCapped}>
          {items.length === 0 && filtered ? (
            <NoMatchingCars view={filtersView} />
          ) : items.length === 0 ? (
            <EmptyPanel title={term ? t('noVehiclesFoundFor', { term }) : t('noVehiclesFound')} text={term ? t('tryDifferent') : t('checkBackLater')}>
              <SearchSuggestions spelling={loaderData.spelling} />
              {term ? <EmptyPanelLink to={paths.home}>{t('browseAll')}</EmptyPanelLink> : null}
            </EmptyPanel>
          ) : (
            <VehicleGrid vehicles={items} emptyText={t('noVehiclesFoundDot')} priorityFirst={!storefront?.featured.length} beside />
          )}
          <Pagination page={page} pageCount={pageCount} hrefFor={(target) => (target < page ? pageHrefs.previous : pageHrefs.next)} />
        </FilteredListing>
      </section>

      <section className="rounded-2xl bg-brand-50 p-6 text-center ring-1 ring-brand-100">
        <h2 className="text-xl font-bold">{t('cantFind')}</h2>
        <p className="mt-2 text-slate-700">{t('tellUs')}</p>
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <Link to={paths.contact} className="rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
            {t('contactUs')}
          </Link>
          <Link to={paths.requestVehicle} className="rounded-xl bg-white px-5 py-3 font-semibold text-brand-700 ring-1 ring-brand-100 hover:bg-brand-100">
            {t('requestAVehicle')}
          </Link>
        </div>
      </section>
    </div>
  );
}
