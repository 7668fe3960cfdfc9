/** /robots.txt: keeps crawlers out of the private areas and points them at the sitemap. */
import type { Route } from './+types/robots';
import { robotsTxt } from '../../seo/feeds';

export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(context.config), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
