/**
 * The picture at the top of a blog card: the post's cover cropped to the cards' shape, or, for a post
 * without one, a drawn stand-in (the category's name on its colour, with the category's own drawing
 * from CategoryIllustration.tsx) made of CSS and inline SVG, so it costs no request. Both are
 * decoration: the title beside them names the post (the cover's alt is empty, the stand-in hidden from
 * screen readers), and the title's link covers the whole card, picture included (web/styles/blog.css).
 */
import type { BlogPostSummary } from '../../../contract/blog-reader';
import { CategoryIllustration } from './CategoryIllustration';
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
      <CategoryIllustration category={post.category.slug} />
      <span className="post-card-fallback-name">{post.category.name}</span>
    </div>
  );
}
