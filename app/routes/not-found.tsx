import { data, Link } from 'react-router';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/not-found';
import { browseText as t } from '../lib/i18n/browse.ts';
import { commonText } from '../lib/i18n/common.ts';

export function loader() {
  return data(null, { status: 404 });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: location.pathname, title: commonText('pageNotFound'), noIndex: true });
}

export default function NotFound() {
  return (
    <div className="mx-auto mt-8 max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{commonText('pageNotFound')}</h1>
      <p className="mt-3 text-slate-600">{t('notFoundText')}</p>
      <Link to={paths.home} className="mt-6 inline-block rounded-xl bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
        {t('browseAvailableTitle')}
      </Link>
    </div>
  );
}
