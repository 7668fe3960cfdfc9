/**
 * What the staff pages (web/routes/admin/) get from the server in the load context: who is signed in
 * (with the CSRF token every form of theirs carries), signing in and out, and the work on leads. The
 * server checks the session again on every call; the pages only render what it answers.
 */
import type { AnalyticsReport } from './analytics';
import type { PostReview } from './blog';
import type { BlogAuthor, BlogTrust } from './blog-reader';
import type { ComplianceAcceptance, ComplianceFinding, ComplianceMode } from './compliance';
import type { ApiKeySummary, ApiPermission } from './keys';
import type { DeliveryRecord, LeadRecord } from './leads';
import type { LeadStatus } from './quote-request';
import type { PostPreview, PreviewLinkMade, PreviewLinkOpen } from './post-preview';
import type { AuditEntry } from './staff';
import type { PostEditorArea } from './post-editor';

/** The signed-in staff member, as pages show them. */
export interface StaffViewer {
  id: string;
  email: string;
  name: string;
  /** Every state-changing form of the staff area posts it as `_csrf`. */
  csrfToken: string;
}

export type SignInOutcome =
  /** The session's cookie and the device's (sign-in-throttle.ts: a device a staff member signed in on is not slowed by failures elsewhere). */
  | { ok: true; setCookies: string[] }
  /** The message never says whether the e-mail exists. */
  | { ok: false; message: string; retryAfterSeconds: number | null };

export interface LeadListQuery {
  status?: LeadStatus;
  /** Matched against name, e-mail, phone and id, without regard to case. */
  q?: string;
  spam?: boolean;
  /** Only leads still waiting for a first contact attempt (real, not closed, no opt-out). */
  waiting?: boolean;
  /** Only leads received this week or last week (Monday to Sunday in the office's time zone). */
  week?: 'this' | 'last';
}

/** Time to first contact of one week's leads, in office minutes (nearest-rank percentiles). */
export interface FirstContactWeek {
  contacted: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
}

/** A staff member a lead can be given to. */
export interface LeadTaker {
  id: string;
  name: string;
  email: string;
  takesLeads: boolean;
}

export interface LeadDetail {
  lead: LeadRecord;
  notifications: DeliveryRecord[];
  /** Active staff the lead can be given to. */
  takers?: LeadTaker[];
  /** When its first contact is due (office hours), while it waits for one. */
  firstContactDueAt?: string | null;
  /** Where the visitor came from that day (decision 0032); null: no attribution (GPC/DNT, or no view that day). */
  attribution?: { landing: string | null; articles: string[]; utmSource: string | null } | null;
}

/** Recording a contact attempt, an assignment or an opt-out: the lead as stored, or why it was refused. */
export type LeadChangeOutcome = { ok: true; lead: LeadRecord } | { ok: false; status: 400 | 404; message: string };

export interface DashboardSummary {
  newLeads: number;
  latestLeads: LeadRecord[];
  recentPosts: Array<{ id: string; title: string; slug: string; status: string; updatedAt: string; author: string }>;
  keysUsedLastDay: Array<{ id: string; name: string; owner: string; lastUsedAt: string }>;
  /** Failed API requests (4xx/5xx) in the last day, from the request log. */
  failedRequestsLastDay: number;
  /** Posts waiting for a compliance review. */
  inReview: number;
  /** Speed to lead: the first-contact promise, time to first contact this week and last, and the leads still waiting. */
  speedToLead?: { firstContactMinutes: number; thisWeek: FirstContactWeek; lastWeek: FirstContactWeek; waiting: number; overdue: number };
  /** Compliance approvals running out within 30 days, the soonest first (decision 0028): the post leaves the site then. */
  expiringApprovals?: Array<{ id: string; title: string; slug: string; code: string; expiresAt: string }>;
}

/** An API key as the staff page lists it: never its secret. */
export interface StaffKey extends ApiKeySummary {
  /** The client of its latest request in the request log (python, postman, curl...), if any. */
  lastClient: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  /** A site API key, one issued through IndieAuth, or a Ghost Admin API key (decision 0033). */
  kind?: 'api' | 'indieauth' | 'ghost';
}

export type KeyCreateOutcome = { ok: true; key: ApiKeySummary; secret: string } | { ok: false; message: string };
export type KeyRevokeOutcome = { ok: true; key: StaffKey; alreadyRevoked: boolean } | { ok: false; message: string };

