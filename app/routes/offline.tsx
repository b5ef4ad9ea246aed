import { useHref } from 'react-router';
import { RecentCarsList } from '../components/recent-cars.tsx';
import { OFFLINE_PAGE } from '../lib/offline.ts';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';
import { browseText as t } from '../lib/i18n/browse.ts';

/**
 * What a visitor without a signal gets for a page their device does not hold (decision 085):
 * the service worker keeps this page from its install and sends them here. It lists the cars
 * they opened on this device, whose pages the worker kept. The same for everyone: no loader,
 * and the worker fetches it without cookies.
 */
export const meta = pageMeta(() => ({
  path: OFFLINE_PAGE,
  title: t('offlineTitle'),
  description: t('offlineDescription'),
  noIndex: true,
}));

export default function Offline() {
  // The home page in this page's language (/hi on a Hindi page).
  const home = useHref(paths.home);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      <section className="flex flex-col gap-2 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('offlineTitle')}</h1>
        <p className="text-slate-700">{t('offlineText')}</p>
        <p>
          {/* A document link: offline, the router's own data requests cannot be answered. */}
          <a href={home} className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800">
            {t('tryHome')}
          </a>
        </p>
      </section>
      <section aria-labelledby="recent-cars-heading" className="flex flex-col gap-3">
        <h2 id="recent-cars-heading" className="text-lg font-bold">
          {t('recentCars')}
        </h2>
        {/* Read from this device after hydration: the server renders the list empty. */}
        <div data-changes-once-hydrated="">
          <RecentCarsList />
        </div>
      </section>
    </div>
  );
}
