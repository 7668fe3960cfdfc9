/**
 * Images in posts (POST /api/media, docs/integrator-guide.md "Images"): the formats taken, the widths
 * stored, the URLs they are served at from the site's own origin, and the shapes of the answers and of
 * a post's cover image. Pure code: the server, the CLI, the site and the examples page share it.
 *
 * An upload is decoded and re-encoded (which drops EXIF and GPS data) at each of MEDIA_WIDTHS narrower
 * than the original and at its own width up to the widest of them, as WebP, as AVIF, and in
 * a fallback format every browser shows (the original's for PNG, JPEG and GIF; PNG for a WebP or AVIF
 * with transparency, JPEG otherwise). Its id is the first 32 hex digits of the SHA-256 of the bytes
 * uploaded, so the same picture uploaded twice is stored once.
 */

/** The types taken, decided from the bytes (never the header or the file name), with the extension each is served with. */
export const MEDIA_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
} as const;
export type MediaType = keyof typeof MEDIA_TYPES;
export type MediaExtension = (typeof MEDIA_TYPES)[MediaType];

export function isMediaType(value: string): value is MediaType {
  return Object.hasOwn(MEDIA_TYPES, value);
}

/** The type a variant's extension is served as (MEDIA_TYPES read the other way). */
export const MEDIA_TYPE_OF_EXTENSION = Object.fromEntries(Object.entries(MEDIA_TYPES).map(([type, extension]) => [extension, type])) as Record<MediaExtension, MediaType>;

/** An upload's id from the hex SHA-256 of its bytes: its first 32 digits (the server and the CLI agree on it). */
export function mediaIdFromDigest(sha256Hex: string): string {
  return sha256Hex.slice(0, 32);
}

/** The widths variants are made at (never wider than the original, which is kept at its own width up to the last). */
export const MEDIA_WIDTHS = [480, 960, 1600] as const;

/** The default upload limit (MEDIA_MAX_BYTES overrides it); larger is a 413. */
export const DEFAULT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

/** Most pixels an image may have (width x height, each frame of an animation counted): more is refused as a likely decompression bomb. */
export const MEDIA_MAX_PIXELS = 40_000_000;

/** The alt text's limit, for content images and cover images alike. */
export const MEDIA_ALT_MAX_LENGTH = 300;

/** Where variants are served, on the site's own origin. */
export const MEDIA_PATH_PREFIX = '/media/';

/** A media id: 32 lower-case hex digits. */
export const MEDIA_ID_PATTERN = /^[0-9a-f]{32}$/;

/** A variant's file name: `<id>-<width>.<ext>`. */
export const MEDIA_FILE_PATTERN = /^([0-9a-f]{32})-([1-9][0-9]{0,4})\.(png|jpg|webp|avif|gif)$/;

export function mediaFileName(id: string, width: number, extension: MediaExtension): string {
  return `${id}-${width}.${extension}`;
}

/** The path a variant is served at (relative to the site's origin). */
export function mediaPath(id: string, width: number, extension: MediaExtension): string {
  return `${MEDIA_PATH_PREFIX}${mediaFileName(id, width, extension)}`;
}

/**
 * The media a reference names: a bare media id, a `/media/<file>` path, or an absolute URL of this
 * site (`siteUrl`) to one. Null for anything else (another host, another path).
 */
export function parseMediaReference(reference: string, siteUrl: string): { id: string; width: number | null; extension: MediaExtension | null } | null {
  const value = reference.trim();
  if (MEDIA_ID_PATTERN.test(value)) return { id: value, width: null, extension: null };
  let path = value;
  if (/^https?:\/\//i.test(value)) {
    let url: URL;
    let site: URL;
    try {
      url = new URL(value);
      site = new URL(siteUrl);
    } catch {
      return null;
    }
    if (url.origin !== site.origin) return null;
    path = url.pathname;
  }
  if (!path.startsWith(MEDIA_PATH_PREFIX)) return null;
  const match = MEDIA_FILE_PATTERN.exec(path.slice(MEDIA_PATH_PREFIX.length));
  if (!match) return null;
  return { id: match[1] as string, width: Number(match[2]), extension: match[3] as MediaExtension };
}

/**
 * The upload a writing app's URL names (a Micropub photo, a Ghost feature image): a reference of this
 * site by any of `sites` (the request's origin, SITE_URL), or `/media/<id>` there (the media endpoints'
 * Location); null for anything else.
 */
