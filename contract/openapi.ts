/**
 * The OpenAPI 3.1 document of the whole JSON API (GET /api/openapi.json), generated, not written by
 * hand: request bodies and the list query from the zod schemas the server checks input with
 * (contract/blog.ts, blog-reader.ts), answers from the schemas of contract/api-schemas.ts and
 * contract/media-schemas.ts (each proven equal to the interface the server answers with), image uploads
 * as raw bytes or multipart form data, and each error answer's description from the error
 * catalogue. What is written here is what only the routes know: which operation answers which
 * statuses, with which error codes and headers. tests/api/openapi.test.ts lints the document and
 * checks real answers of every operation against it.
 */
import { z } from 'zod';
import {
  blogAuthorSchema,
  blogCategorySchema,
  blogPostSchema,
  blogPostSummarySchema,
  blogTrustSchema,
  categoriesResponseSchema,
  createPostResponseSchema,
  fieldChangeSchema,
  fieldProblemSchema,
  getPostByIdResponseSchema,
  healthDegradedResponseSchema,
  healthResponseSchema,
  listPostsResponseSchema,
  postMergePatchSchema,
  postMovedResponseSchema,
  postWriteResponseSchema,
  preconditionFailedProblemSchema,
  problemSchema,
  revisionResponseSchema,
  revisionSummarySchema,
  revisionsResponseSchema,
  validatePostResponseSchema,
} from './api-schemas';
import { createPostSchema, IDEMPOTENCY_HEADER, POST_LIMITS, POST_STATUSES, REPLAYED_HEADER, REVISIONS_KEPT, TRASH_RETENTION_DAYS } from './blog';
import { LIST_LIMITS, LIST_STATUSES, listPostsQuerySchema } from './blog-reader';
import { DEFAULT_MEDIA_MAX_BYTES, MEDIA_WIDTHS } from './media';
import { mediaDeletedResponseSchema, mediaListResponseSchema, mediaResponseSchema, mediaUseSchema, mediaVariantSchema } from './media-schemas';
import { catalogueEntry, type ErrorCode } from './errors';
import { API_KEY_PREFIX } from './keys';
import { PATCH_RULES } from './post-lifecycle';

export type JsonSchema = z.core.JSONSchema.BaseSchema;
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface OpenApiRef {
  $ref: string;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface OpenApiHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

/** A media type's schema: a reference into components/schemas. */
export type OpenApiContent = Record<string, { schema: OpenApiRef }>;

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiRef>;
  content?: OpenApiContent;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiRef[];
  requestBody?: { required: true; description: string; content: OpenApiContent };
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, OpenApiParameter>;
    headers: Record<string, OpenApiHeader>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }>;
  };
}

export interface OpenApiOptions {
  /** The origin the API is served from (SITE_URL); paths start with /api. None: relative to the document. */
  serverUrl?: string;
  /** The API's version: the package version. */
  version: string;
}

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/** The media types an error answer comes in: JSON, or RFC 9457's problem type to a client whose Accept prefers it. */
export const PROBLEM_MEDIA_TYPES = ['application/json', 'application/problem+json'] as const;

/** Answers, by component name: converted as the server produces them (io 'output'). */
const ANSWER_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  BlogAuthor: blogAuthorSchema,
  BlogTrust: blogTrustSchema,
  BlogPostSummary: blogPostSummarySchema,
  BlogPost: blogPostSchema,
  ListPostsResponse: listPostsResponseSchema,
  BlogCategory: blogCategorySchema,
  CategoriesResponse: categoriesResponseSchema,
  HealthResponse: healthResponseSchema,
  HealthDegradedResponse: healthDegradedResponseSchema,
  CreatePostResponse: createPostResponseSchema,
  ValidatePostResponse: validatePostResponseSchema,
  GetPostByIdResponse: getPostByIdResponseSchema,
  PostMovedResponse: postMovedResponseSchema,
  FieldChange: fieldChangeSchema,
  PostWriteResponse: postWriteResponseSchema,
  RevisionSummary: revisionSummarySchema,
  RevisionsResponse: revisionsResponseSchema,
  RevisionResponse: revisionResponseSchema,
  FieldProblem: fieldProblemSchema,
  Problem: problemSchema,
  PreconditionFailedProblem: preconditionFailedProblemSchema,
  MediaVariant: mediaVariantSchema,
  MediaUse: mediaUseSchema,
  MediaResponse: mediaResponseSchema,
  MediaListResponse: mediaListResponseSchema,
  MediaDeletedResponse: mediaDeletedResponseSchema,
  OpenApiDocument: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
};

