/**
 * Versions of a post: the payload a PATCH or PUT makes of a stored post (merged into the create payload
 * it stands for), the new version built from it once cleaned, which fields a change changed (the
 * answer's `changed`, a stale If-Match's `changes`, a revision's record), and the answer a write gives.
 * Pure: the post service (post-service.ts) does the cleaning, the gate and the writing.
 */
import { checkCreatePostBody, type CreatePostData } from '../../contract/blog';
import type { ComplianceFinding } from '../../contract/compliance';
import { ApiError, validationError } from '../../contract/errors';
import { presentCoverImage } from '../../contract/media';
import { type FieldChange, mergePatch, PATCH_RULES, postEtag, type PostWriteResponse } from '../../contract/post-lifecycle';
import { sourceBody } from '../authoring/markdown-source';
import type { PostIndexEntry, PostRecord } from '../store/store';
import type { Editor } from './actors';
import { heldMessage } from './compliance-gate';
import { referencedMediaId } from './post-media';
import type { CleanedPost } from './posts';
import { presentSummary } from './presenters';

/** The fields compared between versions, by the name the API uses, with how to read each from a record. */
const COMPARED: ReadonlyArray<readonly [string, (record: Pick<PostRecord, 'title'> & Partial<PostRecord>) => unknown]> = [
  ['title', (r) => r.title],
  ['slug', (r) => r.slug],
  ['excerpt', (r) => r.excerpt],
  ['content', (r) => r.content],
  // The body of the author's Markdown: its front matter's fields are compared as the fields they are.
  ['source', (r) => (r.source ? sourceBody(r.source.text) : null)],
  ['category', (r) => r.categorySlug],
  ['tags', (r) => r.tags],
  ['author.name', (r) => r.author?.name],
  ['author.bio', (r) => r.author?.bio ?? null],
  ['author.credentials', (r) => r.author?.credentials ?? null],
  ['isNewsArticle', (r) => r.isNewsArticle],
  ['trust', (r) => r.trust ?? null],
  ['cover_image', (r) => (r.coverImage ? presentCoverImage(r.coverImage) : null)],
  ['status', (r) => r.status],
  ['publish_at', (r) => r.publishAt ?? null],
  ['published_at', (r) => r.publishedAt ?? null],
  ['compliance', (r) => r.complianceAccept ?? []],
];

/** JSON with object members in name order, so two equal values in another member order compare equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_name, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Field by field, what differs from `before` to `after`. */
export function fieldChanges(before: Partial<PostRecord> & Pick<PostRecord, 'title'>, after: Partial<PostRecord> & Pick<PostRecord, 'title'>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, read] of COMPARED) {
    const a = read(before);
    const b = read(after);
    if (canonical(a) !== canonical(b)) changes.push({ field, before: a ?? null, after: b ?? null });
  }
  return changes;
}

/** A stored post as the create payload that would make it (what a PATCH merges into). */
export function payloadOf(record: PostRecord): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    title: record.title,
    content: record.content,
    excerpt: record.excerpt,
    category: record.categorySlug,
    tags: [...record.tags],
    // A post held for review stands for the status its author asked for.
    status: record.status === 'in_review' ? (record.review?.requestedStatus ?? 'published') : record.status,
    author: { ...record.author },
    isNewsArticle: record.isNewsArticle,
  };
  if (record.trust) payload.trust = structuredClone(record.trust);
  if (record.coverImage) {
    payload.cover_image = record.coverImage.mediaId;
    if (record.coverImage.alt !== '') payload.cover_image_alt = record.coverImage.alt;
  }
  if (record.status === 'scheduled' && record.publishAt) payload.publish_at = record.publishAt;
  if (record.status === 'in_review' && record.review?.requestedStatus === 'scheduled' && record.review.requestedPublishAt) payload.publish_at = record.review.requestedPublishAt;
  if (record.complianceAccept.length > 0) payload.compliance = { accept: record.complianceAccept.map((acceptance) => ({ ...acceptance })) };
  return payload;
}

/** The payload a PATCH (`merge`) or PUT (`replace`) body makes of `post`, checked by the contract's schema; 400 otherwise. */
export function changedPayload(post: PostRecord, body: unknown, mode: 'merge' | 'replace'): { data: CreatePostData; ignoredFields: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('bad_request', { message: `The body must be a JSON object with the fields to ${mode === 'merge' ? 'change' : 'store'}.`, hints: [...PATCH_RULES] });
  }
  const patch = body as Record<string, unknown>;
  let input: unknown = body;
  if (mode === 'merge') {
    const merged = mergePatch(payloadOf(post), patch) as Record<string, unknown>;
    // A new status without a new time leaves the old schedule behind.
    if ('status' in patch && !('publish_at' in patch) && !('publishAt' in patch)) delete merged.publish_at;
    // The alt text describes the picture: it goes with a cover removed or replaced, unless sent anew.
    if ('cover_image' in patch && !('cover_image_alt' in patch) && (typeof patch.cover_image !== 'string' || referencedMediaId(patch.cover_image) !== (post.coverImage?.mediaId ?? null))) {
      delete merged.cover_image_alt;
    }
    input = merged;
  }
  const check = checkCreatePostBody(input);
  if (check.ok) return { data: check.data, ignoredFields: check.ignoredFields };
  if (check.reason === 'json_string') throw new ApiError('body_is_json_string');
  throw validationError(check.problems, mode === 'merge' ? [...PATCH_RULES] : ['PUT replaces the whole post: send every field a create takes (PATCH changes only the fields sent).']);
}

/** The version of `post` a cleaned payload makes: its fields replaced, its id, owner, creation and history kept. */
export function versionFrom(post: PostRecord, cleaned: CleanedPost, slug: string | null | undefined, editor: Editor, now: Date): PostRecord {
  const { post: next } = cleaned;
  let publishedAt: string | null = null;
  if (next.status === 'published') publishedAt = next.publishedAt ?? post.publishedAt ?? now.toISOString();
  return {
    ...post,
    title: next.title,
    excerpt: next.excerpt,
    content: next.content,
    source: next.source ?? null,
    categorySlug: next.categorySlug,
    tags: next.tags,
    author: next.author,
    isNewsArticle: next.isNewsArticle,
    trust: next.trust,
    coverImage: next.coverImage ?? null,
    status: next.status,
    publishAt: next.publishAt,
    publishedAt,
    slug: slug ?? post.slug,
    warnings: cleaned.warnings,
    complianceAccept: next.complianceAccept ?? [],
    updatedAt: now.toISOString(),
    updatedByKeyId: editor.keyId,
  };
}

/** The answer of every write: the post as it now is, its new ETag, what changed, and what to look at. */
export function writeAnswer(entry: PostIndexEntry, message: string, changed: FieldChange[], warnings: string[], findings: ComplianceFinding[] = []): PostWriteResponse {
  return { success: true, message, post: presentSummary(entry), etag: postEtag(entry.id, entry.revision), changed, warnings, findings };
}

/** The message of an update's answer: what became of the post. */
export function messageFor(before: PostRecord, after: PostIndexEntry): string {
  if (after.status === 'in_review') return `Post updated and ${heldMessage(after.review?.rules ?? []).replace(/^Held/, 'held')}`;
  if (before.status === after.status) return 'Post updated.';
  if (after.status === 'draft') return 'Unpublished: the post is a draft again, off the site, lists and feeds.';
  if (after.status === 'scheduled') return `Scheduled: the post goes live at ${after.publishAt ?? 'its time'}.`;
  return 'Published: the post is on the site.';
}