export function uploadIdOf(url: string, sites: readonly string[]): string | null {
  const known = sites.filter((site) => site !== '');
  for (const site of known) {
    const reference = parseMediaReference(url, site);
    if (reference) return reference.id;
  }
  try {
    const parsed = new URL(url, known[0]);
    const bare = /^\/media\/([0-9a-f]{32})$/.exec(parsed.pathname);
    return bare && known.some((site) => new URL(site).origin === parsed.origin) ? (bare[1] ?? null) : null;
  } catch {
    return null;
  }
}

/** One stored variant of an upload. */
export interface MediaVariant {
  /** Its path on this site, `/media/<id>-<width>.<ext>`. */
  url: string;
  width: number;
  height: number;
  type: 'image/webp' | 'image/avif' | MediaType;
  bytes: number;
}

/** The answer of POST /api/media (201, or 200 when the same picture was stored before) and one item of GET /api/media. */
export interface MediaResponse {
  id: string;
  /** The upload's type, decided from its bytes. */
  type: MediaType;
  /** The picture's size in pixels (after its EXIF orientation is applied). */
  width: number;
  height: number;
  /** The upload's size in bytes. */
  bytes: number;
  /** The widest variant in the fallback format: the `src` of an `<img>`, and the Open Graph image. */
  url: string;
  /** The WebP variants as an `srcset` value (`/media/<id>-480.webp 480w, ...`). */
  srcset: string;
  /** The AVIF variants as an `srcset` value. Empty ("") for an animated GIF or WebP: no AVIF is made of an animation. */
  srcset_avif: string;
  variants: MediaVariant[];
  /** The bytes all variants take, against `bytes` uploaded. */
  stored_bytes: number;
  /** The owners of the keys that uploaded it. */
  owners: string[];
  uploaded_at: string;
  /** Posts that show it (as cover image or in their content), trashed ones included: it cannot be deleted while any does. */
  used_by: Array<{ id: string; slug: string; title: string; status: string }>;
  /** Ready to paste into a post: Markdown and HTML with this picture (write the alt text). */
  markdown: string;
  html: string;
}

export interface MediaListResponse {
  media: MediaResponse[];
  total: number;
}

/**
 * A post's cover image as stored with the post and as the site renders it: resolved from the media
 * when the post is saved (a medium cannot be deleted while a post uses it, so it stays true).
 */
export interface CoverImage {
  mediaId: string;
  alt: string;
  /** The widest fallback variant. */
  src: string;
  srcset: string;
  srcsetAvif: string;
  width: number;
  height: number;
}

/** A post's `cover_image` in API answers. */
export interface CoverImageResponse {
  id: string;
  url: string;
  srcset: string;
  srcset_avif: string;
  width: number;
  height: number;
  alt: string;
}

export function presentCoverImage(cover: CoverImage): CoverImageResponse {
  return { id: cover.mediaId, url: cover.src, srcset: cover.srcset, srcset_avif: cover.srcsetAvif, width: cover.width, height: cover.height, alt: cover.alt };
}

/** An `srcset` value from variants of one type. */
export function srcsetOf(variants: readonly MediaVariant[], type: MediaVariant['type']): string {
  return variants
    .filter((variant) => variant.type === type)
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(', ');
}

/**
 * The variant an `<img src>` names: the widest in the fallback format every browser shows (not WebP or
 * AVIF); the widest of any format when there is none.
 */
export function widestFallbackOf<Variant extends Pick<MediaVariant, 'type' | 'width'>>(variants: readonly Variant[]): Variant | undefined {
  const fallbacks = variants.filter((variant) => variant.type !== 'image/webp' && variant.type !== 'image/avif');
  return (fallbacks.length > 0 ? fallbacks : variants).reduce<Variant | undefined>((best, variant) => (best === undefined || variant.width > best.width ? variant : best), undefined);
}

/** The `sizes` attribute for pictures in a post's column (and its cover). */
export const POST_IMAGE_SIZES = '(min-width: 800px) 760px, 100vw';

/** The hosts whose videos a post may embed: exactly those the pages' Content-Security-Policy allows in frame-src. */
export const EMBEDDABLE_VIDEO_HOSTS = ['www.youtube-nocookie.com', 'www.youtube.com', 'player.vimeo.com'] as const;
