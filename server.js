// Production entry: the server and the pages are built together into build/server.
// Build first with `npm run build`.
// React's production build renders twice as fast; development builds are for `vite dev` only.
process.env.NODE_ENV ??= 'production';
const { startServer } = await import('./build/server/index.js');

await startServer(process.env);
