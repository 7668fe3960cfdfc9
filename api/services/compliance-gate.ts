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
import type { PostRecord, ReviewRecord } from '../store/records';

export type GateOutcome =
  | { kind: 'pass' }
  /** Held for review: the rules whose high findings held it. */
  | { kind: 'hold'; rules: string[] }
  | { kind: 'block'; findings: ComplianceFinding[] };

/** The findings of a stored (or about to be stored) post. */
export function findingsOf(post: Pick<PostRecord, 'title' | 'excerpt' | 'content' | 'isNewsArticle' | 'author' | 'trust'> & { complianceAccept?: PostRecord['complianceAccept'] }): ComplianceFinding[] {
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
