/**
 * What an upload's bytes say before any decoder sees them (api/services/media.ts): the type they
 * are, told from their first bytes with file-type (never the Content-Type or the file name), and
 * whether they are only an image. A polyglot, an image with something else after its end (PNG after
 * IEND, JPEG after its last end marker beyond a little padding, GIF after its trailer, WebP after its
 * RIFF size, AVIF after its last box) or with HTML or script markup anywhere in it, is refused: a
 * browser or a careless proxy that sniffs could run it, and the re-encoded variants would not carry it
 * anyway, so nothing is lost by saying no.
 */
import { fileTypeFromBuffer } from 'file-type';
import { isMediaType, type MediaType } from '../../contract/media';

/** The type of an upload as its bytes tell it. */
export type DetectedType = { ok: true; type: MediaType } | { ok: false; found: string };

/** Markup a browser would run or render if it sniffed the bytes as a page (matched without regard to case). */
const MARKUP = /<(?:script|html|body|iframe|object|embed)\b|<\?php|<svg[\s>/]|<!doctype\s+html|javascript:/i;

/** How many bytes a JPEG may carry after its last end-of-image marker (some cameras pad it): only NUL, 0xFF and white space. */
const JPEG_PADDING_BYTES = 64;

/** True for text: valid UTF-8 without control characters other than white space. */
function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 4096);
  if (sample.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample.length < bytes.length ? trimPartialUtf8(sample) : sample);
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Control characters other than tab, line feed, form feed and carriage return mean binary.
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** A sample cut inside a multi-byte character loses that character, so a cut does not read as binary. */
function trimPartialUtf8(sample: Uint8Array): Uint8Array {
  const end = sample.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const byte = sample[end - i] ?? 0;
    if ((byte & 0xc0) === 0xc0) return sample.subarray(0, end - i);
    if ((byte & 0x80) === 0) break;
  }
  return sample;
}

/** The upload's type from its bytes; otherwise what it was found to be ("text/plain", "application/pdf", "no known type"). */
export async function detectType(bytes: Uint8Array): Promise<DetectedType> {
  if (bytes.length === 0) return { ok: false, found: 'an empty body' };
  const found = await fileTypeFromBuffer(bytes);
  // An animated PNG is taken as a PNG (its first frame).
  const mime = found?.mime === 'image/apng' ? 'image/png' : found?.mime;
  if (mime && isMediaType(mime)) return { ok: true, type: mime };
  if (mime) return { ok: false, found: mime };
  if (looksLikeText(bytes)) return { ok: false, found: bytes[0] === 0x3c ? 'text/html or XML (text starting with "<")' : 'text/plain' };
  return { ok: false, found: 'no known type' };
}

const readU32 = (bytes: Uint8Array, at: number) => (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0)) >>> 0;
const readU32LE = (bytes: Uint8Array, at: number) => ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** Where a PNG ends: just after the CRC of its IEND chunk; null when the chunks run out first. */
export function pngEnd(bytes: Uint8Array): number | null {
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = readU32(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    at += 12 + length;
    if (type === 'IEND') return at <= bytes.length ? at : null;
  }
  return null;
}

/** Where a JPEG ends: after the last end-of-image marker, plus the padding allowed; null without a marker. */
function jpegExtra(bytes: Uint8Array): number | null {
  for (let i = bytes.length - 2; i >= 2; i--) {
    if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) {
      const after = bytes.subarray(i + 2);
      const padding = after.length <= JPEG_PADDING_BYTES && after.every((byte) => byte === 0 || byte === 0xff || byte === 0x20 || byte === 0x0a || byte === 0x0d);
      return padding ? 0 : after.length;
    }
  }
  return null;
}

/** Skips GIF data sub-blocks from `at`; the position after their terminator, or null when cut short. */
function skipSubBlocks(bytes: Uint8Array, at: number): number | null {
  let position = at;
  while (position < bytes.length) {
    const size = bytes[position] ?? 0;
    position += 1;
    if (size === 0) return position;
    position += size;
  }
  return null;
}

