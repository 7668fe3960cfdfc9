/**
 * A change made from an older revision of a post (an author's file published after someone else moved
 * the post on): which fields the author changed and which others changed since, the version that keeps
 * both when they touch different fields, and the 412 naming who changed the same field, and when, when
 * they do not. The status, its time and the publication date count as one field, `status`: the author
 * asks for a status, and the two times follow from it. Pure: the post service (post-service.ts) reads
 * the revisions, cleans the author's version and stores the result.
 */
import { ApiError } from '../../contract/errors';
import { postEtag, type PreconditionFailedDetails, type RevisionConflict } from '../../contract/post-lifecycle';
import type { PostRecord, StoredRevision, VersionOrigin } from '../store/store';
import { fieldChanges } from './post-versions';
import { redact } from '../request-log/redact';

/** A 412's facts for the request log: the revisions and field names, who changed them with any e-mail redacted. */
export function conflictFacts(postId: string, details: PreconditionFailedDetails): Record<string, unknown> {
  return {
    post: {
      id: postId,
      yourRevision: details.your_revision,
      currentRevision: details.current_revision,
      changed: details.changes ? [...new Set(details.changes.map((change) => change.field))] : null,
      ...(details.conflicts ? { conflicts: details.conflicts.map((conflict) => ({ ...conflict, by: redact(conflict.by) })) } : {}),
    },
  };
}

/** A kept earlier version, or the current one: what the versions made since a revision are read from. */
type Version = StoredRevision['record'];

/** The fields that go with the status: the author asks for the status, the server sets the times. */
export const STATUS_FIELDS: ReadonlySet<string> = new Set(['status', 'publish_at', 'published_at']);

/** The field a change counts against: the times count as the status they go with. */
function conflictField(field: string): string {
  return STATUS_FIELDS.has(field) ? 'status' : field;
}

/**
 * The status a version stands for, with its time when scheduled: a post held for review stands for the
 * status its author asked for, so resending a file whose post was held (or sent back) is not a change
 * of status by the author.
 */
export function askedStatus(version: Pick<PostRecord, 'status' | 'publishAt' | 'review'>): string {
  if (version.status === 'in_review') {
    const asked = version.review?.requestedStatus ?? 'published';
    return asked === 'scheduled' ? `scheduled at ${instant(version.review?.requestedPublishAt ?? null)}` : asked;
  }
  return version.status === 'scheduled' ? `scheduled at ${instant(version.publishAt)}` : version.status;
}

/** A time as one instant, whatever offset it was written with. */
function instant(time: string | null): string {
  return time === null ? 'its time' : new Date(time).toISOString();
}

/** The status a payload asks for, with its time when scheduled (as `askedStatus` writes it). */
export function askedInPayload(data: { status: string; publish_at?: string | null | undefined }): string {
  return data.status === 'scheduled' ? `scheduled at ${instant(data.publish_at ?? null)}` : data.status;
}

/** How a version came to be, for versions stored before that was recorded: what their bookkeeping says. */
function originOf(version: Version, before: Version | undefined): VersionOrigin {
  return (
    version.origin ?? {
      by: version.updatedByKeyId ? `key:${version.updatedByKeyId}` : 'someone',
      at: version.updatedAt,
      fields: before ? fieldChanges(before, version).map((change) => change.field) : [],
      why: null,
    }
  );
}

/** The versions made since the base, oldest first, each with how it came to be. */
export function originsSince(base: Version, later: readonly Version[]): Array<VersionOrigin & { revision: number }> {
  return later.map((version, index) => ({ ...originOf(version, index === 0 ? base : later[index - 1]), revision: version.revision }));
}

/** One line per version made since: "went live on schedule (scheduler, 2026-...)". */
export function sinceNote(baseRevision: number, origins: ReadonlyArray<VersionOrigin & { revision: number }>): string {
  const events = origins.map((origin) => {
    const what = origin.why ?? (origin.fields.length > 0 ? `changed ${origin.fields.join(', ')}` : 'saved again');
    return `${what} (${origin.by}, ${origin.at})`;
  });
  return `Since revision ${baseRevision}: ${events.join('; ')}.`;
}

/**
 * The fields the author changed: those whose new value differs from the base's, the status counted as
 * the status asked for (`statusTouched`, decided on the payload before cleaning).
 */
export function authorChanges(base: PostRecord, next: PostRecord, sent: { statusTouched: boolean; slug: boolean }): string[] {
  const fields = fieldChanges(base, next)
    .map((change) => change.field)
    // The author's version was made from the current one: its slug is the current one unless one was sent.
    // The source goes with the content (mergedVersion); its front matter's fields are compared as themselves.
    .filter((field) => field !== 'source' && !STATUS_FIELDS.has(field) && (field !== 'slug' || sent.slug));
  return sent.statusTouched ? [...fields, 'status'] : fields;
}

