// Production entry: the server and the pages are built together into build/server.
// Build first with `npm run build`.
import { startServer } from './build/server/index.js';

await startServer(process.env);
