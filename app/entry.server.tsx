import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { isRouteErrorResponse, ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from 'react-router';
import { appContext } from './context.ts';
import { NonceContext } from './lib/nonce.tsx';
import { documentCacheControl } from '../server/http/document-caching.ts';
import { noteFailedPage } from '../server/http/database-outage.ts';

export const streamTimeout = 5_000;

/**
 * Errors in loaders, actions and rendering go to the server's log. React Router's own handler
 * prints every one with its stack to stderr, also the answers it makes itself for a visitor's
 * mistake, such as the 405 to a POST on a page without an action (POST /about): those are the
 * visitor's, already answered with their status, and no error of the server's.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A lost database connection: the edge answers 503 and logs a warning (server/http/database-outage.ts).
  if (noteFailedPage(context, error)) return;
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  context.get(appContext).logger.error({ err: error, path: new URL(request.url).pathname }, 'error in a page');
};

/**
 * Renders the whole document into one buffer and answers with it. No page defers data, so
 * the shell is the whole page: streaming it would only add a bridge from Node's stream to a
 * web stream and back (measured at a fifth of a render), and one buffer lets the compression
 * (server/http/compression.ts) and the page cache take the page in one piece.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(appContext);
  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    let shellRendered = false;
    // Give up on a render that never finishes (a loader's promise that never settles).
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        callback();
        if (failed) return;
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', documentCacheControl(request, responseStatusCode, responseHeaders));
        const body = Buffer.concat(chunks);
        resolve(new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode }));
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(sink);
        },
        onShellError(error: unknown) {
          failed = true;
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
