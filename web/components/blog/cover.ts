/**
 * A post's cover image as the site uses it: the size of the file its `url` names (the widest fallback
 * variant, which may be narrower than the upload), for Open Graph and JSON-LD, and the `sizes` of the
 * card thumbnails. Pure, so the meta functions and the components share it.
 */
import { MEDIA_FILE_PATTERN, type CoverImageResponse } from '../../../contract/media';

/**
 * How wide a card's thumbnail is on screen: the card grid (web/styles/blog.css .post-grid, columns of
 * at least 280 px in a container at most 1160 px wide) has one column below 620 px, two up to 920 px
 * and three from there, each 360 px at most.
 */
export const CARD_IMAGE_SIZES = '(min-width: 1160px) 360px, (min-width: 920px) 31vw, (min-width: 620px) 48vw, 100vw';

/** The cards' thumbnails are cropped to this shape (object-fit: cover), so every card lines up. */
export const CARD_IMAGE_ASPECT = { width: 16, height: 9 } as const;

/**
 * The pixel size of the file at `cover.url`: the width its name carries (`/media/<id>-<width>.<ext>`)
 * when that is narrower than the picture, with the height scaled to match; the picture's own size
 * otherwise (a URL without a width in its name).
 */
export function coverFileSize(cover: Pick<CoverImageResponse, 'url' | 'width' | 'height'>): { width: number; height: number } {
  const fileName = cover.url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  const named = Number(MEDIA_FILE_PATTERN.exec(fileName)?.[2] ?? Number.NaN);
  if (!Number.isFinite(named) || named >= cover.width) return { width: cover.width, height: cover.height };
  return { width: named, height: Math.max(1, Math.round((cover.height * named) / cover.width)) };
}
