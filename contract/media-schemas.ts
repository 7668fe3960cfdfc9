/**
 * The answers of the image endpoints (/api/media) as zod schemas, for the OpenAPI document
 * (contract/openapi.ts). Each is checked at compile time to describe exactly the interface the server
 * answers with (contract/media.ts), as contract/api-schemas.ts does for the posts.
 */
import { z } from 'zod';
import type { Equal } from './api-schemas';
import { MEDIA_ID_PATTERN, MEDIA_TYPES, type MediaListResponse, type MediaResponse, type MediaType, type MediaVariant } from './media';

/** The answer of DELETE /api/media/{id}. */
export interface MediaDeletedResponse {
  deleted: string;
}

type Describes<Schema extends z.ZodType, Interface> = Equal<z.output<Schema>, Interface>;

const timestamp = z.iso.datetime({ offset: true });
const mediaTypes = Object.keys(MEDIA_TYPES) as [MediaType, ...MediaType[]];
const count = z.number().int().min(0);
const pixels = z.number().int().min(1);

export const mediaVariantSchema = z.object({
  url: z.string().describe('Its path on this site, /media/<id>-<width>.<ext>: served with a year of immutable caching.'),
  width: pixels,
  height: pixels,
  type: z.enum(mediaTypes),
  bytes: count,
});

export const mediaUseSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  status: z.string().describe("The post's status, or trashed for a post in the trash."),
});

export const mediaResponseSchema = z.object({
  id: z.string().regex(MEDIA_ID_PATTERN).describe('The first 32 hex digits of the SHA-256 of the bytes uploaded: the same picture always has the same id.'),
  type: z.enum(mediaTypes).describe('The upload\'s type, read from its bytes.'),
  width: pixels.describe('In pixels, after the EXIF orientation is applied.'),
  height: pixels,
  bytes: count.describe('The size of the upload.'),
  url: z.string().describe('The widest variant in the fallback format: the src of an <img>, or a cover image.'),
  srcset: z.string().describe('The WebP variants as an srcset value.'),
  srcset_avif: z.string().describe('The AVIF variants as an srcset value; empty for an animation (no AVIF is made of one).'),
  variants: z.array(mediaVariantSchema),
  stored_bytes: count.describe('The bytes all variants take.'),
  owners: z.array(z.string()).describe('The owners of the keys that uploaded it.'),
  uploaded_at: timestamp,
  used_by: z.array(mediaUseSchema).describe('The posts that show it (cover image or content), trashed ones included: it cannot be deleted while any does.'),
  markdown: z.string().describe('Markdown with this picture, ready to paste (write the alt text).'),
  html: z.string().describe('An <img> with src, srcset, sizes, width and height, ready to paste (write the alt text).'),
});

export const mediaListResponseSchema = z.object({
  media: z.array(mediaResponseSchema).describe('Newest first.'),
  total: count,
});

export const mediaDeletedResponseSchema = z.object({ deleted: z.string().describe('The id of the image deleted.') });

// The compile-time proof that every schema is its interface: a mismatch is a type error here.
const _variant: Describes<typeof mediaVariantSchema, MediaVariant> = true;
const _media: Describes<typeof mediaResponseSchema, MediaResponse> = true;
const _list: Describes<typeof mediaListResponseSchema, MediaListResponse> = true;
const _deleted: Describes<typeof mediaDeletedResponseSchema, MediaDeletedResponse> = true;