/** Where a GIF ends: just after its trailer (0x3B); null when the blocks run out first. */
export function gifEnd(bytes: Uint8Array): number | null {
  const flags = bytes[10] ?? 0;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x3b) return at + 1;
    if (block === 0x21) {
      const next = skipSubBlocks(bytes, at + 2);
      if (next === null) return null;
      at = next;
    } else if (block === 0x2c) {
      const local = bytes[at + 9] ?? 0;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0) + 1;
      const next = skipSubBlocks(bytes, at);
      if (next === null) return null;
      at = next;
    } else {
      return null;
    }
  }
  return null;
}

/** Where a WebP ends: its RIFF size (padded to even) after the 8-byte header. */
function webpEnd(bytes: Uint8Array): number {
  const size = readU32LE(bytes, 4);
  return 8 + size + (size % 2);
}

/** The top-level boxes an AVIF (or an AVIF sequence) is made of; anything else is not part of the image. */
const AVIF_BOXES: ReadonlySet<string> = new Set(['ftyp', 'meta', 'mdat', 'moov', 'moof', 'mfra', 'free', 'skip', 'styp', 'sidx', 'uuid']);

function isBoxType(bytes: Uint8Array, at: number): boolean {
  return at + 8 <= bytes.length && AVIF_BOXES.has(ascii(bytes, at + 4, 4));
}

/**
 * Where an AVIF (ISO base media boxes) ends: after its last whole top-level box of a kind AVIF has.
 * Null when such a box runs past the end: the file is cut short, which the decoder reports.
 */
function avifEnd(bytes: Uint8Array): number | null {
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = readU32(bytes, at);
    if (size === 1) size = readU32(bytes, at + 8) * 2 ** 32 + readU32(bytes, at + 12);
    else if (size === 0) size = bytes.length - at;
    if (size < 8 || !isBoxType(bytes, at)) return at;
    if (at + size > bytes.length) return null;
    at += size;
  }
  return at;
}

/** How many bytes follow the image's own end; null when its structure cannot be followed to an end (cut short or damaged). */
export function bytesAfterEnd(bytes: Uint8Array, type: MediaType): number | null {
  switch (type) {
    case 'image/png': {
      const end = pngEnd(bytes);
      return end === null ? null : bytes.length - end;
    }
    case 'image/jpeg':
      return jpegExtra(bytes);
    case 'image/gif': {
      const end = gifEnd(bytes);
      return end === null ? null : bytes.length - end;
    }
    case 'image/webp': {
      const end = webpEnd(bytes);
      return end > bytes.length ? null : bytes.length - end;
    }
    case 'image/avif': {
      const end = avifEnd(bytes);
      return end === null ? null : bytes.length - end;
    }
  }
}

/** Where the image ends, in words, for a message. */
const END_NAMES: Record<MediaType, string> = {
  'image/png': 'its IEND chunk',
  'image/jpeg': 'its end-of-image marker',
  'image/gif': 'its trailer',
  'image/webp': 'the size its RIFF header gives',
  'image/avif': 'its last box',
};

/** Markup found in the bytes (the first match, shortened), or null. */
export function markupIn(bytes: Uint8Array): string | null {
  const match = MARKUP.exec(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'));
  return match ? match[0].trim() : null;
}

/**
 * Why the bytes are not only an image of `type`, or null when they are: something after its end, or
 * HTML or script markup inside. A structure that cannot be followed to its end is left to the decoder,
 * which says it better (cut short, damaged).
 */
export function polyglotProblem(bytes: Uint8Array, type: MediaType): string | null {
  const extra = bytesAfterEnd(bytes, type);
  if (extra !== null && extra > 0) return `${extra} byte(s) follow the end of the ${type.slice('image/'.length).toUpperCase()} image (after ${END_NAMES[type]}): the file carries something besides the picture`;
  const markup = markupIn(bytes);
  return markup === null ? null : `it contains HTML or script markup ("${markup}"), which an image has no reason to carry`;
}
