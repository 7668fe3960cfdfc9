/**
 * The pictures a post file shows: every `<img>` of its content (Markdown `![alt](img/chart.png)` is one
 * once rendered) and its cover image, with their line in the file. A reference without a scheme
 * (`img/chart.png`, `./a.jpg`, `file:` URLs too) names a local file, relative to the post file (or the
 * working directory for standard input): `blogpost validate` checks it exists and is a PNG, JPEG, WebP,
 * AVIF or GIF (read from its first bytes, as the server does), and `blogpost publish` uploads it once per
 * content hash and sends the post with the answer's URL (the cover as its media id). Site paths
 * (`/media/...`), media ids and http(s) URLs are left as written: the server resolves or warns about them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineColumn } from '../contract/compliance';
import { escapeMarkup } from '../contract/markup';
import { isMediaType, MEDIA_ID_PATTERN, type MediaType } from '../contract/media';

/** One picture a post shows, as written in the file. */
export interface ImageReference {
  /** The content's `<img>` or the front matter's cover. */
  role: 'content' | 'cover';
  /** The reference as written (the `src`, with HTML entities read). */
  src: string;
  /** The alt text; null when the `<img>` has no alt attribute (for the cover: no cover_image_alt). */
  alt: string | null;
  /** Where it is written in the file (from 1), when it can be found there. */
  line: number | null;
  column: number | null;
  /** The local file it names (absolute), or null for a site path, a media id or a URL. */
  file: string | null;
}

/** What a post file's text and payload say, as read by post-input.ts. */
export interface ImageSource {
  payload: Record<string, unknown>;
  text: string;
  /** The file's full path; none for standard input. */
  path?: string;
  /** Where the body starts in the text, to look for a reference there first. */
  bodyStart?: number;
  /** Where the front matter's (or JSON's) top-level keys start. */
  keys: Record<string, number>;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/** An attribute of one tag's text (name=value, quoted or not), entities read; null when absent. */
function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  if (!match) return new RegExp(`\\s${name}(?=[\\s/>])`, 'i').test(tag) ? '' : null;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}

/** Does the reference name a local file (rather than a site path, a media id or a URL)? */
export function isLocalReference(src: string): boolean {
  const value = src.trim();
  if (value === '' || value.startsWith('#') || value.startsWith('/') || value.startsWith('\\\\')) return false;
  if (MEDIA_ID_PATTERN.test(value)) return false;
  if (/^file:/i.test(value)) return true;
  // A scheme (https:, data:, ...), but not a Windows drive letter (C:\...).
  return !/^[a-z][a-z0-9+.-]*:/i.test(value) || /^[a-z]:[\\/]/i.test(value);
}

