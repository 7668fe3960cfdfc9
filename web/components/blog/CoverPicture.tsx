/**
 * A post's cover image as `<picture>`: AVIF and WebP sources at every stored width (the browser picks
 * by `sizes`), then the fallback format as the `<img>`, whose width and height attributes reserve its
 * box before a byte arrives, so nothing below it moves (CLS 0). The post page's cover is likely the
 * largest thing in the first screen, so it loads at once with high priority; thumbnails load lazily,
 * but for the first card of a list, which a phone shows in its first screen (a lazy picture there
 * would be a late Largest Contentful Paint).
 */
import type { CoverImageResponse } from '../../../contract/media';

export interface CoverPictureProps {
  cover: CoverImageResponse;
  /** The `sizes` of both sources: how wide the picture is on screen. */
  sizes: string;
  /** The alt text: the cover's own on the post page, empty beside a title that names the post. */
  alt: string;
  /** The page's main picture: fetched first, never lazily. */
  priority?: boolean;
  /** Fetched at once (not lazily) though not first: a picture likely in the first screen. */
  eager?: boolean;
  className?: string;
}

export function CoverPicture({ cover, sizes, alt, priority = false, eager = false, className }: CoverPictureProps) {
  return (
    <picture className={className}>
      {cover.srcset_avif && <source type="image/avif" srcSet={cover.srcset_avif} sizes={sizes} />}
      {cover.srcset && <source type="image/webp" srcSet={cover.srcset} sizes={sizes} />}
      <img
        src={cover.url}
        width={cover.width}
        height={cover.height}
        alt={alt}
        decoding="async"
        {...(priority ? { fetchPriority: 'high' as const } : eager ? {} : { loading: 'lazy' as const })}
      />
    </picture>
  );
}
