/**
 * Server entry: renders the whole document once everything is ready, so crawlers and visitors get
 * the same complete HTML (and the Koa renderer can hash its inline scripts for the CSP). Production
 * pages then get the hydrate-on-interaction rewrite (client/defer-hydration.ts), which needs the
 * whole document, so they are sent as one string rather than streamed.
 */
import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { type AppLoadContext, type EntryContext, type HandleErrorFunction, ServerRouter } from 'react-router';
import { deferHydration } from './client/defer-hydration';

export const streamTimeout = 5_000;

/**
 * An error a loader, an action or the render threw: the server decides first (a store out of reach is
 * answered with its own 503 page, web/load-context.ts `failed`); the rest goes to the server's log with
 * the request's id, unless the visitor went away.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (context.failed(error) || request.signal.aborted) return;
  context.logError(error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> | Response {
  if (request.method.toUpperCase() === 'HEAD') {
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let status = responseStatusCode;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady() {
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          if (import.meta.env.PROD) {
            // In production the app starts on the visitor's first interaction, not on load.
            resolve(text(body).then((html) => new Response(deferHydration(html), { headers: responseHeaders, status })));
          } else {
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }));
          }
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          status = 500;
          loadContext.logError(error);
        },
      },
    );
  });
}
