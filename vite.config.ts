import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * Refuses any module under server/ in the browser's module graph, as React Router refuses
 * `*.server.ts` modules (decision 015). Route modules may import server code for their loaders
 * and actions, which React Router strips from the client bundle together with the imports only
 * they use; anything a component, app/lib or a route's page code pulls in from server/ stops the
 * build here instead of shipping server code (and Node built-ins) to the browser.
 */
function serverCodeStaysOnServer(): Plugin {
  const serverDirectory = path.resolve(import.meta.dirname, 'server') + path.sep;
  return {
    name: 'gaadi-bazaar:server-code-stays-on-server',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    async resolveId(source, importer, options) {
      // The dev server's dependency scan reads route modules before React Router strips loaders
      // and actions; Vite passes `scan` without declaring it in the hook's type.
      if (!importer || (options as { scan?: boolean }).scan) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved && !resolved.external && resolved.id.startsWith(serverDirectory)) {
        const relative = (file: string) => path.relative(import.meta.dirname, file);
        this.error(
          `Server module ${relative(resolved.id)} is imported by browser code in ${relative(importer)}. ` +
            'Use server code only inside loader and action (React Router removes them from the browser bundle), ' +
            'and move what the page itself needs (constants, rules, messages) to app/lib.',
        );
      }
      return resolved;
    },
  };
}

/**
 * The browser bundle runs on Preact's compatibility layer instead of React (decision 039): about
 * 11 KB brotli instead of 57 KB on every first load. The server keeps rendering with React, and
 * the browser hydrates that HTML with Preact. Vite 8 has no per-environment `resolve.alias`, so
 * this resolves the React entry points for the client environment only. Build only: the dev
 * server's dependency pre-bundling would keep React inside react-router and load both.
 */
function preactInTheBrowser(): Plugin {
  const replacements: Record<string, string> = {
    react: path.resolve(import.meta.dirname, 'app/browser/react.ts'),
    'react-dom': 'preact/compat',
    'react-dom/client': 'preact/compat/client',
    'react/jsx-runtime': 'preact/compat/jsx-runtime',
    'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
  };
  return {
    name: 'gaadi-bazaar:preact-in-the-browser',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    resolveId(source, importer, options) {
      const replacement = replacements[source];
      return replacement ? this.resolve(replacement, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    // The server bundle's entry is our Hono server, which imports the React Router build,
    // so the web app, the JSON API and the media routes share one module graph.
    ssr: { build: { rollupOptions: { input: './server/http/server-entry.ts' } } },
    // Preact and React Router load on every page: one chunk instead of five (fewer requests on
    // a slow phone network, and it compresses 4 KB smaller; decision 039).
    client: {
      build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'framework', test: /node_modules[\\/](preact|react-router)[\\/]/ }] } } } },
    },
  },
  plugins: [serverCodeStaysOnServer(), preactInTheBrowser(), tailwindcss(), reactRouter()],
});
