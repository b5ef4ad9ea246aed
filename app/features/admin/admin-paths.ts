import { withoutLanguage } from '../../lib/i18n/language.ts';

/**
 * The page an action was posted from, as a path to redirect back to: without React Router's
 * data-request suffix (`/x.data`, `/_.data`) and `_routes`, and without the `drop` parameters
 * (the row being edited, the delete being confirmed).
 */
export function pageUrl(requestUrl: string, drop: string[] = []): string {
  const url = new URL(requestUrl);
  // Without the language prefix too: React Router puts the page's own (`/hi`) back on the redirect.
  const pathname = withoutLanguage(url.pathname.endsWith('/_.data') ? url.pathname.replace(/_\.data$/, '') : url.pathname.replace(/\.data$/, ''));
  for (const name of ['_routes', ...drop]) url.searchParams.delete(name);
  const search = url.searchParams.toString();
  return `${pathname}${search ? `?${search}` : ''}`;
}