/** Request bodies, by component name: converted as clients send them (io 'input'). */
const REQUEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  PostInput: createPostSchema,
  PostMergePatch: postMergePatchSchema,
};

/** What the schemas cannot say (refinements and case-folding): added to the generated properties. */
const POST_FIELD_NOTES: Readonly<Record<string, string>> = {
  status: `One of ${POST_STATUSES.join(', ')} (any case).`,
  tags: 'A list of tags, or one comma-separated string.',
  category: 'A built-in category name or slug; anything else is filed under uncategorized.',
  content: `HTML, sanitised by the server (what it removes is listed in warnings); elements nested at most ${POST_LIMITS.contentMaxDepth} deep.`,
  publish_at:
    'An ISO 8601 date and time with an offset (2026-12-01T09:00:00-05:00). Required with status scheduled (in the future); with published, the date a post moved here was first published (in the past); not taken with draft.',
  slug: 'The post\'s address under /blog/: lower-case letters, digits and single hyphens; made from the title when not given.',
  cover_image: "An uploaded image (POST /api/media): its media id, its /media/... path or this site's URL to it; anything else is a 400. null in a PATCH removes it.",
  cover_image_alt: 'What the cover image shows, for screen readers; without it the answer carries a warning.',
};

const ref = (kind: 'schemas' | 'parameters' | 'headers', name: string): OpenApiRef => ({ $ref: `#/components/${kind}/${name}` });

/** Drops the bounds zod gives every integer (the safe-integer range): they say nothing to a reader. */
function withoutSafeIntegerBounds(value: unknown): void {
  if (Array.isArray(value)) value.forEach(withoutSafeIntegerBounds);
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
  Object.values(record).forEach(withoutSafeIntegerBounds);
}

/** The registry's schemas converted to JSON Schema 2020-12, their references pointing into components/schemas. */
function convert(schemas: Readonly<Record<string, z.ZodType>>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { io, target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  withoutSafeIntegerBounds(converted);
  // Each conversion names its dialect and an $id with a fragment (not a valid 2020-12 $id): the
  // document's jsonSchemaDialect says the first, and the components' names are the ids.
  return Object.fromEntries(Object.entries(converted.schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]));
}

function annotatePostFields(schema: JsonSchema | undefined): void {
  const properties = schema?.properties;
  if (!properties) return;
  for (const [name, note] of Object.entries(POST_FIELD_NOTES)) {
    const property = properties[name];
    if (property && typeof property === 'object') property.description = note;
  }
}

const UPLOAD_DESCRIPTION = `A PNG, JPEG, WebP, AVIF or GIF image file, at most MEDIA_MAX_BYTES (${DEFAULT_MEDIA_MAX_BYTES / (1024 * 1024)} MB unless the site sets another limit). Its type is read from its bytes, never from the Content-Type or the file name.`;

/** Uploads are files, not JSON: described directly in JSON Schema. */
const UPLOAD_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ImageUpload: { type: 'string', contentMediaType: 'application/octet-stream', description: UPLOAD_DESCRIPTION },
  ImageUploadForm: {
    type: 'object',
    description: 'One file field (named file by convention); other text fields are ignored.',
    properties: { file: { type: 'string', contentMediaType: 'application/octet-stream', description: UPLOAD_DESCRIPTION } },
    required: ['file'],
  },
};

