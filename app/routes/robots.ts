import { appContext } from '../context.ts';
import type { Route } from './+types/robots';

export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(appContext);
  const body = [
    'User-agent: *',
    'Allow: /',
    // Pages about one visitor and the admin panel have nothing for a search engine.
    'Disallow: /admin',
    'Disallow: /admin-panel',
    'Disallow: /admin-login',
    'Disallow: /setup-admin',
    'Disallow: /profile',
    'Disallow: /wishlist',
    'Disallow: /api/',
    // The same pages in Hindi (decision 087).
    'Disallow: /hi/admin',
    'Disallow: /hi/admin-panel',
    'Disallow: /hi/admin-login',
    'Disallow: /hi/setup-admin',
    'Disallow: /hi/profile',
    'Disallow: /hi/wishlist',
    '',
    `Sitemap: ${config.siteOrigin}/sitemap.xml`,
    `Sitemap: ${config.siteOrigin}/hi/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
