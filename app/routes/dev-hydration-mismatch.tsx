import { data } from 'react-router';
import { appContext } from '../context.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/dev-hydration-mismatch';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.devHydrationMismatch, title: 'Hydration mismatch', noIndex: true });
}

/**
 * Test mode only, 404 elsewhere: a page the browser renders unlike the server, on purpose. The
 * browser's Preact reports no hydration mismatch (decision 039); tests/e2e/hydration.test.ts
 * compares every page after hydration with the server's HTML and must catch this one.
 */
export async function loader({ context }: Route.LoaderArgs) {
  if (context.get(appContext).config.mode !== 'test') throw data(null, { status: 404 });
  return null;
}

export default function DevHydrationMismatch() {
  const renderer = typeof document === 'undefined' ? 'server' : 'browser';
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-extrabold tracking-tight">Rendered by the {renderer}</h1>
    </div>
  );
}
