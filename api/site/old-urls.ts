/**
 * Old WordPress addresses answered 301 (decision 0029): `/?p=123`, `/2024/05/my-post/` (whatever the
 * old permalink structure: the export's own links are kept), `/category/x/` and `/tag/x/`, as
 * `blogpost import-wordpress` recorded them. A post's address follows it to its current slug; a post
 * that is not public (a draft, in review, in the trash) is not pointed at (the request goes on to the
 * 404 page). Only paths shaped like WordPress's are looked up, so the site's own pages cost nothing.
 */
import type { Middleware } from 'koa';
import { mayBeOldUrl, oldUrlKey } from '../import/wordpress/old-urls';
import type { Store } from '../store/store';

/** How long browsers and caches may keep an old address's answer. */
export const OLD_URL_MAX_AGE_SECONDS = 24 * 60 * 60;

export function oldUrlRedirects(store: Pick<Store, 'imports' | 'posts'>): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !mayBeOldUrl(ctx.path, ctx.querystring)) return next();
    const found = await store.imports.redirect(oldUrlKey(ctx.path, ctx.querystring));
    let target: string | null = null;
    if (found?.target) target = found.target;
    else if (found?.postId) {
      const post = await store.posts.getById(found.postId);
      if (post && !post.deletedAt && post.status === 'published') target = `/blog/${post.slug}`;
    }
    if (!target) return next();
    ctx.redirect(target);
    ctx.status = 301;
    ctx.set('Cache-Control', `public, max-age=${OLD_URL_MAX_AGE_SECONDS}`);
    return undefined;
  };
}
