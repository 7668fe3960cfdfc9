/**
 * The create-post payload: one zod schema with its limits, the TypeScript types inferred from it, the
 * checks every client and the server run on a body, and the shapes of the answers to a create or a
 * validate. Imported by the server, the CLI, the harness and the web page alike, so it stays pure.
 */
import { z } from 'zod';
import { type ComplianceFinding, complianceInputSchema } from './compliance';
import { fieldProblemsFrom, type FieldProblem } from './field-problems';
import { type CoverImageResponse, MEDIA_ALT_MAX_LENGTH, MEDIA_ID_PATTERN, parseMediaReference } from './media';

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
/**
 * Every status a stored post can have: what an author sends, and `in_review`, which only the server
 * gives (COMPLIANCE_MODE review or block: a post with a high compliance finding waits for a staff
 * member's approval, off every public page, list and feed).
 */
export const STORED_POST_STATUSES = [...POST_STATUSES, 'in_review'] as const;
export type StoredPostStatus = (typeof STORED_POST_STATUSES)[number];

/** How long a deleted post stays in the trash, restorable, before it is purged. */
export const TRASH_RETENTION_DAYS = 30;
/** How many earlier versions of a post are kept (GET /api/blog/:id/revisions). */
export const REVISIONS_KEPT = 50;
/** The longest a scheduled post waits after its time before it goes live. */
export const SCHEDULE_LATENESS_SECONDS = 60;

/** Limits a real blog needs; the web form and the CLI show the same numbers. */
export const POST_LIMITS = {
  titleMin: 3,
  titleMax: 200,
  excerptMax: 500,
  contentMaxChars: 250_000,
  /** Deepest element nesting content may have (deeper HTML is abuse, and costly to sanitise). */
  contentMaxDepth: 100,
  categoryMax: 100,
  tagsMax: 20,
  tagMax: 50,
  authorNameMax: 100,
  authorBioMax: 1_000,
  credentialsMax: 200,
  sourcesMax: 50,
  sourceNameMax: 200,
  urlMax: 2_048,
  /** Local pictures one Markdown source may name (`source.images`). */
  sourceImagesMax: 200,
  lastUpdatedMax: 40,
  /** Largest request body the API reads, in bytes. */
  bodyMaxBytes: 1_048_576,
} as const;

export const REQUIRED_POST_FIELDS = ['title', 'content', 'excerpt', 'category', 'author.name', 'status'] as const;

/** Void elements and elements whose end tag may be left out never nest by themselves. */
const NON_NESTING = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'colgroup', 'caption',
]);

/** How deep elements nest in `html` (a linear scan of tag names; attributes are not parsed). */
export function htmlNestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/g)) {
    if (NON_NESTING.has((match[2] ?? '').toLowerCase())) continue;
    if (match[1]) depth = Math.max(0, depth - 1);
    else deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

const requiredText = (max: number, min = 1) => z.string().trim().min(min).max(max);
const optionalText = (max: number) => z.string().trim().max(max).nullish();
const httpUrl = z.url({ protocol: /^https?$/ }).max(POST_LIMITS.urlMax);

/** An ISO 8601 date and time with an offset (`Z` or `+01:00`): the only kind of time a schedule takes. */
export const ISO_TIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** The instant a `publish_at` text names, or why it names none. */
export function parsePublishAt(text: string): { ok: true; at: Date } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.test(trimmed)) {
    return { ok: false, message: `must include a time zone offset, e.g. ${trimmed.length > 10 ? trimmed.replace(' ', 'T') : `${trimmed}T09:00:00`}-05:00 or ...Z for UTC (a time without one means different moments in different places)` };
  }
  if (!ISO_TIME_WITH_OFFSET.test(trimmed)) return { ok: false, message: 'must be an ISO 8601 date and time with an offset, e.g. 2026-12-01T09:00:00-05:00' };
  const at = new Date(trimmed);
  if (Number.isNaN(at.getTime())) return { ok: false, message: `is not a real date and time ("${trimmed}")` };
  return { ok: true, at };
}

