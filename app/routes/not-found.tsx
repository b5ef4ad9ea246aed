import { data } from 'react-router';
import { MissingPage } from '../components/empty-state.tsx';
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
  return <MissingPage title={commonText('pageNotFound')} text={t('notFoundText')} to={paths.home} action={t('browseAvailableTitle')} />;
}
