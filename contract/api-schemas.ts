/**
 * The bodies the JSON API answers with, as zod schemas: the source the OpenAPI document
 * (contract/openapi.ts) is generated from. The server builds its answers from TypeScript interfaces
 * (contract/blog.ts, blog-reader.ts, post-lifecycle.ts, errors.ts); each schema here is checked at
 * compile time to describe exactly its interface (`Equal` below), so the document cannot drift from
 * the answers. Also the body of a PATCH: a JSON merge patch of a create's fields.
 */
import { z } from 'zod';
import { type CreatePostResponse, createPostSchema, type PostReview, STORED_POST_STATUSES, type ValidatePostResponse } from './blog';
import { COMPLIANCE_FIELDS, COMPLIANCE_SEVERITIES, type ComplianceFinding } from './compliance';
import type { BlogAuthor, BlogPost, BlogPostSummary, BlogTrust, CategoriesResponse, HealthDegradedResponse, HealthResponse, ListPostsResponse } from './blog-reader';
import type { BlogCategory } from './categories';
import { CLIENT_KINDS } from './clients';
import { type ApiErrorBody, ERROR_CATALOGUE, type ErrorCode } from './errors';
import type { FieldProblem } from './field-problems';
import type { CoverImageResponse } from './media';
import type { FieldChange, GetPostByIdResponse, PostMovedResponse, PostWriteResponse, PreconditionFailedDetails, RevisionResponse, RevisionsResponse, RevisionSummary } from './post-lifecycle';

/** True only when A and B are the same type (optional members, literals and index signatures included). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** `const _: Describes<typeof schema, Interface> = true` fails to compile when the schema's output is not exactly the interface. */
type Describes<Schema extends z.ZodType, Interface> = Equal<z.output<Schema>, Interface>;

/** An ISO 8601 timestamp as the server writes them (`Date#toISOString`, or a stored time with its offset). */
const timestamp = z.iso.datetime({ offset: true });
const postStatus = z.enum(STORED_POST_STATUSES);

export const postReviewSchema = z.object({
  state: z.enum(['pending', 'returned']).describe('pending: waiting for a staff member; returned: sent back with a note (the post is a draft again).'),
  requested_status: z.enum(['published', 'scheduled']).describe('The status the post gets when approved.'),
  requested_publish_at: timestamp.nullable(),
  submitted_at: timestamp,
  rules: z.array(z.string()).describe('The compliance rules whose high findings held the post.'),
  note: z.string().nullable().describe("The reviewer's note when the post was sent back."),
  decided_at: timestamp.nullable(),
});

export const complianceFindingSchema = z.object({
  rule: z.string(),
  severity: z.enum(COMPLIANCE_SEVERITIES),
  message: z.string(),
  why: z.string(),
  suggestion: z.string(),
  location: z
    .object({ field: z.enum(COMPLIANCE_FIELDS), text: z.string(), start: z.number().int(), end: z.number().int(), line: z.number().int(), column: z.number().int() })
    .nullable()
    .describe("Where the matched text is in the field (offsets into the field as the server keeps it, content as sanitised HTML, or the Markdown body of a post sent with its source; line and column from 1); null for a finding about the whole post."),
  accepted: z.object({ reason: z.string() }).optional().describe("Set when the post's compliance.accept accepts this rule."),
  source: z
    .object({ line: z.number().int(), column: z.number().int() })
    .optional()
    .describe('For a post sent with its Markdown source: the line and column of the finding in that file as sent (front matter included), as blogpost lint reports them. The location is then in the source\'s body.'),
});

export const blogAuthorSchema = z.object({
  name: z.string(),
  bio: z.string().optional(),
  credentials: z.string().optional(),
});

export const blogTrustSchema = z.object({
  factCheckedBy: z.object({ name: z.string(), credentials: z.string().optional(), link: z.string().optional() }).optional(),
  sources: z.array(z.object({ name: z.string(), url: z.string() })),
  lastUpdated: z.string().optional(),
});

export const coverImageResponseSchema = z.object({
  id: z.string().describe('The media id of the upload (POST /api/media).'),
  url: z.string().describe('The widest variant in a format every browser shows: the `src`, and the Open Graph image.'),
  srcset: z.string().describe('The WebP variants as an `srcset` value.'),
  srcset_avif: z.string().describe('The AVIF variants as an `srcset` value.'),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  alt: z.string().describe('What the picture shows, for screen readers (empty when the author gave none).'),
});

export const blogPostSummarySchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  category: z.object({ slug: z.string(), name: z.string() }),
  tags: z.array(z.string()),
  author: blogAuthorSchema,
  isNewsArticle: z.boolean(),
  trust: blogTrustSchema.nullable(),
  cover_image: coverImageResponseSchema.nullable().describe('The picture shown above the post, on its cards and as its Open Graph image; null when it has none.'),
  status: postStatus,
  review: postReviewSchema.optional().describe('While the post waits for (or was sent back by) a compliance review.'),
  created_at: timestamp,
  updated_at: timestamp,
  published_at: timestamp.nullable().describe('When the post went public; null for drafts and scheduled posts.'),
  publish_at: timestamp.nullable().describe('When a scheduled post goes live; null otherwise.'),
  revision: z.number().int().min(1).describe('Grows by one with every change; the ETag names it.'),
  deleted_at: timestamp.optional().describe('Set while the post is in the trash.'),
  purge_at: timestamp.optional().describe('When a post in the trash is purged for good.'),
});

