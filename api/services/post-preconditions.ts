/**
 * What every change to a stored post checks before it is cleaned, in this order: the post exists (404),
 * the actor may change it (403: its key's owner, or blog:admin), it is not in the trash (410), and the
 * If-Match names its current version (428 without one, 412 with a stale one, listing what changed
 * since, so a client shows its author what to merge). An update may name an older kept revision
 * instead (`matchedVersion`): post-merge.ts decides whether it can be applied on top.
 */
import { ApiError } from '../../contract/errors';
import { type IfMatch, postEtag, type PreconditionFailedDetails } from '../../contract/post-lifecycle';
import type { PostIndexEntry, PostRecord, PostRepository, StoredRevision } from '../store/store';
import type { Editor } from './actors';
import { fieldChanges } from './post-versions';
import { conflictFacts } from './post-merge';

/** The post with this id for a change by `editor`: 404, then 403, then 410 (unless `inTrash`). */
export async function editablePost(store: PostRepository, id: string, editor: Editor, options: { inTrash?: 'allowed' | 'required' } = {}): Promise<PostRecord> {
  const post = await store.getById(id);
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

/**
 * The revision an If-Match names: 'current' when it names the current one (or is `*`, or is absent and
 * not `required`), else the older revision it names (null: another post's). 428 without one when
 * `required`, 400 for one this API did not give.
 */
function namedRevision(post: PostRecord, ifMatch: IfMatch | undefined, required: boolean): 'current' | number | null {
  if (!ifMatch) {
    if (!required) return 'current';
    throw new ApiError('precondition_required', {
      hints: [`The post's current ETag is ${postEtag(post.id, post.revision)}: read it with GET /api/blog/${post.id} before changing the post, and send it as If-Match.`],
    });
  }
  if (ifMatch.kind === 'any') return 'current';
  if (ifMatch.kind === 'invalid') {
    throw new ApiError('bad_request', {
      message: `If-Match must be an ETag this API gave, e.g. ${postEtag(post.id, post.revision)} (with the quotes), or *; it was ${JSON.stringify(ifMatch.value)}.`,
    });
  }
  const prefix = post.id.split('-')[0];
  if (ifMatch.etags.some((etag) => etag.idPrefix === prefix && etag.revision === post.revision)) return 'current';
  return ifMatch.etags.find((etag) => etag.idPrefix === prefix)?.revision ?? null;
}

/** 428 without an If-Match (when `required`), 412 unless it names the current version. */
export async function checkIfMatch(store: PostRepository, post: PostRecord, ifMatch: IfMatch | undefined, required: boolean): Promise<void> {
  const named = namedRevision(post, ifMatch, required);
  if (named !== 'current') throw staleVersion(post, named, await store.revisions(post.id));
}

/** The version a change was made from, and the versions made since (oldest first, the current one last; none when it is the current one). */
export interface MatchedVersion {
  base: PostRecord;
  later: StoredRevision['record'][];
}

/**
 * For a change that may be applied on top of what others changed since (an update): the version its
 * If-Match names, the current one or a kept earlier one; 428 without one, 412 when it names another
 * post's version or one no longer kept (nothing then says what changed since).
 */
export async function matchedVersion(store: PostRepository, post: PostRecord, ifMatch: IfMatch | undefined): Promise<MatchedVersion> {
  const named = namedRevision(post, ifMatch, true);
  if (named === 'current') return { base: post, later: [] };
  const revisions = await store.revisions(post.id);
  const kept = named === null || named > post.revision ? undefined : revisions.find((revision) => revision.record.revision === named);
  if (!kept) throw staleVersion(post, named, revisions);
  const later = revisions
    .filter((revision) => revision.record.revision > kept.record.revision)
    .map((revision) => revision.record)
    .reverse();
  return { base: { ...kept.record, warnings: [], idempotency: null }, later: [...later, post] };
}

/** The 412 for a change made to revision `yours` of a post now at another, listing what changed since. */
export function staleVersion(post: PostRecord | PostIndexEntry, yours: number | null, revisions: readonly StoredRevision[]): ApiError {
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
  return new ApiError('precondition_failed', { message, headers: { ETag: details.current_etag }, extra: { ...details }, facts: conflictFacts(post.id, details) });
}
