import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/post';
import type { BlogPost } from '../../../contract/blog-reader';
import { POST_IMAGE_SIZES } from '../../../contract/media';
import { coverFileSize } from '../../components/blog/cover';
import { CoverPicture } from '../../components/blog/CoverPicture';
import { formatPostDate, lastModified, publishedDate } from '../../components/blog/format';
import { TrustBlock } from '../../components/blog/TrustBlock';
import { CallToAction } from '../../components/ui/CallToAction';
import { breadcrumbJsonLd, postJsonLd } from '../../seo/blog-jsonld';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { wrapPostTables } from './post-tables';

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await context.blog.lookupPublished(params.slug);
  // Drafts and scheduled posts are never public: the reader only returns published posts.
  if (found.kind === 'moved') throw redirect(`/blog/${encodeURIComponent(found.slug)}`, 301);
  if (found.kind === 'gone') throw data(null, { status: 410 });
  if (found.kind === 'missing') throw data(null, { status: 404 });
  return { post: found.post };
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) => {
  if (!loaded) return [];
  const { post } = loaded;
  const config = configFromMatches(matches);
  const path = `/blog/${post.slug}`;
  return [
    ...pageMeta(config, {
      title: post.title,
      description: post.excerpt.length > 160 ? `${post.excerpt.slice(0, 157).trimEnd()}...` : post.excerpt,
      path,
      type: 'article',
      ...(post.cover_image ? { image: { url: post.cover_image.url, ...coverFileSize(post.cover_image), alt: post.cover_image.alt } } : {}),
      jsonLd: [
        postJsonLd(config, post),
        breadcrumbJsonLd(config, [
          { name: 'Home', path: '/' },
          { name: 'Blog', path: '/blog' },
          { name: post.category.name, path: `/blog/category/${post.category.slug}` },
          { name: post.title, path },
        ]),
      ],
    }),
    { property: 'article:published_time', content: publishedDate(post) },
    { property: 'article:modified_time', content: lastModified(post) },
    { property: 'article:section', content: post.category.name },
    ...post.tags.map((tag) => ({ property: 'article:tag', content: tag })),
  ];
};

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  return <PostPage post={loaderData.post} />;
}

/** The post's page as readers see it; the previews of a post not yet public render the same (web/routes/preview.tsx). */
export function PostPage({ post }: { post: BlogPost }) {
  const published = publishedDate(post);
  const updated = lastModified(post);
  return (
    <>
      <article className="page-section blog-post" aria-labelledby="post-title">
        <div className="narrow">
          <nav aria-label="Breadcrumb" className="breadcrumb">
            <ol>
              <li>
                <Link to="/blog">Blog</Link>
              </li>
              <li>
                <Link to={`/blog/category/${post.category.slug}`}>{post.category.name}</Link>
              </li>
            </ol>
          </nav>
          <h1 id="post-title">{post.title}</h1>
          <p className="lead">{post.excerpt}</p>
          <div className="post-byline" data-testid="post-byline">
            <p className="post-author">
              By <strong>{post.author.name}</strong>
              {post.author.credentials ? `, ${post.author.credentials}` : ''}
            </p>
            {post.author.bio && <p className="post-author-bio">{post.author.bio}</p>}
            <p className="post-dates">
              Published <time dateTime={published}>{formatPostDate(published)}</time>
              {formatPostDate(updated) !== formatPostDate(published) && (
                <>
                  {' '}
                  · Updated <time dateTime={updated}>{formatPostDate(updated)}</time>
                </>
              )}
            </p>
          </div>
          {post.cover_image && (
            <figure className="post-cover" data-testid="post-cover">
              <CoverPicture cover={post.cover_image} sizes={POST_IMAGE_SIZES} alt={post.cover_image.alt} priority />
            </figure>
          )}
          {/* Sanitised by the API on the way in (sanitize-html allowlist), so it is rendered as stored, its
              tables each in a box that scrolls sideways and takes the keyboard's focus. */}
          <div className="post-content prose" dangerouslySetInnerHTML={{ __html: wrapPostTables(post.content) }} />
          {post.tags.length > 0 && (
            <ul className="post-tags" aria-label="Tags">
              {post.tags.map((tag) => (
                <li key={tag}>{tag}</li>
              ))}
            </ul>
          )}
          {post.trust && <TrustBlock trust={post.trust} />}
          <p className="disclaimer">
            This article is educational and is not a solicitation or individual tax, legal or investment advice. Figures
            are illustrations and projections, not guarantees; policy loans and withdrawals reduce the cash value and
            death benefit.
          </p>
        </div>
      </article>
      <CallToAction
        id="post-cta"
        heading="See what the numbers look like for you"
        text="Request a free, personalised illustration: projected cash value, tax-free income and death benefit, with every assumption explained."
      />
    </>
  );
}
