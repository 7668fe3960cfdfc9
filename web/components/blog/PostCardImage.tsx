/**
 * The picture at the top of a blog card: the post's cover cropped to the cards' shape, or, for a post
 * without one, a drawn stand-in (the category's name on its colour, with a rising-bars mark) made of
 * CSS and inline SVG, so it costs no request. Both are decoration: the title beside them names the
 * post (the cover's alt is empty, the stand-in hidden from screen readers), and the title's link
 * covers the whole card, picture included (web/styles/blog.css).
 */
import type { BlogPostSummary } from '../../../contract/blog-reader';
import { CARD_IMAGE_SIZES } from './cover';
import { CoverPicture } from './CoverPicture';

export function PostCardImage({ post, eager = false }: { post: Pick<BlogPostSummary, 'category' | 'cover_image'>; eager?: boolean }) {
  if (post.cover_image) {
    return (
      <div className="post-card-image" data-testid="post-card-image">
        <CoverPicture cover={post.cover_image} sizes={CARD_IMAGE_SIZES} alt="" eager={eager} />
      </div>
    );
  }
  return (
    <div className="post-card-image post-card-fallback" data-category={post.category.slug} aria-hidden="true" data-testid="post-card-fallback">
      <svg viewBox="0 0 160 90" preserveAspectRatio="xMaxYMid slice" focusable="false">
        <circle cx="134" cy="22" r="34" className="fallback-halo" />
        <rect x="96" y="58" width="12" height="40" rx="2" className="fallback-bar" />
        <rect x="114" y="46" width="12" height="52" rx="2" className="fallback-bar" />
        <rect x="132" y="32" width="12" height="66" rx="2" className="fallback-bar fallback-bar-top" />
      </svg>
      <span className="post-card-fallback-name">{post.category.name}</span>
    </div>
  );
}
