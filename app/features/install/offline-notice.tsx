import { useHref } from 'react-router';
import { RecentCarsList } from '../vehicle/recent-cars.tsx';
import { paths } from '../../lib/paths.ts';
import { browseText as t } from '../../lib/i18n/browse.ts';

/**
 * What a visitor without a signal reads for a page their device does not hold (decision 085):
 * the offline page itself, and the root's error boundary when a link inside the app found no
 * network. It lists the cars they opened on this device, whose pages the service worker kept.
 */
export function OfflineNotice() {
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
