/**
 * Where route loaders and actions get the server's services: `context.get(appContext)`. The
 * server creates and fills the key (server/services.ts); only loaders, actions and
 * entry.server.tsx may read it, which the build enforces (decision 015).
 */
export { appContext, type AppServices, type RequestContext } from '../server/services.ts';
