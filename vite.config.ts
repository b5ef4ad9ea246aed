import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  environments: {
    // The server bundle's entry is our Hono server, which imports the React Router build,
    // so the web app, the JSON API and the media routes share one module graph.
    ssr: { build: { rollupOptions: { input: './server/http/server-entry.ts' } } },
  },
  plugins: [tailwindcss(), reactRouter()],
});
