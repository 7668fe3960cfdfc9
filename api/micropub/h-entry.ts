/**
 * Micropub's h-entry and our post, mapped in this one module (decision 0030), both ways:
 *
 *   name            title; missing: the content's first words (at most 8 words or 70 characters,
 *                   cut at a word, "…" when cut), or "Note of <date>" when they make under 3 characters
 *   content         content: text (escaped, each paragraph wrapped in <p> by the cleaner) or {html}
 *   summary         excerpt; missing: the content's first 160 characters, cut at a word
 *   category[]      the first that names a site category (its slug or name, any case) sets the category
 *                   (else `uncategorized`); every other one is a tag
 *   photo[]         the first: the cover image (an upload of this site, by its URL; {value, alt} keeps
 *                   the alt text); the others: <img> at the end of the content
 *   published       with post-status published: a date in the future schedules the post, one in the
 *                   past back-dates it; not used for a draft
 *   post-status     draft or published (default published)
 *   mp-slug         the slug
 *   anything else   ignored (no location, replies, likes, syndication here)
 *
 * The author's name is the key's owner's (the endpoint passes it); a post's other fields (author bio,
 * trust, news, accepted findings) are kept as they are by an update.
 */
import { BLOG_CATEGORIES, categoryNameFor, findCategory, UNCATEGORIZED } from '../../contract/categories';
import { paragraphsFromText } from '../services/sanitize';
import type { PostRecord } from '../store/store';
import { invalidRequest, type Mf2Value } from './requests';

export const TITLE_WORDS = 8;
export const TITLE_MAX_CHARS = 70;
export const EXCERPT_MAX_CHARS = 160;

/** The Micropub properties this site stores; the others are ignored. */
export const STORED_PROPERTIES = ['name', 'content', 'summary', 'category', 'photo', 'published', 'post-status', 'mp-slug'] as const;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The readable text of some HTML: tags dropped, the common entities read, white space folded. */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `maxChars` of `text`, cut at a word, with "…" when cut. */
function cutAtWord(text: string, maxChars: number, maxWords = Infinity): string {
  const words = text.split(' ').filter((word) => word !== '');
  let out = '';
  let count = 0;
  for (const word of words) {
    const next = out === '' ? word : `${out} ${word}`;
    if (next.length > maxChars - 1 || count >= maxWords) return out === '' ? `${word.slice(0, maxChars - 1)}…` : `${out}…`;
    out = next;
    count++;
  }
  return out;
}

/** The title a post without a name gets: its first words. */
export function titleFromContent(text: string, now: Date): string {
  const title = cutAtWord(text, TITLE_MAX_CHARS, TITLE_WORDS);
  return title.replace('…', '').trim().length >= 3 ? title : `Note of ${now.toISOString().slice(0, 10)}`;
}

function textOf(value: Mf2Value | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if ('type' in value) return undefined;
  return value.value ?? (value.html !== undefined ? plainText(value.html) : undefined);
}

/** A single-valued property's text (the first value; a nested object is refused). */
function single(properties: Record<string, Mf2Value[]>, name: string): string | undefined {
  const value = properties[name]?.[0];
  if (value !== undefined && typeof value === 'object' && 'type' in value) throw invalidRequest(`The property "${name}" must be text, not a nested object.`);
  return textOf(value);
}

/** The content as HTML: text escaped (the cleaner wraps its paragraphs), {html} as sent. */
function contentHtml(value: Mf2Value | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return paragraphsFromText(escapeHtml(value));
  if ('type' in value) throw invalidRequest('The property "content" must be text or {"html": "..."}, not a nested object.');
  if (value.html !== undefined) return value.html;
  return value.value === undefined ? undefined : paragraphsFromText(escapeHtml(value.value));
}

export interface Photo {
  url: string;
  alt: string;
}

function photosOf(values: readonly Mf2Value[] | undefined): Photo[] {
  return (values ?? []).map((value) => {
    if (typeof value === 'string') return { url: value.trim(), alt: '' };
    if ('type' in value || value.value === undefined) throw invalidRequest('A "photo" is a URL, or {"value": "<url>", "alt": "<what it shows>"}.');
    return { url: value.value.trim(), alt: (value.alt ?? '').trim() };
  });
}

/** What the mapping needs besides the properties. */
export interface MappingContext {
  /** The author's name: the key's owner's. */
  authorName: string;
  now: Date;
  /** The media id of an upload of this site a URL names (every photo must be one), or null. */
  uploadOf: (url: string) => string | null;
}

