/**
 * The *clean* step of every write (check -> clean -> gate -> store, api/services/post-service.ts): the
 * contract's schema has *checked* a body (contract/blog.ts); `cleanPost` *cleans* it (control
 * characters removed from every text field, plain-text fields stripped of markup, content sanitised,
 * category mapped to its slug, tags de-duplicated, a warning for everything changed on the way), and
 * `PostCleaner.clean` then resolves the uploaded images it names (api/services/post-media.ts).
 */
import { type CreatePostData, FIELD_ALIASES, parsePublishAt, POST_LIMITS } from '../../contract/blog';
import type { BlogAuthor, BlogTrust } from '../../contract/blog-reader';
import { categorySlugFor, unknownCategoryWarning } from '../../contract/categories';
import { COMPLIANCE_RULES, unknownAcceptances } from '../../contract/compliance';
import type { FieldProblem } from '../../contract/field-problems';
import { slugify } from '../../contract/slug';
import { renderSource } from '../authoring/markdown-source';
import { PostFileError } from '../authoring/post-file';
import type { PostSourceRecord } from '../store/records';
import type { NewPost, PostRepository } from '../store/store';
import { type CoverRequest, type MediaOutcome, type PostMediaSettings, resolvePostMedia } from './post-media';
import { hasTags, hasVisibleContent, paragraphsFromText, removeControlCharacters, sanitizeContent, stripTags } from './sanitize';

/** A post cleaned and ready to store, with what cleaning changed. */
export interface CleanedPost {
  post: NewPost;
  slugBase: string;
  /** True when the author chose the slug (it is then used exactly, or refused). */
  exactSlug: boolean;
  warnings: string[];
  /** The cover image asked for, resolved into `post.coverImage` by PostCleaner.clean; null for none. */
  cover: CoverRequest | null;
}

/** Who makes a change: the key's public id and owner (null for the server's own demo content). */
export interface PostAuthorKey {
  keyId: string | null;
  owner: string | null;
}

export function slugBaseFor(title: string): string {
  return slugify(title) || 'post';
}