/** A slug an author may choose: lower-case letters, digits and single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function isDateText(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? !Number.isNaN(Date.parse(text)) : !Number.isNaN(Date.parse(`${text} UTC`));
}

/** Accepts `tags` as a list, or as one comma-separated string (a common shortcut). */
const tagList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').filter((tag) => tag.trim() !== '') : value),
  z.array(requiredText(POST_LIMITS.tagMax)).max(POST_LIMITS.tagsMax).nullish(),
);

export const authorSchema = z.object({
  name: requiredText(POST_LIMITS.authorNameMax),
  bio: optionalText(POST_LIMITS.authorBioMax),
  credentials: optionalText(POST_LIMITS.credentialsMax),
});

export const trustSchema = z.object({
  factCheckedBy: z
    .object({
      name: requiredText(POST_LIMITS.authorNameMax),
      credentials: optionalText(POST_LIMITS.credentialsMax),
      link: httpUrl.nullish(),
    })
    .nullish(),
  sources: z
    .array(z.object({ name: requiredText(POST_LIMITS.sourceNameMax), url: httpUrl }))
    .max(POST_LIMITS.sourcesMax)
    .nullish(),
  lastUpdated: z
    .string()
    .trim()
    .max(POST_LIMITS.lastUpdatedMax)
    .refine(isDateText, 'must be a date, e.g. 2025-01-31')
    .nullish(),
});

/** What an author can do about a picture the server cannot show: the same words wherever one is refused. */
export const MEDIA_UPLOAD_HINT = 'upload it with POST /api/media (blogpost publish does this for local files)';

/**
 * True when `text` has the shape of a media reference (a media id, a `/media/<file>` path, or an
 * absolute URL to one). Which origin is this site's is the server's to decide (SITE_URL): a URL of
 * another host passes here and is refused there.
 */
export function isMediaReferenceShape(text: string): boolean {
  let origin = '';
  if (/^https?:\/\//i.test(text.trim())) {
    try {
      origin = new URL(text.trim()).origin;
    } catch {
      return false;
    }
  }
  return parseMediaReference(text, origin) !== null;
}

/** `cover_image`: an uploaded picture, named by its media id, its `/media/...` path or this site's URL to it. */
const coverImageReference = z
  .string()
  .trim()
  .max(POST_LIMITS.urlMax)
  .refine(isMediaReferenceShape, `must name an uploaded image (its media id, its /media/... path or this site's URL to it): ${MEDIA_UPLOAD_HINT}`);

