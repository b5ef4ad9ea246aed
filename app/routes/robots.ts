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
    '',
    `Sitemap: ${config.siteOrigin}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
