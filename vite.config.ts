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

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    // The server bundle's entry is our Hono server, which imports the React Router build,
    // so the web app, the JSON API and the media routes share one module graph.
    ssr: { build: { rollupOptions: { input: './server/http/server-entry.ts' } } },
  },
  plugins: [serverCodeStaysOnServer(), tailwindcss(), reactRouter()],
});
