import { appContext } from '../context.ts';
import type { Route } from './+types/assetlinks';

/**
 * Digital Asset Links (decision 121): the Android app built from this site's manifest (a Trusted
 * Web Activity, docs/android-app.md) opens the site full screen, without the browser's address
 * bar, only when the site names the app's package and signing certificates here. Without them
 * (ANDROID_PACKAGE and ANDROID_CERT_SHA256 unset) there is no app to vouch for: 404.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(appContext);
  if (!config.androidApp)
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  const statements = [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: { namespace: 'android_app', package_name: config.androidApp.packageName, sha256_cert_fingerprints: config.androidApp.certificates },
    },
  ];
  return new Response(JSON.stringify(statements), { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' } });
}
