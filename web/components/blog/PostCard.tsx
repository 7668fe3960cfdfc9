/** A post on the blog list, a category page and the home page's "Latest articles": picture, category, date, title, excerpt, author. */
import { Link } from 'react-router';
import type { BlogPostSummary } from '../../../contract/blog-reader';
import { formatPostDate, publishedDate } from './format';
import { PostCardImage } from './PostCardImage';

/** `eagerImage`: the first card at the top of a list, whose picture is in the first screen (not loaded lazily). */
export function PostCard({ post, headingLevel = 2, eagerImage = false }: { post: BlogPostSummary; headingLevel?: 2 | 3; eagerImage?: boolean }) {
  const Heading = `h${headingLevel}` as const;
  const date = publishedDate(post);
  return (
    <article className="post-card" data-testid="post-card">
      <PostCardImage post={post} eager={eagerImage} />
      <p className="post-card-meta">
        <Link to={`/blog/category/${post.category.slug}`} className="post-card-category">
          {post.category.name}
        </Link>
        <span aria-hidden="true"> · </span>
        <time dateTime={date}>{formatPostDate(date)}</time>
      </p>
      <Heading className="post-card-title">
        <Link to={`/blog/${post.slug}`}>{post.title}</Link>
      </Heading>
      <p className="post-card-excerpt">{post.excerpt}</p>
      <p className="post-card-author">By {post.author.name}</p>
    </article>
  );
}