export const blogPostSchema = blogPostSummarySchema.extend({
  content: z.string().describe('HTML the server has already sanitised, safe to render as is.'),
  compliance: z
    .object({ accept: z.array(z.object({ rule: z.string(), reason: z.string() })) })
    .optional()
    .describe('The compliance findings its author accepted, with the reasons; only to a request with an API key, and only when there are some.'),
  source: z
    .object({ format: z.literal('markdown'), text: z.string(), images: z.record(z.string(), z.string()) })
    .optional()
    .describe('The Markdown file the post was written as, exactly as its author sent it, and the uploads its local pictures name (path as written -> media id); only to a request with an API key, and only for a post written in Markdown whose text has not been changed another way since.'),
});

export const listPostsResponseSchema = z.object({
  success: z.literal(true),
  posts: z.array(blogPostSummarySchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
});

export const blogCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  postCount: z.number().int().min(0),
  createdAt: timestamp,
});

export const categoriesResponseSchema = z.object({ success: z.literal(true), categories: z.array(blogCategorySchema) });

export const healthResponseSchema = z.object({
  success: z.literal(true),
  status: z.literal('ok'),
  uptimeSeconds: z.number().int().min(0),
  posts: z.object({ published: z.number().int(), drafts: z.number().int(), scheduled: z.number().int(), inReview: z.number().int().describe('Held for a compliance review.'), trashed: z.number().int() }),
});

export const healthDegradedResponseSchema = z.object({
  success: z.literal(false),
  status: z.literal('degraded'),
  uptimeSeconds: z.number().int().min(0),
  code: z.literal('storage_unavailable'),
  reason: z.string().describe('What is wrong, in words: the database cannot be reached, or is damaged.'),
});

const etag = z.string().describe('The post\'s ETag (also in the ETag header): send it as If-Match to change the post.');

export const createPostResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  post: z.object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    excerpt: z.string(),
    created_at: timestamp,
    status: postStatus,
    publish_at: timestamp.nullable(),
    cover_image: coverImageResponseSchema.nullable(),
    etag,
    review: postReviewSchema.optional(),
  }),
  warnings: z.array(z.string()).describe('What the server changed on the way in (HTML removed by the sanitiser, unknown fields ignored).'),
  findings: z.array(complianceFindingSchema).describe('What the compliance rules found (docs/compliance.md).'),
});

export const validatePostResponseSchema = z.object({
  success: z.literal(true),
  valid: z.literal(true),
  message: z.string(),
  post: z.object({ title: z.string(), slug: z.string(), excerpt: z.string(), category: z.string(), status: postStatus, cover_image: coverImageResponseSchema.nullable() }),
  warnings: z.array(z.string()),
  findings: z.array(complianceFindingSchema),
});

export const getPostByIdResponseSchema = z.object({ success: z.literal(true), post: blogPostSchema, etag });

export const fieldChangeSchema = z.object({
  field: z.string().describe('A top-level field name, or a path inside author or trust (author.bio).'),
  before: z.unknown(),
  after: z.unknown(),
});

export const postWriteResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  post: blogPostSummarySchema,
  etag,
  changed: z.array(fieldChangeSchema).describe('The fields this request changed (empty when it changed nothing).'),
  warnings: z.array(z.string()),
  findings: z.array(complianceFindingSchema),
  since: z
    .object({ revision: z.number().int().min(1), note: z.string() })
    .optional()
    .describe('When the If-Match named an older revision and the change was applied on top of the current version: that revision and what happened since.'),
});

const versionStoryFields = {
  made_by: z.string().nullable().describe('key:<id>, staff:<email> or scheduler; null for a version stored before this was recorded.'),
  made_at: timestamp,
  fields: z.array(z.string()).describe('The fields this version changed from the one before it.'),
  why: z.string().nullable().describe('Why, where there is a reason: the reviewer\'s note, "went live on schedule", "moved to the trash".'),
};

export const revisionSummarySchema = z.object({
  revision: z.number().int().min(1),
  replaced_at: timestamp,
  saved_by: z.string().nullable().describe('The public id of the key that made this version, when a key did.'),
  title: z.string(),
  status: z.string(),
  changed: z.array(z.string()).describe('The fields the next version changed.'),
  ...versionStoryFields,
});

export const revisionsResponseSchema = z.object({
  success: z.literal(true),
  post: z.object({ id: z.uuid(), slug: z.string(), revision: z.number().int().min(1) }),
  current: z.object({ revision: z.number().int().min(1), title: z.string(), status: z.string(), ...versionStoryFields }).describe('The version the post has now.'),
  revisions: z.array(revisionSummarySchema).describe('Newest first.'),
});

export const revisionResponseSchema = z.object({ success: z.literal(true), revision: z.number().int().min(1), replaced_at: timestamp, post: blogPostSchema });

