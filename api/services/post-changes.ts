/**
 * Changes to a stored post: update (PATCH as a JSON merge patch, PUT as a full replace), delete to the
 * trash and restore, revert to a kept revision, and the scheduled publication. Each change is checked
 * in the same order: the post exists (404) and is not in the trash (410), the key may change it (403),
 * the If-Match names its current version (428 without one, 412 with a stale one, listing what changed
 * since), and the new version is checked and cleaned exactly like a create. The store then saves it
 * only if nobody changed the post meanwhile.
 */
import { checkCreatePostBody, type CreatePostData, TRASH_RETENTION_DAYS } from '../../contract/blog';
import type { ComplianceFinding, ComplianceMode } from '../../contract/compliance';
import { ApiError, validationError } from '../../contract/errors';
import { presentCoverImage } from '../../contract/media';
import { type FieldChange, type IfMatch, mergePatch, PATCH_RULES, postEtag, type PostWriteResponse, type PreconditionFailedDetails } from '../../contract/post-lifecycle';
import type { AuditLog, PostIndexEntry, PostRecord, PostRepository, StoredRevision } from '../store/store';
import { applyGate, findingsOf, heldMessage, keyAuditEntry, pendingReview } from './compliance-gate';
import { presentSummary } from './presenters';
import { referencedMediaId } from './post-media';
import type { PostAuthorKey, PostService } from './posts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The key making a change: who it is, and whether it may change anyone's posts. */
export interface Editor extends PostAuthorKey {
  admin: boolean;
}

