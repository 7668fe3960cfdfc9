/**
 * The life of a post after its create: reading one by id or slug with its ETag, updating it (PATCH
 * as a JSON merge patch, PUT as a full replace, both with If-Match), unpublishing, the trash,
 * revisions and their revert. The answers' shapes, the ETag format and the merge rules, shared by
 * the server, the CLI and the documentation (the OpenAPI document is generated from these schemas).
 */
import type { BlogPost, BlogPostSummary } from './blog-reader';
import type { ComplianceFinding } from './compliance';

/** One field that differs between two versions of a post. */
export interface FieldChange {
  /** A top-level field name, or a path inside `author` / `trust` (`author.bio`). */
  field: string;
  before: unknown;
  after: unknown;
}

/** The answer to a PATCH, a PUT, a revert, an unpublish, a delete or a restore. */
export interface PostWriteResponse {
  success: true;
  message: string;
  post: BlogPostSummary;
  /** The post's new ETag (also in the ETag header): send it as If-Match with the next change. */
  etag: string;
  /** The fields this request changed (empty when the request changed nothing). */
  changed: FieldChange[];
  /** What the server changed on the way in, as for a create. */
  warnings: string[];
  /** What the compliance rules found in the new version (empty for a delete or a restore). */
  findings: ComplianceFinding[];
  /**
   * When the If-Match named an older revision and the change was applied on top of the current version
   * (nobody else had changed the fields it changes): that revision, and what happened since, e.g.
   * "Since revision 2: went live on schedule (scheduler, 2026-06-01T13:00:00.000Z)."
   */
  since?: { revision: number; note: string };
}

export interface GetPostByIdResponse {
  success: true;
  post: BlogPost;
  etag: string;
}

/** How a version of a post came to be: who made it, when, what it changed, and why. */
export interface VersionStory {
  /** `key:<id>`, `staff:<email>` or `scheduler`; null for a version stored before this was recorded. */
  made_by: string | null;
  made_at: string;
  /** The fields this version changed from the one before it (none for a move to or from the trash). */
  fields: string[];
  /** Why, where there is a reason: the reviewer's note, "went live on schedule", "moved to the trash". */
  why: string | null;
}

/** One kept earlier version, as GET /api/blog/:id/revisions lists it. */
export interface RevisionSummary extends VersionStory {
  /** The post's revision number that this version had. */
  revision: number;
  /** When this version was replaced. */
  replaced_at: string;
  /** The public id of the key that made this version, when a key did. */
  saved_by: string | null;
  title: string;
  status: string;
  /** The fields the next version changed. */
  changed: string[];
}

/** The version a post has now, as GET /api/blog/:id/revisions names it above the kept ones. */
export interface CurrentVersion extends VersionStory {
  revision: number;
  title: string;
  status: string;
}

export interface RevisionsResponse {
  success: true;
  post: { id: string; slug: string; revision: number };
  /** The version the post has now, and how it came to be. */
  current: CurrentVersion;
  /** Newest first; at most REVISIONS_KEPT. */
  revisions: RevisionSummary[];
}

/** The answer of GET /api/blog/:id/revisions/:n: one kept version, whole. */
export interface RevisionResponse {
  success: true;
  revision: number;
  replaced_at: string;
  post: BlogPost;
}

/** The 301 of GET /api/blog/:slug for a slug the post had before. */
export interface PostMovedResponse {
  success: true;
  message: string;
  /** The post's address now (also in the Location header). */
  location: string;
}

/** The extra fields of a 412: what the post is now, and how it differs from the version the client had. */
export interface PreconditionFailedDetails {
  current_etag: string;
  current_revision: number;
  /** The revision the client's If-Match named. */
  your_revision: number | null;
  /** Field by field, what changed between the client's revision and now (null when that revision is no longer kept). */
  changes: FieldChange[] | null;
  /** The fields the request changes that someone else changed since the client's revision: who, when, in which revision. */
  conflicts?: RevisionConflict[];
}

/** A field changed both by a request made from an older revision and by someone else since. */
export interface RevisionConflict {
  field: string;
  /** `key:<id>`, `staff:<email>` or `scheduler`: who changed it last. */
  by: string;
  at: string;
  /** The revision their change made. */
  revision: number;
}

/** A post's ETag: its id's first block and its revision, quoted (a strong validator). */
export function postEtag(id: string, revision: number): string {
  return `"${id.split('-')[0] ?? id}-r${revision}"`;
}

export type IfMatch =
  | { kind: 'any' }
  | { kind: 'etags'; etags: { idPrefix: string; revision: number }[] }
  | { kind: 'invalid'; value: string };

/** Reads an If-Match header (`*`, or one or more quoted ETags; a W/ prefix is tolerated). */
export function parseIfMatch(header: string): IfMatch {
  const value = header.trim();
  if (value === '*') return { kind: 'any' };
  const etags: { idPrefix: string; revision: number }[] = [];
  for (const part of value.split(',')) {
    const match = /^\s*(?:W\/)?"?([0-9a-zA-Z]+)-r(\d{1,9})"?\s*$/.exec(part);
    if (!match?.[1] || !match[2]) return { kind: 'invalid', value };
    etags.push({ idPrefix: match[1], revision: Number(match[2]) });
  }
  return etags.length > 0 ? { kind: 'etags', etags } : { kind: 'invalid', value };
}

/**
 * RFC 7396 JSON Merge Patch: objects in the patch merge into the target member by member, `null`
 * removes a member, anything else (arrays included: `tags` is replaced as a whole) replaces it.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out = new Map(typeof target === 'object' && target !== null && !Array.isArray(target) ? Object.entries(target as Record<string, unknown>) : []);
  for (const [name, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) out.delete(name);
    else out.set(name, mergePatch(out.get(name), value));
  }
  return Object.fromEntries(out);
}

/** The merge rules as the documentation and error guidance state them. */
export const PATCH_RULES = [
  'PATCH takes a JSON merge patch (RFC 7396): fields you leave out stay as they are.',
  'author and trust merge field by field; tags, trust.sources and every other list are replaced as a whole.',
  'null removes an optional field (author.bio: null); a required field cannot be removed.',
  'The result is checked and cleaned exactly like a create, and its warnings are returned.',
] as const;
