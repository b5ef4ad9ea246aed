import type { MiddlewareHandler } from 'hono';
import type { AppServices } from '../services.ts';
import { settingsFor } from '../admin/settings.ts';
import { escapeHtml } from '../html.ts';
import { adminPaths, isUnder, paths } from '../../app/lib/paths.ts';

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
    const path = c.req.path;
    if (isAlwaysOpen(path)) return next();
    const settings = await settingsFor(services.database, services.config);
    if (!settings.maintenanceMode) return next();
    const name = escapeHtml(settings.siteName);
    const html = `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${name} is under maintenance</title><style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0;padding:1rem}main{max-width:28rem;text-align:center;background:#fff;border-radius:1rem;padding:2rem;box-shadow:0 1px 3px #0002}</style></head><body><main><h1>We'll be back soon</h1><p>${name} is being updated. Please check again in a little while.</p><p>Call or WhatsApp us meanwhile: <a href="tel:${escapeHtml(services.config.sellerPhone)}">${escapeHtml(services.config.sellerPhone)}</a></p></main></body></html>`;
    return c.html(html, 503, { 'Retry-After': '600', 'Cache-Control': 'no-store' });
  };
}
