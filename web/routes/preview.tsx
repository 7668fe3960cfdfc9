/**
 * /preview/<token>: a post that is not public yet, as its public page will render it (the post page's
 * own component), for whoever the author shared the link with, signed in or not. The link is signed and
 * works for 7 days (api/services/post-preview.ts). Never indexed (X-Robots-Tag and the robots meta tag),
 * never stored by any cache (no-store, so the site's answer cache passes it by too). A link that is
 * expired, altered or cut short, or whose post was deleted or published since, gets a page that says so
 * and what to do.
 */
import { Link, data } from 'react-router';
import type { Route } from './+types/preview';
import { PREVIEW_LINK_DAYS } from '../../contract/post-preview';
import { PreviewBanner, previewTime } from '../components/blog/PreviewBanner';
import { configFromMatches, pageMeta } from '../seo/meta';
import { PostPage } from './blog/post';

const HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' } as const;

export function headers(): Headers {
  return new Headers(HEADERS);
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const opened = await context.staff.previews.open(params.token);
  // The loader's answer carries the headers too: a client-side navigation's .data request is never stored either.
  const status = opened.kind === 'invalid' ? 404 : opened.kind === 'expired' || opened.kind === 'deleted' ? 410 : 200;
  return data(opened, { status, headers: HEADERS });
}

const TITLES = { invalid: 'This preview link does not work', expired: 'This preview link has expired', deleted: 'This post was deleted', published: 'This post is published' } as const;

export const meta: Route.MetaFunction = ({ matches, data: loaded, location }) => {
  const title = !loaded ? 'Preview' : loaded.kind === 'post' ? `Preview: ${loaded.preview.post.title}` : TITLES[loaded.kind];
  return pageMeta(configFromMatches(matches), { title, description: 'A preview of a post that is not published.', path: location.pathname, noindex: true });
};

const ASK = `Ask the author for a new preview link (a link works for ${PREVIEW_LINK_DAYS} days).`;

export default function PreviewPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'post') {
    return (
      <>
        <PreviewBanner heading="Preview: not published." preview={loaderData.preview}>
          <p>Please do not share this page. This link works until {previewTime(loaderData.expiresAt)}.</p>
        </PreviewBanner>
        <PostPage post={loaderData.preview.post} />
      </>
    );
  }
  return (
    <section className="page-section" aria-labelledby="preview-problem-title">
      <div className="narrow" data-testid="preview-problem">
        <h1 id="preview-problem-title">{TITLES[loaderData.kind]}</h1>
        {loaderData.kind === 'invalid' ? <p>The address is not a whole, unaltered preview link: it may have been cut short when it was copied. Copy the whole link again, or {ASK.charAt(0).toLowerCase() + ASK.slice(1)}</p> : null}
        {loaderData.kind === 'expired' ? <p>Preview links work for {PREVIEW_LINK_DAYS} days, and this one is older. {ASK}</p> : null}
        {loaderData.kind === 'deleted' ? <p>The post this link showed has been deleted since, so there is nothing to preview. If you expected it, ask its author.</p> : null}
        {loaderData.kind === 'published' ? (
          <p>
            The post this link showed is public now: <Link to={`/blog/${loaderData.slug}`}>read it on the blog</Link>.
          </p>
        ) : null}
        <p>
          <Link to="/blog">Go to the blog</Link>
        </p>
      </div>
    </section>
  );
}
