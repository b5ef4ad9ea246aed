import { OfflineNotice } from '../features/install/offline-notice.tsx';
import { OFFLINE_PAGE } from '../lib/offline.ts';
import { pageMeta } from '../lib/seo.ts';
import { browseText as t } from '../lib/i18n/browse.ts';

/**
 * What a visitor without a signal gets for a page their device does not hold (decision 085):
 * the service worker keeps this page from its install and sends them here (OfflineNotice).
 * The same for everyone: no loader, and the worker fetches it without cookies.
 */
export const meta = pageMeta(() => ({
  path: OFFLINE_PAGE,
  title: t('offlineTitle'),
  description: t('offlineDescription'),
  noIndex: true,
}));

export default function Offline() {
  return <OfflineNotice />;
}
