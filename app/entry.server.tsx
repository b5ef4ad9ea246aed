import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { appContext } from './context.ts';
import { NonceContext } from './lib/nonce.tsx';

export const streamTimeout = 5_000;

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
        if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', 'no-cache');
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