const publishAtText = z
  .string()
  .trim()
  .max(40)
  .superRefine((text, ctx) => {
    const parsed = parsePublishAt(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
  });

/**
 * The author's Markdown file a post was written as (`blogpost publish` sends it): the whole file, front
 * matter included, exactly as written, and the uploads its local pictures name (the path as written ->
 * the media id). The server renders `content` from it (the `content` sent beside it is not used), keeps
 * it, and gives it back (GET /api/blog/:id with a key), so `blogpost get --markdown` returns the file
 * byte for byte. Decision 0022.
 */
export const postSourceSchema = z.object({
  format: z.literal('markdown'),
  text: z.string().min(1).max(POST_LIMITS.contentMaxChars),
  images: z
    .record(z.string().min(1).max(POST_LIMITS.urlMax), z.string().regex(MEDIA_ID_PATTERN, 'must be a media id (32 hex digits) from POST /api/media'))
    .refine((images) => Object.keys(images).length <= POST_LIMITS.sourceImagesMax, `must name at most ${POST_LIMITS.sourceImagesMax} pictures`)
    .optional(),
});
export type PostSource = z.output<typeof postSourceSchema>;

const postFields = z.object({
  title: requiredText(POST_LIMITS.titleMax, POST_LIMITS.titleMin),
  /** HTML; sanitised by the server, which reports what it removed in `warnings`. */
  content: requiredText(POST_LIMITS.contentMaxChars).refine(
    (html) => htmlNestingDepth(html) <= POST_LIMITS.contentMaxDepth,
    `must not nest HTML elements more than ${POST_LIMITS.contentMaxDepth} levels deep`,
  ),
  excerpt: requiredText(POST_LIMITS.excerptMax),
  /** A built-in category name or slug; anything else is filed under `uncategorized`. */
  category: requiredText(POST_LIMITS.categoryMax),
  tags: tagList,
  /** `draft` or `published`, any case (the specification's examples send `Draft`). */
  status: z.string().trim().toLowerCase().pipe(z.enum(POST_STATUSES)),
  author: authorSchema,
  isNewsArticle: z.boolean().nullish(),
  trust: trustSchema.nullish(),
  /**
   * With `scheduled`: when the post goes live (in the future). With `published`: the date it was first
   * published, for a post moved here from elsewhere (in the past). Not taken with `draft`.
   */
  publish_at: publishAtText.nullish(),
  /** The post's address under /blog/; made from the title when not given. */
  slug: z.string().trim().toLowerCase().max(POST_LIMITS.titleMax).regex(SLUG_PATTERN, 'must be lower-case letters, digits and single hyphens, e.g. my-first-post').nullish(),
  /** Compliance findings the author accepts, each with the reason the reviewer reads (contract/compliance.ts). */
  compliance: complianceInputSchema.nullish(),
  /**
   * The picture shown above the post, on its cards and as its Open Graph image: an upload (POST
   * /api/media) named by its media id, its `/media/...` path or this site's URL to it. null in a PATCH
   * removes it.
   */
  cover_image: coverImageReference.nullish(),
  /** What the cover image shows, for readers who cannot see it (a screen reader reads it out). */
  cover_image_alt: z.string().trim().max(MEDIA_ALT_MAX_LENGTH).nullish(),
  /** The Markdown the post was written as (postSourceSchema); null in a PATCH drops it. */
  source: postSourceSchema.nullish(),
});

/** The rules that tie fields together (the clock-dependent ones, past or future, are checked by the server). */
export const createPostSchema = postFields.superRefine((post, ctx) => {
  if (post.status === 'scheduled' && !post.publish_at) {
    ctx.addIssue({ code: 'custom', path: ['publish_at'], message: 'is required with status scheduled: the time the post goes live, e.g. 2026-12-01T09:00:00-05:00' });
  }
  if (post.status === 'draft' && post.publish_at) {
    ctx.addIssue({ code: 'custom', path: ['publish_at'], message: 'is not used with status draft: send status scheduled to publish at that time, or leave publish_at out' });
  }
});

/** What a client sends. */
export type CreatePostInput = z.input<typeof createPostSchema>;
/** What the schema makes of it (trimmed, status lowercased). */
export type CreatePostData = z.output<typeof createPostSchema>;

const KNOWN_FIELDS = new Set(Object.keys(postFields.shape));

/** Field names integrators commonly send instead of the real ones, with where they belong. */
export const FIELD_ALIASES: Readonly<Record<string, string>> = {
  author_name: 'author.name',
  authorName: 'author.name',
  body: 'content',
  html: 'content',
  summary: 'excerpt',
  description: 'excerpt',
  categories: 'category',
  tag: 'tags',
  is_news_article: 'isNewsArticle',
  publishAt: 'publish_at',
  publishedAt: 'publish_at',
  published_at: 'publish_at',
  // Ghost's, WordPress's and camelCase names of the cover image.
  coverImage: 'cover_image',
  feature_image: 'cover_image',
  featured_image: 'cover_image',
  featuredImage: 'cover_image',
  coverImageAlt: 'cover_image_alt',
  feature_image_alt: 'cover_image_alt',
};

/** Aliases taken as the real field (a scheduled time is too costly to ignore): the field name, by alias. */
const ACCEPTED_ALIASES: Readonly<Record<string, string>> = { publishAt: 'publish_at' };

function withAcceptedAliases(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const renamed = Object.entries(ACCEPTED_ALIASES).filter(([alias, field]) => Object.hasOwn(record, alias) && !Object.hasOwn(record, field));
  if (renamed.length === 0) return body;
  const aliases = new Map(renamed);
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [aliases.get(name) ?? name, value]));
}

