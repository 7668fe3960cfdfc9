/**
 * `blogpost import-wordpress`: a WordPress export (WXR) into the store, item by item, through the same
 * post service as every other write (cleaned, compliance-gated, with revisions, audited as
 * `import:wordpress`), the images through the media pipeline, and the old addresses kept for 301s.
 * Decision 0029 has the choices; in short:
 *
 * - Resumable: before a post is made, its WordPress guid and the slug it will get are stored
 *   (`pending`); once made, the guid is marked done with the post's id and its old addresses, in one
 *   transaction. A re-run skips what is done, and finds a post made just before a crash by its slug
 *   (so killing the import at any moment and running it again leaves no duplicate).
 * - One item's failure (a category nobody mapped, a body the cleaner refuses, a post the compliance
 *   gate blocks) is reported with its title and reason, and the next item goes on.
 * - A dry run reads, converts and checks every item (the post service's validate: findings included)
 *   and writes nothing: no upload, no post, no address.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { findCategory, UNCATEGORIZED } from '../../../contract/categories';
import { type CreatePostInput, checkCreatePostBody, POST_LIMITS, SLUG_PATTERN } from '../../../contract/blog';
import { ApiError } from '../../../contract/errors';
import { API_KEY_NAME_PATTERN } from '../../../contract/keys';
import { slugify } from '../../../contract/slug';
import { actorLabel, importActor } from '../../services/actors';
import type { Services } from '../../services/services';
import { hasVisibleContent, sanitizeContent } from '../../services/sanitize';
import type { ImportedUrl } from '../../store/store';
import sanitizeHtml from 'sanitize-html';
import { type AttachmentRef, convertContent } from './convert';
import { didYouMean, SITE_CATEGORY_SLUGS } from './maps';
import { oldUrlKey } from './old-urls';
import { wordpressDate, type WxrExport, type WxrItem } from './wxr';

export const IMPORT_SOURCE = 'wordpress';

/** How long a picture fetched from a URL prefix may take before it counts as missing. */
const FETCH_TIMEOUT_MS = 30_000;


export interface WordPressImportOptions {
  /** The uploads folder (wp-content/uploads copied), or a URL prefix to fetch them from; none: images are reported missing. */
  mediaFrom?: string;
  dryRun?: boolean;
  /** `keep` (default): publish -> published, future -> scheduled, draft/pending -> draft; `draft`: every post a draft. */
  status?: 'draft' | 'keep';
  /** WordPress category nicename -> site category slug; `*` for every other one. */
  categoryMap?: ReadonlyMap<string, string>;
  /** WordPress login -> the author name posts show. */
  authorMap?: ReadonlyMap<string, string>;
  /** Told after every post item. */
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  done: number;
  total: number;
  imported: number;
  skipped: number;
  failed: number;
}

export interface ImportedPostReport {
  title: string;
  guid: string;
  slug: string;
  status: string;
  /** True when the post was made by an earlier run that stopped before noting it. */
  resumed?: boolean;
}

export interface ItemProblem {
  title: string;
  guid: string;
  reason: string;
}

export interface ImportReport {
  dryRun: boolean;
  /** Post items in the file. */
  posts: number;
  imported: ImportedPostReport[];
  skipped: ItemProblem[];
  failed: ItemProblem[];
  /** Compliance findings by post: the rules, and whether the post is held for review. */
  findings: Array<{ title: string; slug: string; rules: string[]; held: boolean }>;
  /** Shortcodes left in the text as written, by post. */
  shortcodes: Array<{ title: string; shortcodes: string[] }>;
  /** Images the uploads folder did not have (each shown as `[Image: its alt text]` in the post instead), by post. */
  missingMedia: Array<{ title: string; urls: string[] }>;
  /** What the import changed of a post to fit the site (a title made up or shortened, tags left out, a past schedule), by post. */
  notes: Array<{ title: string; notes: string[] }>;
  /** Posts WordPress showed as sticky: the site has no sticky posts, so they are only listed. */
  sticky: string[];
  /** Items that are not posts, by type (pages, attachments, menu items...): not imported. */
  notPosts: Record<string, number>;
  images: number;
  redirects: number;
}

interface ResolvedImage {
  mediaId: string | null;
}