function componentSchemas(): Record<string, JsonSchema> {
  const answers = convert(ANSWER_SCHEMAS, 'output');
  const requests = convert(REQUEST_SCHEMAS, 'input');
  annotatePostFields(requests.PostInput);
  annotatePostFields(requests.PostMergePatch);
  return { ...answers, ...requests, ...UPLOAD_SCHEMAS };
}

/** GET /api/blog's query parameters, from the schema that checks them (all optional: the server has defaults). */
function listQueryParameters(): Record<string, OpenApiParameter> {
  const { properties = {} } = z.toJSONSchema(listPostsQuerySchema, { io: 'input', target: 'draft-2020-12' });
  const notes: Record<string, { description: string; default?: number }> = {
    page: { description: 'The page of results, from 1.', default: 1 },
    limit: { description: `Posts per page, at most ${LIST_LIMITS.maxLimit}.`, default: LIST_LIMITS.defaultLimit },
    category: { description: 'A category slug or name.' },
    tag: { description: 'Posts carrying this tag.' },
    author: { description: "An author's name, matched without regard to case." },
    status: { description: `One of ${LIST_STATUSES.join(', ')}; anything but published needs a key holding blog:read or blog:write.` },
    mine: { description: "1 or true: the posts of the calling key's owner, in every status unless status narrows it (needs a key)." },
  };
  return Object.fromEntries(
    Object.entries(properties).map(([name, generated]) => {
      const note = notes[name] ?? { description: name };
      const schema = typeof generated === 'object' ? generated : {};
      withoutSafeIntegerBounds(schema);
      const parameter: OpenApiParameter = {
        name,
        in: 'query',
        required: false,
        description: note.description,
        schema: { ...schema, ...(note.default === undefined ? {} : { default: note.default }) },
      };
      return [`query.${name}`, parameter];
    }),
  );
}

