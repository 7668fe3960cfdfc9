/**
 * Uploaded images in a post, resolved when it is saved (after cleaning, on every create, validate and
 * change): the `cover_image` becomes the post's CoverImage (its widest fallback variant, the WebP and
 * AVIF srcsets, its size and alt text), and every `<img>` of the sanitised content that names an upload
 * gets its `src`, `srcset`, `sizes`, `width`, `height`, `loading="lazy"` and `decoding="async"`, so the
 * page does not shift while it loads. A reference to no upload is a 400 on the field that holds it; a
 * picture without alt text is kept with a warning naming it.
 *
 * The content is already sanitised (api/services/sanitize.ts keeps only `<img>` of this site's uploads,
 * as a media id or a `/media/...` path), so it is parsed twice with sanitize-html allowing everything:
 * once to collect the media ids, then, with the records looked up, once to rewrite the images. A post
 * without a cover and without `<img>` reads nothing from the store.
 */
import sanitizeHtml from 'sanitize-html';
import { MEDIA_UPLOAD_HINT } from '../../contract/blog';
import type { FieldProblem } from '../../contract/field-problems';
import { type CoverImage, MEDIA_PATH_PREFIX, type MediaVariant, parseMediaReference, POST_IMAGE_SIZES, srcsetOf, widestFallbackOf } from '../../contract/media';
import type { MediaRecord, MediaRepository } from '../store/store';

/** Where a post's pictures are looked up. */
export interface PostMediaSettings {
  /** The uploads; null where no post is cleaned (the scheduler only publishes and purges). */
  media: MediaRepository | null;
  /** SITE_URL: a reference may be this site's absolute URL to an upload. Without it, only media ids and `/media/...` paths name one. */
  siteUrl?: string;
}

/** The cover image an author asked for: the reference as sent (`cover_image`) and its alt text. */
export interface CoverRequest {
  reference: string;
  alt: string;
}

export interface ResolvedMedia {
  /** The content with its uploaded images sized and given their srcset. */
  content: string;
  coverImage: CoverImage | null;
  /** Pictures without alt text, each named. */
  warnings: string[];
}

export type MediaOutcome = { ok: true; resolved: ResolvedMedia } | { ok: false; problems: FieldProblem[] };

/** How an upload is shown: its widest fallback variant as `src`, the srcsets, and that variant's size. */
export type Picture = Omit<CoverImage, 'mediaId' | 'alt'>;


/** An upload as a page shows it (contract/media.ts: the fallback format is the one that is neither WebP nor AVIF). */
export function pictureOf(record: MediaRecord): Picture {
  const variants: MediaVariant[] = record.variants.map((variant) => ({ url: `${MEDIA_PATH_PREFIX}${variant.file}`, width: variant.width, height: variant.height, type: variant.type, bytes: variant.bytes }));
  const widest = widestFallbackOf(variants);
  return {
    src: widest?.url ?? '',
    srcset: srcsetOf(variants, 'image/webp'),
    srcsetAvif: srcsetOf(variants, 'image/avif'),
    width: widest?.width ?? record.width,
    height: widest?.height ?? record.height,
  };
}

/**
 * The media id a reference names, whatever host an absolute URL has (to tell whether a changed
 * `cover_image` names another picture; which host is this site's is checked when it is resolved).
 */
