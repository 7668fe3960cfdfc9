/** The three newest published articles, before the closing call to action; absent when there are none. */
import { Link } from 'react-router';
import type { BlogPostSummary } from '../../../contract/blog-reader';
import { PostCard } from '../../components/blog/PostCard';

export const LATEST_ARTICLES_COUNT = 3;

export function LatestArticles({ posts }: { posts: readonly BlogPostSummary[] }) {
  if (posts.length === 0) return null;
  return (
    <section id="latest-articles" className="page-section section-alt" aria-labelledby="latest-articles-heading">
      <div className="container">
        <h2 id="latest-articles-heading">Latest articles</h2>
        <p className="lead">Plain-English reading on indexed universal life, retirement income and taxes.</p>
        <div className="post-grid">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} headingLevel={3} />
          ))}
        </div>
        <p>
          <Link to="/blog">See all articles</Link>
        </p>
      </div>
    </section>
  );
}