function componentParameters(): Record<string, OpenApiParameter> {
  return {
    'path.id': {
      name: 'id',
      in: 'path',
      required: true,
      description: "The post's id (a UUID) or its slug; a slug the post had before also finds it.",
      schema: { type: 'string', minLength: 1 },
    },
    'path.mediaId': {
      name: 'id',
      in: 'path',
      required: true,
      description: "An uploaded image's id (32 hex digits, from POST /api/media or GET /api/media).",
      schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    },
    'media.owner': {
      name: 'owner',
      in: 'query',
      required: false,
      description: "Only this owner's images. A key holding blog:admin may name any owner (without it: every owner's); other keys only their own.",
      schema: { type: 'string', minLength: 1 },
    },
    'path.n': {
      name: 'n',
      in: 'path',
      required: true,
      description: `A kept revision's number (GET /api/blog/{id}/revisions lists the last ${REVISIONS_KEPT}).`,
      schema: { type: 'integer', minimum: 1 },
    },
    'header.If-Match.required': {
      name: 'If-Match',
      in: 'header',
      required: true,
      description: 'The ETag of the version you change (from GET /api/blog/{id} or the last change), or * for whatever version is current. Without it: 428.',
      schema: { type: 'string' },
    },
    'header.If-Match': {
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The ETag of the version you change, or *: a stale one is a 412 that lists what changed since.',
      schema: { type: 'string' },
    },
    'header.If-None-Match': {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'The ETag of an earlier answer: 304 Not Modified while it is still current.',
      schema: { type: 'string' },
    },
    'header.Idempotency-Key': {
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      description: 'Makes the create safe to retry: a retry with the same key and the same body answers the first answer again (for 24 hours). 1 to 255 visible ASCII characters, a UUID say.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    },
    ...listQueryParameters(),
  };
}

const HEADERS: Record<string, OpenApiHeader> = {
  'X-Request-Id': { description: 'The id of this request, also in every error body: quote it to support.', required: true, schema: { type: 'string' } },
  ETag: { description: "The post's current version: send it as If-Match with the next change.", required: true, schema: { type: 'string' } },
  Location: { description: 'Where the post (or the uploaded image) is read through the API.', required: true, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  'WWW-Authenticate': { description: 'The Bearer challenge.', required: true, schema: { type: 'string' } },
  [REPLAYED_HEADER]: { description: 'true when this answer repeats an earlier create with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
  'RateLimit-Limit': { description: 'Successful writes allowed a minute with this key (absent when writes are not limited).', schema: { type: 'string' } },
  'RateLimit-Remaining': { description: 'Writes left in the current minute.', schema: { type: 'string' } },
};

type Auth = 'none' | 'optional' | 'required';

interface Answer {
  /** A component schema name. */
  schema: string;
  description: string;
  headers?: string[];
}

interface OperationSpec {
  path: string;
  method: HttpMethod;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  auth: Auth;
  parameters?: string[];
  /** `post`: a create's fields as JSON; `patch`: a merge patch of them; `image`: an image file. */
  body?: 'post' | 'patch' | 'image';
  answers: Record<number, Answer>;
  /** The error codes the operation answers with (their statuses come from the catalogue). */
  errors: ErrorCode[];
  /** Answers 304 to a matching If-None-Match. */
  conditional?: boolean;
}

const KEY_ERRORS: ErrorCode[] = ['missing_api_key', 'malformed_api_key', 'invalid_api_key'];
/** A key that is sent anyway must be valid. */
const SENT_KEY_ERRORS: ErrorCode[] = ['malformed_api_key', 'invalid_api_key'];
const WRITE_ERRORS: ErrorCode[] = [...KEY_ERRORS, 'insufficient_permissions', 'not_post_owner', 'post_not_found', 'rate_limited', 'storage_unavailable', 'storage_full'];
const BODY_ERRORS: ErrorCode[] = ['validation_failed', 'invalid_json', 'body_is_json_string', 'foreign_post_shape', 'payload_too_large', 'unsupported_media_type'];
const WRITE_HEADERS = ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining'];

const OPERATIONS: readonly OperationSpec[] = [
  {
    path: '/api/blog',
    method: 'get',
    operationId: 'listPosts',
    summary: 'List posts',
    description: 'Published posts, newest first, a page at a time, filtered by category, tag or author. Other statuses and ?mine=1 need a key that reads drafts. An unknown query parameter is a 400 naming it.',
    tag: 'Posts',
    auth: 'optional',
    parameters: ['query.page', 'query.limit', 'query.category', 'query.tag', 'query.author', 'query.status', 'query.mine'],
    answers: { 200: { schema: 'ListPostsResponse', description: 'A page of posts.' } },
    errors: ['validation_failed', 'unknown_query_parameter', ...KEY_ERRORS],
    conditional: true,
  },
  {
    path: '/api/blog',
    method: 'post',
    operationId: 'createPost',
    summary: 'Create a post',
    description: 'Checks, cleans and stores a post (a key holding blog:write). HTML is sanitised and what was removed is listed in warnings, as are unknown fields and titles that match an existing post.',
    tag: 'Posts',
    auth: 'required',
    parameters: ['header.Idempotency-Key'],
    body: 'post',
    answers: { 201: { schema: 'CreatePostResponse', description: 'The post was stored.', headers: ['Location', 'ETag', REPLAYED_HEADER, 'RateLimit-Limit', 'RateLimit-Remaining'] } },
    errors: [...BODY_ERRORS, 'invalid_idempotency_key', ...KEY_ERRORS, 'insufficient_permissions', 'slug_taken', 'idempotency_key_mismatch', 'compliance_blocked', 'rate_limited', 'storage_unavailable', 'storage_full'],
  },
  {
    path: '/api/blog/validate',
    method: 'post',
    operationId: 'validatePost',
    summary: 'Check a post without saving it',
    description: 'The same checks and cleaning as a create, with nothing saved: the slug the post would get and the warnings. No key needed; a key that is sent must hold blog:write.',
    tag: 'Posts',
    auth: 'optional',
    body: 'post',
    answers: { 200: { schema: 'ValidatePostResponse', description: 'The post would be accepted.' } },
    errors: [...BODY_ERRORS, ...SENT_KEY_ERRORS, 'insufficient_permissions', 'compliance_blocked', 'rate_limited'],
  },
  {
    path: '/api/blog/categories',
    method: 'get',
    operationId: 'listCategories',
    summary: 'List categories',
    description: 'The built-in categories with the number of published posts in each.',
    tag: 'Categories',
    auth: 'optional',
    answers: { 200: { schema: 'CategoriesResponse', description: 'The categories.' } },
    errors: SENT_KEY_ERRORS,
    conditional: true,
  },
  {
    path: '/api/blog/{id}',
    method: 'get',
    operationId: 'getPost',
    summary: 'Read one post',
    description: 'One post, whole, with its ETag. Drafts, scheduled posts and posts in the trash need a key that reads drafts; without one they are 404 (the trash: 410). A slug the post had before answers 301 to its address now.',
    tag: 'Posts',
    auth: 'optional',
    parameters: ['path.id'],
    answers: {
      200: { schema: 'GetPostByIdResponse', description: 'The post.', headers: ['ETag'] },
      301: { schema: 'PostMovedResponse', description: 'The post moved: its slug changed.', headers: ['Location'] },
    },
    errors: [...SENT_KEY_ERRORS, 'post_not_found', 'post_gone'],
    conditional: true,
  },
  {
    path: '/api/blog/{id}',
    method: 'patch',
    operationId: 'updatePost',
    summary: 'Change fields of a post',
    description: `${PATCH_RULES.join(' ')} If-Match is required.`,
    tag: 'Posts',
    auth: 'required',
    parameters: ['path.id', 'header.If-Match.required'],
    body: 'patch',
    answers: { 200: { schema: 'PostWriteResponse', description: 'The post was changed (or already read like this).', headers: WRITE_HEADERS } },
    errors: [...BODY_ERRORS, 'bad_request', ...WRITE_ERRORS, 'slug_taken', 'post_gone', 'precondition_failed', 'precondition_required', 'compliance_blocked'],
  },
  {
    path: '/api/blog/{id}',
    method: 'put',
    operationId: 'replacePost',
    summary: 'Replace a post',
    description: 'Replaces the whole post with a create\'s fields, checked and cleaned like a create. If-Match is required.',
    tag: 'Posts',
    auth: 'required',
    parameters: ['path.id', 'header.If-Match.required'],
    body: 'post',
    answers: { 200: { schema: 'PostWriteResponse', description: 'The post was replaced (or already read like this).', headers: WRITE_HEADERS } },
    errors: [...BODY_ERRORS, 'bad_request', ...WRITE_ERRORS, 'slug_taken', 'post_gone', 'precondition_failed', 'precondition_required', 'compliance_blocked'],
  },
  {
    path: '/api/blog/{id}',
    method: 'delete',
    operationId: 'deletePost',
    summary: 'Move a post to the trash',
    description: `The post leaves lists, feeds and the sitemap and its page answers 410; it can be restored within ${TRASH_RETENTION_DAYS} days, then it is purged. Deleting a post in the trash changes nothing.`,
    tag: 'Posts',
    auth: 'required',
    parameters: ['path.id', 'header.If-Match'],
    answers: { 200: { schema: 'PostWriteResponse', description: 'The post is in the trash.', headers: WRITE_HEADERS } },
    errors: ['bad_request', ...WRITE_ERRORS, 'precondition_failed'],
  },
  {
    path: '/api/blog/{id}/restore',
    method: 'post',
    operationId: 'restorePost',
    summary: 'Restore a post from the trash',
    description: 'Brings a deleted post back, in the status it had.',
    tag: 'Posts',
    auth: 'required',
    parameters: ['path.id'],
    answers: { 200: { schema: 'PostWriteResponse', description: 'The post is back.', headers: WRITE_HEADERS } },
    errors: [...WRITE_ERRORS, 'not_in_trash'],
  },
  {
    path: '/api/blog/{id}/revisions',
    method: 'get',
    operationId: 'listRevisions',
    summary: "List a post's kept versions",
    description: `The earlier versions kept (the last ${REVISIONS_KEPT}), newest first, with the fields each next version changed. Needs a key that reads drafts.`,
    tag: 'Revisions',
    auth: 'required',
    parameters: ['path.id'],
    answers: { 200: { schema: 'RevisionsResponse', description: 'The kept versions.' } },
    errors: [...KEY_ERRORS, 'post_not_found'],
    conditional: true,
  },
  {
    path: '/api/blog/{id}/revisions/{n}',
    method: 'get',
    operationId: 'getRevision',
    summary: 'Read one kept version',
    description: 'One earlier version of the post, whole. Needs a key that reads drafts.',
    tag: 'Revisions',
    auth: 'required',
    parameters: ['path.id', 'path.n'],
    answers: { 200: { schema: 'RevisionResponse', description: 'The version.' } },
    errors: [...KEY_ERRORS, 'post_not_found', 'revision_not_found'],
    conditional: true,
  },
  {
    path: '/api/blog/{id}/revisions/{n}/revert',
    method: 'post',
    operationId: 'revertPost',
    summary: 'Revert to a kept version',
    description: "A new version with that version's title, body and details; status, slug and dates stay.",
    tag: 'Revisions',
    auth: 'required',
    parameters: ['path.id', 'path.n', 'header.If-Match'],
    answers: { 200: { schema: 'PostWriteResponse', description: 'The post reads like that version again.', headers: WRITE_HEADERS } },
    errors: ['bad_request', ...WRITE_ERRORS, 'revision_not_found', 'post_gone', 'precondition_failed', 'compliance_blocked'],
  },
  {
    path: '/api/blog/{id}/review',
    method: 'post',
    operationId: 'reviewPost',
    summary: 'Decide on a post held for compliance review',
    description:
      'For a key holding blog:admin: approve a post with the status in_review (it is published, or scheduled if its time is still ahead), or return it to its author as a draft with a note the author reads in GET /api/blog/{id}. The body is {"decision": "approve"} (optionally with "approval_code", e.g. a carrier\'s compliance code, else one like ADV-2026-0042 is generated, and "approval_expires", a date, else APPROVAL_VALID_MONTHS from now: when it runs out the post leaves the site again, and "reason", required while high findings its author did not accept remain: why it may be published anyway, kept in the audit and the history) or {"decision": "return", "note": "..."}; If-Match names the version decided on.',
    tag: 'Posts',
    auth: 'required',
    parameters: ['path.id', 'header.If-Match'],
    answers: { 200: { schema: 'PostWriteResponse', description: 'The decision is made.', headers: WRITE_HEADERS } },
    errors: [...BODY_ERRORS, 'bad_request', ...WRITE_ERRORS, 'post_gone', 'precondition_failed', 'precondition_required'],
  },
  {
    path: '/api/media',
    method: 'post',
    operationId: 'uploadImage',
    summary: 'Upload an image',
    description: `Takes a PNG, JPEG, WebP, AVIF or GIF (a key holding blog:write) as the raw body with its Content-Type (image/* or application/octet-stream) or as multipart/form-data with one file, decodes it and re-encodes it without its metadata (EXIF and GPS data are gone) at the widths ${MEDIA_WIDTHS.join(', ')} not wider than the picture, as WebP, AVIF and a fallback format. Stored by the hash of its bytes: the same picture uploaded again answers 200 with the stored image. Put its url in a post's content or its id in cover_image.`,
    tag: 'Media',
    auth: 'required',
    body: 'image',
    answers: {
      201: { schema: 'MediaResponse', description: 'The image was stored.', headers: ['Location', 'RateLimit-Limit', 'RateLimit-Remaining'] },
      200: { schema: 'MediaResponse', description: 'The same picture was stored before: this is it (the key\'s owner added to its owners).', headers: ['Location', 'RateLimit-Limit', 'RateLimit-Remaining'] },
    },
    errors: ['bad_request', ...KEY_ERRORS, 'insufficient_permissions', 'media_too_large', 'unsupported_image', 'image_unreadable', 'image_too_many_pixels', 'rate_limited', 'media_busy', 'storage_unavailable', 'storage_full'],
  },
  {
    path: '/api/media',
    method: 'get',
    operationId: 'listImages',
    summary: 'List uploaded images',
    description: "The images of the key's owner, newest first, each with the posts that use it (a key holding blog:read or blog:write; blog:admin sees every owner's).",
    tag: 'Media',
    auth: 'required',
    parameters: ['media.owner'],
    answers: { 200: { schema: 'MediaListResponse', description: 'The images.' } },
    errors: ['unknown_query_parameter', ...KEY_ERRORS, 'insufficient_permissions'],
    conditional: true,
  },
  {
    path: '/api/media/{id}',
    method: 'get',
    operationId: 'getImage',
    summary: 'Read one uploaded image',
    description: 'One image with its variants and the posts that use it (a key holding blog:read or blog:write).',
    tag: 'Media',
    auth: 'required',
    parameters: ['path.mediaId'],
    answers: { 200: { schema: 'MediaResponse', description: 'The image.' } },
    errors: [...KEY_ERRORS, 'media_not_found'],
    conditional: true,
  },
  {
    path: '/api/media/{id}',
    method: 'delete',
    operationId: 'deleteImage',
    summary: 'Delete an uploaded image',
    description: 'Deletes an image and its files, when no post uses it (a key of an owner who uploaded it, or one holding blog:admin). While posts show it the answer is a 409 naming them in used_by.',
    tag: 'Media',
    auth: 'required',
    parameters: ['path.mediaId'],
    answers: { 200: { schema: 'MediaDeletedResponse', description: 'The image and its files are gone.', headers: ['RateLimit-Limit', 'RateLimit-Remaining'] } },
    errors: [...KEY_ERRORS, 'insufficient_permissions', 'not_media_owner', 'media_not_found', 'media_in_use', 'rate_limited', 'storage_unavailable', 'storage_full'],
  },
  {
    path: '/api/health',
    method: 'get',
    operationId: 'getHealth',
    summary: 'Health',
    description:
      'For monitors and load balancers: the server is up, for how long, and how many posts it holds; 503 (status degraded, with Retry-After) while it cannot read its store, e.g. its database is restarting. It answers 200 again by itself once the database is back.',
    tag: 'Health',
    auth: 'none',
    answers: {
      200: { schema: 'HealthResponse', description: 'The server is up.' },
      503: { schema: 'HealthDegradedResponse', description: 'The server is up but cannot read its store: take it out of rotation until it answers 200 again.', headers: ['Retry-After'] },
    },
    errors: ['bad_request'],
    conditional: true,
  },
  {
    path: OPENAPI_PATH,
    method: 'get',
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, for client generators and Postman.',
    tag: 'Document',
    auth: 'none',
    answers: { 200: { schema: 'OpenApiDocument', description: 'The document.' } },
    errors: ['bad_request'],
    conditional: true,
  },
];

const TAGS = [
  { name: 'Posts', description: 'Create, read, change, delete and restore blog posts.' },
  { name: 'Revisions', description: "A post's earlier versions and reverting to one." },
  { name: 'Categories', description: 'The blog categories.' },
  { name: 'Media', description: 'Images for posts: upload, list, delete. The variants are served from this site at /media/.' },
  { name: 'Health', description: 'For monitors.' },
  { name: 'Document', description: 'This OpenAPI document.' },
];

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  optional: [{}, { bearerAuth: [] }],
  required: [{ bearerAuth: [] }],
};

function headerRefs(names: readonly string[]): Record<string, OpenApiRef> {
  return Object.fromEntries(['X-Request-Id', ...names].map((name) => [name, ref('headers', name)]));
}

const json = (schema: string): OpenApiContent => ({ 'application/json': { schema: ref('schemas', schema) } });

/** The error answers of an operation, one per status, each describing its codes from the catalogue. */
function errorAnswers(codes: readonly ErrorCode[]): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = catalogueEntry(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const answers: Record<string, OpenApiResponse> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema = ref('schemas', status === 412 ? 'PreconditionFailedProblem' : 'Problem');
    const headers = status === 401 ? ['WWW-Authenticate'] : status === 412 ? ['ETag'] : status === 429 ? ['Retry-After'] : [];
    answers[String(status)] = {
      description: statusCodes.map((code) => `${code}: ${catalogueEntry(code).title}.`).join(' '),
      headers: headerRefs(headers),
      content: Object.fromEntries(PROBLEM_MEDIA_TYPES.map((type) => [type, { schema }])),
    };
  }
  return answers;
}

function requestBody(kind: 'post' | 'patch' | 'image'): NonNullable<OpenApiOperation['requestBody']> {
  if (kind === 'image') {
    const file = ref('schemas', 'ImageUpload');
    return {
      required: true,
      description: 'The image file: the raw bytes with their type (or application/octet-stream), or multipart/form-data with one file field.',
      content: { 'image/*': { schema: file }, 'application/octet-stream': { schema: file }, 'multipart/form-data': { schema: ref('schemas', 'ImageUploadForm') } },
    };
  }
  if (kind === 'patch') {
    const schema = ref('schemas', 'PostMergePatch');
    return {
      required: true,
      description: 'A JSON merge patch (RFC 7396) of the post\'s fields; any JSON media type is read.',
      content: { 'application/merge-patch+json': { schema }, 'application/json': { schema } },
    };
  }
  return { required: true, description: `The post as one JSON object (at most ${POST_LIMITS.bodyMaxBytes} bytes).`, content: json('PostInput') };
}

function operation(spec: OperationSpec): OpenApiOperation {
  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, answer] of Object.entries(spec.answers)) {
    responses[status] = { description: answer.description, headers: headerRefs(answer.headers ?? []), content: json(answer.schema) };
  }
  if (spec.conditional) responses['304'] = { description: 'Not modified: the If-None-Match names the current answer.', headers: headerRefs([]) };
  Object.assign(responses, errorAnswers(spec.errors));
  const parameters = [...(spec.parameters ?? []), ...(spec.conditional ? ['header.If-None-Match'] : [])];
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    security: SECURITY[spec.auth],
    ...(parameters.length > 0 ? { parameters: parameters.map((name) => ref('parameters', name)) } : {}),
    ...(spec.body ? { requestBody: requestBody(spec.body) } : {}),
    responses,
  };
}

