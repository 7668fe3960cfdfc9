/**
 * Creating posts: from the checked payload to what the store keeps (plain-text fields stripped of
 * markup, content sanitised, category mapped to its slug, tags de-duplicated), with a warning for
 * everything changed on the way; then a unique slug and the write, idempotent when asked to be.
 */
import { type CreatePostData, FIELD_ALIASES } from '../../contract/blog';
import type { BlogAuthor, BlogTrust } from '../../contract/blog-reader';
import { categorySlugFor, UNCATEGORIZED } from '../../contract/categories';
import { ApiError, validationError } from '../../contract/errors';
import type { FieldProblem } from '../../contract/field-problems';
import { slugify } from '../../contract/slug';
import type { PostStore } from '../store/post-store';
import type { NewPost, PostIndexEntry } from '../store/records';
import { hasTags, hasVisibleContent, paragraphsFromText, sanitizeContent, stripTags } from './sanitize';

/** Slugs the API's own paths use under /api/blog/. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['categories', 'validate']);

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export function slugBaseFor(title: string): string {
  return slugify(title) || 'post';
}

function isFree(slug: string, isTaken: (slug: string) => boolean): boolean {
  return !RESERVED_SLUGS.has(slug) && !isTaken(slug);
}

/** `base`, or the first of `base-2`, `base-3` ... that is neither taken nor reserved. */
export function chooseSlug(base: string, isTaken: (slug: string) => boolean, startAt = 2): string {
  if (isFree(base, isTaken)) return base;
  for (let n = Math.max(2, startAt); ; n++) {
    const candidate = `${base}-${n}`;
    if (isFree(candidate, isTaken)) return candidate;
  }
}

export interface PreparedPost {
  post: NewPost;
  slugBase: string;
  warnings: string[];
}

export interface CreatedResult {
  post: PostIndexEntry;
  /** True when an Idempotency-Key retry returned the post the first request created. */
  replayed: boolean;
}

