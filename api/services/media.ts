/**
 * Uploaded images (POST /api/media, contract/media.ts): checked from their bytes, decoded once,
 * re-encoded at the widths of MEDIA_WIDTHS as WebP, AVIF and a fallback every browser shows, and
 * stored by the hash of the bytes, so the same picture uploaded twice is stored once.
 *
 * The checks, in order, each refusing with the catalogue's code and a message saying why:
 *   size over the limit                      media_too_large (413; the route refuses it while reading)
 *   type from the bytes (media-bytes.ts)     unsupported_image (415), naming what the bytes are
 *   width x height x frames (header only)    image_too_many_pixels (422), before anything is decoded
 *   polyglot (bytes after the image's end, HTML or script markup)   image_unreadable (422)
 *   anything sharp cannot decode             image_unreadable (422)
 *
 * Decoding and re-encoding take memory (a 2400 x 1800 photo is 13 MB of pixels, and its variants are
 * encoded side by side): MEDIA_JOBS upload is worked on at a time, MEDIA_QUEUE_LENGTH more
 * wait in line, and one more than that is a 503 `media_busy` with Retry-After (decision 0016). libvips'
 * operation cache is off: every upload is a picture of its own, and the cache only kept its memory.
 *
 * Re-encoding keeps no metadata (sharp writes none unless asked): EXIF, GPS and XMP are gone, the
 * EXIF orientation applied to the pixels first. Animated GIF and WebP stay animated in WebP and GIF;
 * AVIF is not made for them (the encoder here has no animation).
 */
import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import type createSharp from 'sharp';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { ApiError } from '../../contract/errors';
import { escapeMarkup } from '../../contract/markup';
import {
  MEDIA_MAX_PIXELS,
  MEDIA_TYPES,
  MEDIA_WIDTHS,
  type MediaExtension,
  type MediaResponse,
  type MediaType,
  type MediaVariant,
  mediaFileName,
  mediaIdFromDigest,
  mediaPath,
  POST_IMAGE_SIZES,
  srcsetOf,
  widestFallbackOf,
} from '../../contract/media';
import type { MediaRecord, PostIndexEntry, Store } from '../store/store';
import { detectType, polyglotProblem } from './media-bytes';

/**
 * sharp, loaded at the first image: it loads libvips, about 190 ms, which every `blogpost` command
 * paid at start because the services it opens include this one (decision 0008's on-demand loading).
 */
let sharpModule: Promise<{ default: typeof createSharp }> | undefined;
async function sharp(input: Uint8Array | Buffer, options: SharpOptions): Promise<Sharp> {
  sharpModule ??= import('sharp').then((loaded) => {
    loaded.default.cache(false);
    return loaded;
  });
  return (await sharpModule).default(input, options);
}

/**
 * Uploads decoded and re-encoded at once: one, whose variants are encoded side by side on libuv's
 * threads (two at once took as long for a burst and half as much memory again; decision 0016).
 */
export const MEDIA_JOBS = 1;
/** Uploads that may wait for their turn; one more is refused with a 503 (media_busy). */
export const MEDIA_QUEUE_LENGTH = 16;
/** What a refused upload's Retry-After says: about the time the line ahead of it takes. */
const BUSY_RETRY_SECONDS = 10;

/** WebP quality: visually lossless for photos at a third of a JPEG's size. */
const WEBP_QUALITY = 80;
/** AVIF quality and effort: effort 2 keeps a 3000x2000 photo's three AVIF widths near a second (docs/benchmarks.md). */
const AVIF_QUALITY = 55;
const AVIF_EFFORT = 2;
const JPEG_QUALITY = 82;

/** The alt text the pasteable Markdown and HTML carry, for the author to replace. */
export const ALT_PLACEHOLDER = 'Describe the picture';

/** A post that shows a medium, as MediaResponse.used_by lists it. */
export type MediaUse = MediaResponse['used_by'][number];

/** Who asks for a change: the key's owner, and whether the key holds blog:admin. */
export interface MediaEditor {
  owner: string;
  admin: boolean;
}

export interface UploadOutcome {
  /** False when the same bytes were stored before (answered 200 instead of 201). */
  created: boolean;
  record: MediaRecord;
}

type VariantType = MediaVariant['type'];

const EXTENSIONS: Record<VariantType, MediaExtension> = MEDIA_TYPES;

