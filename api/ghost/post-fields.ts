/**
 * Ghost's post fields and ours, mapped in this one module (decision 0033), both ways:
 *
 *   title                     title; missing or blank: the html's first words, as Micropub does
 *   html                      content (sanitised as any post), with or without ?source=html; mobiledoc
 *                             and lexical are not read (422 when sent without html)
 *   custom_excerpt            excerpt; missing: the html's first 160 characters, cut at a word
 *   tags [{name} | "name"]    the first that names a site category (slug or name, any case) sets the
 *                             category (else `uncategorized`); every other one is a tag
 *   status                    draft, published (default draft, as Ghost) or scheduled (needs a future
 *                             published_at); a published post with a future published_at is scheduled
 *   published_at              with published or scheduled: when it goes live (a past one back-dates it)
 *   feature_image             the cover image: an upload of this site (from /images/upload/) by its URL
 *   feature_image_alt         the cover image's alt text
 *   slug                      slug
 *   anything else             ignored (authors, visibility, newsletters, codeinjection, meta fields)
 *
 * The author is the key owner's name (the door passes it). An update changes only the fields it sends.
 */
import { categoryNameFor, findCategory, UNCATEGORIZED } from '../../contract/categories';
import type { PostRecord } from '../store/store';
import { plainText, titleFromContent } from '../micropub/h-entry';

export const EXCERPT_MAX_CHARS = 160;

/** A Ghost request's field problem: answered 422 ValidationError. */
export class GhostFieldError extends Error {
  override readonly name = 'GhostFieldError';
  readonly property: string;
  readonly context: string;

  constructor(property: string, message: string, context: string) {
    super(message);
    this.property = property;
    this.context = context;
  }
}

function cutAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function textField(post: Record<string, unknown>, name: string): string | undefined {
  const value = post[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new GhostFieldError(name, `Validation error: ${name} must be a string.`, `Send ${name} as a string.`);
  return value;
}

export interface GhostMappingContext {
  authorName: string;
  now: Date;
  /** The media id of an upload of this site a URL names, or null. */
  uploadOf: (url: string) => string | null;
}

/** The tag names of Ghost's `tags` ([{name}] or plain strings). */
function tagNames(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new GhostFieldError('tags', 'Validation error: tags must be a list.', 'Send tags as [{"name": "..."}].');
  return value
    .map((tag: unknown) => (typeof tag === 'string' ? tag : typeof tag === 'object' && tag !== null && typeof (tag as { name?: unknown }).name === 'string' ? (tag as { name: string }).name : ''))
    .map((name) => name.trim())
    .filter((name) => name !== '' && !name.startsWith('#'));
}

function categoryFields(names: string[]): { category: string; tags: string[] } {
  const index = names.findIndex((name) => findCategory(name) !== undefined);
  const category = index === -1 ? UNCATEGORIZED.slug : (findCategory(names[index] ?? '')?.slug ?? UNCATEGORIZED.slug);
  return { category, tags: names.filter((_, at) => at !== index) };
}

function statusFields(status: string, publishedAt: string | undefined, now: Date): { status: string; publish_at?: string } {
  if (status !== 'draft' && status !== 'published' && status !== 'scheduled') {
    throw new GhostFieldError('status', `Validation error: status must be draft, published or scheduled, not "${status.slice(0, 40)}".`, 'Send status draft, published or scheduled.');
  }
  if (status === 'draft') return { status };
  const at = publishedAt === undefined || publishedAt.trim() === '' ? Number.NaN : Date.parse(publishedAt);
  if (publishedAt !== undefined && publishedAt.trim() !== '' && Number.isNaN(at)) {
    throw new GhostFieldError('published_at', `Validation error: published_at must be an ISO 8601 date, not "${publishedAt.slice(0, 40)}".`, 'Send published_at like 2026-12-01T09:00:00.000Z.');
  }
  if (status === 'scheduled' && !(at > now.getTime())) {
    throw new GhostFieldError('published_at', 'Validation error: a scheduled post needs published_at in the future.', 'Send published_at: when the post should go live.');
  }
  if (Number.isNaN(at)) return { status: 'published' };
  return { status: at > now.getTime() ? 'scheduled' : 'published', publish_at: new Date(at).toISOString() };
}

/** The content format check: html (with ?source=html, or sent as html); mobiledoc and lexical are refused. */
function htmlOf(post: Record<string, unknown>): string | undefined {
  const html = textField(post, 'html');
  if (html !== undefined) return html;
  if (post.mobiledoc !== undefined || post.lexical !== undefined) {
    const format = post.lexical !== undefined ? 'lexical' : 'mobiledoc';
    throw new GhostFieldError(format, `Validation error: ${format} is not supported by this site.`, `Send the post's content as html, with ?source=html on the URL (e.g. POST /ghost/api/admin/posts/?source=html).`);
  }
  return undefined;
}

/** Our create payload (contract/blog.ts, checked there) of a Ghost post. */
export function payloadFromGhost(post: Record<string, unknown>, context: GhostMappingContext): Record<string, unknown> {
  const html = htmlOf(post);
  const text = html === undefined ? '' : plainText(html);
  if (html === undefined || text === '') throw new GhostFieldError('html', 'Validation error: a post needs html with some text.', 'Send the post as html with ?source=html.');
  const fields = fieldsFromGhost(post, context);
  const title = typeof fields.title === 'string' ? fields.title : titleFromContent(text, context.now);
  const excerpt = typeof fields.excerpt === 'string' ? fields.excerpt : cutAtWord(text, EXCERPT_MAX_CHARS) || title;
  return { ...categoryFields([]), status: 'draft', ...fields, title, excerpt, author: { name: context.authorName } };
}

/**
 * The payload fields a Ghost post (or an update of one) sends; the fields it does not send are absent,
 * so an update that sends only html keeps the post's title and excerpt.
 */
export function fieldsFromGhost(post: Record<string, unknown>, context: GhostMappingContext): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const html = htmlOf(post);
  if (html !== undefined) {
    if (plainText(html) === '') throw new GhostFieldError('html', 'Validation error: a post needs html with some text.', 'Send the post as html with ?source=html.');
    fields.content = html;
  }
  const title = textField(post, 'title')?.trim();
  if (title) fields.title = title;
  const excerpt = textField(post, 'custom_excerpt')?.trim();
  if (excerpt) fields.excerpt = excerpt;
  if (post.tags !== undefined) Object.assign(fields, categoryFields(tagNames(post.tags)));
  const status = textField(post, 'status');
  const publishedAt = textField(post, 'published_at');
  // published_at counts only with a status (Ghost's default, draft, ignores it), so an update sending
  // published_at alone leaves the post's status as it is.
  if (status !== undefined) Object.assign(fields, statusFields(status.trim().toLowerCase(), publishedAt, context.now));
  const slug = textField(post, 'slug')?.trim().toLowerCase();
  if (slug) fields.slug = slug;
  if (post.feature_image !== undefined) {
    const url = textField(post, 'feature_image')?.trim();
    if (url) {
      const id = context.uploadOf(url);
      if (!id) throw new GhostFieldError('feature_image', `Validation error: the feature_image ${url.slice(0, 200)} is not an upload of this site.`, 'Upload the image to /ghost/api/admin/images/upload/ first and send the URL it answers with.');
      fields.cover_image = id;
    } else fields.cover_image = null;
  }
  const alt = textField(post, 'feature_image_alt')?.trim();
  if (alt) fields.cover_image_alt = alt;
  return fields;
}

/** Ghost's status of our post: a post held for review is a draft to Ghost's apps. */
function ghostStatus(post: PostRecord): 'draft' | 'published' | 'scheduled' {
  if (post.status === 'published') return 'published';
  if (post.status === 'scheduled') return 'scheduled';
  return 'draft';
}

/** A stored post as Ghost's Admin API answers it. */
export function ghostPost(post: PostRecord, url: string, coverUrl: string | null): Record<string, unknown> {
  const categoryTags = post.categorySlug === UNCATEGORIZED.slug ? [] : [categoryNameFor(post.categorySlug)];
  const tags = [...categoryTags, ...post.tags].map((name) => ({ name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') }));
  return {
    id: post.id,
    uuid: post.id,
    title: post.title,
    slug: post.slug,
    html: post.content,
    status: ghostStatus(post),
    visibility: 'public',
    custom_excerpt: post.excerpt,
    excerpt: post.excerpt,
    feature_image: coverUrl,
    feature_image_alt: post.coverImage?.alt ?? null,
    tags,
    primary_tag: tags[0] ?? null,
    authors: [{ name: post.author.name }],
    primary_author: { name: post.author.name },
    created_at: post.createdAt,
    updated_at: post.updatedAt,
    published_at: post.publishedAt ?? post.publishAt,
    url,
  };
}