function optional(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

/**
 * What cleaning a payload changed (warnings) and what it left wrong (problems). A class rather than
 * closures made per request: the server runs under tsx, whose keep-names option wraps every named
 * closure in a defineProperty call each time it is created.
 */
class Cleaning {
  readonly warnings: string[] = [];
  readonly problems: FieldProblem[] = [];

  /** A plain-text field without markup (noted when there was some). */
  plain(field: string, value: string): string {
    const { text, changed } = stripTags(value);
    if (changed) this.warnings.push(`Removed HTML from ${field} (it is plain text)`);
    return text;
  }

  /** A plain-text field that must keep some text. */
  required(field: string, value: string): string {
    const text = this.plain(field, value);
    if (text === '') this.problems.push({ field, problem: 'missing', message: `${field} is required (nothing was left after removing HTML)` });
    return text;
  }
}

function trustFrom(input: CreatePostData['trust'], cleaning: Cleaning): BlogTrust | null {
  if (!input) return null;
  const trust: BlogTrust = { sources: (input.sources ?? []).map((source) => ({ name: cleaning.plain('trust.sources', source.name), url: source.url })) };
  if (input.factCheckedBy) {
    const checker: NonNullable<BlogTrust['factCheckedBy']> = { name: cleaning.plain('trust.factCheckedBy.name', input.factCheckedBy.name) };
    const credentials = optional(input.factCheckedBy.credentials);
    if (credentials) checker.credentials = cleaning.plain('trust.factCheckedBy.credentials', credentials);
    const link = optional(input.factCheckedBy.link);
    if (link) checker.link = link;
    trust.factCheckedBy = checker;
  }
  const lastUpdated = optional(input.lastUpdated);
  if (lastUpdated) trust.lastUpdated = lastUpdated;
  return trust;
}

/** The post the store keeps, or what is left wrong after cleaning (a 400 naming those fields). */
export type CleanedPost = { ok: true; prepared: PreparedPost } | { ok: false; problems: FieldProblem[] };

/** Builds the post the store keeps, or throws the 400 listing what is left wrong after cleaning. */
export function preparePost(data: CreatePostData, ignoredFields: readonly string[], keyId: string | null): PreparedPost {
  const cleaned = cleanPost(data, ignoredFields, keyId);
  if (!cleaned.ok) throw validationError(cleaned.problems);
  return cleaned.prepared;
}

/** Builds the post the store keeps from a checked payload; returns, rather than throws, what is left wrong. */
export function cleanPost(data: CreatePostData, ignoredFields: readonly string[], keyId: string | null): CleanedPost {
  const cleaning = new Cleaning();
  const { warnings, problems } = cleaning;

  const title = cleaning.required('title', data.title);
  const excerpt = cleaning.required('excerpt', data.excerpt);
  const authorName = cleaning.required('author.name', data.author.name);

  let html = data.content;
  if (!hasTags(html)) {
    html = paragraphsFromText(html);
    warnings.push('content had no HTML tags: each paragraph was wrapped in <p>');
  }
  const sanitized = sanitizeContent(html);
  warnings.push(...sanitized.warnings);
  if (!hasVisibleContent(sanitized.html)) {
    problems.push({ field: 'content', problem: 'invalid', message: 'content has nothing left to show after removing unsafe HTML' });
  }
  if (problems.length > 0) return { ok: false, problems };

  const categorySlug = categorySlugFor(data.category);
  if (categorySlug === UNCATEGORIZED.slug && data.category.toLowerCase() !== UNCATEGORIZED.slug) {
    warnings.push(`Category "${data.category}" is not a built-in category: the post was filed under ${UNCATEGORIZED.slug}`);
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

  const author: BlogAuthor = { name: authorName };
  const bio = optional(data.author.bio);
  if (bio) author.bio = cleaning.plain('author.bio', bio);
  const credentials = optional(data.author.credentials);
  if (credentials) author.credentials = cleaning.plain('author.credentials', credentials);
  const unique = [...new Set(warnings)];
  const prepared: PreparedPost = {
    slugBase: slugBaseFor(title),
    warnings: unique,
    post: {
      title,
      excerpt,
      content: sanitized.html,
      categorySlug,
      tags,
      author,
      isNewsArticle: data.isNewsArticle ?? false,
      trust,
      status: data.status,
      createdByKeyId: keyId,
      warnings: [...unique],
    },
  };
  return { ok: true, prepared };
}

export class PostService {
  readonly #store: PostStore;
  /** Where the last `-n` search for a slug base ended, so many equal titles do not rescan from 2. */
  readonly #nextSuffix = new Map<string, number>();

  constructor(store: PostStore) {
    this.#store = store;
  }

  create(prepared: PreparedPost, idempotency?: { scope: string; fingerprint: string }): Promise<CreatedResult> {
    const created = this.#store.create(prepared.post, {
      chooseSlug: this.#slugChooser(prepared.slugBase),
      ...(idempotency ? { idempotency: { ...idempotency, ttlMs: IDEMPOTENCY_TTL_MS } } : {}),
    });
    return created.then((outcome) => {
      if (outcome.kind === 'conflict') throw new ApiError('idempotency_key_mismatch');
      return { post: outcome.post, replayed: outcome.kind === 'replayed' };
    });
  }

  /** Picks the slug for `base` inside the store's create, remembering where the `-n` search ended. */
  #slugChooser(base: string): (isTaken: (slug: string) => boolean) => string {
    return (isTaken) => {
      const slug = chooseSlug(base, isTaken, this.#nextSuffix.get(base));
      const suffix = /-(\d+)$/.exec(slug.slice(base.length))?.[1];
      if (suffix) this.#nextSuffix.set(base, Number(suffix) + 1);
      return slug;
    };
  }

  /** The slug a create would get right now (for validate; another create may take it first). */
  previewSlug(prepared: PreparedPost): string {
    return chooseSlug(prepared.slugBase, (slug) => this.#store.isSlugTaken(slug), this.#nextSuffix.get(prepared.slugBase));
  }

  /** The post an earlier request with this Idempotency-Key scope created, if still remembered. */
  findIdempotent(scope: string): PostIndexEntry | undefined {
    return this.#store.findIdempotent(scope);
  }
}