/** The absolute path of a local reference, relative to the post file's folder (or `cwd`). */
export function localFileOf(src: string, baseDir: string): string {
  const value = src.trim();
  if (/^file:/i.test(value)) return fileURLToPath(value);
  let decoded = value.replace(/[?#].*$/, '');
  try {
    decoded = decodeURI(decoded);
  } catch {
    // Not percent-encoded as a URL: the path as written.
  }
  return path.resolve(baseDir, decoded);
}

/** Finds `needle` in the text from `from` (the body first, then anywhere), as a line and column. */
function place(text: string, needles: readonly string[], from: number): { offset: number; line: number; column: number } | null {
  for (const start of [from, 0]) {
    for (const needle of needles) {
      if (!needle) continue;
      const at = text.indexOf(needle, start);
      if (at !== -1) return { offset: at, ...lineColumn(text, at) };
    }
  }
  return null;
}

/** The `<img>` tags of HTML, with their text and where they are. */
export function imgTags(html: string): Array<{ tag: string; index: number }> {
  return [...html.matchAll(/<img\b[^>]*>/gi)].map((match) => ({ tag: match[0], index: match.index }));
}

/** Every picture the post shows, content images in order, then the cover. */
export function imageReferences(source: ImageSource, cwd: string): ImageReference[] {
  const baseDir = source.path ? path.dirname(source.path) : cwd;
  const content = typeof source.payload.content === 'string' ? source.payload.content : '';
  const references: ImageReference[] = [];
  // Each reference is looked for after the previous one, so the same picture twice gets two lines.
  let cursor = source.bodyStart ?? 0;
  for (const { tag } of imgTags(content)) {
    const src = attribute(tag, 'src');
    if (src === null) continue;
    let decoded = src;
    try {
      decoded = decodeURI(src);
    } catch {
      // Kept as written.
    }
    const found = place(source.text, [src, decoded], cursor);
    if (found) cursor = found.offset + 1;
    const local = isLocalReference(src);
    references.push({ role: 'content', src, alt: attribute(tag, 'alt'), line: found?.line ?? null, column: found?.column ?? null, file: local ? localFileOf(src, baseDir) : null });
  }
  const cover = source.payload.cover_image;
  if (typeof cover === 'string' && cover.trim() !== '') {
    const keyAt = source.keys.cover_image ?? source.keys.cover;
    const at = keyAt !== undefined ? lineColumn(source.text, keyAt) : null;
    const alt = source.payload.cover_image_alt;
    references.push({
      role: 'cover',
      src: cover.trim(),
      alt: typeof alt === 'string' ? alt : null,
      line: at?.line ?? null,
      column: at?.column ?? null,
      file: isLocalReference(cover) ? localFileOf(cover, baseDir) : null,
    });
  }
  return references;
}

/** A local picture read and checked: its bytes, type (from the bytes) and SHA-256. */
export type LocalImage =
  | { ok: true; file: string; bytes: Buffer<ArrayBuffer>; type: MediaType; sha256: string }
  | { ok: false; file: string; problem: string; /** `unreadable`: no such file, a folder, no permission; `not_image`: read, but not a picture the site takes. */ reason: 'unreadable' | 'not_image' };

/** Reads a local picture and decides its type from its first bytes, as the server does. */
export async function readLocalImage(file: string): Promise<LocalImage> {
  let bytes: Buffer<ArrayBuffer>;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    return { ok: false, file, problem: why, reason: 'unreadable' };
  }
  // Loaded at the first local image: most runs (help, a post without pictures) never read one.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !isMediaType(detected.mime)) {
    const what = detected ? `it is a ${detected.ext.toUpperCase()} file (${detected.mime}), not` : bytes.length === 0 ? 'it is empty, not' : 'it is not';
    return { ok: false, file, problem: `${what} a PNG, JPEG, WebP, AVIF or GIF image (the type is read from its bytes, not its name): export it as PNG, JPEG or WebP`, reason: 'not_image' };
  }
  return { ok: true, file, bytes, type: detected.mime, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** A problem with one picture, at its place in the file: `error`s stop a publish, `warning`s are shown. */
export interface ImageProblem {
  severity: 'error' | 'warning';
  line: number | null;
  column: number | null;
  message: string;
}

/** The name of a picture in a message: its path as written. */
function named(reference: ImageReference): string {
  return reference.role === 'cover' ? `the cover image ${reference.src}` : `the image ${reference.src}`;
}

/** The offline checks of a post's pictures: local files that are missing or not images, missing alt text. */
export async function checkImages(references: readonly ImageReference[]): Promise<{ problems: ImageProblem[]; images: Map<string, LocalImage> }> {
  const problems: ImageProblem[] = [];
  const images = new Map<string, LocalImage>();
  for (const reference of references) {
    const at = { line: reference.line, column: reference.column };
    if (reference.file) {
      const image = images.get(reference.file) ?? (await readLocalImage(reference.file));
      images.set(reference.file, image);
      if (!image.ok) problems.push({ severity: 'error', ...at, message: `${named(reference)} cannot be uploaded: ${image.problem} (${image.file}).` });
    }
    if (reference.role === 'content' && (reference.alt === null || reference.alt.trim() === '')) {
      problems.push({ severity: 'warning', ...at, message: `${named(reference)} has no alt text: describe what it shows for readers who cannot see it (![what it shows](${reference.src}), or alt="..." in HTML).` });
    }
    if (reference.role === 'cover' && (reference.alt === null || reference.alt.trim() === '')) {
      problems.push({ severity: 'warning', ...at, message: `${named(reference)} has no cover_image_alt: add cover_image_alt: "what it shows" to the front matter.` });
    }
  }
  return { problems, images };
}

/**
 * The post's content with each `<img>` whose src is in `urls` pointing at its new URL instead; every
 * other byte as it was.
 */
export function rewriteImageSources(html: string, urls: ReadonlyMap<string, string>): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = attribute(tag, 'src');
    const url = src === null ? undefined : urls.get(src);
    if (url === undefined) return tag;
    return tag.replace(/(\ssrc\s*=\s*)(?:"[^"]*"|'[^']*'|[^\s"'>]+)/i, (_, before: string) => `${before}"${escapeMarkup(url)}"`);
  });
}