export type CreatePostCheck =
  | { ok: true; data: CreatePostData; ignoredFields: string[] }
  /** The body is a JSON string that itself holds JSON: the payload was serialised twice. */
  | { ok: false; reason: 'json_string' }
  | { ok: false; reason: 'invalid'; problems: FieldProblem[] };

function withAliasHint(problem: FieldProblem, body: Record<string, unknown>): FieldProblem {
  const alias = Object.keys(body).find((name) => FIELD_ALIASES[name] === problem.field);
  return alias ? { ...problem, message: `${problem.message} (the body has "${alias}": send it as ${problem.field})` } : problem;
}

/** The checks a create and a validate run on a parsed JSON body, in the order a client should fix them. */
export function checkCreatePostBody(raw: unknown): CreatePostCheck {
  const body = withAcceptedAliases(raw);
  if (typeof body === 'string') {
    try {
      const inner: unknown = JSON.parse(body);
      if (typeof inner === 'object' && inner !== null) return { ok: false, reason: 'json_string' };
    } catch {
      // Not JSON inside: an ordinary wrong-type body, reported below.
    }
  }
  // A valid body is parsed once without `reportInput`, which more than doubles zod's cost per parse;
  // only a body that fails is parsed again to tell what each wrong field held.
  const parsed = createPostSchema.safeParse(body);
  if (!parsed.success) {
    const reported = createPostSchema.safeParse(body, { reportInput: true });
    const problems = fieldProblemsFrom((reported.error ?? parsed.error).issues, { author: 'author.name' });
    const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return { ok: false, reason: 'invalid', problems: problems.map((problem) => withAliasHint(problem, record)) };
  }
  const ignoredFields = Object.keys(body as Record<string, unknown>).filter((name) => !KNOWN_FIELDS.has(name));
  return { ok: true, data: parsed.data, ignoredFields };
}

/** The post as the 201 answer describes it. */
export interface CreatedPost {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  /** ISO 8601 timestamp. */
  created_at: string;
  status: StoredPostStatus;
  /** When a scheduled post goes live; null otherwise. */
  publish_at: string | null;
  /** The cover image as resolved from the upload `cover_image` named; null when the post has none. */
  cover_image: CoverImageResponse | null;
  /** The post's ETag: send it as If-Match to change the post (PATCH/PUT /api/blog/:id). */
  etag: string;
  /** Set while the post waits for (or was sent back by) a compliance review. */
  review?: PostReview;
}

/** A post's compliance review, as its author sees it through the API and `blogpost list`. */
export interface PostReview {
  /** `pending`: waiting for a staff member; `returned`: sent back with a note (the post is a draft again). */
  state: 'pending' | 'returned';
  /** The status the post gets when approved. */
  requested_status: 'published' | 'scheduled';
  requested_publish_at: string | null;
  submitted_at: string;
  /** The rules whose high findings held the post. */
  rules: string[];
  /** The reviewer's note when the post was sent back. */
  note: string | null;
  decided_at: string | null;
}

export interface CreatePostResponse {
  success: true;
  message: string;
  post: CreatedPost;
  /** What the server changed on the way in (HTML removed by the sanitiser, unknown fields ignored). */
  warnings: string[];
  /** What the compliance rules found in the post (contract/compliance.ts), accepted ones marked. */
  findings: ComplianceFinding[];
}

/** The answer of POST /api/blog/validate: what a create would do, with nothing saved. */
export interface ValidatePostResponse {
  success: true;
  valid: true;
  message: string;
  post: { title: string; slug: string; excerpt: string; category: string; status: StoredPostStatus; cover_image: CoverImageResponse | null };
  warnings: string[];
  findings: ComplianceFinding[];
}

/** The request header that makes a create safe to retry, and the answer header saying it was a retry. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';
