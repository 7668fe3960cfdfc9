/**
 * The React Router request handler the site renderer calls. In production the site's build may be given
 * as a loader (api/main.ts starts loading it once the server listens, decision 0040): the loader is
 * called once, by the first request that needs the build or by the start-up, and every request waits
 * for that one load; the handler is made once from it, as from a build given outright. In development
 * the loader is called for every request (the dev server reloads the modules that changed).
 */
import { createRequestHandler, type ServerBuild } from 'react-router';

type RequestHandler = ReturnType<typeof createRequestHandler>;

export function siteRequestHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: 'production' | 'development',
  create: typeof createRequestHandler = createRequestHandler,
): RequestHandler {
  if (typeof build !== 'function' || mode !== 'production') return create(build, mode);
  let ready: Promise<RequestHandler> | undefined;
  const handler = (): Promise<RequestHandler> =>
    (ready ??= build().then(
      (loaded) => create(loaded, mode),
      (error: unknown) => {
        // A load that failed is tried again by the next request rather than remembered.
        ready = undefined;
        throw error;
      },
    ));
  return async (request, context) => (await handler())(request, context);
}