/** Title, as WordPress stores it (entities of the editor's text may remain). */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#039;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** Plain text of HTML (for an excerpt made from the content). */
function plainText(html: string): string {
  return decodeEntities(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })).replace(/\s+/g, ' ').trim();
}

/** At most `max` characters, cut at a word. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function titleOf(item: WxrItem): string {
  const title = decodeEntities(item.title).replace(/\s+/g, ' ').trim();
  if (title === '') return `Untitled WordPress post ${item.postId ?? ''}`.trim();
  if (title.length < POST_LIMITS.titleMin) return `${title} (WordPress post ${item.postId ?? ''})`.trim();
  return clip(title, POST_LIMITS.titleMax);
}

/** The path under the uploads folder an old image URL names (`2024/05/x.jpg`), or null. */
export function uploadsPath(url: string): string | null {
  const marker = '/wp-content/uploads/';
  let pathname: string;
  try {
    pathname = new URL(url, 'https://old.invalid').pathname;
  } catch {
    return null;
  }
  const at = pathname.indexOf(marker);
  // WordPress.com serves uploads from files.wordpress.com/2024/05/x.jpg.
  const dated = at < 0 ? /^\/(\d{4}\/\d{2}\/[^/]+)$/.exec(pathname)?.[1] : undefined;
  if (at < 0 && !dated) return null;
  let rest: string;
  try {
    rest = decodeURIComponent(dated ?? pathname.slice(at + marker.length));
  } catch {
    return null;
  }
  const parts = rest.split('/').filter((part) => part !== '');
  if (parts.length === 0 || parts.some((part) => part === '..' || part === '.' || part.includes('\\') || part.includes('\0'))) return null;
  return parts.join('/');
}

/** The same path without WordPress's size suffix (`x-300x200.jpg` -> `x.jpg`), or null when it has none. */
function originalOf(relative: string): string | null {
  const stripped = relative.replace(/-\d+x\d+(\.[a-z0-9]+)$/i, '$1');
  return stripped === relative ? null : stripped;
}