/** A post as the staff page lists it. */
export interface StaffPost {
  id: string;
  title: string;
  slug: string;
  status: string;
  /** Set while the post is in the trash. */
  deletedAt: string | null;
  author: string;
  owner: string | null;
  /** The key that created it (null for site content). */
  createdByKeyId: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  revision: number;
}

export interface StaffPostQuery {
  /** A status, `trashed`, or all posts not in the trash (default). */
  status?: 'published' | 'draft' | 'scheduled' | 'in_review' | 'trashed';
  q?: string;
}

/** The posts list's filters, page and size (/admin/posts, a GET form). */
export interface StaffPostListQuery extends StaffPostQuery {
  /** An author's name, exactly as the list offers it. */
  author?: string;
  /** A category slug. */
  category?: string;
  /** Only posts whose text the compliance rules find something in now ('yes'), or nothing ('no'). */
  findings?: 'yes' | 'no';
  /** From 1; past the last page, the last page. */
  page?: number;
  perPage?: number;
}

/** The compliance findings in a post as it reads now, by severity (accepted ones included). */
export interface FindingTally {
  high: number;
  medium: number;
  info: number;
}

export interface StaffPostRow extends StaffPost {
  categorySlug: string;
  findings: FindingTally;
}

/** One page of the posts list, with what its filter form offers and the counts by status. */
export interface StaffPostPage {
  posts: StaffPostRow[];
  /** Posts matching the filters (all pages). */
  total: number;
  page: number;
  pages: number;
  perPage: number;
  /** Every author of a post, for the author filter. */
  authors: string[];
  counts: { published: number; drafts: number; scheduled: number; inReview: number; trashed: number };
}

/** What one post's part of a bulk change did. */
export interface BulkOutcome {
  id: string;
  title: string;
  ok: boolean;
  message: string;
}

/** The longest reason a staff member may give (revoking a key, approving despite high findings). */
export const STAFF_REASON_MAX = 500;

/**
 * The largest form /admin/review/:id takes (other staff forms: 64 KB): a reviewer's edit carries the
 * post's HTML URL-encoded, and the API takes posts of up to 250,000 characters.
 */
export const REVIEW_EDIT_FORM_BYTES = 1_048_576;

/** A post waiting for a compliance review, as the review queue lists it. */
export interface ReviewItem {
  post: StaffPost;
  review: PostReview;
  /** Every finding of the rules on the post as it reads now, accepted ones marked. */
  findings: ComplianceFinding[];
  /** The author's acceptances, with their reasons. */
  acceptances: ComplianceAcceptance[];
}

/** One post under review, whole, for the review page. */
export interface ReviewDetail extends ReviewItem {
  excerpt: string;
  /** Sanitised HTML. */
  content: string;
  author: BlogAuthor;
  trust: BlogTrust | null;
  isNewsArticle: boolean;
}

/** What a change to a post did, in a sentence, or why it was refused (the API's own message). */
export type PostChangeOutcome = { ok: true; message: string } | { ok: false; message: string };

/** One record of a post's advertising archive, as its timeline shows it (decision 0028). */
export interface ArchiveTimelineEntry {
  seq: number;
  event: string;
  title: string;
  path: string;
  liveFrom: string;
  liveTo: string | null;
  madeBy: string | null;
  approver: string | null;
  approvalCode: string | null;
  findings: Array<{ rule: string; severity: string }>;
  contentHash: string;
  hash: string;
}

