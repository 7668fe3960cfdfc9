/**
 * Copy of the Blog API Usage Examples page. The code shown comes from the real, tested files in
 * docs/examples/ (imported at build time); the errors table from the API's error catalogue; the
 * merge rules of a PATCH from the contract; the image upload's limits and answer from contract/media.ts.
 */
import type { CreatePostResponse } from '../../contract/blog';
import { ERROR_CATALOGUE, type ErrorCode } from '../../contract/errors';
import { DEFAULT_MEDIA_MAX_BYTES, MEDIA_WIDTHS, type MediaResponse } from '../../contract/media';
import { PATCH_RULES } from '../../contract/post-lifecycle';

export interface Requirement {
  item: string;
  requirement: string;
  detail: string;
}

export const REQUIREMENTS: readonly Requirement[] = [
  {
    item: 'API Key',
    requirement: 'Authorization: Bearer <your key>',
    detail: 'A key that holds the blog:write permission. Keys start with bpk_ and are shown once when created.',
  },
  {
    item: 'Content Format',
    requirement: 'JSON with Content-Type: application/json',
    detail: 'Send one JSON object (not form fields, not a JSON string). The content field is HTML; unsafe HTML is removed and reported in warnings.',
  },
  {
    item: 'Required Fields',
    requirement: 'title, content, excerpt, category, author.name, status',
    detail: 'status is Draft or Published (any case). Optional: tags, author.bio, author.credentials, isNewsArticle, trust, cover_image with cover_image_alt.',
  },
];

export const EXAMPLE_TABS = [
  { id: 'python', label: 'Python', intro: 'With the requests library. Pass the post as a dict with json=post.' },
  { id: 'curl', label: 'cURL', intro: "With curl. Keep the Content-Type header: without it curl -d sends a form body." },
  { id: 'postman', label: 'Postman', intro: 'Import the collection, set its variables baseUrl and apiKey, and send.' },
  { id: 'js', label: 'JavaScript', intro: 'With fetch in Node.js 20+ (or a browser on another origin).' },
] as const;

export type ExampleTabId = (typeof EXAMPLE_TABS)[number]['id'];

export const POSTMAN_STEPS: readonly string[] = [
  'Download the collection below and import it in Postman (File > Import).',
  'Open the collection, then Variables: set baseUrl to this site and apiKey to your key. The collection sends it as a Bearer token.',
  'Open "Create blog post": Body is raw with JSON selected. Leaving the body type on Text sends text/plain, which the API refuses with 415.',
  'Send. A 201 answer carries the new post; the collection test checks it.',
];

export const RESPONSE_SAMPLE: CreatePostResponse = {
  success: true,
  message: 'Draft blog post created successfully',
  post: {
    id: '3f0c1e52-8f7a-4a0e-9c55-2d0e5b7f8a10',
    title: 'Understanding Indexed Universal Life Insurance',
    slug: 'understanding-indexed-universal-life-insurance',
    excerpt: 'A short introduction to indexed universal life insurance and how its cash value grows.',
    created_at: '2026-01-15T14:30:00.000Z',
    status: 'draft',
    publish_at: null,
    cover_image: null,
    etag: '"3f0c1e52-r1"',
  },
  warnings: [],
  findings: [],
};

/** One row of the table of operations on an existing post. */
export interface PostOperation {
  method: 'GET' | 'PATCH' | 'PUT' | 'DELETE' | 'POST';
  path: string;
  permission: string;
  does: string;
}

