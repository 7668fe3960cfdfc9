/**
 * What the advertising archive records of a post (decision 0028): the snapshot of a version as its
 * page shows it to visitors (title, byline, dates, excerpt, cover image and the sanitised body HTML, as
 * one HTML document), and which record a change makes: a post that goes public is `published`, a
 * public post whose snapshot changes is `updated`, one that stops being public is `unpublished` or
 * `deleted` (trash, purge). A change the public cannot see (a draft edited, tags of a post whose page
 * reads the same) makes none. The post service hands these to the store, which appends them in the
 * same transaction as the change.
 */
import type { ArchiveAppend, ArchiveFinding } from '../store/archive';
import type { PostRecord } from '../store/store';
import { findingsOf } from './compliance-gate';

/** Whether visitors see the post: published and not in the trash. */
export function isPublic(post: Pick<PostRecord, 'status' | 'deletedAt'>): boolean {
  return post.status === 'published' && post.deletedAt === null;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The text of some HTML: tags dropped, the common entities read, spaces collapsed. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The post's page as an archived HTML document: what a visitor reads of it. */
export function postSnapshot(post: PostRecord): string {
  const author = post.author.credentials ? `${post.author.name}, ${post.author.credentials}` : post.author.name;
  const cover = post.coverImage ? `<img src="${escapeHtml(post.coverImage.src)}" alt="${escapeHtml(post.coverImage.alt)}" width="${post.coverImage.width}" height="${post.coverImage.height}">` : '';
  const sources = post.trust?.sources.length ? `<h2>Sources</h2><ul>${post.trust.sources.map((source) => `<li><a href="${escapeHtml(source.url)}">${escapeHtml(source.name)}</a></li>`).join('')}</ul>` : '';
  const factCheck = post.trust?.factCheckedBy ? `<p class="fact-check">Fact-checked by ${escapeHtml(post.trust.factCheckedBy.name)}${post.trust.factCheckedBy.credentials ? `, ${escapeHtml(post.trust.factCheckedBy.credentials)}` : ''}</p>` : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(post.title)}</title>`,
    '</head><body><article>',
    `<h1>${escapeHtml(post.title)}</h1>`,
    `<p class="byline">By ${escapeHtml(author)}${post.publishedAt ? ` · Published <time datetime="${post.publishedAt}">${post.publishedAt.slice(0, 10)}</time>` : ''}</p>`,
    `<p class="excerpt">${escapeHtml(post.excerpt)}</p>`,
    cover,
    `<div class="content">${post.content}</div>`,
    factCheck,
    sources,
    '</article></body></html>',
  ].join('\n');
}

function findingsAt(post: PostRecord): ArchiveFinding[] {
  return findingsOf(post).map((finding) => ({ rule: finding.rule, severity: finding.severity, match: finding.location?.text ?? '' }));
}

/** The record of a version of `post` that goes live at `at`. */
function versionEntry(post: PostRecord, event: 'published' | 'updated', at: string): ArchiveAppend {
  const html = postSnapshot(post);
  return {
    subject: post.id,
    kind: 'post',
    event,
    path: `/blog/${post.slug}`,
    title: post.title,
    html,
    text: textOfHtml(html),
    at,
    findings: findingsAt(post),
    madeBy: post.origin?.by ?? null,
    approver: post.approval?.by ?? null,
    approvalCode: post.approval?.code ?? null,
  };
}

/** The closing record of `post`, which stopped being public at `at`. */
export function closingEntry(post: Pick<PostRecord, 'id' | 'slug' | 'title'>, event: 'unpublished' | 'deleted', at: string, madeBy: string | null): ArchiveAppend {
  return { subject: post.id, kind: 'post', event, path: `/blog/${post.slug}`, title: post.title, html: '', text: '', at, findings: [], madeBy, approver: null, approvalCode: null };
}

/**
 * The record a change from `before` (null: a new post) to `after` makes, or undefined when the public
 * sees no change. `at`: when it happened (a scheduled post: its time).
 */
export function archiveEntryFor(before: PostRecord | null, after: PostRecord, at: string): ArchiveAppend | undefined {
  const was = before !== null && isPublic(before);
  const is = isPublic(after);
  if (is) {
    if (!was) return versionEntry(after, 'published', at);
    return postSnapshot(before) === postSnapshot(after) ? undefined : versionEntry(after, 'updated', at);
  }
  if (was) return closingEntry(after, after.deletedAt !== null ? 'deleted' : 'unpublished', at, after.origin?.by ?? null);
  return undefined;
}