function optional(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

/** What cleaning a payload changed (warnings) and what it left wrong (problems). */
class Cleaning {
  readonly warnings: string[] = [];
  readonly problems: FieldProblem[] = [];

  /** Any text field without control characters (noted when there were some). */
  readable(field: string, value: string): string {
    const { text, changed } = removeControlCharacters(value);
    if (changed) this.warnings.push(`Removed control characters from ${field} (they are invisible and break feeds)`);
    return text;
  }

  /** A plain-text field without control characters or markup (each noted when there was some). */
  plain(field: string, value: string): string {
    const { text, changed } = stripTags(this.readable(field, value));
    if (changed) this.warnings.push(`Removed HTML from ${field} (it is plain text)`);
    return text;
  }

  /** A plain-text field that must keep at least `min` characters. */
  required(field: string, value: string, min = 1): string {
    const text = this.plain(field, value);
    if (text === '') this.problems.push({ field, problem: 'missing', message: `${field} is required (nothing was left after removing HTML and control characters)` });
    else if (text.length < min) {
      this.problems.push({ field, problem: 'invalid', message: `${field} must be at least ${min} characters long (after removing HTML and control characters)` });
    }
    return text;
  }
}

function trustFrom(input: CreatePostData['trust'], cleaning: Cleaning): BlogTrust | null {
  if (!input) return null;
  const trust: BlogTrust = {
    sources: (input.sources ?? []).map((source) => ({ name: cleaning.plain('trust.sources', source.name), url: cleaning.readable('trust.sources', source.url) })),
  };
  if (input.factCheckedBy) {
    const checker: NonNullable<BlogTrust['factCheckedBy']> = { name: cleaning.plain('trust.factCheckedBy.name', input.factCheckedBy.name) };
    const credentials = optional(input.factCheckedBy.credentials);
    if (credentials) checker.credentials = cleaning.plain('trust.factCheckedBy.credentials', credentials);
    const link = optional(input.factCheckedBy.link);
    if (link) checker.link = cleaning.readable('trust.factCheckedBy.link', link);
    trust.factCheckedBy = checker;
  }
  const lastUpdated = optional(input.lastUpdated);
  if (lastUpdated) trust.lastUpdated = cleaning.readable('trust.lastUpdated', lastUpdated);
  return trust;
}

/** The post the store keeps, or what is left wrong after cleaning (a 400 naming those fields). */
export type CleanOutcome = { ok: true; cleaned: CleanedPost } | { ok: false; problems: FieldProblem[] };

/** When the post goes or went public, from `publish_at` and the status, checked against the server's clock. */
function publication(data: CreatePostData, now: Date, problems: FieldProblem[]): { publishAt: string | null; publishedAt?: string } {
  const text = data.publish_at;
  if (!text) return { publishAt: null };
  const parsed = parsePublishAt(text);
  if (!parsed.ok) return { publishAt: null };
  const at = parsed.at.toISOString();
  const future = parsed.at.getTime() > now.getTime();
  if (data.status === 'scheduled' && !future) {
    problems.push({
      field: 'publish_at',
      problem: 'invalid',
      message: `publish_at must be in the future for a scheduled post: ${at} has passed (the server's time is ${now.toISOString()}). To publish now, send status published.`,
    });
  }
  if (data.status === 'published' && future) {
    problems.push({ field: 'publish_at', problem: 'invalid', message: `publish_at ${at} is in the future: send status scheduled to publish the post then.` });
  }
  return data.status === 'scheduled' ? { publishAt: at } : { publishAt: null, publishedAt: at };
}

/** The cover image asked for, its alt text cleaned like any plain-text field; a warning for alt text without a cover. */
function coverRequest(data: CreatePostData, cleaning: Cleaning): CoverRequest | null {
  const alt = optional(data.cover_image_alt);
  const reference = optional(data.cover_image);
  if (!reference) {
    if (alt) cleaning.warnings.push('Ignored cover_image_alt: the post has no cover_image');
    return null;
  }
  return { reference, alt: alt ? cleaning.plain('cover_image_alt', alt) : '' };
}

/** The HTML of a payload's Markdown source, and the source as the post keeps it; a problem on `source` when it does not read. */
function sourceOf(data: CreatePostData, now: Date, problems: FieldProblem[]): { content: string; record: PostSourceRecord } | null {
  if (!data.source) return null;
  const images = data.source.images ?? {};
  try {
    const { content } = renderSource(data.source.text, images, now);
    return { content, record: { format: 'markdown', text: data.source.text, images } };
  } catch (error) {
    if (!(error instanceof PostFileError)) throw error;
    problems.push({ field: 'source', problem: 'invalid', message: `source.text is not a post file blogpost reads: ${error.message}` });
    return null;
  }
}

/**
 * Builds the post the store keeps from a checked payload; returns, rather than throws, what is left
 * wrong. `siteUrl` (SITE_URL) lets an `<img>` name an upload by this site's absolute URL. The images are
 * not resolved yet: PostCleaner.clean does that.
 */
export function cleanPost(data: CreatePostData, ignoredFields: readonly string[], by: PostAuthorKey | null, now: Date = new Date(), siteUrl?: string): CleanOutcome {
  const cleaning = new Cleaning();
  const { warnings, problems } = cleaning;
  const when = publication(data, now, problems);

  const title = cleaning.required('title', data.title, POST_LIMITS.titleMin);
  const excerpt = cleaning.required('excerpt', data.excerpt);
  const authorName = cleaning.required('author.name', data.author.name);

  // A post sent with its Markdown source: the HTML is rendered from it here, as the CLI renders it (decision 0022).
  const source = sourceOf(data, now, problems);
  let html = cleaning.readable('content', source?.content ?? data.content);
  if (!source && !hasTags(html)) {
    html = paragraphsFromText(html);
    warnings.push('content had no HTML tags: each paragraph was wrapped in <p>');
  }
  const sanitized = sanitizeContent(html, siteUrl === undefined ? {} : { siteUrl });
  warnings.push(...sanitized.warnings);
  if (!hasVisibleContent(sanitized.html)) {
    problems.push({ field: 'content', problem: 'invalid', message: 'content has nothing left to show after removing unsafe HTML' });
  }
  if (problems.length > 0) return { ok: false, problems };

  const category = cleaning.readable('category', data.category).trim();
  const categorySlug = categorySlugFor(category);
  const categoryWarning = unknownCategoryWarning(category);
  if (categoryWarning) {
    warnings.push(categoryWarning);
  }

  const tags: string[] = [];
  for (const raw of data.tags ?? []) {
    const tag = cleaning.plain('tags', raw);
    if (tag !== '' && !tags.some((seen) => seen.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  }

  const trust = trustFrom(data.trust, cleaning);

  for (const field of ignoredFields) {
    const alias = FIELD_ALIASES[field];
    warnings.push(`Ignored unknown field "${field}"${alias ? ` (did you mean ${alias}?)` : ''}`);
  }

  const complianceAccept = (data.compliance?.accept ?? []).map((acceptance) => ({ rule: acceptance.rule, reason: cleaning.plain('compliance.accept.reason', acceptance.reason) }));
  for (const rule of unknownAcceptances(complianceAccept)) {
    warnings.push(`compliance.accept names "${rule}", which is no compliance rule: the known rules are ${COMPLIANCE_RULES.map((known) => known.id).join(', ')}`);
  }

  const author: BlogAuthor = { name: authorName };
  const bio = optional(data.author.bio);
  if (bio) author.bio = cleaning.plain('author.bio', bio);
  const credentials = optional(data.author.credentials);
  if (credentials) author.credentials = cleaning.plain('author.credentials', credentials);
  const cover = coverRequest(data, cleaning);
  const unique = [...new Set(warnings)];
  const cleaned: CleanedPost = {
    slugBase: data.slug ?? slugBaseFor(title),
    exactSlug: Boolean(data.slug),
    warnings: unique,
    cover,
    post: {
      title,
      excerpt,
      content: sanitized.html,
      source: source?.record ?? null,
      categorySlug,
      tags,
      author,
      isNewsArticle: data.isNewsArticle ?? false,
      trust,
      status: data.status,
      publishAt: when.publishAt,
      ...(when.publishedAt ? { publishedAt: when.publishedAt } : {}),
      owner: by?.owner ?? null,
      createdByKeyId: by?.keyId ?? null,
      warnings: [...unique],
      complianceAccept,
    },
  };
  return { ok: true, cleaned };
}

/** Cleans checked payloads for the post service: the text (cleanPost), the images it names, and a warning for a title already used. */
export class PostCleaner {
  readonly #store: PostRepository;
  readonly #media: PostMediaSettings;

  /** `media`: where the images a post names are looked up, and this site's URL (api/services/post-media.ts). */
  constructor(store: PostRepository, media: PostMediaSettings) {
    this.#store = store;
    this.#media = media;
  }

  /** Cleans a checked payload (cleanPost) and resolves the uploaded images it names: the post ready to store, or what is wrong. */
  async clean(data: CreatePostData, ignoredFields: readonly string[], by: PostAuthorKey | null, now: Date): Promise<CleanOutcome> {
    const outcome = cleanPost(data, ignoredFields, by, now, this.#media.siteUrl);
    if (!outcome.ok) return outcome;
    const { cleaned } = outcome;
    const media = await this.resolveMedia(cleaned.post.content, cleaned.cover);
    if (!media.ok) return { ok: false, problems: media.problems };
    const { content, coverImage, warnings: added } = media.resolved;
    if (added.length === 0 && coverImage === null && content === cleaned.post.content) return outcome;
    const warnings = [...new Set([...cleaned.warnings, ...added])];
    return { ok: true, cleaned: { ...cleaned, warnings, post: { ...cleaned.post, content, coverImage, warnings: [...warnings] } } };
  }

  /** The cover image and the `<img>` of sanitised content resolved from the uploads (for a revert, which restores both). */
  resolveMedia(content: string, cover: CoverRequest | null): Promise<MediaOutcome> {
    return resolvePostMedia(this.#media, content, cover);
  }

  /** A warning for each stored post (not in the trash) with the same title, linking it. */
  async duplicateWarnings(title: string, exceptId?: string): Promise<string[]> {
    const same = await this.#store.sameTitle(title, exceptId);
    return same.slice(0, 3).map(
      (post) =>
        `Possible duplicate: the ${post.status} post "${post.title}" (id ${post.id}) has the same title, at /blog/${post.slug}. ` +
        `To change that post instead, send PATCH /api/blog/${post.id} (blogpost publish does when the file has its id).`,
    );
  }
}