export const POST_OPERATIONS: readonly PostOperation[] = [
  { method: 'GET', path: '/api/blog/:idOrSlug', permission: 'none for published posts; blog:read or blog:write for drafts', does: 'One post, with its ETag header (and etag in the body). An old slug answers 301, a deleted post 410.' },
  { method: 'PATCH', path: '/api/blog/:id', permission: 'blog:write (own posts) or blog:admin', does: 'Changes the fields sent (JSON merge patch). If-Match required.' },
  { method: 'PUT', path: '/api/blog/:id', permission: 'blog:write (own posts) or blog:admin', does: 'Replaces the whole post: send every field a create takes. If-Match required.' },
  { method: 'DELETE', path: '/api/blog/:id', permission: 'blog:write (own posts) or blog:admin', does: 'Moves the post to the trash: readers get 410 Gone. Restorable for 30 days, then purged.' },
  { method: 'POST', path: '/api/blog/:id/restore', permission: 'blog:write (own posts) or blog:admin', does: 'Brings a deleted post back, in the status it had.' },
  { method: 'GET', path: '/api/blog/:id/revisions', permission: 'blog:read or blog:write', does: 'The kept earlier versions, newest first (the last 50).' },
  { method: 'GET', path: '/api/blog/:id/revisions/:n', permission: 'blog:read or blog:write', does: 'One kept version, whole.' },
  { method: 'POST', path: '/api/blog/:id/revisions/:n/revert', permission: 'blog:write (own posts) or blog:admin', does: 'A new version with the content of revision n.' },
  { method: 'GET', path: '/api/blog?mine=1', permission: 'blog:read or blog:write', does: "The key owner's posts in every status; add status=draft, scheduled, published or trashed to narrow it." },
];

/** The steps of a safe change, shown above the update examples. */
export const UPDATE_FLOW: readonly string[] = [
  'GET /api/blog/:id and keep the ETag header of the answer (a create answers with one too).',
  'Send PATCH /api/blog/:id with the fields to change and the header If-Match: <that ETag>.',
  'A 200 answer carries the new etag and, field by field, what changed. Keep the new etag for your next change.',
];

export const PATCH_MERGE_RULES: readonly string[] = PATCH_RULES;

/** What 428 and 412 mean for a change, and what to do. */
export const CONFLICT_ANSWERS: readonly { status: number; code: ErrorCode; meaning: string }[] = [
  {
    status: 428,
    code: 'precondition_required',
    meaning: 'The change had no If-Match header, so nothing was changed. The guidance names the current ETag: read the post and send its ETag.',
  },
  {
    status: 412,
    code: 'precondition_failed',
    meaning:
      'Someone else changed a field your change touches since your read, so your change was not applied. (A change to other fields only is applied on top of theirs, with a note of what happened since.) The answer names each such field in conflicts (who changed it and when), lists in changes every field that changed (before and after), and gives current_etag: GET the post again, apply your change to it and send it with the new ETag.',
  },
];

export const UPDATE_EXAMPLE_LANGUAGES = [
  { id: 'python', label: 'Python', file: 'update_post.py' },
  { id: 'curl', label: 'cURL', file: 'update-post.sh' },
  { id: 'js', label: 'JavaScript', file: 'update-post.mjs' },
] as const;

export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

/** The rows of the Common Errors table: the catalogue of SPEC section 8 plus 413, 415 and 429. */
const COMMON_ERROR_CODES: readonly ErrorCode[] = [
  'validation_failed',
  'missing_api_key',
  'insufficient_permissions',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'server_error',
];

export const COMMON_ERRORS = COMMON_ERROR_CODES.map((code) => {
  const entry = ERROR_CATALOGUE[code];
  return {
    code,
    status: entry.status,
    meaning: entry.title,
    guidance: entry.guidance[0] ?? '',
    python: 'clientGuidance' in entry ? ((entry.clientGuidance as Record<string, readonly string[] | undefined>).python?.[0] ?? null) : null,
  };
});

/** The rest of the catalogue, listed under the table so every error's `type` link (#error-<code>) has an entry. */
export const OTHER_ERRORS = (Object.keys(ERROR_CATALOGUE) as ErrorCode[])
  .filter((code) => !COMMON_ERROR_CODES.includes(code))
  .map((code) => ({ code, status: ERROR_CATALOGUE[code].status, meaning: ERROR_CATALOGUE[code].title, guidance: ERROR_CATALOGUE[code].guidance[0] ?? '' }));

/** How a picture gets into a post, shown above the image examples. */
export const IMAGE_UPLOAD_STEPS: readonly string[] = [
  'POST /api/media with your key and the image: as multipart form data with the file in a field named file, or as the file\'s bytes with Content-Type image/png, image/jpeg, image/webp, image/avif or image/gif.',
  'The answer (201, or 200 when the site had the same picture already: each picture is stored once) gives its id and its url on this site.',
  'Show it in the content with <img src="url" alt="what it shows">: the site adds width, height, srcset and lazy loading. Alt text is required; without it the answer warns.',
  'Make it the cover with "cover_image": id and "cover_image_alt": "what it shows". The cover is shown on the post, the blog cards and as the Open Graph image.',
];

