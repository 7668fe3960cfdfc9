/**
 * A post's history as support reads it (`blogpost diagnose <request-id>` for a 412, `blogpost
 * support-bundle`): each version, the current one first, with who made it, when, the fields it
 * changed and why. The same story GET /api/blog/:id/revisions tells, read from the store directly.
 */
import type { VersionStory } from '../../contract/post-lifecycle';
import type { PostRepository, StoredRevision } from '../store/store';

/**
 * How a version came to be, as its origin records it; a version stored before origins were recorded
 * says what its bookkeeping can: the key that saved it, and the fields the kept version before it
 * lists as changed next.
 */
export function versionStory(version: StoredRevision['record'], before: StoredRevision | undefined): VersionStory {
  if (version.origin) return { made_by: version.origin.by, made_at: version.origin.at, fields: [...version.origin.fields], why: version.origin.why };
  const keyId = version.revision === 1 ? version.createdByKeyId : version.updatedByKeyId;
  return { made_by: keyId ? `key:${keyId}` : null, made_at: version.revision === 1 ? version.createdAt : version.updatedAt, fields: before ? [...before.changed] : [], why: null };
}

export interface PostHistory {
  post: { id: string; slug: string; title: string; status: string; revision: number; deleted: boolean };
  /** Newest first: the current version, then the kept ones (at most REVISIONS_KEPT). */
  versions: Array<VersionStory & { revision: number; title: string; status: string }>;
}

/** The history of the post with this id (or slug), or null when the store has no such post. */
export async function postHistory(store: PostRepository, idOrSlug: string): Promise<PostHistory | null> {
  const post = (await store.getById(idOrSlug)) ?? (await store.getBySlug(idOrSlug));
  if (!post) return null;
  const revisions = await store.revisions(post.id);
  return {
    post: { id: post.id, slug: post.slug, title: post.title, status: post.status, revision: post.revision, deleted: post.deletedAt !== null },
    versions: [
      { revision: post.revision, title: post.title, status: post.status, ...versionStory(post, revisions[0]) },
      ...revisions.map((kept, index) => ({ revision: kept.record.revision, title: kept.record.title, status: kept.record.status, ...versionStory(kept.record, revisions[index + 1]) })),
    ],
  };
}
