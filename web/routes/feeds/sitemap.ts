/** /sitemap.xml: every public URL of the site, or the index of the numbered sitemap files (sitemaps.ts). */
import type { Route } from './+types/sitemap';
import { SITEMAP_URL_LIMIT } from '../../seo/feeds';
import { sitemapResponse } from './sitemaps';

export function loader({ context }: Route.LoaderArgs) {
  return sitemapResponse(context, SITEMAP_URL_LIMIT);
}
