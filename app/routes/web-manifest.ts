import { settingsFor } from '../../server/admin/settings.ts';
import { appContext } from '../context.ts';
import { webAppManifest } from '../features/install/web-manifest.ts';
import { currentLanguage } from '../lib/i18n/current.ts';
import type { Route } from './+types/web-manifest';

/** The web app manifest (decision 085), named as the admins name the site, in the page's language (/hi/manifest.webmanifest). */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { siteName } = await settingsFor(services);
  return new Response(JSON.stringify(webAppManifest(siteName, currentLanguage())), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
