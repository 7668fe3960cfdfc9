/**
 * The create-post payload: one zod schema with its limits, the TypeScript types inferred from it, the
 * checks every client and the server run on a body, and the shapes of the answers to a create or a
 * validate. Imported by the server, the CLI, the harness and the web page alike, so it stays pure.
 */
import { z } from 'zod';
import { fieldProblemsFrom, type FieldProblem } from './field-problems';

export const POST_STATUSES = ['draft', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

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

export const createPostSchema = z.object({
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
});

/** What a client sends. */
export type CreatePostInput = z.input<typeof createPostSchema>;
/** What the schema makes of it (trimmed, status lowercased). */
export type CreatePostData = z.output<typeof createPostSchema>;

const KNOWN_FIELDS = new Set(Object.keys(createPostSchema.shape));

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
};

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
export function checkCreatePostBody(body: unknown): CreatePostCheck {
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
  status: PostStatus;
}

export interface CreatePostResponse {
  success: true;
  message: string;
  post: CreatedPost;
  /** What the server changed on the way in (HTML removed by the sanitiser, unknown fields ignored). */
  warnings: string[];
}

/** The answer of POST /api/blog/validate: what a create would do, with nothing saved. */
export interface ValidatePostResponse {
  success: true;
  valid: true;
  message: string;
  post: { title: string; slug: string; excerpt: string; category: string; status: PostStatus };
  warnings: string[];
}

/** The request header that makes a create safe to retry, and the answer header saying it was a retry. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';