/** The picture's decoded pixels, oriented, in sRGB, 8 bits a channel. */
interface Decoded {
  pixels: Buffer;
  width: number;
  /** The height of one frame. */
  height: number;
  channels: 3 | 4;
  /** More than one frame (an animated GIF or WebP). */
  pages: number;
  loop: number | undefined;
  delay: number[] | undefined;
}

/** The media id of some bytes: the first 32 hex digits of their SHA-256. */
export function mediaIdOf(bytes: Uint8Array): string {
  return mediaIdFromDigest(createHash('sha256').update(bytes).digest('hex'));
}

/**
 * The widths made of a picture `width` wide: each of MEDIA_WIDTHS narrower than it, and its own width
 * up to the widest of them (a 640 px picture is kept at 640 as well as 480; a 3000 px one at 1600).
 */
export function variantWidths(width: number): number[] {
  const widest = MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1] ?? width;
  return [...MEDIA_WIDTHS.filter((candidate) => candidate < width && candidate < widest), Math.min(width, widest)];
}

/** The fallback format (contract/media.ts): the original's for PNG, JPEG and GIF; PNG for a WebP or AVIF with transparency, JPEG otherwise. */
export function fallbackType(type: MediaType, hasAlpha: boolean): 'image/png' | 'image/jpeg' | 'image/gif' {
  if (type === 'image/png' || type === 'image/jpeg' || type === 'image/gif') return type;
  return hasAlpha ? 'image/png' : 'image/jpeg';
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

/**
 * The 413 for an upload over `limitBytes`. `readAway`: the body declared its length, at most twice the
 * limit, and nobody began to read it: the connection stays open and Node reads the body away after the
 * answer, so a client still sending it receives the 413 (closing with bytes unread resets the
 * connection, and curl then says only "Send failure: Broken pipe"). Otherwise the answer closes it.
 */
export function mediaTooLarge(limitBytes: number, size?: number, readAway = false): ApiError {
  return new ApiError('media_too_large', {
    message: `The image is larger than this site takes (${megabytes(limitBytes)}${size === undefined ? '' : `; it has ${megabytes(size)}`}).`,
    headers: readAway ? {} : { Connection: 'close' },
    extra: { limitBytes },
    facts: { limitBytes },
  });
}

function unreadable(reason: string): ApiError {
  return new ApiError('image_unreadable', { message: `The upload cannot be taken as an image: ${reason}. Open it in an image editor and export it again as PNG, JPEG or WebP.` });
}

/** The header's facts (no pixel decoded); a 422 when even the header cannot be read. */
async function headerOf(bytes: Uint8Array, type: MediaType): Promise<Metadata> {
  try {
    return await (await sharp(bytes, { animated: true, limitInputPixels: false })).metadata();
  } catch (error) {
    throw unreadable(`its ${type} header cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Refuses a picture with more than MEDIA_MAX_PIXELS pixels (all frames counted), from its header alone. */
function checkPixels(meta: Metadata): void {
  const pages = meta.pages ?? 1;
  const frameHeight = meta.pageHeight ?? meta.height;
  const pixels = meta.width * frameHeight * pages;
  if (pixels > MEDIA_MAX_PIXELS) {
    const frames = pages > 1 ? ` in ${pages} frames` : '';
    throw new ApiError('image_too_many_pixels', {
      message: `The image is ${meta.width} x ${frameHeight} pixels${frames} (${(pixels / 1e6).toFixed(1)} million); this site decodes at most ${MEDIA_MAX_PIXELS / 1e6} million. Scale it down and upload it again.`,
      extra: { width: meta.width, height: frameHeight, pages, maxPixels: MEDIA_MAX_PIXELS },
    });
  }
}

/** Decodes once: the oriented pixels every variant is encoded from; a 422 when sharp cannot decode it. */
async function decode(bytes: Uint8Array, type: MediaType, meta: Metadata): Promise<Decoded> {
  const animated = (meta.pages ?? 1) > 1 && (type === 'image/gif' || type === 'image/webp');
  try {
    let pipeline = await sharp(bytes, { animated, limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'error' });
    // Animations carry no EXIF orientation (and sharp cannot rotate several frames).
    if (!animated) pipeline = pipeline.rotate();
    const { data, info } = await pipeline.toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    const channels = info.channels === 4 ? 4 : 3;
    if (info.channels !== channels) throw new Error(`unexpected ${info.channels} channel(s)`);
    const pages = animated ? (info.pages ?? 1) : 1;
    return {
      pixels: data,
      width: info.width,
      height: animated ? (info.pageHeight ?? info.height) : info.height,
      channels,
      pages,
      loop: meta.loop,
      delay: meta.delay,
    };
  } catch (error) {
    throw unreadable(`it cannot be decoded as ${type} (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Encodes the decoded picture at `width` as `type`. */
async function encode(decoded: Decoded, width: number, type: VariantType): Promise<{ data: Buffer; width: number; height: number }> {
  const animated = decoded.pages > 1;
  const raw = {
    width: decoded.width,
    height: decoded.height * decoded.pages,
    channels: decoded.channels,
    ...(animated ? { pageHeight: decoded.height } : {}),
  };
  let pipeline = await sharp(decoded.pixels, { raw });
  if (width !== decoded.width) pipeline = pipeline.resize({ width, withoutEnlargement: true });
  const timing = animated ? { ...(decoded.loop === undefined ? {} : { loop: decoded.loop }), ...(decoded.delay ? { delay: decoded.delay } : {}) } : {};
  switch (type) {
    case 'image/webp':
      pipeline = pipeline.webp({ quality: WEBP_QUALITY, ...timing });
      break;
    case 'image/avif':
      pipeline = pipeline.avif({ quality: AVIF_QUALITY, effort: AVIF_EFFORT });
      break;
    case 'image/jpeg':
      pipeline = pipeline.jpeg({ quality: JPEG_QUALITY, progressive: true, mozjpeg: true });
      break;
    case 'image/png':
      // Lossless (no palette: sharp's `effort` and `colours` would quantise it); level 6 with adaptive
      // filtering is within 1% of level 9's size at a third of its time.
      pipeline = pipeline.png({ compressionLevel: 6, adaptiveFiltering: true });
      break;
    case 'image/gif':
      pipeline = pipeline.gif(timing);
      break;
  }
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: animated ? (info.pageHeight ?? Math.round(info.height / decoded.pages)) : info.height };
}

/** The types each width is made in: WebP, AVIF (not for an animation) and the fallback. */
function variantTypes(type: MediaType, decoded: Decoded): VariantType[] {
  const fallback = fallbackType(type, decoded.channels === 4);
  return decoded.pages > 1 ? ['image/webp', fallback] : ['image/webp', 'image/avif', fallback];
}

/** Every variant's file, encoded concurrently (sharp runs them on libuv's thread pool). */
async function encodeAll(id: string, type: MediaType, decoded: Decoded): Promise<{ variants: MediaRecord['variants']; files: Map<string, Uint8Array> }> {
  const jobs = variantWidths(decoded.width).flatMap((width) => variantTypes(type, decoded).map((variantType) => ({ width, variantType })));
  const encoded = await Promise.all(jobs.map(async ({ width, variantType }) => ({ variantType, ...(await encode(decoded, width, variantType)) })));
  const files = new Map<string, Uint8Array>();
  const variants = encoded.map(({ variantType, data, width, height }) => {
    const file = mediaFileName(id, width, EXTENSIONS[variantType]);
    files.set(file, data);
    return { file, width, height, type: variantType, bytes: data.length };
  });
  return { variants, files };
}

/** Posts whose content shows a medium: `/media/<id>-` anywhere in the HTML. */
const CONTENT_MEDIA = /\/media\/([0-9a-f]{32})-/g;

function postUse(entry: PostIndexEntry): MediaUse {
  return { id: entry.id, slug: entry.slug, title: entry.title, status: entry.deletedAt ? 'trashed' : entry.status };
}

export interface MediaServiceOptions {
  /** The upload limit in bytes (MEDIA_MAX_BYTES). */
  maxBytes: number;
  now?: () => Date;
  /** Uploads worked on at once and waiting (default MEDIA_JOBS and MEDIA_QUEUE_LENGTH). */
  jobs?: number;
  queueLength?: number;
}

export class MediaService {
  readonly #store: Store;
  readonly #maxBytes: number;
  readonly #now: () => Date;
  readonly #work: LimitFunction;
  /** Uploads at work and in line, at most. */
  readonly #capacity: number;

  constructor(store: Store, options: MediaServiceOptions) {
    this.#store = store;
    this.#maxBytes = options.maxBytes;
    this.#now = options.now ?? (() => new Date());
    const jobs = options.jobs ?? MEDIA_JOBS;
    this.#work = pLimit(jobs);
    this.#capacity = jobs + (options.queueLength ?? MEDIA_QUEUE_LENGTH);
  }

  /** Uploads being decoded and encoded now, and those waiting for their turn. */
  get work(): { active: number; waiting: number } {
    return { active: this.#work.activeCount, waiting: this.#work.pendingCount };
  }

  /**
   * Throws the 503 media_busy when the line is full: the route asks before it reads an upload's body
   * (a refused upload's megabytes are never held in memory), and the upload asks again in turn. The
   * unread body of a declared length (within the upload limit, checked first) is read and thrown away
   * after the answer, so a client still sending it gets the 503, not a reset connection (a server that
   * closes with bytes unread makes the kernel send a reset, which can destroy the answer on its way:
   * a burst of uploads saw "EPIPE" instead of Retry-After). A body without a declared length could go
   * on for ever: then `closeConnection` ends the connection after the answer.
   */
  refuseWhenBusy(closeConnection = false): void {
    if (this.#work.activeCount + this.#work.pendingCount < this.#capacity) return;
    throw new ApiError('media_busy', {
      message: `The server is busy re-encoding images (${this.#work.activeCount} at work, ${this.#work.pendingCount} waiting: as many as it takes at once), so this one was not taken. Send it again in ${BUSY_RETRY_SECONDS} seconds.`,
      headers: { 'Retry-After': String(BUSY_RETRY_SECONDS), ...(closeConnection ? { Connection: 'close' } : {}) },
      facts: { retryAfterSeconds: BUSY_RETRY_SECONDS },
    });
  }

  /** Decoding and encoding, in turn with other uploads' (see MEDIA_JOBS); a 503 when the line is full. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    this.refuseWhenBusy();
    return this.#work(work);
  }

  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * Checks, re-encodes and stores an upload. The same bytes uploaded before are not encoded again:
   * the stored record gains `owner` (`created` false).
   */
  async upload(bytes: Uint8Array, by: { owner: string; keyId: string | null }): Promise<UploadOutcome> {
    if (bytes.length > this.#maxBytes) throw mediaTooLarge(this.#maxBytes, bytes.length);
    const detected = await detectType(bytes);
    if (!detected.ok) {
      throw new ApiError('unsupported_image', {
        message: `The upload is ${detected.found}, not a PNG, JPEG, WebP, AVIF or GIF image (its type is read from its bytes, not its name or Content-Type).`,
        extra: { detected: detected.found },
        facts: { detected: detected.found.slice(0, 80), accepted: Object.keys(MEDIA_TYPES) },
      });
    }
    const { type } = detected;
    const id = mediaIdOf(bytes);
    const stored = await this.#store.media.get(id);
    if (stored) return this.#saveExisting(stored, by.owner);

    const meta = await headerOf(bytes, type);
    checkPixels(meta);
    const polyglot = polyglotProblem(bytes, type);
    if (polyglot) throw unreadable(polyglot);
    const { decoded, encoded } = await this.#inTurn(async () => {
      const pixels = await decode(bytes, type, meta);
      try {
        return { decoded: pixels, encoded: await encodeAll(id, type, pixels) };
      } catch (error) {
        throw unreadable(`it could not be re-encoded (${error instanceof Error ? error.message : String(error)})`);
      }
    });
    const record: MediaRecord = {
      id,
      type,
      width: decoded.width,
      height: decoded.height,
      bytes: bytes.length,
      owners: [by.owner],
      uploadedByKeyId: by.keyId,
      uploadedAt: this.#now().toISOString(),
      variants: encoded.variants,
    };
    const saved = await this.#store.media.save(record, encoded.files);
    return { created: saved.kind === 'created', record: saved.record };
  }

  async #saveExisting(stored: MediaRecord, owner: string): Promise<UploadOutcome> {
    const saved = await this.#store.media.save({ ...stored, owners: [owner] }, new Map());
    return { created: saved.kind === 'created', record: saved.record };
  }

  get(id: string): Promise<MediaRecord | null> {
    return this.#store.media.get(id);
  }

  /** A medium or the 404 naming the id. */
  async require(id: string): Promise<MediaRecord> {
    const record = await this.#store.media.get(id);
    if (!record) throw new ApiError('media_not_found', { message: `No uploaded image has the id "${id}". GET /api/media lists your images with their ids.` });
    return record;
  }

  /** Newest first; `owner` narrows to one owner's uploads. */
  list(owner?: string): Promise<MediaRecord[]> {
    return this.#store.media.list(owner === undefined ? {} : { owner });
  }

  /** The posts that show a medium (as cover image or in their content), trashed ones included. */
  async usage(id: string): Promise<MediaUse[]> {
    return (await this.#usageIndex()).get(id) ?? [];
  }

  /**
   * Which posts use which media: every post read once per call (no cache: a list or a delete is rare,
   * and a count kept in memory would be wrong as soon as another process changed a post).
   */
  async #usageIndex(): Promise<Map<string, MediaUse[]>> {
    const byMedia = new Map<string, MediaUse[]>();
    const add = (mediaId: string, entry: PostIndexEntry) => {
      const uses = byMedia.get(mediaId) ?? [];
      if (!uses.some((use) => use.id === entry.id)) uses.push(postUse(entry));
      byMedia.set(mediaId, uses);
    };
    const all = { limit: Number.MAX_SAFE_INTEGER };
    const entries = [...(await this.#store.posts.list({ status: 'any', ...all })).entries, ...(await this.#store.posts.list({ status: 'trashed', ...all })).entries];
    for (const entry of entries) {
      if (entry.coverImage) add(entry.coverImage.mediaId, entry);
      const post = await this.#store.posts.getById(entry.id);
      for (const match of post?.content.matchAll(CONTENT_MEDIA) ?? []) add(match[1] as string, entry);
    }
    return byMedia;
  }

  /**
   * Deletes a medium no post uses: a 404 when there is none, a 403 unless the key's owner uploaded it
   * or the key holds blog:admin, a 409 naming the posts that still show it.
   */
  async delete(id: string, editor: MediaEditor): Promise<void> {
    const record = await this.require(id);
    if (!editor.admin && !record.owners.includes(editor.owner)) {
      const owners = record.owners.map((owner) => `"${owner}"`).join(', ') || 'nobody (it was added on the server)';
      throw new ApiError('not_media_owner', {
        message: `This image was uploaded by ${owners}, and this key's owner is "${editor.owner}": only keys of its uploaders, or a key holding blog:admin, may delete it.`,
        extra: { mediaOwners: record.owners, keyOwner: editor.owner },
      });
    }
    const usedBy = await this.usage(id);
    if (usedBy.length > 0) {
      const titles = usedBy.map((use) => `"${use.title}" (${use.status})`).join(', ');
      throw new ApiError('media_in_use', {
        message: `This image is still shown by ${usedBy.length === 1 ? 'the post' : `${usedBy.length} posts:`} ${titles}, so it was not deleted. Remove it from their content or cover_image (or delete them for good), then delete it again.`,
        extra: { used_by: usedBy },
      });
    }
    await this.#store.media.delete(id);
  }

  /** Each medium's users, for a list (every post read at most once). */
  async usageOf(records: readonly MediaRecord[]): Promise<Map<string, MediaUse[]>> {
    const index = await this.#usageIndex();
    return new Map(records.map((record) => [record.id, index.get(record.id) ?? []]));
  }
}

/** A medium as answers carry it (contract/media.ts MediaResponse). */
export function presentMedia(record: MediaRecord, usedBy: readonly MediaUse[]): MediaResponse {
  const variants: MediaVariant[] = record.variants.map((variant) => ({
    url: mediaPath(record.id, variant.width, EXTENSIONS[variant.type]),
    width: variant.width,
    height: variant.height,
    type: variant.type,
    bytes: variant.bytes,
  }));
  const url = widestFallbackOf(variants)?.url ?? '';
  const srcset = srcsetOf(variants, 'image/webp');
  return {
    id: record.id,
    type: record.type,
    width: record.width,
    height: record.height,
    bytes: record.bytes,
    url,
    srcset,
    srcset_avif: srcsetOf(variants, 'image/avif'),
    variants,
    stored_bytes: variants.reduce((sum, variant) => sum + variant.bytes, 0),
    owners: [...record.owners],
    uploaded_at: record.uploadedAt,
    used_by: usedBy.map((use) => ({ ...use })),
    markdown: `![${ALT_PLACEHOLDER}](${url})`,
    html: `<img src="${escapeMarkup(url)}" srcset="${escapeMarkup(srcset)}" sizes="${escapeMarkup(POST_IMAGE_SIZES)}" width="${record.width}" height="${record.height}" alt="${ALT_PLACEHOLDER}">`,
  };
}