function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.errors?.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    return fields ? `${error.message} (${fields})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Every old address of a post: its link's path, /?p=ID, and the date-based permalinks. */
function oldAddresses(item: WxrItem, siteUrl: string, postId: string): ImportedUrl[] {
  const keys = new Set<string>();
  const add = (key: string | null) => {
    if (key && key !== '/') keys.add(key);
  };
  if (item.postId !== null) add(`/?p=${item.postId}`);
  for (const url of [item.link, item.guid]) {
    if (!url) continue;
    try {
      const parsed = new URL(url, siteUrl || 'https://old.invalid');
      const base = siteUrl ? new URL(siteUrl) : null;
      if (base && parsed.host !== base.host) continue;
      // A WordPress in a folder (https://old.example/blog/...) has its paths under it; the site answers both.
      add(oldUrlKey(parsed.pathname, parsed.search));
      if (base && base.pathname !== '/' && parsed.pathname.startsWith(base.pathname)) add(oldUrlKey(parsed.pathname.slice(base.pathname.replace(/\/$/, '').length), parsed.search));
    } catch {
      // Not a URL: nothing to keep.
    }
  }
  const date = wordpressDate(item.date) ?? wordpressDate(item.dateGmt);
  if (date && item.postName) {
    const [year, month, day] = date.toISOString().slice(0, 10).split('-');
    add(oldUrlKey(`/${year}/${month}/${day}/${item.postName}/`, ''));
    add(oldUrlKey(`/${year}/${month}/${item.postName}/`, ''));
  }
  return [...keys].map((key) => ({ path: key, postId }));
}

export class WordPressImport {
  readonly #services: Services;
  readonly #wxr: WxrExport;
  readonly #options: WordPressImportOptions;
  readonly #attachments = new Map<number, AttachmentRef>();
  readonly #authors = new Map<string, string>();
  readonly #images = new Map<string, Promise<ResolvedImage>>();
  readonly #uploaded = new Set<string>();

  constructor(services: Services, wxr: WxrExport, options: WordPressImportOptions = {}) {
    this.#services = services;
    this.#wxr = wxr;
    this.#options = options;
    for (const item of wxr.items) {
      if (item.postType === 'attachment' && item.postId !== null && item.attachmentUrl) {
        this.#attachments.set(item.postId, { url: item.attachmentUrl, alt: item.meta.get('_wp_attachment_image_alt') || decodeEntities(item.title), parentId: item.parentId });
      }
    }
    for (const author of wxr.authors) this.#authors.set(author.login, author.displayName);
  }

  /** The site category of an item, or why there is none (with a did-you-mean). */
  #category(item: WxrItem): { ok: true; slug: string } | { ok: false; reason: string } {
    const categories = item.terms.filter((term) => term.domain === 'category');
    const map = this.#options.categoryMap;
    if (categories.length === 0) return { ok: true, slug: map?.get('*') ?? UNCATEGORIZED.slug };
    for (const category of categories) {
      const mapped = map?.get(category.nicename) ?? map?.get(category.name);
      if (mapped) return { ok: true, slug: mapped };
      const builtIn = findCategory(category.nicename) ?? findCategory(category.name);
      if (builtIn) return { ok: true, slug: builtIn.slug };
      if (category.nicename === UNCATEGORIZED.slug) return { ok: true, slug: UNCATEGORIZED.slug };
    }
    const fallback = map?.get('*');
    if (fallback) return { ok: true, slug: fallback };
    const first = categories[0];
    const guess = first ? didYouMean(first.nicename, SITE_CATEGORY_SLUGS) : null;
    const shown = categories.slice(0, 5).map((category) => category.nicename);
    const names = categories.length > shown.length ? `${shown.join(', ')} and ${categories.length - shown.length} more` : shown.join(', ');
    return {
      ok: false,
      reason: `its WordPress categor${categories.length === 1 ? 'y' : 'ies'} ${names} ${categories.length === 1 ? 'is' : 'are'} not a category of this site${guess ? ` (did you mean ${guess}?)` : ''}: map ${categories.length === 1 ? 'it' : 'one'} with --category-map (a line ${first?.nicename ?? 'name'}=${guess ?? '<one of ' + SITE_CATEGORY_SLUGS.join(', ') + '>'}, or *=uncategorized for every unmapped one)`,
    };
  }

  /** The bytes of an old image, from the uploads folder (or URL prefix); null when not there. */
  async #imageBytes(url: string): Promise<Uint8Array | null> {
    const from = this.#options.mediaFrom;
    const relative = uploadsPath(url);
    if (!from || !relative) return null;
    const candidates = [relative, originalOf(relative)].filter((candidate): candidate is string => candidate !== null);
    for (const candidate of candidates) {
      if (/^https?:\/\//i.test(from)) {
        try {
          const response = await fetch(`${from.replace(/\/+$/, '')}/${candidate.split('/').map(encodeURIComponent).join('/')}`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
          if (response.ok) return new Uint8Array(await response.arrayBuffer());
        } catch {
          // Unreachable: try the next candidate, then report it missing.
        }
        continue;
      }
      const root = path.resolve(from);
      const file = path.resolve(root, candidate);
      if (!file.startsWith(root + path.sep)) continue;
      try {
        if ((await stat(file)).isFile()) return new Uint8Array(await readFile(file));
      } catch {
        // Not there: the next candidate.
      }
    }
    return null;
  }

  /** An old image as an upload of this site (once per URL in a run); null when missing or not an image. In a dry run nothing is uploaded. */
  #image(url: string): Promise<ResolvedImage> {
    const known = this.#images.get(url);
    if (known) return known;
    const resolving = (async (): Promise<ResolvedImage> => {
      const bytes = await this.#imageBytes(url);
      if (!bytes) return { mediaId: null };
      if (this.#options.dryRun) return { mediaId: 'dry-run' };
      try {
        const outcome = await this.#services.media.upload(bytes, { owner: `import:${IMPORT_SOURCE}`, keyId: null });
        this.#uploaded.add(outcome.record.id);
        return { mediaId: outcome.record.id };
      } catch {
        return { mediaId: null };
      }
    })();
    this.#images.set(url, resolving);
    return resolving;
  }

  /** The content's images as uploads (missing ones made their description in brackets, and named). */
  async #withImages(html: string): Promise<{ html: string; missing: string[] }> {
    const sources: string[] = [];
    sanitizeHtml(html, {
      allowedTags: false,
      allowedAttributes: false,
      allowVulnerableTags: true,
      transformTags: {
        img: (tagName, attribs) => {
          if (attribs.src) sources.push(attribs.src);
          return { tagName, attribs };
        },
      },
    });
    if (sources.length === 0) return { html, missing: [] };
    const resolved = new Map<string, string | null>();
    for (const src of new Set(sources)) resolved.set(src, (await this.#image(src)).mediaId);
    const missing = [...resolved].filter(([, id]) => id === null).map(([src]) => src);
    const dry = this.#options.dryRun === true;
    const rewritten = sanitizeHtml(html, {
      allowedTags: false,
      allowedAttributes: false,
      allowVulnerableTags: true,
      transformTags: {
        img: (tagName, attribs): sanitizeHtml.Tag => {
          const id = resolved.get(attribs.src ?? '');
          // A picture not uploaded becomes its description, so the post still says what it showed (the report names its old address).
          if (dry || !id) return { tagName: 'span', attribs: {}, text: `[Image: ${attribs.alt?.trim() || path.posix.basename((attribs.src ?? 'picture').split('?')[0] ?? 'picture')}]` };
          const { srcset: _srcset, sizes: _sizes, class: _class, ...rest } = attribs;
          return { tagName, attribs: { ...rest, src: id } };
        },
      },
    });
    return { html: rewritten, missing };
  }

  /** The slug a new post gets: WordPress's own when free (or already this item's), else with the WordPress id. */
  async #slugFor(item: WxrItem, title: string): Promise<string> {
    let base = slugify(decodeSlug(item.postName) || title);
    if (!SLUG_PATTERN.test(base)) base = `wordpress-post-${item.postId ?? 'x'}`;
    const taken = await this.#services.store.posts.lookupSlug(base);
    if (!taken) return base;
    return `${base}-wp${item.postId ?? Date.now()}`;
  }

  /** The create body of an item, or the reason there is none. */
  async #payload(item: WxrItem, title: string, category: string, report: ImportReport): Promise<{ ok: true; body: CreatePostInput; at: Date | null; warnings: string[] } | { ok: false; skip?: boolean; reason: string }> {
    const converted = convertContent(item.content, { attachments: this.#attachments, postId: item.postId });
    if (converted.unconvertible.length > 0) report.shortcodes.push({ title, shortcodes: converted.unconvertible });
    const images = await this.#withImages(converted.html);
    const missing = [...images.missing];
    const clean = sanitizeContent(images.html, this.#services.settings.config.siteUrl ? { siteUrl: this.#services.settings.config.siteUrl } : {});
    // In a dry run images are not uploaded; the content is checked without them.
    const shows = hasVisibleContent(clean.html);
    let cover: { reference: string; alt: string } | null = null;
    const thumbnail = Number.parseInt(item.meta.get('_thumbnail_id') ?? '', 10);
    const attachment = Number.isFinite(thumbnail) ? this.#attachments.get(thumbnail) : undefined;
    if (attachment) {
      const image = await this.#image(attachment.url);
      if (image.mediaId && !this.#options.dryRun) cover = { reference: image.mediaId, alt: attachment.alt };
      else if (!image.mediaId) missing.push(attachment.url);
    }
    if (missing.length > 0) report.missingMedia.push({ title, urls: [...new Set(missing)] });
    if (!shows) return { ok: false, skip: true, reason: 'it has no content' };
    const text = plainText(clean.html);
    const excerpt = clip(plainText(item.excerpt) || text || title, POST_LIMITS.excerptMax);
    const allTags = [...new Set(item.terms.filter((term) => term.domain === 'post_tag').map((term) => clip(decodeEntities(term.name).trim(), POST_LIMITS.tagMax)))].filter((tag) => tag !== '');
    const tags = allTags.slice(0, POST_LIMITS.tagsMax);
    const author = clip(this.#options.authorMap?.get(item.creator) ?? this.#authors.get(item.creator) ?? (item.creator || 'WordPress author'), POST_LIMITS.authorNameMax);
    const published = wordpressDate(item.dateGmt);
    const local = wordpressDate(item.date);
    const warnings: string[] = [];
    if (allTags.length > tags.length) warnings.push(`had ${allTags.length} tags: the first ${tags.length} kept (${allTags.slice(tags.length).join(', ')} left out)`);
    const original = decodeEntities(item.title).replace(/\s+/g, ' ').trim();
    if (original !== title) warnings.push(original === '' ? `had no title: named "${title}"` : `its title "${clip(original, 80)}" was made "${clip(title, 80)}" to fit (${POST_LIMITS.titleMin} to ${POST_LIMITS.titleMax} characters)`);
    let status: 'draft' | 'published' | 'scheduled' = 'draft';
    let publishAt: string | null = null;
    if (this.#options.status !== 'draft') {
      if (item.status === 'publish') {
        status = 'published';
        publishAt = (published ?? local)?.toISOString() ?? null;
      } else if (item.status === 'future') {
        const at = published ?? local;
        if (at && at.getTime() > this.#services.clock().getTime()) {
          status = 'scheduled';
          publishAt = at.toISOString();
        } else {
          status = 'published';
          publishAt = at?.toISOString() ?? null;
          warnings.push('was scheduled for a time now past: imported as published at that time');
        }
      }
    }
    if (publishAt && status === 'published' && Date.parse(publishAt) > this.#services.clock().getTime()) publishAt = null;
    const body: CreatePostInput = {
      title,
      content: clean.html,
      excerpt,
      category,
      tags,
      status,
      author: { name: author },
      ...(publishAt ? { publish_at: publishAt } : {}),
      ...(cover ? { cover_image: cover.reference, cover_image_alt: cover.alt || title } : {}),
    };
    return { ok: true, body, at: published ?? local, warnings };
  }

  /** Imports every post item of the export, one at a time; the report. */
  async run(): Promise<ImportReport> {
    const report: ImportReport = { dryRun: this.#options.dryRun === true, posts: 0, imported: [], skipped: [], failed: [], findings: [], shortcodes: [], missingMedia: [], notes: [], sticky: [], notPosts: {}, images: 0, redirects: 0 };
    const posts = this.#wxr.items.filter((item) => item.postType === 'post');
    for (const item of this.#wxr.items) if (item.postType !== 'post') report.notPosts[item.postType] = (report.notPosts[item.postType] ?? 0) + 1;
    report.posts = posts.length;
    const { store } = this.#services;
    const progress = () => this.#options.onProgress?.({ done: report.imported.length + report.skipped.length + report.failed.length, total: posts.length, imported: report.imported.length, skipped: report.skipped.length, failed: report.failed.length });
    const usedCategories = new Map<string, string>();
    const seen = new Set<string>();
    for (const item of posts) {
      const title = titleOf(item);
      // Exports do repeat a guid on different posts (WordPress.com's theme test data does): the later
      // ones are told apart by their post id, the same on every run.
      let guid = item.guid || `${this.#wxr.siteUrl}/?p=${item.postId ?? title}`;
      if (seen.has(guid)) guid = `${guid}#wordpress-post-${item.postId ?? seen.size}`;
      seen.add(guid);
      try {
        const outcome = await this.#one(item, title, guid, report, usedCategories);
        if (outcome.kind === 'imported') {
          report.imported.push(outcome.post);
          if (item.sticky) report.sticky.push(title);
        } else report[outcome.kind].push({ title, guid, reason: outcome.reason });
      } catch (error) {
        // A store that cannot be written stops the run (nothing after it could be stored either).
        if (error instanceof Error && error.name === 'StoreError') throw error;
        report.failed.push({ title, guid, reason: errorText(error) });
      }
      progress();
    }
    // The old category and tag pages.
    const urls: ImportedUrl[] = [];
    const parents = new Map(this.#wxr.categories.map((category) => [category.nicename, category.parent]));
    for (const [nicename, slug] of usedCategories) {
      const target = slug === UNCATEGORIZED.slug ? '/blog' : `/blog/category/${slug}`;
      urls.push({ path: oldUrlKey(`/category/${nicename}/`, ''), target });
      // A child category's WordPress address names its parents: /category/parent/child/.
      const chain = [nicename];
      for (let parent = parents.get(nicename); parent && !chain.includes(parent) && chain.length < 10; parent = parents.get(parent)) chain.unshift(parent);
      if (chain.length > 1) urls.push({ path: oldUrlKey(`/category/${chain.join('/')}/`, ''), target });
    }
    for (const tag of this.#wxr.tags) urls.push({ path: oldUrlKey(`/tag/${tag.nicename}/`, ''), target: '/blog' });
    for (const item of posts) for (const term of item.terms) if (term.domain === 'post_tag') urls.push({ path: oldUrlKey(`/tag/${term.nicename}/`, ''), target: '/blog' });
    const unique = [...new Map(urls.map((url) => [url.path, url])).values()];
    if (!this.#options.dryRun) await store.imports.addUrls(unique);
    report.redirects += unique.length;
    report.images = this.#uploaded.size;
    return report;
  }

  async #one(
    item: WxrItem,
    title: string,
    guid: string,
    report: ImportReport,
    usedCategories: Map<string, string>,
  ): Promise<{ kind: 'imported'; post: ImportedPostReport } | { kind: 'skipped' | 'failed'; reason: string }> {
    const { store } = this.#services;
    const known = await store.imports.item(IMPORT_SOURCE, guid);
    if (known?.state === 'done') return { kind: 'skipped', reason: `already imported (as /blog/${known.slug})` };
    if (item.status === 'private' || item.status === 'trash' || item.status === 'auto-draft' || item.status === 'inherit') {
      return { kind: 'skipped', reason: item.status === 'private' ? 'it is private in WordPress: not imported (publish it there, or add it here by hand)' : `its WordPress status is ${item.status}` };
    }
    const category = this.#category(item);
    if (!category.ok) return { kind: 'failed', reason: category.reason };
    for (const term of item.terms) if (term.domain === 'category') usedCategories.set(term.nicename, this.#options.categoryMap?.get(term.nicename) ?? findCategory(term.nicename)?.slug ?? category.slug);
    // A post made by a run that stopped before noting it: found by the slug chosen for it.
    let noted = known?.slug ?? null;
    if (known) {
      const made = await store.posts.lookupSlug(known.slug);
      // Another post took that slug since: this one gets a free one.
      if (made) noted = null;
      // Only a post the import made (its version says so): another post that took the slug since is not adopted.
      if (made?.kind === 'current' && made.post.origin?.by === actorLabel(importActor(IMPORT_SOURCE))) {
        const urls = oldAddresses(item, this.#wxr.siteUrl, made.post.id);
        if (!this.#options.dryRun) await store.imports.finish(IMPORT_SOURCE, guid, made.post.id, urls);
        report.redirects += urls.length;
        return { kind: 'imported', post: { title, guid, slug: made.post.slug, status: made.post.status, resumed: true } };
      }
    }
    const payload = await this.#payload(item, title, category.slug, report);
    if (!payload.ok) return { kind: payload.skip ? 'skipped' : 'failed', reason: payload.reason };
    if (payload.warnings.length > 0) report.notes.push({ title, notes: payload.warnings });
    const slug = noted ?? (await this.#slugFor(item, title));
    const check = checkCreatePostBody({ ...payload.body, slug });
    if (!check.ok) return { kind: 'failed', reason: check.reason === 'invalid' ? check.problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ') : 'the body is not a post' };
    const input = { data: check.data, ignoredFields: [] };
    // An author --author-map names owns the post: the keys of that owner (a key's name, by default) may change it.
    const mapped = this.#options.authorMap?.get(item.creator);
    const actor = importActor(IMPORT_SOURCE, mapped && API_KEY_NAME_PATTERN.test(mapped) ? mapped : null);
    if (this.#options.dryRun) {
      const validated = await this.#services.posts.validate(input, actor);
      const rules = [...new Set(validated.findings.map((finding) => finding.rule))];
      if (rules.length > 0) report.findings.push({ title, slug: validated.slug, rules, held: validated.cleaned.post.status === 'in_review' });
      return { kind: 'imported', post: { title, guid, slug: validated.slug, status: validated.cleaned.post.status } };
    }
    await store.imports.begin(IMPORT_SOURCE, guid, slug, this.#services.clock().toISOString());
    const created = await this.#services.posts.create(input, actor, payload.at ? { at: payload.at } : {});
    const urls = oldAddresses(item, this.#wxr.siteUrl, created.post.id);
    await store.imports.finish(IMPORT_SOURCE, guid, created.post.id, urls);
    report.redirects += urls.length;
    const rules = [...new Set(created.findings.map((finding) => finding.rule))];
    if (rules.length > 0) report.findings.push({ title, slug: created.post.slug, rules, held: created.post.status === 'in_review' });
    return { kind: 'imported', post: { title, guid, slug: created.post.slug, status: created.post.status } };
  }
}

/** A WordPress slug may be percent-encoded UTF-8. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}
