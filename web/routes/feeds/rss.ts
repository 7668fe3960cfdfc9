/** /rss.xml: the newest published posts as an RSS 2.0 feed (a resource route: no page, only the XML). */
import type { Route } from './+types/rss';
import { FEED_SIZE, rssXml } from '../../seo/feeds';

export async function loader({ context }: Route.LoaderArgs) {
  const { posts } = await context.blog.listPublished({ page: 1, limit: FEED_SIZE });
  return new Response(rssXml(context.config, posts), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}