const DESCRIPTION = [
  'The blog API of the site: create posts, read them, change them with If-Match, delete and restore them, read their earlier versions, and upload the images they show.',
  `Authenticate with an API key: Authorization: Bearer ${API_KEY_PREFIX}... Reading published posts needs no key.`,
  'Errors are JSON bodies with a stable code, guidance and the RFC 9457 members (application/problem+json to clients whose Accept prefers it); any request may also answer 400 bad_request for a Host header that is not a host name, 405 with Allow for a method a path does not take, and 500 server_error.',
  'The content is informational, not a solicitation. Results shown are projections and not guaranteed.',
].join('\n\n');

/** The OpenAPI 3.1.0 document of the API. */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const spec of OPERATIONS) paths[spec.path] = { ...paths[spec.path], [spec.method]: operation(spec) };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: 'Blog API', version: options.version, summary: 'Create and manage the blog posts of the site.', description: DESCRIPTION },
    servers: [{ url: options.serverUrl ?? '/', description: 'This site' }],
    tags: TAGS,
    paths,
    components: {
      schemas: componentSchemas(),
      parameters: componentParameters(),
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${API_KEY_PREFIX}<id>_<secret>`,
          description: 'An API key from /admin/api-keys or `blogpost keys create`, sent as Authorization: Bearer <key>.',
        },
      },
    },
  };
}