export function referencedMediaId(reference: string): string | null {
  let origin = '';
  try {
    if (/^https?:\/\//i.test(reference.trim())) origin = new URL(reference.trim()).origin;
  } catch {
    return null;
  }
  return parseMediaReference(reference, origin)?.id ?? null;
}

/** An `<img>` of the content: its source as it stands and whether it has alt text. */
interface ContentImage {
  src: string;
  id: string;
  hasAlt: boolean;
}

const PASS_THROUGH: sanitizeHtml.IOptions = { allowedTags: false, allowedAttributes: false, allowVulnerableTags: true };

/** The `<img>` elements of sanitised content that name an upload (the sanitiser left no others). */
function contentImages(html: string, siteUrl: string): ContentImage[] {
  const images: ContentImage[] = [];
  sanitizeHtml(html, {
    ...PASS_THROUGH,
    onOpenTag: (name, attribs) => {
      if (name !== 'img') return;
      const src = attribs.src ?? '';
      const id = parseMediaReference(src, siteUrl)?.id;
      if (id) images.push({ src, id, hasAlt: (attribs.alt ?? '').trim() !== '' });
    },
  });
  return images;
}

/** Attributes post-media writes on an uploaded image; any the author sent are replaced. */
const MANAGED = new Set(['src', 'srcset', 'sizes', 'width', 'height', 'loading', 'decoding']);

/** The content with every uploaded image rewritten from `pictures` (by media id). */
function rewriteImages(html: string, pictures: ReadonlyMap<string, Picture>, siteUrl: string): string {
  return sanitizeHtml(html, {
    ...PASS_THROUGH,
    transformTags: {
      img: (tagName, attribs) => {
        const id = parseMediaReference(attribs.src ?? '', siteUrl)?.id;
        const picture = id === undefined ? undefined : pictures.get(id);
        if (!picture) return { tagName, attribs };
        const kept = Object.fromEntries(Object.entries(attribs).filter(([name]) => !MANAGED.has(name)));
        return {
          tagName,
          attribs: {
            src: picture.src,
            ...kept,
            ...(picture.srcset ? { srcset: picture.srcset, sizes: POST_IMAGE_SIZES } : {}),
            width: String(picture.width),
            height: String(picture.height),
            loading: 'lazy',
            decoding: 'async',
          },
        };
      },
    },
  });
}

/** How many media records are read at once (a post may name thousands of images). */
const LOOKUPS_AT_ONCE = 16;

/** Media records looked up at most LOOKUPS_AT_ONCE at a time by id; unknown ids left out. */
async function lookUp(media: MediaRepository | null, ids: readonly string[]): Promise<Map<string, MediaRecord>> {
  const records = new Map<string, MediaRecord>();
  if (ids.length === 0) return records;
  if (media === null) throw new Error('Post images cannot be resolved here: no media repository was given');
  for (let start = 0; start < ids.length; start += LOOKUPS_AT_ONCE) {
    const batch = await Promise.all(ids.slice(start, start + LOOKUPS_AT_ONCE).map((id) => media.get(id)));
    for (const record of batch) if (record) records.set(record.id, record);
  }
  return records;
}

/**
 * Resolves the uploads a post names: its cover (`cover`, null for none) and the `<img>` of its
 * sanitised `content`. A 400's problems when one names no upload.
 */
export async function resolvePostMedia(settings: PostMediaSettings, content: string, cover: CoverRequest | null): Promise<MediaOutcome> {
  if (cover === null && !content.includes('<img')) return { ok: true, resolved: { content, coverImage: null, warnings: [] } };
  const siteUrl = settings.siteUrl ?? '';
  const problems: FieldProblem[] = [];
  const warnings: string[] = [];
  const coverId = cover === null ? null : (parseMediaReference(cover.reference, siteUrl)?.id ?? null);
  if (cover !== null && coverId === null) {
    problems.push({ field: 'cover_image', problem: 'invalid', message: `cover_image "${cover.reference}" is not an image uploaded to this site: ${MEDIA_UPLOAD_HINT}` });
  }
  const images = content.includes('<img') ? contentImages(content, siteUrl) : [];
  const ids = [...new Set([...(coverId ? [coverId] : []), ...images.map((image) => image.id)])];
  const records = await lookUp(settings.media, ids);

  if (coverId !== null && !records.has(coverId)) {
    problems.push({ field: 'cover_image', problem: 'invalid', message: `cover_image: no uploaded image has the id ${coverId}: ${MEDIA_UPLOAD_HINT}` });
  }
  for (const image of images) {
    if (!records.has(image.id)) {
      problems.push({ field: 'content', problem: 'invalid', message: `content has <img src="${image.src}">, but no uploaded image has the id ${image.id}: ${MEDIA_UPLOAD_HINT}` });
    } else if (!image.hasAlt) {
      warnings.push(`The image ${image.src} has no alt text: add alt text describing it; a screen reader otherwise reads nothing`);
    }
  }
  if (problems.length > 0) return { ok: false, problems: uniqueProblems(problems) };

  const pictures = new Map([...records].map(([id, record]) => [id, pictureOf(record)]));
  let coverImage: CoverImage | null = null;
  const coverPicture = coverId === null ? undefined : pictures.get(coverId);
  if (cover !== null && coverId !== null && coverPicture) {
    coverImage = { mediaId: coverId, alt: cover.alt, ...coverPicture };
    if (cover.alt === '') warnings.push(`The cover image ${coverId} has no alt text: send cover_image_alt describing it; a screen reader otherwise reads nothing`);
  }
  return { ok: true, resolved: { content: images.length > 0 ? rewriteImages(content, pictures, siteUrl) : content, coverImage, warnings: [...new Set(warnings)] } };
}

function uniqueProblems(problems: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => (seen.has(problem.message) ? false : (seen.add(problem.message), true)));
}
