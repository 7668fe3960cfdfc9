/**
 * Every write to a post, in one place: create (and validate, its dry run), update (PATCH as a JSON merge
 * patch, PUT as a full replace), unpublish, trash and restore, revert to a kept revision, a reviewer's
 * approve, send back and edit, and the scheduler's publishing and purging. The API's routes
 * (api/http/routes/blog.ts) and the staff area (api/staff/staff-area.ts) read the input, check the
 * permission and present the answer; everything between runs here, each step written once:
 *
 *   clean   the body cleaned like a create (posts.ts), its images resolved; 400 for what is left wrong
 *   gate    COMPLIANCE_MODE over the new version (compliance-gate.ts): stored as asked, held as
 *           in_review, or a 422
 *   store   a create claims its slug and Idempotency-Key; a change is saved only if nobody changed the
 *           post meanwhile (412 otherwise), after the checks of post-preconditions.ts
 *   audit   every change, by a key (the API, the CLI), staff or the scheduler, logged in the change's
 *           own transaction (actors.ts: by whom); and the gate's decisions
 *
 * One service for creates and changes alike (it merges the former PostService, which only cleaned and
 * created, and PostChanges): with two, a create's gate and audit entry were written in the route and a
 * change's in PostChanges, and the staff area built its own PostChanges without the compliance mode,
 * so staff edits skipped COMPLIANCE_MODE. Cleaning (posts.ts) and comparing versions (post-versions.ts)
 * are pure and stay beside it; it is built once, with the other services (services.ts).
 */
import { checkCreatePostBody, type CreatePostData, type PostSource, type PostStatus, TRASH_RETENTION_DAYS } from '../../contract/blog';
import type { ComplianceFinding, ComplianceMode } from '../../contract/compliance';
import { ApiError, validationError } from '../../contract/errors';
import { type FieldChange, type IfMatch, type PostWriteResponse } from '../../contract/post-lifecycle';
import type { AuditAction, AuditEntry } from '../../contract/staff';
import { STAFF_REASON_MAX as APPROVAL_REASON_MAX } from '../../contract/staff-area';
import type { ReviewRecord } from '../store/records';
import type { AuditLog, PostIndexEntry, PostRecord, PostRepository } from '../store/store';
import { type ApprovalInput, approvalOf, type ApprovalSettings, DEFAULT_APPROVAL_SETTINGS, EXPIRING_WITHIN_DAYS, generatedCode } from './approvals';
import { archiveEntryFor, closingEntry } from './archive';
import { type Actor, actorLabel, auditEntry, type Editor, editorOf } from './actors';
import { applyGate, findingsOf, type GateRequest, heldMessage, htmlFindingsOf, pendingReview } from './compliance-gate';
import { askedInPayload, askedStatus, authorChanges, conflictingChange, mergedVersion, originsSince, overlappingChanges, sinceNote, STATUS_FIELDS, statusPayload } from './post-merge';
import { checkIfMatch, editablePost, matchedVersion, staleVersion } from './post-preconditions';
import { changedPayload, fieldChanges, messageFor, payloadOf, versionFrom, writeAnswer } from './post-versions';
import type { CleanedPost, PostCleaner } from './posts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an Idempotency-Key answers with the post its first request created. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** A body the contract's schema checked: the payload, and the top-level fields it did not know (each a warning). */
export interface PostInput {
  data: CreatePostData;
  ignoredFields: readonly string[];
}

export interface CreatePostOptions {
  /** The Idempotency-Key's scope and the body's fingerprint: a retry answers with the first post. */
  idempotency?: { scope: string; fingerprint: string };
  /** The post's own date (the demo posts); now otherwise. */
  at?: Date;
}

export interface CreatedPost {
  post: PostIndexEntry;
  /** True when an Idempotency-Key retry returned the post the first request created. */
  replayed: boolean;
  findings: ComplianceFinding[];
}

/** A create checked, cleaned and gated, not stored: what POST /api/blog/validate answers. */
export interface ValidatedPost {
  cleaned: CleanedPost;
  /** The slug a create would get now (another create may take it first). */
  slug: string;
  findings: ComplianceFinding[];
}

/** The fields a reviewer may correct on a post waiting for review. */
export interface ReviewEdit {
  title: string;
  excerpt: string;
  content: string;
  /** The Markdown source the wording is written as (the staff editor); `content` is then rendered from it. */
  source?: PostSource;
}

