/**
 * The key an old WordPress address is kept and looked up by (decision 0029): `/?p=123` for a plain
 * permalink (or `?page_id=`), else the path in lower case without its trailing slashes
 * (`/2024/05/my-post`). The import and the site's redirect (api/site/old-urls.ts) both use it.
 */
export function oldUrlKey(pathname: string, search: string): string {
  const query = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const trimmed = pathname.replace(/\/+$/, '') || '/';
  if (trimmed === '/' || trimmed === '/index.php') {
    for (const name of ['p', 'page_id']) {
      const id = query.get(name);
      if (id && /^\d+$/.test(id)) return `/?${name}=${id}`;
    }
    return '/';
  }
  return trimmed.toLowerCase();
}

/** Whether a request's path looks like an old WordPress address worth a look-up (so the site's own pages cost none). */
export function mayBeOldUrl(pathname: string, search: string): boolean {
  if (pathname === '/' || pathname === '/index.php') return /(?:^|[?&])(?:p|page_id)=\d/.test(search);
  return pathname.endsWith('/') || /^\/(?:category|tag)\//i.test(pathname) || /^\/\d{4}\/\d{2}\//.test(pathname);
}