/**
 * Of the fields the author changed, those someone else changed since as well, to another value than
 * the author's (two people making the same correction do not conflict).
 */
export function overlappingChanges(base: Version, current: PostRecord, next: PostRecord, yours: readonly string[]): string[] {
  const theirs = new Set(fieldChanges(base, current).map((change) => conflictField(change.field)));
  const differing = new Set(fieldChanges(current, next).map((change) => change.field));
  return yours.filter((field) => theirs.has(field) && (field === 'status' ? askedStatus(current) !== askedStatus(next) : differing.has(field)));
}

/** The status and time a payload gives to ask for what `post` stands for now. */
export function statusPayload(post: Pick<PostRecord, 'status' | 'publishAt' | 'review'>): { status: 'draft' | 'published' | 'scheduled'; publish_at: string | null } {
  if (post.status === 'in_review') {
    const asked = post.review?.requestedStatus ?? 'published';
    return { status: asked, publish_at: asked === 'scheduled' ? (post.review?.requestedPublishAt ?? null) : null };
  }
  return { status: post.status, publish_at: post.status === 'scheduled' ? post.publishAt : null };
}

/** The version that keeps what changed since the base and adds the author's fields, read from their version `next`. */
export function mergedVersion(current: PostRecord, next: PostRecord, fields: readonly string[]): PostRecord {
  const merged: PostRecord = { ...current, updatedAt: next.updatedAt, updatedByKeyId: next.updatedByKeyId, warnings: next.warnings };
  for (const field of fields) {
    switch (field) {
      case 'category':
        merged.categorySlug = next.categorySlug;
        break;
      case 'author.name':
      case 'author.bio':
      case 'author.credentials':
        merged.author = authorWith(merged.author, next.author, field.slice('author.'.length) as 'name' | 'bio' | 'credentials');
        break;
      case 'cover_image':
        merged.coverImage = next.coverImage;
        break;
      case 'compliance':
        merged.complianceAccept = next.complianceAccept;
        break;
      case 'status':
        merged.status = next.status;
        merged.publishAt = next.publishAt;
        merged.publishedAt = next.publishedAt;
        break;
      case 'content':
      case 'source':
        // The HTML is rendered from the source: the two go together.
        merged.content = next.content;
        merged.source = next.source ?? null;
        break;
      case 'title':
      case 'slug':
      case 'excerpt':
      case 'tags':
      case 'isNewsArticle':
      case 'trust':
        Object.assign(merged, { [field]: next[field] });
        break;
    }
  }
  return merged;
}

/** `author` with one of its members as `from` has it (removed when `from` has none). */
function authorWith(author: PostRecord['author'], from: PostRecord['author'], member: 'name' | 'bio' | 'credentials'): PostRecord['author'] {
  const { [member]: _dropped, ...rest } = author;
  const value = from[member];
  return (value === undefined ? rest : { ...rest, [member]: value }) as PostRecord['author'];
}

/**
 * The 412 for a change made from revision `base` when a field it changes was changed since by someone
 * else: each such field with who changed it last, and when.
 */
export function conflictingChange(current: PostRecord, base: Version, later: readonly Version[], fields: readonly string[]): ApiError {
  const origins = originsSince(base, later);
  const conflicts: RevisionConflict[] = fields.map((field) => {
    const last = [...origins].reverse().find((origin) => origin.fields.some((changed) => conflictField(changed) === field)) ?? origins[origins.length - 1];
    return { field, by: last?.by ?? 'someone', at: last?.at ?? current.updatedAt, revision: last?.revision ?? current.revision };
  });
  const details: PreconditionFailedDetails = {
    current_etag: postEtag(current.id, current.revision),
    current_revision: current.revision,
    your_revision: base.revision,
    changes: fieldChanges(base, current),
    conflicts,
  };
  const named = conflicts.map((conflict) => `${conflict.field} (changed by ${conflict.by} at ${conflict.at}, revision ${conflict.revision})`).join(', ');
  const message = `The post changed since revision ${base.revision}, the version your If-Match names, in ${conflicts.length === 1 ? 'a field' : 'fields'} this request changes too: ${named}. It is at revision ${current.revision} now.`;
  return new ApiError('precondition_failed', { message, headers: { ETag: details.current_etag }, extra: { ...details }, facts: conflictFacts(current.id, details) });
}