export interface PostServiceOptions {
  /** Cleans bodies (posts.ts): the text, the images it names, duplicate titles. */
  cleaner: PostCleaner;
  /** COMPLIANCE_MODE: what a post asking to be public with a high finding meets. */
  mode: ComplianceMode;
  audit: AuditLog;
  now: () => Date;
  /** Told after every stored change (the scheduler looks again). */
  onChange?: () => void;
  /** APPROVAL_VALID_MONTHS and APPROVAL_EXPIRED (approvals.ts). */
  approvals?: ApprovalSettings;
  /** The next number of a generated approval code (the store's counter). */
  nextApprovalNumber?: () => Promise<number>;
}

/** A post whose approval runs out soon, for the dashboard. */
export interface ExpiringApproval {
  id: string;
  title: string;
  slug: string;
  code: string;
  expiresAt: string;
}

/** What the gate decides on: a new post, or a change to a stored one (its 422 says which was not stored). */
type GateSubject = 'post' | 'change';

/** A version as the gate sees it: its findings, the status it asks for, and when (a scheduled post). */
type GateVersion = Pick<GateRequest, 'findings' | 'requested' | 'publishAt'>;

/** Where the actor's request came from (the site's own writes: nowhere). */
function addressOf(actor: Actor): string | null {
  return actor.kind === 'site' ? null : actor.ip;
}

/** The address on a gate entry: the request's, but for a key's change, whose entries have always carried none. */
function gateAddress(actor: Actor, subject: GateSubject): string | null {
  return subject === 'change' && actor.kind === 'key' ? null : addressOf(actor);
}

/**
 * The Markdown source a new version keeps (decision 0022): that of the version it describes (the one
 * the request sent it with, or the stored one when it sent none) while the new version differs from
 * that one in its status and schedule only. Otherwise (a change made as HTML or JSON, or one merged
 * with fields someone else changed since) the file no longer says what the post says, and the HTML is
 * the post's text: `get --markdown` converts it.
 */
function describedSource(described: PostRecord, version: PostRecord): PostRecord['source'] {
  if (!described.source) return null;
  const differs = fieldChanges(described, { ...version, source: described.source }).some((change) => !STATUS_FIELDS.has(change.field));
  return differs ? null : described.source;
}

/** The status a version asks for: a post held for review stands for what its author asked. */
function requestedStatus(post: Pick<PostRecord, 'status' | 'review'>): PostStatus {
  const { status } = post;
  return status === 'in_review' ? (post.review?.requestedStatus ?? 'published') : status;
}

export class PostService {
  readonly #store: PostRepository;
  readonly #cleaner: PostCleaner;
  readonly #mode: ComplianceMode;
  readonly #audit: AuditLog;
  readonly #now: () => Date;
  readonly #onChange: () => void;
  readonly #approvals: ApprovalSettings;
  readonly #nextApprovalNumber: () => Promise<number>;

  constructor(store: PostRepository, options: PostServiceOptions) {
    this.#approvals = options.approvals ?? DEFAULT_APPROVAL_SETTINGS;
    this.#nextApprovalNumber = options.nextApprovalNumber ?? (() => Promise.resolve(Math.floor(Date.now() / 1000) % 10_000));
    this.#store = store;
    this.#cleaner = options.cleaner;
    this.#mode = options.mode;
    this.#audit = options.audit;
    this.#now = options.now;
    this.#onChange = options.onChange ?? (() => undefined);
  }

  // --- audit -------------------------------------------------------------------------------------

