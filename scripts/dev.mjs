// `npm run dev`: the demo (SQLite in ./data, the demo inventory loaded into an empty database,
// the same as `npm run demo`) served from the sources through Vite, without a build. An edited
// page, component or stylesheet shows in the open browser at once (hot reload) and in the next
// page load; an edit under server/ needs a restart (Ctrl-C, then `npm run dev` again).
//
// The browser runs React in development, not Preact as the build does (decision 039): Vite's
// dependency pre-bundling keeps React inside react-router. What only the Preact build can
// break, tests/e2e/hydration.test.ts checks on the build (decision 053).
import { createServer as createHttpServer } from 'node:http';
import path from 'node:path';
import { createServer } from 'vite';

const root = path.resolve(import.meta.dirname, '..');

process.env.NODE_ENV ??= 'development';
process.env.APP_MODE ??= 'demo';
// Payments go through the demo's own Razorpay sandbox (decision 095), unless Razorpay keys are given
// (PAYMENTS= empty turns it off); the server refuses the sandbox in production.
if (process.env.APP_MODE !== 'production' && !process.env.RAZORPAY_KEY_ID && !process.env.RAZORPAY_KEY_SECRET) process.env.PAYMENTS ??= 'sandbox';
// A page edited a moment ago must not come back from the page cache.
process.env.PAGE_CACHE_SECONDS ??= '0';
process.env.SETTINGS_CACHE_SECONDS ??= '0';

console.log(
  `dev: starting Vite and the server (${process.env.DATABASE_URL ? 'PostgreSQL' : `SQLite in ${process.env.DATA_DIR ?? './data'}`}); it says where to open the site when it is ready…`,
);
// Middleware mode: our own server answers, and hands Vite its requests (modules); Vite's
// hot-reload socket shares its port (a port of its own would need its own CSP source).
const httpServer = createHttpServer();
const vite = await createServer({ root, server: { middlewareMode: true, hmr: { server: httpServer } }, appType: 'custom' });
const ssr = vite.environments.ssr;
// The server itself runs through Vite's module runner, as the build bundles it: it imports the
// pages' virtual build and `.ts` files the way Vite resolves them.
const { startServer } = await ssr.runner.import('/server/http/server-entry.ts');
const server = await startServer(process.env, {
  server: httpServer,
  middleware: vite.middlewares,
  // Taken per request (Vite answers from its cache): after an edit, Vite evaluates its module
  // graph anew, so the next request renders the edit.
  load: async () => ({
    build: await ssr.runner.import('virtual:react-router/server-build'),
    createApp: (await ssr.runner.import('/server/http/app.ts')).createApp,
  }),
});
server.on('close', () => void vite.close());
