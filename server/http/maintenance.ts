import type { MiddlewareHandler } from 'hono';
import type { AppServices } from '../services.ts';
import { settingsFor } from '../admin/settings.ts';
import { standalonePage } from './standalone-page.ts';
import { edgeRefusal } from './problem.ts';
import { adminPaths, isUnder, paths } from '../../app/lib/paths.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';
import { withoutLanguage } from '../../app/lib/i18n/language.ts';

/** Paths that keep working in maintenance mode: the admin panel, signing in, and what they need. */
const ALWAYS_OPEN = [
  adminPaths.root,
  adminPaths.dashboard,
  adminPaths.login,
  adminPaths.setup,
  paths.login,
  paths.signup,
  paths.logout,
  paths.authContinue,
  paths.devOutbox,
  // Served by the Hono app itself (server/http/app.ts), not pages.
  '/api/auth',
  '/api/bot-check',
  '/assets',
  '/media',
  '/healthz',
  '/favicon',
];

/** The path is one of ALWAYS_OPEN, below one, or one with a suffix (`/login.data`, `/favicon.ico`). */
function isAlwaysOpen(path: string): boolean {
  return ALWAYS_OPEN.some((open) => isUnder(path, open) || path.startsWith(`${open}.`));
}

/**
 * Maintenance Mode (admin Settings): public pages answer 503 with a short page, so search
 * engines keep their index and come back later; the admin panel and sign-in keep working.
 */
export function maintenanceMode(services: AppServices): MiddlewareHandler {
  return async (c, next) => {
    // Hindi pages (/hi/…) are open or closed as their English twins (decision 087).
    const path = withoutLanguage(c.req.path);
    if (isAlwaysOpen(path)) return next();
    const settings = await settingsFor(services);
    if (!settings.maintenanceMode) return next();
    const text = t('maintenanceText', { site: settings.siteName });
    const headers = { 'Retry-After': '600', 'Cache-Control': 'no-store' };
    return edgeRefusal(c, 503, text, headers, () =>
      c.html(
        standalonePage({
          title: t('maintenanceTitle', { site: settings.siteName }),
          heading: t('maintenanceHeading'),
          text,
          phone: services.config.sellerPhone,
        }),
        503,
        headers,
      ),
    );
  };
}
