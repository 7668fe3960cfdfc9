/**
 * Post bodies written for another platform's API (WordPress REST, Ghost Admin, Contentful, dev.to),
 * recognised so the server answers one error that names the platform and shows how its fields map to
 * this API, instead of a list of "X is required" that hides that the post is there, shaped otherwise.
 * Pure: the server, the request log and `blogpost diagnose` share it.
 */

export const FOREIGN_PLATFORMS = ['wordpress', 'ghost', 'contentful', 'devto'] as const;
export type ForeignPlatform = (typeof FOREIGN_PLATFORMS)[number];

export interface FieldMapping {
  /** The field as the other platform names it. */
  from: string;
  /** Where it goes in this API's body. */
  to: string;
}

export interface ForeignShape {
  platform: ForeignPlatform;
  /** The platform's name as people know it. */
  name: string;
  mapping: readonly FieldMapping[];
}

export const PLATFORM_NAMES: Readonly<Record<ForeignPlatform, string>> = {
  wordpress: 'the WordPress REST API',
  ghost: 'the Ghost Admin API',
  contentful: 'Contentful',
  devto: 'the dev.to (Forem) API',
};

/** Each platform's fields and their place here; the last lines name the fields this API needs that the platform has no twin for. */
export const FIELD_MAPPINGS: Readonly<Record<ForeignPlatform, readonly FieldMapping[]>> = {
  wordpress: [
    { from: 'title.rendered (or title.raw)', to: 'title' },
    { from: 'content.rendered (or content.raw)', to: 'content (HTML)' },
    { from: 'excerpt.rendered (or excerpt.raw)', to: 'excerpt (plain text)' },
    { from: 'status "publish" / "draft" / "future"', to: 'status "published" / "draft" / "scheduled"' },
    { from: 'categories (ids)', to: 'category (one name: IUL, Retirement, ...)' },
    { from: 'author (id)', to: 'author.name' },
  ],
  ghost: [
    { from: 'posts[0]', to: 'the body itself (one post, not a list)' },
    { from: 'posts[0].title', to: 'title' },
    { from: 'posts[0].html', to: 'content (HTML)' },
    { from: 'posts[0].custom_excerpt', to: 'excerpt' },
    { from: 'posts[0].status "published" / "draft"', to: 'status (same values)' },
    { from: 'posts[0].tags[].name', to: 'tags; the first as category' },
    { from: 'posts[0].authors[0].name', to: 'author.name' },
  ],
  contentful: [
    { from: 'fields.title["en-US"]', to: 'title' },
    { from: 'fields.body["en-US"] (rendered to HTML)', to: 'content (HTML)' },
    { from: 'fields.excerpt["en-US"] (or description)', to: 'excerpt' },
    { from: 'the entry being published', to: 'status "published" (else "draft")' },
    { from: 'fields.author (a linked entry)', to: 'author.name' },
  ],
  devto: [
    { from: 'article', to: 'the body itself (no wrapper object)' },
    { from: 'article.title', to: 'title' },
    { from: 'article.body_markdown (rendered to HTML)', to: 'content (HTML)' },
    { from: 'article.description', to: 'excerpt' },
    { from: 'article.published true / false', to: 'status "published" / "draft"' },
    { from: 'article.tags', to: 'tags; the first as category' },
  ],
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** WordPress wraps text fields in `{rendered}` (read answers) or `{raw}` (edit context). */
function isWordPressText(value: unknown): boolean {
  return isRecord(value) && (typeof value.rendered === 'string' || typeof value.raw === 'string');
}

/** Contentful keys every field by locale: `{"en-US": ...}`. */
function isLocalised(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length > 0 && Object.keys(value).every((locale) => /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale));
}

/** Which platform a body is shaped for, or null when it is not recognisably another platform's. */
export function detectForeignShape(body: unknown): ForeignShape | null {
  const platform = detectPlatform(body);
  return platform ? { platform, name: PLATFORM_NAMES[platform], mapping: FIELD_MAPPINGS[platform] } : null;
}

function detectPlatform(body: unknown): ForeignPlatform | null {
  if (!isRecord(body)) return null;
  if (Array.isArray(body.posts) && body.posts.length > 0 && isRecord(body.posts[0])) return 'ghost';
  if (isRecord(body.article) && ('body_markdown' in body.article || 'title' in body.article)) return 'devto';
  if (isRecord(body.fields) && Object.values(body.fields).some(isLocalised)) return 'contentful';
  if (isWordPressText(body.title) || isWordPressText(body.content) || body.status === 'publish') return 'wordpress';
  return null;
}

/** The mapping as lines of text: "title.rendered → title". */
export function mappingLines(shape: Pick<ForeignShape, 'mapping'>): string[] {
  return shape.mapping.map((field) => `${field.from} → ${field.to}`);
}

/** The one message a foreign-shaped body is answered with. */
export function foreignShapeMessage(shape: ForeignShape): string {
  return `This body is shaped for ${shape.name}, not this API: move its fields to the top level as this API names them (${mappingLines(shape).join('; ')}).`;
}
