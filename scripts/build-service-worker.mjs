// Builds the service worker (pwa/sw.ts) over the client build's output (decision 085): no PWA
// plugin supports React Router 8's build, so this runs after `react-router build`.
//  1. The build's name: a hash of its hashed file names, so it changes whenever a file does.
//  2. The worker bundled into one classic script with Vite (Serwist inside, the name as __BUILD_ID__).
//  3. @serwist/build's injectManifest writes build/client/sw.js with the precache list: the
//     offline page and what it needs to show (the browser entry, the root, layout and offline
//     route modules with their imports and styles, read from React Router's manifest). Every
//     other file is kept the first time a page asks for it: a phone on a weak signal should not
//     download every admin screen's code to install the app.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { injectManifest } from '@serwist/build';
import { build } from 'vite';
import { OFFLINE_PAGE } from '../app/lib/offline.ts';
import { LANGUAGES, pathInLanguage } from '../app/lib/i18n/language.ts';

const root = path.resolve(import.meta.dirname, '..');
const client = path.join(root, 'build/client');
const assets = readdirSync(path.join(client, 'assets'))
  .filter((name) => !/\.(br|gz)$/.test(name))
  .sort();

const buildId = createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 12);

/** React Router's browser manifest (`window.__reactRouterManifest={…}`), whose name carries its hash. */
function routerManifest() {
  const file = assets.find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error('build-service-worker: no React Router manifest in build/client/assets; run react-router build first');
  const source = readFileSync(path.join(client, 'assets', file), 'utf8');
  return { file, manifest: JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) };
}

/** The files the offline page loads: the entry and the routes it renders, with their imports and styles. */
function offlinePageFiles() {
  const { file, manifest } = routerManifest();
  const routeIds = ['root', 'routes/site-layout', 'routes/offline'];
  const modules = [
    manifest.entry,
    ...routeIds.map((id) => {
      const route = manifest.routes[id];
      if (!route) throw new Error(`build-service-worker: route ${id} is not in React Router's manifest`);
      return route;
    }),
  ];
  const files = new Set([`assets/${file}`]);
  for (const entry of modules) for (const url of [entry.module, ...(entry.imports ?? []), ...(entry.css ?? [])]) files.add(url.replace(/^\//, ''));
  return [...files];
}

const scratch = mkdtempSync(path.join(tmpdir(), 'gaadi-sw-'));
try {
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    define: { __BUILD_ID__: JSON.stringify(buildId), 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: scratch,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: true,
      lib: { entry: path.join(root, 'pwa/sw.ts'), formats: ['iife'], name: 'serviceWorker', fileName: () => 'sw.js' },
    },
  });
  const precached = offlinePageFiles();
  const { count, size, warnings } = await injectManifest({
    swSrc: path.join(scratch, 'sw.js'),
    swDest: path.join(client, 'sw.js'),
    globDirectory: client,
    globPatterns: precached,
    // Hashed names are their own version.
    dontCacheBustURLsMatching: /^assets\//,
    // Rendered by the server: versioned by the build it belongs to.
    // The offline page in each language (decision 087): a Hindi reader loses the signal in Hindi.
    additionalPrecacheEntries: LANGUAGES.map((language) => ({ url: pathInLanguage(OFFLINE_PAGE, language), revision: buildId })),
  });
  for (const warning of warnings) console.warn(`build-service-worker: ${warning}`);
  console.log(`service worker ${buildId}: precaches ${count} files (${Math.round(size / 1024)} KB)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
