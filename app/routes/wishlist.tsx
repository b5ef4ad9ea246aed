import { listWishlist } from '../../server/accounts/wishlist.ts';
import { requireUser } from '../../server/auth/session.ts';
import { EmptyPanel, EmptyPanelLink } from '../components/empty-state.tsx';
import { RecentCarsSection } from '../features/vehicle/recent-cars.tsx';
import { VehicleCard } from '../features/vehicle/vehicle-card.tsx';
import { appContext } from '../context.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/wishlist';
import { browseText as t } from '../lib/i18n/browse.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.wishlist, title: t('myWishlist'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, database } = context.get(appContext);
  const user = await requireUser(auth, request);
  return { items: await listWishlist(database, user.id) };
}

export default function Wishlist({ loaderData }: Route.ComponentProps) {
  const { items } = loaderData;
  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('myWishlist')}</h1>
      {items.length === 0 ? (
        <>
          <EmptyPanel title={t('wishlistEmpty')} text={t('wishlistHint')}>
            <EmptyPanelLink to={paths.home}>{t('browseAvailable')}</EmptyPanelLink>
          </EmptyPanel>
          <RecentCarsSection />
        </>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {items.map((item) =>
            item.available ? (
              <li key={item.vehicle.id}>
                <VehicleCard vehicle={item.vehicle} headingLevel={2} />
              </li>
            ) : (
              <li key={item.vehicleId} className="flex flex-col justify-center gap-2 rounded-2xl bg-slate-100 p-5 ring-1 ring-slate-200">
                <h2 className="text-lg font-semibold text-slate-700">{item.title}</h2>
                <p className="text-slate-600">{t('vehicleGone')}</p>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}
