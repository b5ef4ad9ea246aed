import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { withoutLanguage } from '../../app/lib/i18n/language.ts';

/**
 * The `route` label of a request in /metrics: the pattern of the route that answers it
 * (`/vehicle/:id`, `/api/v1/me/test-drives/:id/cancel`), never the path itself, so the number of
 * label values stays that of the routes whatever addresses visitors (or scanners) ask for.
 * A Hindi page counts under its English pattern (decision 087: the same route under /hi); a
 * path no route names, the not-found page included, is `other` (`static` when it names a file).
 */

export type RouteLabeller = (pathname: string) => string;

/** Paths the edge answers itself, before any page or API route. */
const FIXED: ReadonlyArray<[prefix: string, label: string]> = [
  ['/media/', '/media/*'],
  ['/assets/', '/assets/*'],
  ['/api/auth/', '/api/auth/*'],
  ['/dev/payments/', '/dev/payments/*'],
];

/** The page routes of a build as the nested route objects React Router matches against. */
function pageRouteTree(routes: ServerBuild['routes']): RouteObject[] {
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const object = (route.index ? { id: route.id, index: true, path: route.path } : { id: route.id, path: route.path, children: [] }) as RouteObject;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(object);
    children.set(route.parentId, siblings);
  }
  const attach = (objects: RouteObject[]): RouteObject[] =>
    objects.map((object) => (object.index ? object : { ...object, children: attach(children.get(object.id) ?? []) }));
  return attach(children.get(undefined) ?? []);
}

/** `/api/v1/vehicles/:id` as a test of a path. */
function apiPattern(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

export function createRouteLabeller(options: { exact: readonly string[]; apiRoutes: readonly string[]; pages: ServerBuild['routes'] | null }): RouteLabeller {
  const exact = new Set(options.exact);
  // Fixed paths first, so `/api/v1/vehicles/compare` is not taken for `/api/v1/vehicles/:id`.
  const api = [...new Set(options.apiRoutes)]
    .sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')))
    .map((path) => ({ path, pattern: apiPattern(path) }));
  const tree = options.pages ? pageRouteTree(options.pages) : [];
  return (pathname) => {
    if (exact.has(pathname)) return pathname;
    for (const [prefix, label] of FIXED) if (pathname.startsWith(prefix)) return label;
    if (pathname.startsWith('/api/')) return api.find((route) => route.pattern.test(pathname))?.path ?? 'other';
    const matches = matchRoutes(tree, withoutLanguage(pathname));
    const leaf = matches?.[matches.length - 1]?.route;
    // A file of public/ (favicon.svg, the service worker) or a name nothing serves.
    if (!matches || !leaf || leaf.path === '*') return /\.[a-z0-9]+$/i.test(pathname) ? 'static' : 'other';
    const pattern = matches
      .map((match) => match.route.path)
      .filter((path): path is string => Boolean(path))
      .join('/');
    return `/${pattern}`;
  };
}
