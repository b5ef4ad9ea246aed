import { adminShellText as t } from './admin-shell-texts.ts';

/**
 * What the admin pages show that the server decides as well: the pages render these, the
 * server (server/admin/) applies them, so they live here where both may import them.
 */

/** The admin guard's refusal (server/admin/guard.ts answers 403; the admin layout says this), in the page's language. */
export function accessDenied(): { title: string; message: string } {
  return { title: t('accessDeniedTitle'), message: t('accessDeniedMessage') };
}

/** The choices of the Settings screen's items-per-page (SPEC 2, Admin settings). */
export const ITEMS_PER_PAGE_OPTIONS = [5, 10, 25, 50] as const;

/** How many days the statistics chart covers. */
export const CHART_DAYS = 30;
