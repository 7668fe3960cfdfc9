/** /sitemaps/:file (`1.xml`, `2.xml`, ...): one numbered sitemap file once the site outgrows one (sitemaps.ts). */
import type { Route } from './+types/sitemap-file';
import { SITEMAP_URL_LIMIT } from '../../seo/feeds';
import { sitemapFileResponse } from './sitemaps';

export function loader({ params, context }: Route.LoaderArgs) {
  return sitemapFileResponse(context, params.file, SITEMAP_URL_LIMIT);
}
