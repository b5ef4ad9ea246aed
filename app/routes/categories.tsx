import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { listCategories, listVehicles } from '../../server/catalog/vehicles.ts';
import { settingsFor } from '../../server/admin/settings.ts';
import { Pagination } from '../components/pagination.tsx';
import { VehicleGrid } from '../components/vehicle-card.tsx';
import { appContext } from '../context.ts';
import { parsePage } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/categories';

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { database } = services;
  const { itemsPerPage } = await settingsFor(services);
  const url = new URL(request.url);
  const categories = await listCategories(database);
  // The first category is chosen until the visitor picks another.
  const selected = categories.find((category) => category.slug === url.searchParams.get('category')) ?? categories[0] ?? null;
  const page = parsePage(url.searchParams.get('page'));
  const vehicles = selected
    ? await listVehicles(database, { categoryId: selected.id, page, perPage: itemsPerPage }, services.listingTotals)
    : null;
  return { categories: categories.map(({ id, name, slug, vehicleCount }) => ({ id, name, slug, vehicleCount })), selected, vehicles };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const selected = loaderData?.selected;
  return seo({
    site,
    path: selected ? paths.categories(selected.slug) : paths.categories(),
    title: selected ? `${selected.name} for sale` : 'Browse by Category',
    description: selected
      ? `Refurbished and used ${selected.name.toLowerCase()} for sale and rent: photos, prices in rupees and inspection reports.`
      : 'Browse our refurbished cars and rental cars by category.',
  });
}

export default function Categories({ loaderData }: Route.ComponentProps) {
  const { categories, selected, vehicles } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const loading = navigation.state === 'loading' && navigation.location.pathname === paths.categories();

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Browse by Category</h1>
      {categories.length === 0 ? (
        <p className="text-slate-600">No content available.</p>
      ) : (
        <Form method="get" className="flex flex-wrap items-end gap-3" onChange={(event) => void submit(event.currentTarget)}>
          <div className="flex flex-col gap-1">
            <label htmlFor="category" className="font-semibold">
              Select a Category:
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
                  {category.name} ({category.vehicleCount})
                </option>
              ))}
            </select>
          </div>
          {/* Without JavaScript the choice is sent with this button. */}
          <noscript>
            <button type="submit" className="rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white">
              Show
            </button>
          </noscript>
        </Form>
      )}

      {selected && vehicles ? (
        <section aria-labelledby="category-heading" className="flex flex-col gap-4">
          <h2 id="category-heading" className="text-xl font-bold">
            {selected.name} Vehicles
          </h2>
          {loading ? (
            <p role="status" className="py-6 text-center text-slate-600">
              Loading...
            </p>
          ) : (
            <>
              {vehicles.total === 0 && selected.fleetCount > 0 ? (
                <p className="rounded-2xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">
                  The cars of this category are rented out self-drive, not sold.{' '}
                  <Link to={paths.rent()} className="font-semibold text-brand-700 underline">
                    See the rental cars
                  </Link>
                </p>
              ) : (
                <VehicleGrid vehicles={vehicles.items} emptyText="No content available." />
              )}
              <Pagination page={vehicles.page} pageCount={vehicles.pageCount} hrefFor={(page) => `${paths.categories(selected.slug)}${page > 1 ? `&page=${page}` : ''}`} />
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
