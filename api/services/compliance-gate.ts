/**
 * The compliance gate between a checked post and the store (COMPLIANCE_MODE, docs/compliance.md): the
 * rules of contract/compliance.ts find what a reviewer would flag, and the mode decides what happens to
 * a post that asks to go public with a `high` finding.
 *
 *   warn    findings are returned; nothing else changes (the default)
 *   review  from a key without blog:admin, the post is held as `in_review` until a staff member
 *           approves it (/admin/review); accepted findings are held too, with their reasons shown
 *   block   an unaccepted high finding is a 422 naming the findings; accepted ones are held as in review
 *
 * A draft is never held or refused: it is not public, and its author sees the findings.
 */
import type { PostStatus } from '../../contract/blog';
import { blockingFindings, checkCompliance, type ComplianceFinding, type ComplianceMode } from '../../contract/compliance';
import { ApiError } from '../../contract/errors';
import { sourceFindings } from '../authoring/markdown-source';
import type { PostRecord, ReviewRecord } from '../store/records';

export type GateOutcome =
  | { kind: 'pass' }
  /** Held for review: the rules whose high findings held it. */
  | { kind: 'hold'; rules: string[] }
  | { kind: 'block'; findings: ComplianceFinding[] };

/**
 * The findings of a stored (or about to be stored) post. A post written in Markdown is checked in its
 * source, by the code `blogpost lint` runs on the file (decision 0022): the same findings, each with its
 * line and column in the file as sent.
 */
export function findingsOf(post: Pick<PostRecord, 'title' | 'excerpt' | 'content' | 'isNewsArticle' | 'author' | 'trust' | 'source'> & { complianceAccept?: PostRecord['complianceAccept'] }): ComplianceFinding[] {
  const fromSource = post.source ? sourceFindings(post.source.text) : null;
  return fromSource ?? htmlFindingsOf(post);
}

/**
 * The findings of a post in its stored HTML, whatever it was written as: offsets into the HTML, for the
 * review page, which marks them in the HTML it shows.
 */
export function htmlFindingsOf(post: Pick<PostRecord, 'title' | 'excerpt' | 'content' | 'isNewsArticle' | 'author' | 'trust'> & { complianceAccept?: PostRecord['complianceAccept'] }): ComplianceFinding[] {
  return checkCompliance({
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    format: 'html',
    isNewsArticle: post.isNewsArticle,
    author: post.author,
    trust: post.trust,
    accept: post.complianceAccept ?? [],
  });
}

/** What the mode does with a post asking for `requested` with these findings, from a key that is (or is not) an admin. */
export function gate(mode: ComplianceMode, findings: readonly ComplianceFinding[], requested: PostStatus, admin: boolean): GateOutcome {
  if (mode === 'warn' || requested === 'draft') return { kind: 'pass' };
  const unaccepted = blockingFindings(findings);
  if (mode === 'block' && unaccepted.length > 0) return { kind: 'block', findings: unaccepted };
  const high = findings.filter((finding) => finding.severity === 'high');
  if (high.length === 0 || admin) return { kind: 'pass' };
  return { kind: 'hold', rules: [...new Set(high.map((finding) => finding.rule))] };
}

/** The review a held post carries: what its author asked for, and since when it waits. */
export function pendingReview(requested: 'published' | 'scheduled', publishAt: string | null, rules: string[], now: Date): ReviewRecord {
  return { state: 'pending', requestedStatus: requested, requestedPublishAt: publishAt, submittedAt: now.toISOString(), rules, note: null, decidedAt: null, decidedBy: null };
}

/** A line for the answer's message when a post is held. */
export function heldMessage(rules: readonly string[]): string {
  return `Held for compliance review (${rules.join(', ')}): a staff member approves it before it goes public; until then it is on no public page, list or feed. GET /api/blog/:id shows the review's state and any note.`;
}

/** What `applyGate` needs to decide on one post or change. */
export interface GateRequest {
  mode: ComplianceMode;
  findings: ComplianceFinding[];
  /** The status the author asked for (`in_review` already resolved to what it stands for). */
  requested: PostStatus;
  /** When a scheduled post was asked to go live. */
  publishAt: string | null;
  /** The key holds blog:admin (or a staff member acts): never held. */
  admin: boolean;
  now: Date;
  /** A new post, or a change to a stored one: the 422's message says which was not stored. */
  subject: 'post' | 'change';
  /** Records a refusal (the audit log) before the 422 is thrown; absent where nothing is recorded (validation). */
  onBlocked?: (rules: string[]) => Promise<void>;
}

/**
 * The gate applied: a 422 compliance_blocked naming the findings (recorded first), or the review a held
 * post carries, or null when the post is stored as asked.
 */
export async function applyGate(request: GateRequest): Promise<ReviewRecord | null> {
  const outcome = gate(request.mode, request.findings, request.requested, request.admin);
  if (outcome.kind === 'block') {
    const rules = [...new Set(outcome.findings.map((finding) => finding.rule))];
    await request.onBlocked?.(rules);
    const claims = outcome.findings.length === 1 ? 'a claim' : `${outcome.findings.length} claims`;
    const unchanged = request.subject === 'change' ? ' The post was not changed.' : '';
    throw new ApiError('compliance_blocked', {
      message: `The ${request.subject} makes ${claims} the agency does not publish (${rules.join(', ')}): see findings for each, with a suggested rewrite.${unchanged}`,
      extra: { findings: request.findings },
    });
  }
  if (outcome.kind === 'pass' || (request.requested !== 'published' && request.requested !== 'scheduled')) return null;
  return pendingReview(request.requested, request.requested === 'scheduled' ? request.publishAt : null, outcome.rules, request.now);
}