export interface StaffArea {
  /** Null when nobody is signed in (or the session ended). */
  viewer: StaffViewer | null;
  /** The value of the login form's anti-forgery token, and the cookie that carries its twin. */
  loginToken(): { token: string; setCookie: string | null };
  signIn(input: { email: string; password: string; loginToken: string }): Promise<SignInOutcome>;
  /** Ends this session (or every session of the viewer); the cookie that clears it. */
  signOut(everywhere: boolean): Promise<string>;
  dashboard(): Promise<DashboardSummary>;
  leads: {
    list(query: LeadListQuery): Promise<LeadRecord[]>;
    get(id: string): Promise<LeadDetail | null>;
    setStatus(id: string, status: LeadStatus): Promise<LeadRecord | null>;
    addNote(id: string, text: string): Promise<LeadRecord | null>;
    /** A contact attempt (call, e-mail, text) with its outcome; stops the lead's escalation. */
    recordAttempt(id: string, attempt: { channel: string; outcome: string; note: string }): Promise<LeadChangeOutcome>;
    /** Gives the lead to a staff member (their notice is e-mailed). */
    assign(id: string, staffId: string): Promise<LeadChangeOutcome>;
    /** The visitor asked by phone (or another way) not to be contacted: automatic messages stop at once. */
    recordOptOut(id: string): Promise<LeadChangeOutcome>;
    /** Deletes a person's data on request; the audit keeps that it happened, not what. */
    delete(id: string): Promise<boolean>;
    /** The leads of the inbox's filter as CSV, made as it is read (any number of leads in bounded memory); the export is audited when it ends. */
    csv(query: LeadListQuery): Promise<ReadableStream<Uint8Array>>;
  };
  posts: {
    list(query: StaffPostQuery): Promise<StaffPost[]>;
    /** One page of the posts list, filtered, newest first. */
    page(query: StaffPostListQuery): Promise<StaffPostPage>;
    /** These posts (in the trash too), in the order asked; unknown ids are left out. */
    byIds(ids: readonly string[]): Promise<StaffPost[]>;
    /** Each takes the revision the page showed: a post changed since is refused, as the API's If-Match does. */
    unpublish(id: string, revision: number): Promise<PostChangeOutcome>;
    trash(id: string, revision: number): Promise<PostChangeOutcome>;
    restore(id: string): Promise<PostChangeOutcome>;
  };
  /** The compliance review queue (COMPLIANCE_MODE review or block): every decision goes to the audit log. */
  reviews: {
    /** The server's COMPLIANCE_MODE (the queue only fills in review or block). */
    mode: ComplianceMode;
    /** Posts waiting for review, the longest waiting first. */
    list(): Promise<ReviewItem[]>;
    get(id: string): Promise<ReviewDetail | null>;
    /**
     * Each takes the revision the page showed: a post changed since is refused. Approving while high
     * findings the author did not accept remain needs a written reason (refused without one), which the
     * audit and the post's history keep. The approval's code (typed, else generated like ADV-2026-0042)
     * and expiry (a date, else APPROVAL_VALID_MONTHS ahead) are recorded on the post and in the archive.
     */
    approve(id: string, revision: number, reason?: string, approval?: { code?: string; expires?: string }): Promise<PostChangeOutcome>;
    /** Back to its author as a draft; the note (required) is what the author reads. */
    sendBack(id: string, revision: number, note: string): Promise<PostChangeOutcome>;
    /** Corrects the wording; the post keeps waiting for review. */
    edit(id: string, revision: number, edit: { title: string; excerpt: string; content: string }): Promise<PostChangeOutcome>;
  };
  /** Previews of posts not yet public (contract/post-preview.ts). */
  previews: {
    /** Any post by id, for signed-in staff; null when there is none. */
    get(id: string): Promise<PostPreview | null>;
    /** A signed link anyone can open for 7 days (audited); null when there is no such post. */
    makeLink(id: string): Promise<PreviewLinkMade | null>;
    /** What a preview link shows; needs no session. */
    open(token: string): Promise<PreviewLinkOpen>;
  };
  /** The newest entries of the audit log, newest first. */
  audit(limit: number): Promise<AuditEntry[]>;
  /** The Markdown editor of a post (contract/post-editor.ts): preview and save through the post service. */
  editor: PostEditorArea;
  /** The advertising archive (decision 0028). */
  archive: {
    /** A post's records, oldest first (the post may be purged: its records stay); null when there are none. */
    timeline(postId: string): Promise<{ title: string; entries: ArchiveTimelineEntry[] } | null>;
    /** The export ZIP (index.csv, index.html, each version's snapshot) of one post or subject, or of everything live between two times. */
    exportZip(query: { post?: string; from?: string; to?: string }): Promise<Uint8Array>;
  };
  keys: {
    list(): Promise<StaffKey[]>;
    /** One key, for the revoke confirmation; null when there is none with this id. */
    get(id: string): Promise<StaffKey | null>;
    /** The secret is in the answer once, and nowhere else. */
    create(input: { name: string; owner: string; permissions: ApiPermission[]; /** A Ghost Admin API key (id:secret) for apps that publish to Ghost. */ ghost?: boolean }): Promise<KeyCreateOutcome>;
    /** The reason is required (trimmed, at most STAFF_REASON_MAX characters) and goes to the audit log. */
    revoke(id: string, reason: string): Promise<KeyRevokeOutcome>;
  };
  /** Cookie-free analytics of the last 30 days (decision 0032): views, quote requests, articles, sources. */
  analytics(): Promise<AnalyticsReport>;
  /** The same figures as CSV (a `section` column: day, article, referrer, source). */
  analyticsCsv(): Promise<string>;
}