export const postMovedResponseSchema = z.object({ success: z.literal(true), message: z.string(), location: z.string() });

export const fieldProblemSchema = z.object({
  field: z.string().describe('The field\'s path in the JSON body or query, e.g. author.name or tags[2]; (body) for the whole body.'),
  problem: z.enum(['missing', 'invalid']),
  message: z.string(),
});

const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

/** The error body as contract/errors.ts types it (extra members such as allow or retryAfterSeconds allowed). */
export const apiErrorBodySchema = z.looseObject({
  success: z.literal(false),
  code: z.enum(ERROR_CODES),
  status: z.number().int(),
  message: z.string(),
  guidance: z.array(z.string()).describe('What to do about it, tailored to the client the User-Agent names.'),
  client: z.enum(CLIENT_KINDS).optional(),
  errors: z.array(fieldProblemSchema).optional().describe('For validation failures: every missing or invalid field.'),
  docs: z.string(),
  request_id: z.string().optional(),
  type: z.string().optional(),
  title: z.string().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
});

/** An error body as the server sends it: the RFC 9457 members and the request id are always there. */
export interface ProblemBody extends ApiErrorBody {
  request_id: string;
  type: string;
  title: string;
  detail: string;
  instance: string;
}

export const problemSchema = apiErrorBodySchema.extend({
  request_id: z.string().describe('The answer\'s X-Request-Id: quote it to support.'),
  type: z.string().describe('RFC 9457: a link to the error\'s entry in the API\'s documentation.'),
  title: z.string(),
  detail: z.string(),
  instance: z.string().describe('The path of the request.'),
});

export const preconditionFailedDetailsSchema = z.object({
  current_etag: z.string(),
  current_revision: z.number().int().min(1),
  your_revision: z.number().int().nullable().describe('The revision the request\'s If-Match named.'),
  changes: z.array(fieldChangeSchema).nullable().describe('Field by field, what changed since that revision (null when it is no longer kept).'),
  conflicts: z
    .array(z.object({ field: z.string(), by: z.string(), at: timestamp, revision: z.number().int().min(1) }))
    .optional()
    .describe('The fields the request changes that someone else changed since that revision: who changed each last, when, in which revision.'),
});

/** A 412: the error body with what the post is now and how it differs from the client's version. */
export interface PreconditionFailedProblem extends ProblemBody, PreconditionFailedDetails {}

export const preconditionFailedProblemSchema = problemSchema.extend(preconditionFailedDetailsSchema.shape);

/**
 * The body of a PATCH: a JSON merge patch (RFC 7396) of a create's fields. Every field is optional, and
 * null removes an optional one; the merged post is then checked exactly like a create.
 */
export const postMergePatchSchema = z.object(createPostSchema.shape).partial();

// The compile-time proof that every schema is its interface: a mismatch is a type error here.
const _finding: Describes<typeof complianceFindingSchema, ComplianceFinding> = true;
const _review: Describes<typeof postReviewSchema, PostReview> = true;
const _author: Describes<typeof blogAuthorSchema, BlogAuthor> = true;
const _trust: Describes<typeof blogTrustSchema, BlogTrust> = true;
const _cover: Describes<typeof coverImageResponseSchema, CoverImageResponse> = true;
const _summary: Describes<typeof blogPostSummarySchema, BlogPostSummary> = true;
const _post: Describes<typeof blogPostSchema, BlogPost> = true;
const _list: Describes<typeof listPostsResponseSchema, ListPostsResponse> = true;
const _category: Describes<typeof blogCategorySchema, BlogCategory> = true;
const _categories: Describes<typeof categoriesResponseSchema, CategoriesResponse> = true;
const _health: Describes<typeof healthResponseSchema, HealthResponse> = true;
const _degraded: Describes<typeof healthDegradedResponseSchema, HealthDegradedResponse> = true;
const _created: Describes<typeof createPostResponseSchema, CreatePostResponse> = true;
const _validated: Describes<typeof validatePostResponseSchema, ValidatePostResponse> = true;
const _read: Describes<typeof getPostByIdResponseSchema, GetPostByIdResponse> = true;
const _change: Describes<typeof fieldChangeSchema, FieldChange> = true;
const _written: Describes<typeof postWriteResponseSchema, PostWriteResponse> = true;
const _revisionSummary: Describes<typeof revisionSummarySchema, RevisionSummary> = true;
const _revisions: Describes<typeof revisionsResponseSchema, RevisionsResponse> = true;
const _revision: Describes<typeof revisionResponseSchema, RevisionResponse> = true;
const _moved: Describes<typeof postMovedResponseSchema, PostMovedResponse> = true;
const _fieldProblem: Describes<typeof fieldProblemSchema, FieldProblem> = true;
const _errorBody: Describes<typeof apiErrorBodySchema, ApiErrorBody> = true;
const _problem: Describes<typeof problemSchema, ProblemBody> = true;
const _details: Describes<typeof preconditionFailedDetailsSchema, PreconditionFailedDetails> = true;
const _preconditionFailed: Describes<typeof preconditionFailedProblemSchema, PreconditionFailedProblem> = true;