  /** Writes an audit entry for `actor` (the site's own writes have none), from `ip`. */
  async #record(actor: Actor, action: AuditAction, target: string | null, detail: AuditEntry['detail'], ip: string | null = addressOf(actor)): Promise<void> {
    if (actor.kind === 'site') return;
    await this.#audit.append(auditEntry(actor, this.#now(), action, target, detail, ip));
  }

  /**
   * The audit entry of a change to a post, by whichever door it came (a key, so the API and the CLI,
   * or staff), stored by the store in the change's own transaction (both are kept, or neither); none
   * for the site's own writes.
   */
  #entryFor(actor: Actor, action: AuditAction, target: string, detail: AuditEntry['detail']): AuditEntry | undefined {
    return actor.kind === 'site' ? undefined : auditEntry(actor, this.#now(), action, target, detail, addressOf(actor));
  }

  /** Records a decision of the gate on a new post (`subject` post) or a change. */
  #recordGate(actor: Actor, action: 'post.held_for_review' | 'post.compliance_blocked', target: string | null, rules: readonly string[], subject: GateSubject): Promise<void> {
    return this.#record(actor, action, target, { rules: rules.join(', '), mode: this.#mode }, gateAddress(actor, subject));
  }

  // --- the compliance gate -----------------------------------------------------------------------

  /**
   * The gate's decision on a version: the review it is held with, or null to store it as asked; or a
   * 422, recorded first against `target` unless there is none to record (a validation). The site's own
   * content meets the gate as under warn: it is loaded before anyone could review it.
   */
  #gate(actor: Actor | null, version: GateVersion, subject: GateSubject, target?: string | null): Promise<ReviewRecord | null> {
    return applyGate({
      ...version,
      mode: actor?.kind === 'site' ? 'warn' : this.#mode,
      admin: actor ? editorOf(actor).admin : false,
      now: this.#now(),
      subject,
      ...(actor && target !== undefined ? { onBlocked: (rules: string[]) => this.#recordGate(actor, 'post.compliance_blocked', target, rules, subject) } : {}),
    });
  }

  /**
   * The gate on a new version of a stored post: unchanged, held as in_review (recorded), or a 422. A
   * draft keeps a reviewer's note until it is sent for review again.
   */
  async #gated(post: PostRecord, next: PostRecord, actor: Actor): Promise<{ next: PostRecord; findings: ComplianceFinding[] }> {
    const findings = findingsOf(next);
    const review = await this.#gate(actor, { findings, requested: requestedStatus(next), publishAt: next.publishAt }, 'change', post.id);
    if (review) {
      await this.#recordGate(actor, 'post.held_for_review', post.id, review.rules, 'change');
      return { next: { ...next, status: 'in_review', publishAt: null, publishedAt: post.publishedAt, review }, findings };
    }
    const keepNote = next.status === 'draft' && post.review?.state === 'returned';
    return { next: { ...next, review: keepNote ? post.review : null }, findings };
  }

  // --- creating ----------------------------------------------------------------------------------

  /** A checked body cleaned, with a warning for each post of the same title; a 400 listing what cleaning left wrong. */
  async #cleaned(input: PostInput, actor: Actor | null): Promise<CleanedPost> {
    // A key's posts are its owner's; an import's are the owner it names (decision 0029).
    const by = actor?.kind === 'key' || actor?.kind === 'import' ? editorOf(actor) : null;
    const outcome = await this.#cleaner.clean(input.data, input.ignoredFields, by, this.#now());
    if (!outcome.ok) throw validationError(outcome.problems);
    const duplicates = await this.#cleaner.duplicateWarnings(outcome.cleaned.post.title);
    if (duplicates.length === 0) return outcome.cleaned;
    const warnings = [...outcome.cleaned.warnings, ...duplicates];
    return { ...outcome.cleaned, warnings, post: { ...outcome.cleaned.post, warnings } };
  }

  /** A new post cleaned and gated: as it would be stored (held as in_review when the mode says so). */
  async #checkedNew(input: PostInput, actor: Actor | null, recordBlocked: boolean): Promise<{ cleaned: CleanedPost; findings: ComplianceFinding[]; held: boolean }> {
    const cleaned = await this.#cleaned(input, actor);
    const findings = findingsOf(cleaned.post);
    const requested = cleaned.post.status === 'in_review' ? 'published' : cleaned.post.status;
    const review = await this.#gate(actor, { findings, requested, publishAt: cleaned.post.publishAt }, 'post', recordBlocked ? null : undefined);
    if (!review) return { cleaned, findings, held: false };
    return { cleaned: { ...cleaned, post: { ...cleaned.post, status: 'in_review', publishAt: null, review } }, findings, held: true };
  }

  /** POST /api/blog/validate: everything a create checks, nothing stored or recorded; `actor` null without a key. */
  async validate(input: PostInput, actor: Actor | null): Promise<ValidatedPost> {
    const { cleaned, findings } = await this.#checkedNew(input, actor, false);
    if (cleaned.exactSlug && (await this.#store.lookupSlug(cleaned.slugBase))) {
      throw new ApiError('slug_taken', { message: `Another post already uses the slug "${cleaned.slugBase}".` });
    }
    return { cleaned, slug: await this.#store.previewSlug(cleaned.slugBase), findings };
  }

  /** Creates a post; resolves once it is durable. A 422 when the Idempotency-Key was used with another body. */
  async create(input: PostInput, actor: Actor, options: CreatePostOptions = {}): Promise<CreatedPost> {
    const { cleaned, findings, held } = await this.#checkedNew(input, actor, true);
    // The store gives the entry its target, the new post's id.
    const created = this.#entryFor(actor, 'post.created', '', { status: cleaned.post.status });
    const origin = { by: actorLabel(actor), at: (options.at ?? this.#now()).toISOString(), fields: [], why: held ? 'created, and held for compliance review' : 'created' };
    const outcome = await this.#store.create({ ...cleaned.post, origin }, {
      slugBase: cleaned.slugBase,
      ...(cleaned.exactSlug ? { exactSlug: true } : {}),
      ...(options.idempotency ? { idempotency: { ...options.idempotency, ttlMs: IDEMPOTENCY_TTL_MS } } : {}),
      ...(options.at ? { at: options.at } : {}),
      ...(created ? { audit: { at: created.at, actor: created.actor, action: created.action, detail: created.detail, ip: created.ip } } : {}),
      archive: (stored) => archiveEntryFor(null, stored, (options.at ?? this.#now()).toISOString()),
    });
    if (outcome.kind === 'conflict') throw new ApiError('idempotency_key_mismatch');
    if (outcome.kind === 'slug_taken') throw new ApiError('slug_taken', { message: `Another post already uses the slug "${cleaned.slugBase}".` });
    const replayed = outcome.kind === 'replayed';
    if (held && !replayed) await this.#recordGate(actor, 'post.held_for_review', outcome.post.id, outcome.post.review?.rules ?? [], 'post');
    this.#onChange();
    return { post: outcome.post, replayed, findings };
  }

  // --- changing ----------------------------------------------------------------------------------

  /**
   * Saves `next` over `current` as a new revision that says who made it, what it changed and `why`
   * (the version replaced is kept); a 412 when someone else saved in between, a 409 for a taken slug.
   */
  async #save(current: PostRecord, next: PostRecord, changed: FieldChange[], actor: Actor, why: string | null, audit?: AuditEntry): Promise<PostIndexEntry> {
    const fields = changed.map((change) => change.field);
    const origin = { by: actorLabel(actor), at: next.updatedAt, fields, why };
    const outcome = await this.#store.save({ ...next, origin }, { expectedRevision: current.revision, changed: fields, ...(audit ? { audit } : {}), archive: (before, saved) => archiveEntryFor(before, saved, this.#now().toISOString()) });
    switch (outcome.kind) {
      case 'saved':
        this.#onChange();
        return outcome.post;
      case 'stale':
        throw staleVersion(outcome.current, current.revision, await this.#store.revisions(current.id));
      case 'slug_taken':
        throw new ApiError('slug_taken', { message: `Another post uses (or used) the slug "${next.slug}".` });
      case 'missing':
        throw new ApiError('post_not_found', { message: `No post has the id "${current.id}".` });
    }
  }

  /** The new version of `post` from a checked payload, cleaned like a create (its images resolved); 400 for what is wrong. */
  async #nextVersion(post: PostRecord, data: CreatePostData, ignoredFields: readonly string[], editor: Editor, now: Date): Promise<{ next: PostRecord; warnings: string[] }> {
    const outcome = await this.#cleaner.clean(data, ignoredFields, editor, now);
    if (!outcome.ok) throw validationError(outcome.problems);
    return { next: versionFrom(post, outcome.cleaned, data.slug, editor, now), warnings: outcome.cleaned.warnings };
  }

  /**
   * PATCH (`mode` 'merge') or PUT ('replace') from a parsed JSON body. A change that changes nothing
   * saves nothing and keeps the revision.
   */
  async update(id: string, body: unknown, mode: 'merge' | 'replace', ifMatch: IfMatch | undefined, actor: Actor): Promise<PostWriteResponse> {
    return this.#update(id, body, mode, ifMatch, actor, 'post.updated', null);
  }

  /**
   * The version a PATCH-style `body` would make of the post now, cleaned (rendered and sanitised) as an
   * update is, with its findings: the staff editor's preview. Nothing is gated, stored or recorded; a
   * 400 (ApiError) for what the body leaves wrong, as an update would answer.
   */
  async previewChange(id: string, body: Record<string, unknown>, actor: Actor): Promise<{ post: PostRecord; findings: ComplianceFinding[]; warnings: string[] }> {
    const editor = editorOf(actor);
    const post = await editablePost(this.#store, id, editor);
    const payload = changedPayload(post, body, 'merge');
    const version = await this.#nextVersion(post, payload.data, payload.ignoredFields, editor, this.#now());
    return { post: version.next, findings: findingsOf(version.next), warnings: version.warnings };
  }

  /**
   * An update, recorded in the audit log as `action` (and on its revision with `why`) when it changed
   * something. Its If-Match may name an older revision than the current one (an author's file, while
   * someone else scheduled, trashed and restored, reviewed or edited the post): the fields it changes
   * from that revision are then applied on top of the current version, and the answer says what
   * happened since; a 412 names the fields someone else changed too.
   */
  async #update(id: string, body: unknown, mode: 'merge' | 'replace', ifMatch: IfMatch | undefined, actor: Actor, action: AuditAction, why: string | null): Promise<PostWriteResponse> {
    const editor = editorOf(actor);
    const post = await editablePost(this.#store, id, editor);
    const { base, later } = await matchedVersion(this.#store, post, ifMatch);
    const payload = changedPayload(base, body, mode);
    const merging = later.length > 0;
    const statusTouched = askedInPayload(payload.data) !== askedStatus(base);
    // A file made before a status change elsewhere still names the old status (and perhaps a time now
    // past): it asks for the status the post has now, which the cleaning then checks as it is.
    const data = merging && !statusTouched ? { ...payload.data, ...statusPayload(post) } : payload.data;
    const version = await this.#nextVersion(post, data, payload.ignoredFields, editor, this.#now());
    const warnings = version.warnings;
    let proposed = version.next;
    let since: PostWriteResponse['since'];
    if (merging) {
      const yours = authorChanges(base, version.next, { statusTouched, slug: data.slug !== undefined && data.slug !== null });
      const overlap = overlappingChanges(base, post, version.next, yours);
      if (overlap.length > 0) throw conflictingChange(post, base, later, overlap);
      proposed = mergedVersion(post, version.next, [...yours, 'status']);
      since = { revision: base.revision, note: sinceNote(base.revision, originsSince(base, later)) };
    }
    // `source: null` drops it (a merge patch's null removes the member, so it is read on the body).
    const dropped = typeof body === 'object' && body !== null && (body as Record<string, unknown>).source === null;
    proposed = { ...proposed, source: dropped ? null : describedSource(data.source ? version.next : post, proposed) };
    const { next, findings } = await this.#gated(post, proposed, actor);
    if (next.title !== post.title) warnings.push(...(await this.#cleaner.duplicateWarnings(next.title, post.id)));
    const changed = fieldChanges(post, next);
    const answer =
      changed.length === 0
        ? writeAnswer(post, 'Nothing changed: the post already reads like this.', [], warnings, findings)
        : await this.#savedUpdate(post, next, changed, actor, why, this.#entryFor(actor, action, id, { fields: changed.map((change) => change.field).join(', '), revision: post.revision + 1 }), warnings, findings);
    return since ? { ...answer, message: `${answer.message} ${since.note}`, since } : answer;
  }

  /** An update's change stored, and the answer saying what became of the post. */
  async #savedUpdate(post: PostRecord, next: PostRecord, changed: FieldChange[], actor: Actor, why: string | null, audit: AuditEntry | undefined, warnings: string[], findings: ComplianceFinding[]): Promise<PostWriteResponse> {
    const held = next.status === 'in_review' && post.status !== 'in_review' ? `held for compliance review (${next.review?.rules.join(', ') ?? ''})` : null;
    const saved = await this.#save(post, next, changed, actor, why ?? held, audit);
    return writeAnswer(saved, messageFor(post, saved), changed, warnings, findings);
  }

  /** Takes a post off the site: a draft again (the staff area's Unpublish; the API's is a PATCH of the status). */
  async unpublish(id: string, ifMatch: IfMatch | undefined, actor: Actor): Promise<PostWriteResponse> {
    return this.#update(id, { status: 'draft' }, 'merge', ifMatch, actor, 'post.unpublished', 'unpublished');
  }

  /** Moves a post to the trash (again: no change); restorable for TRASH_RETENTION_DAYS days. */
  async trash(id: string, ifMatch: IfMatch | undefined, actor: Actor): Promise<PostWriteResponse> {
    const editor = editorOf(actor);
    const post = await editablePost(this.#store, id, editor, { inTrash: 'allowed' });
    let answer: PostWriteResponse;
    if (post.deletedAt) answer = writeAnswer(post, 'The post was already in the trash.', [], []);
    else {
      await checkIfMatch(this.#store, post, ifMatch, false);
      const now = this.#now().toISOString();
      const saved = await this.#save(post, { ...post, deletedAt: now, updatedAt: now, updatedByKeyId: editor.keyId }, [], actor, 'moved to the trash', this.#entryFor(actor, 'post.trashed', id, { revision: post.revision + 1 }));
      answer = writeAnswer(saved, `Moved to the trash: the post's page answers 410 Gone. Restore it within ${TRASH_RETENTION_DAYS} days with POST /api/blog/${post.id}/restore.`, [], []);
    }
    return answer;
  }

  async restore(id: string, actor: Actor): Promise<PostWriteResponse> {
    const editor = editorOf(actor);
    const post = await editablePost(this.#store, id, editor, { inTrash: 'required' });
    const now = this.#now().toISOString();
    const saved = await this.#save(post, { ...post, deletedAt: null, updatedAt: now, updatedByKeyId: editor.keyId }, [], actor, 'restored from the trash', this.#entryFor(actor, 'post.restored', id, { revision: post.revision + 1 }));
    return writeAnswer(saved, `Restored from the trash, as a ${saved.status} post.`, [], []);
  }

  /** A new version with the title, body and details of kept revision `revision`; status, slug and dates stay. */
  async revert(id: string, revision: number, ifMatch: IfMatch | undefined, actor: Actor): Promise<PostWriteResponse> {
    const editor = editorOf(actor);
    const post = await editablePost(this.#store, id, editor);
    await checkIfMatch(this.#store, post, ifMatch, false);
    const kept = (await this.#store.revisions(id)).find((stored) => stored.record.revision === revision);
    if (!kept) throw new ApiError('revision_not_found', { message: `Post ${id} has no kept revision ${revision} (it is at revision ${post.revision}; GET /api/blog/${id}/revisions lists the kept ones).` });
    const { record } = kept;
    // The revision's pictures as the uploads are now (a 400 when one was deleted since).
    const media = await this.#cleaner.resolveMedia(record.content, record.coverImage ? { reference: record.coverImage.mediaId, alt: record.coverImage.alt } : null);
    if (!media.ok) throw validationError(media.problems, [`Revision ${revision} shows an image that is no longer uploaded: upload it again with POST /api/media, then change the post with PATCH.`]);
    const now = this.#now().toISOString();
    const next: PostRecord = {
      ...post,
      title: record.title,
      excerpt: record.excerpt,
      content: media.resolved.content,
      source: record.source ?? null,
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
    const { next: gatedNext, findings } = await this.#gated(post, next, actor);
    const changed = fieldChanges(post, gatedNext);
    if (changed.length === 0) return writeAnswer(post, `Nothing changed: the post already reads like revision ${revision}.`, [], media.resolved.warnings, findings);
    const saved = await this.#save(post, gatedNext, changed, actor, `reverted to revision ${revision}`, this.#entryFor(actor, 'post.reverted', id, { from: revision, revision: post.revision + 1 }));
    const held = saved.status === 'in_review' && post.status !== 'in_review' ? ` ${heldMessage(saved.review?.rules ?? [])}` : '';
    return writeAnswer(saved, `Reverted to revision ${revision} (as the new revision ${saved.revision}).${held}`, changed, media.resolved.warnings, findings);
  }

  // --- review ------------------------------------------------------------------------------------

  /** A post waiting for review, at the revision the reviewer's page showed (412 otherwise, 400 when it no longer waits). */
  async #underReview(id: string, revision: number): Promise<PostRecord> {
    const post = await editablePost(this.#store, id, { keyId: null, owner: null, admin: true });
    if (post.status !== 'in_review') {
      throw new ApiError('bad_request', { message: `The post "${post.title}" is not waiting for review (it is ${post.status === 'draft' && post.review?.state === 'returned' ? 'back with its author' : post.status}).` });
    }
    await checkIfMatch(this.#store, post, { kind: 'etags', etags: [{ idPrefix: post.id.split('-')[0] ?? post.id, revision }] }, true);
    return post;
  }

  /**
   * A reviewer approves a held post: it goes live (or is scheduled) as its author asked. The reviewer's
   * reason (the staff area asks for one while high findings remain) is kept in the audit and the post's history.
   */
  async approve(id: string, revision: number, actor: Actor, reason?: string, approvalInput: ApprovalInput = {}): Promise<PostWriteResponse> {
    const post = await this.#underReview(id, revision);
    // High findings the author did not accept are published only with the reviewer's written reason,
    // whichever door the decision comes through (the staff area, the API, blogpost review approve).
    const high = htmlFindingsOf(post).filter((finding) => finding.severity === 'high' && !finding.accepted).length;
    const given = reason?.trim() ?? '';
    if (high > 0 && !given) {
      throw validationError([
        {
          field: 'reason',
          problem: 'missing',
          message: `this post still has ${high} high finding${high === 1 ? '' : 's'} its author did not accept: to approve it anyway, say why (at most ${APPROVAL_REASON_MAX} characters); the reason is kept in the audit log and the post's history`,
        },
      ]);
    }
    if (given.length > APPROVAL_REASON_MAX) throw validationError([{ field: 'reason', problem: 'invalid', message: `the reason can be at most ${APPROVAL_REASON_MAX} characters: shorten it` }]);
    reason = high > 0 ? given : undefined;
    const now = this.#now();
    const approval = await approvalOf(approvalInput, now, this.#approvals, async () => generatedCode(now.getUTCFullYear(), await this.#nextApprovalNumber()));
    const review = post.review;
    const at = review?.requestedPublishAt ?? null;
    const scheduled = review?.requestedStatus === 'scheduled' && at !== null && Date.parse(at) > now.getTime();
    const next: PostRecord = {
      ...post,
      status: scheduled ? 'scheduled' : 'published',
      publishAt: scheduled ? at : null,
      publishedAt: scheduled ? null : (post.publishedAt ?? now.toISOString()),
      review: null,
      approval: { code: approval.code, by: actorLabel(actor), at: now.toISOString(), expiresAt: approval.expiresAt },
      updatedAt: now.toISOString(),
    };
    const why = reason ? `approved in compliance review despite high findings: ${reason}` : 'approved in compliance review';
    const saved = await this.#save(post, next, fieldChanges(post, next), actor, why, this.#entryFor(actor, 'review.approved', id, { rules: (review?.rules ?? []).join(', '), code: approval.code, expires: approval.expiresAt, ...(reason ? { reason } : {}) }));
    const until = `approval ${approval.code}, valid until ${approval.expiresAt.slice(0, 10)}`;
    const message = scheduled ? `Approved (${until}): the post goes live at ${at ?? 'its time'}.` : `Approved (${until}): the post is on the site.`;
    return writeAnswer(saved, message, fieldChanges(post, next), []);
  }

  /** A reviewer sends a held post back to its author as a draft, with a note the author reads through the API. */
  async sendBack(id: string, revision: number, note: string, actor: Actor): Promise<PostWriteResponse> {
    const post = await this.#underReview(id, revision);
    const now = this.#now().toISOString();
    const review = post.review ?? pendingReview('published', null, [], this.#now());
    const next: PostRecord = { ...post, status: 'draft', publishAt: null, review: { ...review, state: 'returned', note, decidedAt: now, decidedBy: actorLabel(actor) }, updatedAt: now };
    const saved = await this.#save(post, next, fieldChanges(post, next), actor, `sent back in compliance review: ${note}`, this.#entryFor(actor, 'review.returned', id, { rules: review.rules.join(', '), note: note.slice(0, 500) }));
    return writeAnswer(saved, 'Sent back to the author as a draft, with the note.', fieldChanges(post, next), []);
  }

  /**
   * A reviewer corrects the wording of a held post: a new revision, still waiting for review. The new
   * wording meets the gate like any change: under block, a claim the agency does not publish is a 422.
   */
  async reviewEdit(id: string, revision: number, edit: ReviewEdit, actor: Actor): Promise<PostWriteResponse> {
    const post = await this.#underReview(id, revision);
    const input = { ...payloadOf(post), title: edit.title, excerpt: edit.excerpt, content: edit.content, ...(edit.source ? { source: edit.source } : {}) };
    const check = checkCreatePostBody(input);
    if (!check.ok) throw check.reason === 'json_string' ? new ApiError('body_is_json_string') : validationError(check.problems);
    const version = await this.#nextVersion(post, check.data, [], { keyId: null, owner: post.owner, admin: true }, this.#now());
    const { findings } = await this.#gated(post, version.next, actor);
    const next: PostRecord = { ...version.next, status: 'in_review', publishAt: null, publishedAt: post.publishedAt, review: post.review, owner: post.owner, updatedByKeyId: null };
    const changed = fieldChanges(post, next);
    let answer: PostWriteResponse;
    if (changed.length === 0) answer = writeAnswer(post, 'Nothing changed: the post already reads like this.', [], version.warnings, findings);
    else answer = writeAnswer(await this.#save(post, next, changed, actor, 'corrected in compliance review', this.#entryFor(actor, 'review.edited', id, { fields: changed.map((change) => change.field).join(', ') })), 'Saved: the post still waits for review.', changed, version.warnings, findings);
    return answer;
  }

  // --- the scheduler's work ----------------------------------------------------------------------

  /** Publishes every scheduled post whose time has come, at its scheduled time; the posts published. */
  async publishDue(): Promise<PostIndexEntry[]> {
    const now = this.#now();
    const published: PostIndexEntry[] = [];
    for (const due of await this.#store.dueScheduled(now)) {
      const post = await this.#store.getById(due.id);
      if (!post || post.status !== 'scheduled' || post.deletedAt) continue;
      const at = post.publishAt ?? now.toISOString();
      // Dated at its time, not at this run's (a server that was down publishes it later).
      const live: PostRecord = { ...post, status: 'published', publishedAt: at, publishAt: null, updatedAt: at > post.updatedAt ? at : post.updatedAt };
      const fields = fieldChanges(post, live).map((change) => change.field);
      const outcome = await this.#store.save(
        { ...live, origin: { by: 'scheduler', at, fields, why: 'went live on schedule' } },
        {
          expectedRevision: post.revision,
          changed: fields,
          audit: { at: now.toISOString(), actor: 'scheduler', action: 'post.went_live', target: post.id, detail: { publishAt: at, revision: post.revision + 1 }, ip: null },
          archive: (before, saved) => archiveEntryFor(before, saved, at),
        },
      );
      // 'stale': an author changed it at this moment; the next run looks again.
      if (outcome.kind === 'saved') published.push(outcome.post);
    }
    return published;
  }

  /** Published and scheduled posts (not in the trash) approved in review, with their approval. */
  async #approved(): Promise<Array<PostIndexEntry & { approval: NonNullable<PostIndexEntry['approval']> }>> {
    return (await this.#store.approved()).filter((entry): entry is PostIndexEntry & { approval: NonNullable<PostIndexEntry['approval']> } => !!entry.approval);
  }

  /** Approvals running out within `days` (not yet run out), the soonest first: the dashboard's list. */
  async expiringApprovals(days = EXPIRING_WITHIN_DAYS): Promise<ExpiringApproval[]> {
    const now = this.#now().getTime();
    const until = new Date(now + days * DAY_MS).toISOString();
    return (await this.#approved())
      .filter((entry) => entry.approval.expiresAt <= until && Date.parse(entry.approval.expiresAt) > now)
      .sort((a, b) => a.approval.expiresAt.localeCompare(b.approval.expiresAt))
      .map((entry) => ({ id: entry.id, title: entry.title, slug: entry.slug, code: entry.approval.code, expiresAt: entry.approval.expiresAt }));
  }

  /**
   * Posts whose approval ran out: back to the review queue (APPROVAL_EXPIRED=review, the default) or a
   * draft (unpublish); either way off the site, the archive's version closed in the same transaction.
   */
  async expireApprovals(): Promise<PostIndexEntry[]> {
    const now = this.#now();
    const moved: PostIndexEntry[] = [];
    for (const entry of await this.#approved()) {
      if (Date.parse(entry.approval.expiresAt) > now.getTime()) continue;
      const post = await this.#store.getById(entry.id);
      if (!post?.approval || post.deletedAt) continue;
      const at = now.toISOString();
      const toReview = this.#approvals.onExpiry === 'review';
      const next: PostRecord = {
        ...post,
        status: toReview ? 'in_review' : 'draft',
        publishAt: null,
        review: toReview ? { ...pendingReview('published', null, findingsOf(post).filter((finding) => finding.severity === 'high').map((finding) => finding.rule), now), note: `The approval ${post.approval.code} ran out on ${post.approval.expiresAt.slice(0, 10)}: review the post again.` } : post.review,
        approval: null,
        updatedAt: at,
      };
      const fields = fieldChanges(post, next).map((change) => change.field);
      const why = `approval ${post.approval.code} ran out on ${post.approval.expiresAt}`;
      const outcome = await this.#store.save(
        { ...next, origin: { by: 'scheduler', at, fields, why } },
        {
          expectedRevision: post.revision,
          changed: fields,
          audit: { at, actor: 'scheduler', action: 'review.approval_expired', target: post.id, detail: { code: post.approval.code, expiredAt: post.approval.expiresAt, now: toReview ? 'in_review' : 'draft' }, ip: null },
          archive: (before, saved) => archiveEntryFor(before, saved, at),
        },
      );
      // 'stale': someone changed it at this moment; the next run looks again.
      if (outcome.kind === 'saved') {
        moved.push(outcome.post);
        this.#onChange();
      }
    }
    return moved;
  }

  /** Purges posts in the trash for longer than TRASH_RETENTION_DAYS; how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.#now().getTime() - TRASH_RETENTION_DAYS * DAY_MS);
    let purged = 0;
    // A version still open in the advertising archive (none, normally: the trash closed it) is closed by the purge.
    for (const post of await this.#store.trashedBefore(cutoff)) if (await this.#store.purge(post.id, { archive: closingEntry(post, 'deleted', this.#now().toISOString(), 'scheduler') })) purged++;
    return purged;
  }
}
