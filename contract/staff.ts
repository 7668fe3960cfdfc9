/**
 * The agency's staff accounts, their sign-in sessions and the audit log of who did what. Passwords and
 * session ids are never stored or logged: only their hashes. Shared by the server, the CLI and the
 * staff pages.
 */

export interface StaffRecord {
  /** `stf_` and 16 letters or digits. */
  id: string;
  /** Lower-cased; unique. */
  email: string;
  name: string;
  /** `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>` (api/staff/passwords.ts). */
  passwordHash: string;
  createdAt: string;
  passwordChangedAt: string;
  /** Set when the account was disabled: it cannot sign in, and its sessions end. */
  disabledAt: string | null;
  /** Whether new leads are given to them in turn (absent: yes, for every active account; `blogpost staff takes-leads`). */
  takesLeads?: boolean;
}

/** A signed-in staff member's session, stored under the SHA-256 of its id (the id is only in the cookie). */
export interface SessionRecord {
  /** Hex SHA-256 of the session id. */
  idHash: string;
  staffId: string;
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end, however active the session is. */
  expiresAt: string;
  ip: string;
  userAgent: string;
}

export const AUDIT_ACTIONS = [
  'staff.signed_in',
  'staff.sign_in_failed',
  'staff.signed_out',
  'staff.signed_out_everywhere',
  'staff.added',
  'staff.disabled',
  'staff.password_reset',
  'key.created',
  'key.revoked',
  'post.created',
  'post.updated',
  'post.reverted',
  'post.went_live',
  'post.unpublished',
  'post.trashed',
  'post.restored',
  'post.held_for_review',
  'post.compliance_blocked',
  'post.preview_link_made',
  'review.approved',
  'review.returned',
  'review.edited',
  'lead.status_changed',
  'lead.noted',
  'lead.deleted',
  'leads.exported',
  'staff.takes_leads_changed',
  'lead.assigned',
  'lead.contact_attempted',
  'lead.opted_out',
  'lead.escalated',
  'review.approval_expired',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One line of the audit log: who did what to what, and when. Never a password, secret or session id. */
export interface AuditEntry {
  at: string;
  /** `staff:<email>`, `cli:<user>`, `key:<public id>` (an API request, or the compliance gate acting on one), `scheduler` (a scheduled post going live), or `visitor` (a failed sign-in: its target is the account tried, or null with a keyed hash of an e-mail that names none in `detail.emailHash`). */
  actor: string;
  action: AuditAction;
  /** What it was done to: a key id, post id, lead id or staff e-mail. */
  target: string | null;
  /** A few facts (a reason, the old and new status); never personal data of a lead beyond its id. */
  detail: Record<string, string | number | boolean | null>;
  ip: string | null;
}