/** The payload of our create (contract/blog.ts) an h-entry's properties make; checked there. */
export function payloadFromEntry(type: string, properties: Record<string, Mf2Value[]>, context: MappingContext): Record<string, unknown> {
  if (type !== 'h-entry') throw invalidRequest(`Only h-entry posts are taken here, not ${type.slice(0, 40)}.`);
  const photos = photosOf(properties.photo);
  for (const photo of photos) {
    if (!context.uploadOf(photo.url)) {
      throw invalidRequest(`The photo ${photo.url.slice(0, 200)} is not an upload of this site: upload it to the media endpoint first (see q=config's media-endpoint) and send the URL it answers with.`);
    }
  }
  let html = contentHtml(properties.content?.[0]);
  const [cover, ...inline] = photos;
  if (inline.length > 0) html = `${html ?? ''}${inline.map((photo) => `<p><img src="${context.uploadOf(photo.url) ?? ''}" alt="${escapeHtml(photo.alt)}"></p>`).join('')}`;
  const text = html === undefined ? '' : plainText(html);
  if (html === undefined || (text === '' && inline.length === 0)) {
    throw invalidRequest('A post needs "content": the text of the post (a photo alone is not an article here).');
  }
  const name = single(properties, 'name')?.trim();
  const summary = single(properties, 'summary')?.trim();
  const payload: Record<string, unknown> = {
    title: name || titleFromContent(text, context.now),
    content: html,
    excerpt: summary || cutAtWord(text, EXCERPT_MAX_CHARS) || name || titleFromContent(text, context.now),
    author: { name: context.authorName },
    ...categoryFields(properties.category),
    ...statusFields(single(properties, 'post-status'), single(properties, 'published'), context.now),
  };
  const slug = single(properties, 'mp-slug');
  if (slug !== undefined && slug.trim() !== '') payload.slug = slug.trim().toLowerCase();
  if (cover) {
    payload.cover_image = context.uploadOf(cover.url);
    if (cover.alt !== '') payload.cover_image_alt = cover.alt;
  }
  return payload;
}

function categoryFields(values: readonly Mf2Value[] | undefined): { category: string; tags: string[] } {
  const names = (values ?? []).map((value) => textOf(value)?.trim() ?? '').filter((name) => name !== '');
  const index = names.findIndex((name) => findCategory(name) !== undefined);
  const category = index === -1 ? UNCATEGORIZED.slug : (findCategory(names[index] ?? '')?.slug ?? UNCATEGORIZED.slug);
  return { category, tags: names.filter((_, at) => at !== index) };
}

function statusFields(postStatus: string | undefined, published: string | undefined, now: Date): { status: string; publish_at?: string } {
  const status = (postStatus ?? 'published').trim().toLowerCase();
  if (status !== 'draft' && status !== 'published') throw invalidRequest(`"post-status" must be draft or published, not "${status.slice(0, 40)}".`);
  if (status === 'draft' || published === undefined || published.trim() === '') return { status };
  const at = Date.parse(published.trim());
  if (Number.isNaN(at)) throw invalidRequest(`"published" must be an ISO 8601 date and time, e.g. 2026-12-01T09:00:00-05:00 (it was "${published.slice(0, 40)}").`);
  return { status: at > now.getTime() ? 'scheduled' : 'published', publish_at: published.trim() };
}

/**
 * The payload fields each Micropub property sets, for an update that touches only some of them: the
 * stored post's name and summary stay its own when only the content changes.
 */
const FIELDS_OF: Readonly<Record<string, readonly string[]>> = {
  name: ['title'],
  content: ['content'],
  summary: ['excerpt'],
  category: ['category', 'tags'],
  photo: ['cover_image', 'cover_image_alt'],
  published: ['status', 'publish_at'],
  'post-status': ['status', 'publish_at'],
};

/** The payload fields an update of the `touched` properties changes. */
export function fieldsTouched(touched: Iterable<string>): Set<string> {
  const fields = new Set<string>();
  for (const name of touched) for (const field of FIELDS_OF[name] ?? []) fields.add(field);
  return fields;
}

/** A stored post as Micropub's h-entry properties (q=source), with its page's URL. */
export function entryFromPost(post: PostRecord, url: string, coverUrl: string | null): Record<string, Mf2Value[]> {
  const categories = post.categorySlug === UNCATEGORIZED.slug ? [] : [categoryNameFor(post.categorySlug)];
  const status = post.status === 'draft' ? 'draft' : 'published';
  const properties: Record<string, Mf2Value[]> = {
    name: [post.title],
    content: [{ html: post.content, value: plainText(post.content) }],
    summary: [post.excerpt],
    category: [...categories, ...post.tags],
    'post-status': [status],
    url: [url],
  };
  const published = post.publishedAt ?? post.publishAt;
  if (published) properties.published = [published];
  if (post.coverImage && coverUrl) properties.photo = [post.coverImage.alt ? { value: coverUrl, alt: post.coverImage.alt } : coverUrl];
  return properties;
}

/** The site's categories as q=config and q=category name them. */
export function siteCategories(): string[] {
  return BLOG_CATEGORIES.map((category) => category.name);
}

function sameValue(a: Mf2Value, b: Mf2Value): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || textOf(a) === textOf(b);
}

/** The properties after an update's replace, add and delete (Micropub 3.4.2), in that order. */
export function applyUpdate(
  properties: Record<string, Mf2Value[]>,
  update: { replace: Record<string, Mf2Value[]>; add: Record<string, Mf2Value[]>; delete: Record<string, Mf2Value[]> | string[] },
): { properties: Record<string, Mf2Value[]>; touched: Set<string> } {
  let next: Record<string, Mf2Value[]> = { ...properties };
  const touched = new Set<string>();
  for (const [name, values] of Object.entries(update.replace)) {
    next[name] = [...values];
    touched.add(name);
  }
  for (const [name, values] of Object.entries(update.add)) {
    next[name] = [...(next[name] ?? []), ...values];
    touched.add(name);
  }
  if (Array.isArray(update.delete)) {
    const removed = new Set(update.delete);
    for (const name of removed) touched.add(name);
    next = Object.fromEntries(Object.entries(next).filter(([name]) => !removed.has(name)));
  } else {
    for (const [name, values] of Object.entries(update.delete)) {
      next[name] = (next[name] ?? []).filter((kept) => !values.some((value) => sameValue(kept, value)));
      touched.add(name);
    }
  }
  return { properties: next, touched };
}