/** What the site does with an upload, in one sentence from the contract's numbers. */
export const IMAGE_PROCESSING_NOTE = `PNG, JPEG, WebP, AVIF and GIF up to ${DEFAULT_MEDIA_MAX_BYTES / 1024 / 1024} MB, the type read from the bytes. Each picture is decoded and encoded again (EXIF and GPS data removed) as WebP, AVIF and a fallback format at ${MEDIA_WIDTHS.join(', ')} pixels wide, never wider than the original, and served from this site.`;

export const IMAGE_EXAMPLE_LANGUAGES = [
  { id: 'python', label: 'Python', file: 'upload_image.py' },
  { id: 'curl', label: 'cURL', file: 'upload-image.sh' },
  { id: 'js', label: 'JavaScript', file: 'upload-image.mjs' },
] as const;

/** The answers particular to uploads and deletes of images (each has its entry in the errors list). */
export const IMAGE_ERRORS = (['media_too_large', 'unsupported_image', 'image_unreadable', 'image_too_many_pixels', 'media_in_use'] as const).map((code) => ({
  code,
  status: ERROR_CATALOGUE[code].status,
  meaning: ERROR_CATALOGUE[code].title,
}));

const SAMPLE_MEDIA_ID = '3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6';

/** The answer of POST /api/media for a 960 by 640 PNG (kept at 480 and at its own 960). */
export const MEDIA_RESPONSE_SAMPLE: MediaResponse = {
  id: SAMPLE_MEDIA_ID,
  type: 'image/png',
  width: 960,
  height: 640,
  bytes: 48211,
  url: `/media/${SAMPLE_MEDIA_ID}-960.png`,
  srcset: `/media/${SAMPLE_MEDIA_ID}-480.webp 480w, /media/${SAMPLE_MEDIA_ID}-960.webp 960w`,
  srcset_avif: `/media/${SAMPLE_MEDIA_ID}-480.avif 480w, /media/${SAMPLE_MEDIA_ID}-960.avif 960w`,
  variants: [
    { url: `/media/${SAMPLE_MEDIA_ID}-480.webp`, width: 480, height: 320, type: 'image/webp', bytes: 9120 },
    { url: `/media/${SAMPLE_MEDIA_ID}-960.webp`, width: 960, height: 640, type: 'image/webp', bytes: 21408 },
    { url: `/media/${SAMPLE_MEDIA_ID}-480.avif`, width: 480, height: 320, type: 'image/avif', bytes: 7315 },
    { url: `/media/${SAMPLE_MEDIA_ID}-960.avif`, width: 960, height: 640, type: 'image/avif', bytes: 16877 },
    { url: `/media/${SAMPLE_MEDIA_ID}-480.png`, width: 480, height: 320, type: 'image/png', bytes: 14902 },
    { url: `/media/${SAMPLE_MEDIA_ID}-960.png`, width: 960, height: 640, type: 'image/png', bytes: 38110 },
  ],
  stored_bytes: 107732,
  owners: ['Jane Author'],
  uploaded_at: '2026-01-15T14:30:00.000Z',
  used_by: [],
  markdown: `![](/media/${SAMPLE_MEDIA_ID}-960.png)`,
  html: `<img src="/media/${SAMPLE_MEDIA_ID}-960.png" alt="">`,
};

/** A create that shows the uploaded picture and has it as its cover. */
export const COVER_POST_SAMPLE = {
  title: 'How the Cash Value of an IUL Grows',
  content: `<p>The cash value grows with the index, and the floor keeps it from falling with the market.</p><img src="${MEDIA_RESPONSE_SAMPLE.url}" alt="Cash value rising over twenty years">`,
  excerpt: 'A chart of how the cash value of an indexed universal life policy grows over twenty years.',
  category: 'IUL Strategies',
  status: 'Draft',
  author: { name: 'Jane Author' },
  cover_image: SAMPLE_MEDIA_ID,
  cover_image_alt: 'Cash value rising over twenty years',
};

/** The origin the examples default to in docs/examples/, replaced by the site's own on the page. */
export const EXAMPLE_DEFAULT_ORIGIN = 'http://localhost:3000';

export function withOrigin(code: string, origin: string): string {
  return code.split(EXAMPLE_DEFAULT_ORIGIN).join(origin);
}
