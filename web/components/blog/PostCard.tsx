import { Link } from 'react-router';
import type { BlogPostSummary } from '../../../contract/blog-reader';
import { formatPostDate, publishedDate } from './format';

export function PostCard({ post, headingLevel = 2 }: { post: BlogPostSummary; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const date = publishedDate(post);
  return (
    <article className="post-card" data-testid="post-card">
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
