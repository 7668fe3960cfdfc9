/**
 * Uploading pictures (POST /api/media) for `blogpost media upload` and `blogpost publish`: the image's
 * bytes as the body with their type, retried like every request (the server stores a picture by its
 * content hash, so sending it twice stores it once). Before sending, GET /api/media/<id> asks whether
 * the site has these bytes already (the id is their SHA-256's first 32 hex digits): a picture published
 * before is not sent again.
 */
import { CLI_CHECK_HEADER } from '../contract/clients';
import path from 'node:path';
import type { MediaResponse } from '../contract/media';
import { type ApiClient, refusal } from './api-client';
import { mediaIdFromDigest } from '../contract/media';
import { type ImageReference, type LocalImage, rewriteImageSources } from './post-images';

/** One picture on the site, and whether this run stored it or found it there already. */
export interface Upload {
  /** The local file, as the author named it (relative to the working directory). */
  file: string;
  bytes: number;
  sha256: string;
  media: MediaResponse;
  /** True when the site had these bytes already (nothing new was stored). */
  alreadyStored: boolean;
  /** Other files of this run with the same bytes, uploaded once. */
  sameAs?: string;
}

/** A size as people read it: 532 B, 12.4 KB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function displayFile(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** The site's record of these bytes, when it has them (any answer but 200 is "no": the upload decides). */
async function storedAlready(client: ApiClient, id: string): Promise<MediaResponse | null> {
  // Marked as the CLI's own check: its 404 ("not there yet, upload it") is no failure of the author's,
  // and `blogpost logs` sets it aside unless asked.
  const answer = await client.send('GET', `/api/media/${id}`, { label: `Looking for ${id} on the site`, headers: { [CLI_CHECK_HEADER]: '1' } });
  return answer.status === 200 ? (answer.json as MediaResponse) : null;
}

/**
 * Uploads one checked picture (or finds it on the site already, when `lookFirst`). A refusal throws a
 * CliError naming the file, with the catalogue's guidance.
 */
export async function uploadImage(client: ApiClient, image: Extract<LocalImage, { ok: true }>, cwd: string, { lookFirst }: { lookFirst: boolean }): Promise<Upload> {
  const file = displayFile(image.file, cwd);
  const base = { file, bytes: image.bytes.length, sha256: image.sha256 };
  if (lookFirst) {
    const found = await storedAlready(client, mediaIdFromDigest(image.sha256));
    if (found) return { ...base, media: found, alreadyStored: true };
  }
  const answer = await client.send('POST', '/api/media', {
    bytes: image.bytes,
    headers: { 'Content-Type': image.type },
    label: `Uploading ${file} (${formatBytes(image.bytes.length)})`,
  });
  if (answer.status !== 201 && answer.status !== 200) throw refusal(answer, `${file} was not uploaded`);
  return { ...base, media: answer.json as MediaResponse, alreadyStored: answer.status === 200 };
}

/** The local pictures of a post, one per content hash: what `publish` uploads (and `--dry-run` lists). */
export interface PlannedUpload {
  image: Extract<LocalImage, { ok: true }>;
  /** The references that name these bytes (several files, or one file twice). */
  references: ImageReference[];
}

/** The checked local pictures grouped by their bytes' hash, in the order the post shows them. */
export function planUploads(references: readonly ImageReference[], images: ReadonlyMap<string, LocalImage>): PlannedUpload[] {
  const byHash = new Map<string, PlannedUpload>();
  for (const reference of references) {
    const image = reference.file ? images.get(reference.file) : undefined;
    if (!image?.ok) continue;
    const planned = byHash.get(image.sha256);
    if (planned) planned.references.push(reference);
    else byHash.set(image.sha256, { image, references: [reference] });
  }
  return [...byHash.values()];
}

/**
 * Uploads each planned picture once and puts the answers into the payload: every `<img>` naming one
 * points at its URL on the site, a local cover becomes its media id. Returns what was uploaded.
 */
export async function uploadPostImages(client: ApiClient, plan: readonly PlannedUpload[], payload: Record<string, unknown>, cwd: string): Promise<Upload[]> {
  const uploads: Upload[] = [];
  const urls = new Map<string, string>();
  /** Each local path of the content, as the rendered `src` has it, and its upload's media id. */
  const images = new Map<string, string>();
  for (const planned of plan) {
    const upload = await uploadImage(client, planned.image, cwd, { lookFirst: true });
    const files = [...new Set(planned.references.map((reference) => reference.file ?? ''))].map((file) => displayFile(file, cwd));
    uploads.push({ ...upload, ...(files.length > 1 ? { sameAs: files.slice(1).join(', ') } : {}) });
    for (const reference of planned.references) {
      if (reference.role === 'cover') payload.cover_image = upload.media.id;
      else {
        urls.set(reference.src, upload.media.url);
        images.set(reference.src, upload.media.id);
      }
    }
  }
  if (typeof payload.content === 'string' && urls.size > 0) payload.content = rewriteImageSources(payload.content, urls);
  // The Markdown source keeps the author's paths; the server puts each picture's upload in its place.
  const source = payload.source as { images?: Record<string, string> } | undefined;
  if (source && typeof source === 'object' && images.size > 0) source.images = Object.fromEntries(images);
  return uploads;
}
