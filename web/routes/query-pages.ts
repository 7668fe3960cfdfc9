/**
 * Pages whose query chooses what the server renders (the calculator's inputs, a tab, a case study): such
 * an answer is for that visitor's address and is never kept in the server's page cache, so arbitrary
 * query strings cannot crowd the cached pages out; the page without a query stays cached.
 */

/** The loader's init for an answer rendered for a query: `no-store`. */
export const RENDERED_FOR_QUERY = { headers: { 'Cache-Control': 'no-store' } } as const;

/** A route's `headers`: the page's headers with the loader's Cache-Control (set only for a query) passed on. */
export function passLoaderCacheControl({ parentHeaders, loaderHeaders }: { parentHeaders: Headers; loaderHeaders: Headers }): Headers {
  const headers = new Headers(parentHeaders);
  const cacheControl = loaderHeaders.get('Cache-Control');
  if (cacheControl) headers.set('Cache-Control', cacheControl);
  return headers;
}