/** The fields compared between versions, by the name the API uses, with how to read each from a record. */
const COMPARED: ReadonlyArray<readonly [string, (record: Pick<PostRecord, 'title'> & Partial<PostRecord>) => unknown]> = [
  ['title', (r) => r.title],
  ['slug', (r) => r.slug],
  ['excerpt', (r) => r.excerpt],
  ['content', (r) => r.content],
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

function answer(entry: PostIndexEntry, message: string, changed: FieldChange[], warnings: string[], findings: ComplianceFinding[] = []): PostWriteResponse {
  return { success: true, message, post: presentSummary(entry), etag: postEtag(entry.id, entry.revision), changed, warnings, findings };
}

/** How changes meet the compliance gate (api/services/compliance-gate.ts), and where its decisions are recorded. */
export interface ComplianceSettings {
  mode: ComplianceMode;
  /** Held and refused changes made through API keys are written here. */
  audit?: AuditLog;
}

/** A reviewer's decision done: the answer, and the rules that had held the post (for the audit log). */
export interface ReviewDecision {
  answer: PostWriteResponse;
  rules: string[];
}

/** The fields a reviewer may correct on a post waiting for review. */
export interface ReviewEdit {
  title: string;
  excerpt: string;
  content: string;
}

export class PostChanges {
  readonly #store: PostRepository;
  readonly #posts: PostService;
  readonly #now: () => Date;
  readonly #compliance: ComplianceSettings;

  constructor(store: PostRepository, posts: PostService, now: () => Date = () => new Date(), compliance: ComplianceSettings = { mode: 'warn' }) {
    this.#store = store;
    this.#posts = posts;
    this.#now = now;
    this.#compliance = compliance;
  }

  /**
   * The compliance gate on a new version that asks to be public: unchanged, held as in_review, or a
   * 422 (recorded in the audit log). A draft keeps a reviewer's note until it is sent for review again.
   */
  async #gated(post: PostRecord, next: PostRecord, editor: Editor): Promise<{ next: PostRecord; findings: ComplianceFinding[] }> {
    const findings = findingsOf(next);
    const requested = next.status === 'in_review' ? (next.review?.requestedStatus ?? 'published') : next.status;
    const record = async (action: 'post.held_for_review' | 'post.compliance_blocked', rules: readonly string[]) =>
      this.#compliance.audit?.append(keyAuditEntry(this.#now(), editor.keyId, action, post.id, { rules: rules.join(', '), mode: this.#compliance.mode }, null));
    const review = await applyGate({
      mode: this.#compliance.mode,
      findings,
      requested,
      publishAt: next.publishAt,
      admin: editor.admin,
      now: this.#now(),
      subject: 'change',
      onBlocked: (rules) => record('post.compliance_blocked', rules),
    });
    if (review) {
      await record('post.held_for_review', review.rules);
      return { next: { ...next, status: 'in_review', publishAt: null, publishedAt: post.publishedAt, review }, findings };
    }
    const keepNote = next.status === 'draft' && post.review?.state === 'returned';
    return { next: { ...next, review: keepNote ? post.review : null }, findings };
  }

  /** The post with this id for a change by `editor`: 404, 410 (unless `inTrash`), 403 as the file comment says. */
  async #editable(id: string, editor: Editor, options: { inTrash?: 'allowed' | 'required' } = {}): Promise<PostRecord> {
    const post = await this.#store.getById(id);
    if (!post) throw new ApiError('post_not_found', { message: `No post has the id "${id}".` });
    if (!editor.admin && (post.owner === null || post.owner !== editor.owner)) {
      throw new ApiError('not_post_owner', {
        message: post.owner
          ? `This post belongs to "${post.owner}", and this key's owner is "${editor.owner ?? 'nobody'}": only keys of "${post.owner}", or a key holding blog:admin, may change it.`
          : 'This post was not created through a key (it is site content): only a key holding blog:admin may change it.',
        extra: { postOwner: post.owner, keyOwner: editor.owner },
      });
    }
    if (post.deletedAt && options.inTrash === undefined) {
      throw new ApiError('post_gone', { message: `The post "${post.title}" is in the trash: restore it first (POST /api/blog/${post.id}/restore) to change it.` });
    }
    if (!post.deletedAt && options.inTrash === 'required') throw new ApiError('not_in_trash');
    return post;
  }

  /** 428 without an If-Match (when `required`), 412 unless it names the current version. */
  async #checkIfMatch(post: PostRecord, ifMatch: IfMatch | undefined, required: boolean): Promise<void> {
    if (!ifMatch) {
      if (!required) return;
      throw new ApiError('precondition_required', {
        hints: [`The post's current ETag is ${postEtag(post.id, post.revision)}: read it with GET /api/blog/${post.id} before changing the post, and send it as If-Match.`],
      });
    }
    if (ifMatch.kind === 'any') return;
    if (ifMatch.kind === 'invalid') {
      throw new ApiError('bad_request', {
        message: `If-Match must be an ETag this API gave, e.g. ${postEtag(post.id, post.revision)} (with the quotes), or *; it was ${JSON.stringify(ifMatch.value)}.`,
      });
    }
    const prefix = post.id.split('-')[0];
    if (ifMatch.etags.some((etag) => etag.idPrefix === prefix && etag.revision === post.revision)) return;
    const yours = ifMatch.etags.find((etag) => etag.idPrefix === prefix)?.revision ?? null;
    throw this.#stale(post, yours, await this.#store.revisions(post.id));
  }

  #stale(post: PostRecord | PostIndexEntry, yours: number | null, revisions: readonly StoredRevision[]): ApiError {
    const kept = yours === null ? undefined : revisions.find((revision) => revision.record.revision === yours);
    const details: PreconditionFailedDetails = {
      current_etag: postEtag(post.id, post.revision),
      current_revision: post.revision,
      your_revision: yours,
      changes: kept ? fieldChanges(kept.record, post) : null,
    };
    const message =
      yours === null
        ? `The If-Match names another post's version: this post is at revision ${post.revision} (ETag ${details.current_etag}).`
        : `The post changed since revision ${yours}, the version your If-Match names: it is at revision ${post.revision} now.`;
    return new ApiError('precondition_failed', { message, headers: { ETag: details.current_etag }, extra: { ...details } });
  }

  /** Saves `next` over `current`; a 412 when someone else saved in between, a 409 for a taken slug. */
  async #save(current: PostRecord, next: PostRecord, changed: FieldChange[], keepRevision: boolean): Promise<PostIndexEntry> {
    const outcome = await this.#store.save(next, { expectedRevision: current.revision, keepRevision, changed: changed.map((change) => change.field) });
    switch (outcome.kind) {
      case 'saved':
        return outcome.post;
      case 'stale':
        throw this.#stale(outcome.current, current.revision, await this.#store.revisions(current.id));
      case 'slug_taken':
        throw new ApiError('slug_taken', { message: `Another post uses (or used) the slug "${next.slug}".` });
      case 'missing':
        throw new ApiError('post_not_found', { message: `No post has the id "${current.id}".` });
    }
  }

  /** The new version of `post` from a checked payload, cleaned like a create (its images resolved); 400 for what is wrong. */
  async #nextVersion(post: PostRecord, data: CreatePostData, ignoredFields: string[], editor: Editor, now: Date): Promise<{ next: PostRecord; warnings: string[] }> {
    const outcome = await this.#posts.clean(data, ignoredFields, editor, now);
    if (!outcome.ok) throw validationError(outcome.problems);
    const cleaned = outcome.cleaned.post;
    let publishedAt: string | null = null;
    if (cleaned.status === 'published') publishedAt = cleaned.publishedAt ?? post.publishedAt ?? now.toISOString();
    const next: PostRecord = {
      ...post,
      title: cleaned.title,
      excerpt: cleaned.excerpt,
      content: cleaned.content,
      categorySlug: cleaned.categorySlug,
      tags: cleaned.tags,
      author: cleaned.author,
      isNewsArticle: cleaned.isNewsArticle,
      trust: cleaned.trust,
      coverImage: cleaned.coverImage ?? null,
      status: cleaned.status,
      publishAt: cleaned.publishAt,
      publishedAt,
      slug: data.slug ?? post.slug,
      warnings: outcome.cleaned.warnings,
      complianceAccept: cleaned.complianceAccept ?? [],
      updatedAt: now.toISOString(),
      updatedByKeyId: editor.keyId,
    };
    return { next, warnings: outcome.cleaned.warnings };
  }

  /**
   * PATCH (`mode` 'merge') or PUT ('replace') from a parsed JSON body. A change that changes nothing
   * saves nothing and keeps the revision.
   */
  async update(id: string, body: unknown, mode: 'merge' | 'replace', ifMatch: IfMatch | undefined, editor: Editor): Promise<PostWriteResponse> {
    const post = await this.#editable(id, editor);
    await this.#checkIfMatch(post, ifMatch, true);
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
    if (!check.ok) {
      if (check.reason === 'json_string') throw new ApiError('body_is_json_string');
      throw validationError(check.problems, mode === 'merge' ? [...PATCH_RULES] : ['PUT replaces the whole post: send every field a create takes (PATCH changes only the fields sent).']);
    }
    const now = this.#now();
    const version = await this.#nextVersion(post, check.data, check.ignoredFields, editor, now);
    const warnings = version.warnings;
    const { next, findings } = await this.#gated(post, version.next, editor);
    if (next.title !== post.title) warnings.push(...(await this.#posts.duplicateWarnings(next.title, post.id)));
    const changed = fieldChanges(post, next);
    if (changed.length === 0) return answer(post, 'Nothing changed: the post already reads like this.', [], warnings, findings);
    const saved = await this.#save(post, next, changed, true);
    return answer(saved, messageFor(post, saved), changed, warnings, findings);
  }

  /** Moves a post to the trash (again: no change); restorable for TRASH_RETENTION_DAYS days. */
  async trash(id: string, ifMatch: IfMatch | undefined, editor: Editor): Promise<PostWriteResponse> {
    const post = await this.#editable(id, editor, { inTrash: 'allowed' });
    if (post.deletedAt) return answer(post, 'The post was already in the trash.', [], []);
    await this.#checkIfMatch(post, ifMatch, false);
    const now = this.#now().toISOString();
    const saved = await this.#save(post, { ...post, deletedAt: now, updatedAt: now, updatedByKeyId: editor.keyId }, [], false);
    return answer(saved, `Moved to the trash: the post's page answers 410 Gone. Restore it within ${TRASH_RETENTION_DAYS} days with POST /api/blog/${post.id}/restore.`, [], []);
  }

  async restore(id: string, editor: Editor): Promise<PostWriteResponse> {
    const post = await this.#editable(id, editor, { inTrash: 'required' });
    const now = this.#now().toISOString();
    const saved = await this.#save(post, { ...post, deletedAt: null, updatedAt: now, updatedByKeyId: editor.keyId }, [], false);
    return answer(saved, `Restored from the trash, as a ${saved.status} post.`, [], []);
  }

  /** A new version with the title, body and details of kept revision `revision`; status, slug and dates stay. */
  async revert(id: string, revision: number, ifMatch: IfMatch | undefined, editor: Editor): Promise<PostWriteResponse> {
    const post = await this.#editable(id, editor);
    await this.#checkIfMatch(post, ifMatch, false);
    const kept = (await this.#store.revisions(id)).find((stored) => stored.record.revision === revision);
    if (!kept) throw new ApiError('revision_not_found', { message: `Post ${id} has no kept revision ${revision} (it is at revision ${post.revision}; GET /api/blog/${id}/revisions lists the kept ones).` });
    const { record } = kept;
    // The revision's pictures as the uploads are now (a 400 when one was deleted since).
    const media = await this.#posts.resolveMedia(record.content, record.coverImage ? { reference: record.coverImage.mediaId, alt: record.coverImage.alt } : null);
    if (!media.ok) throw validationError(media.problems, [`Revision ${revision} shows an image that is no longer uploaded: upload it again with POST /api/media, then change the post with PATCH.`]);
    const now = this.#now().toISOString();
    const next: PostRecord = {
      ...post,
      title: record.title,
      excerpt: record.excerpt,
      content: media.resolved.content,
      coverImage: media.resolved.coverImage,
      categorySlug: record.categorySlug,
      tags: record.tags,
      author: record.author,
      isNewsArticle: record.isNewsArticle,
      trust: record.trust,
      complianceAccept: record.complianceAccept,
      updatedAt: now,
      updatedByKeyId: editor.keyId,
    };
    // Old wording goes public again only through the same gate as new wording.
    const { next: gatedNext, findings } = await this.#gated(post, next, editor);
    const changed = fieldChanges(post, gatedNext);
    if (changed.length === 0) return answer(post, `Nothing changed: the post already reads like revision ${revision}.`, [], media.resolved.warnings, findings);
    const saved = await this.#save(post, gatedNext, changed, true);
    const held = saved.status === 'in_review' && post.status !== 'in_review' ? ` ${heldMessage(saved.review?.rules ?? [])}` : '';
    return answer(saved, `Reverted to revision ${revision} (as the new revision ${saved.revision}).${held}`, changed, media.resolved.warnings, findings);
  }

  /** A post waiting for review, at the revision the reviewer's page showed (412 otherwise, 409 when it no longer waits). */
  async #underReview(id: string, revision: number): Promise<PostRecord> {
    const post = await this.#editable(id, { keyId: null, owner: null, admin: true });
    if (post.status !== 'in_review') {
      throw new ApiError('bad_request', { message: `The post "${post.title}" is not waiting for review (it is ${post.status === 'draft' && post.review?.state === 'returned' ? 'back with its author' : post.status}).` });
    }
    await this.#checkIfMatch(post, { kind: 'etags', etags: [{ idPrefix: post.id.split('-')[0] ?? post.id, revision }] }, true);
    return post;
  }

  /** A reviewer approves a held post: it goes live (or is scheduled) as its author asked. */
  async approve(id: string, revision: number): Promise<ReviewDecision> {
    const post = await this.#underReview(id, revision);
    const now = this.#now();
    const review = post.review;
    const at = review?.requestedPublishAt ?? null;
    const scheduled = review?.requestedStatus === 'scheduled' && at !== null && Date.parse(at) > now.getTime();
    const next: PostRecord = {
      ...post,
      status: scheduled ? 'scheduled' : 'published',
      publishAt: scheduled ? at : null,
      publishedAt: scheduled ? null : (post.publishedAt ?? now.toISOString()),
      review: null,
      updatedAt: now.toISOString(),
    };
    const saved = await this.#save(post, next, fieldChanges(post, next), false);
    const message = scheduled ? `Approved: the post goes live at ${at ?? 'its time'}.` : 'Approved: the post is on the site.';
    return { answer: answer(saved, message, fieldChanges(post, next), []), rules: review?.rules ?? [] };
  }

  /** A reviewer sends a held post back to its author as a draft, with a note the author reads through the API. */
  async sendBack(id: string, revision: number, note: string, reviewer: string): Promise<ReviewDecision> {
    const post = await this.#underReview(id, revision);
    const now = this.#now().toISOString();
    const review = post.review ?? pendingReview('published', null, [], this.#now());
    const next: PostRecord = { ...post, status: 'draft', publishAt: null, review: { ...review, state: 'returned', note, decidedAt: now, decidedBy: reviewer }, updatedAt: now };
    const saved = await this.#save(post, next, fieldChanges(post, next), false);
    return { answer: answer(saved, 'Sent back to the author as a draft, with the note.', fieldChanges(post, next), []), rules: review.rules };
  }

  /** A reviewer corrects the wording of a held post: a new revision, still waiting for review. */
  async reviewEdit(id: string, revision: number, edit: ReviewEdit): Promise<PostWriteResponse> {
    const post = await this.#underReview(id, revision);
    const input = { ...payloadOf(post), title: edit.title, excerpt: edit.excerpt, content: edit.content };
    const check = checkCreatePostBody(input);
    if (!check.ok) throw check.reason === 'json_string' ? new ApiError('body_is_json_string') : validationError(check.problems);
    const version = await this.#nextVersion(post, check.data, [], { keyId: null, owner: post.owner, admin: true }, this.#now());
    const next: PostRecord = { ...version.next, status: 'in_review', publishAt: null, publishedAt: post.publishedAt, review: post.review, owner: post.owner, updatedByKeyId: null };
    const changed = fieldChanges(post, next);
    if (changed.length === 0) return answer(post, 'Nothing changed: the post already reads like this.', [], version.warnings, findingsOf(next));
    const saved = await this.#save(post, next, changed, true);
    return answer(saved, 'Saved: the post still waits for review.', changed, version.warnings, findingsOf(next));
  }

  /** Publishes every scheduled post whose time has come, at its scheduled time; the posts published. */
  async publishDue(): Promise<PostIndexEntry[]> {
    const now = this.#now();
    const published: PostIndexEntry[] = [];
    for (const due of await this.#store.dueScheduled(now)) {
      const post = await this.#store.getById(due.id);
      if (!post || post.status !== 'scheduled' || post.deletedAt) continue;
      const at = post.publishAt ?? now.toISOString();
      const outcome = await this.#store.save(
        // Dated at its time, not at this run's (a server that was down publishes it later).
        { ...post, status: 'published', publishedAt: at, publishAt: null, updatedAt: at > post.updatedAt ? at : post.updatedAt },
        { expectedRevision: post.revision, keepRevision: false, changed: ['status'] },
      );
      // 'stale': an author changed it at this moment; the next run looks again.
      if (outcome.kind === 'saved') published.push(outcome.post);
    }
    return published;
  }

  /** Purges posts in the trash for longer than TRASH_RETENTION_DAYS; how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.#now().getTime() - TRASH_RETENTION_DAYS * DAY_MS);
    let purged = 0;
    for (const post of await this.#store.trashedBefore(cutoff)) if (await this.#store.purge(post.id)) purged++;
    return purged;
  }
}

function messageFor(before: PostRecord, after: PostIndexEntry): string {
  if (after.status === 'in_review') return `Post updated and ${heldMessage(after.review?.rules ?? []).replace(/^Held/, 'held')}`;
  if (before.status === after.status) return 'Post updated.';
  if (after.status === 'draft') return 'Unpublished: the post is a draft again, off the site, lists and feeds.';
  if (after.status === 'scheduled') return `Scheduled: the post goes live at ${after.publishAt ?? 'its time'}.`;
  return 'Published: the post is on the site.';
}
