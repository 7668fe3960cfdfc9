/**
 * The store seam: everything the API, the CLI and the site need of persistence, as interfaces. One
 * implementation (api/store/sql/) serves two engines, SQLite in DATA_DIR (the default) and PostgreSQL
 * (DATABASE_URL, for several app servers), and passes the contract suite (tests/support/store-contract.ts)
 * on both. Records come back as stored; presenters (api/services/presenters.ts) turn them into what
 * goes out.
 */
import type { ListStatus } from '../../contract/blog-reader';
import type { VitalMetric, VitalRating } from '../../contract/vitals';
import type { DeliveryRecord, LeadRecord } from '../../contract/leads';
import type { AuditEntry, SessionRecord, StaffRecord } from '../../contract/staff';
import type { LeadStatus } from '../../contract/quote-request';
import type { KeyRecord, MediaRecord, NewPost, PostIndexEntry, PostRecord, StoredRevision } from './records';
import type { ArchiveAppend, ArchiveBase, ArchiveQuery, ArchiveRecord } from './archive';

export type { KeyRecord, MediaRecord, NewPost, PostIndexEntry, PostRecord, StoredRevision, VersionOrigin } from './records';
export type { ArchiveAppend, ArchiveBase, ArchiveQuery, ArchiveRecord } from './archive';

export interface PostQuery {
  /** A status, `trashed` (posts in the trash, any status), or `any` (every post not in the trash). */
  status: ListStatus | 'any';
  /** 1-based; default 1. */
  page?: number;
  /** Default 10; the store takes any positive number (the API caps it, the sitemap does not). */
  limit?: number;
  /** A category slug; unknown values match nothing. */
  categorySlug?: string;
  /** Matched without regard to case. */
  tag?: string;
  /** An author's name, matched without regard to case. */
  author?: string;
  /** Only the posts of this owner. */
  owner?: string;
}

export interface PostPage {
  /** Newest first (highest `seq` first). */
  entries: PostIndexEntry[];
  total: number;
  page: number;
  limit: number;
}

/** An Idempotency-Key claim on a create: remembered for `ttlMs` under `scope`. */
export interface IdempotencyClaim {
  /** Hash of the API key id and the Idempotency-Key header. */
  scope: string;
  /** Hash of the request body. */
  fingerprint: string;
  ttlMs: number;
}

export type CreateOutcome =
  | { kind: 'created'; post: PostIndexEntry }
  /** An unexpired claim with the same scope and fingerprint: the post the first request created. */
  | { kind: 'replayed'; post: PostIndexEntry }
  /** An unexpired claim with the same scope and another fingerprint. */
  | { kind: 'conflict' }
  /** `exactSlug` was asked for and another post has (or had) that slug. */
  | { kind: 'slug_taken' };

export interface CreateOptions {
  /** The slug wanted; the store gives `base`, else the first free of `base-2`, `base-3` ... (never a RESERVED_SLUGS one). */
  slugBase: string;
  /** The author chose the slug: exactly `slugBase`, or the outcome 'slug_taken'. */
  exactSlug?: boolean;
  idempotency?: IdempotencyClaim;
  /** The creation time (demo content and imports keep their own dates); default now. */
  at?: Date;
  /** Logged in the same transaction as the post (its target the new post's id): both are stored, or neither. */
  audit?: Omit<AuditEntry, 'target'>;
  /** The advertising archive's record of the new post as stored (none: not public), appended in the same transaction (decision 0028). */
  archive?: (stored: PostRecord) => ArchiveAppend | undefined;
}

export interface PostCounts {
  published: number;
  drafts: number;
  scheduled: number;
  /** Held for a compliance review. */
  inReview: number;
  trashed: number;
}

/** What a slug leads to: the post that has it now, or the post that had it before (a 301). */
export type SlugLookup = { kind: 'current'; post: PostIndexEntry } | { kind: 'previous'; post: PostIndexEntry } | null;

export interface SaveOptions {
  /** The revision the change was made from: when the stored post has another, nothing is saved ('stale'). */
  expectedRevision: number;
  /** The fields the change touches (stored with the revision it replaces, which is always kept). */
  changed: readonly string[];
  /** Logged in the same transaction as the change: both are stored, or neither (nothing when it is not saved). */
  audit?: AuditEntry;
  /** The advertising archive's record of the change, from the version stored before and the one saved (none: the public saw no change), appended in the same transaction (decision 0028). */
  archive?: (before: PostRecord, saved: PostRecord) => ArchiveAppend | undefined;
}

export type SaveOutcome =
  | { kind: 'saved'; post: PostIndexEntry }
  | { kind: 'stale'; current: PostIndexEntry }
  | { kind: 'missing' }
  /** The new slug is used by another post (now or before). */
  | { kind: 'slug_taken' };

export interface PostRepository {
  /**
   * Stores a new post. Resolves only once the post is durable (on disk, or committed): a 201 may be
   * answered then. Two creates never get the same slug; two creates with the same idempotency scope
   * create one post. Rejects with a StoreError when it cannot be stored (nothing is then stored).
   */
  create(post: NewPost, options: CreateOptions): Promise<CreateOutcome>;
  /** The slug a create with this base would get now (another create may take it first). */
  previewSlug(slugBase: string): Promise<string>;
  /** One page of the posts with this status, newest first. */
  list(query: PostQuery): Promise<PostPage>;
  /** The post with this slug, body included, or null (posts in the trash included). */
  getBySlug(slug: string): Promise<PostRecord | null>;
  /** The post with this id, body included, or null (posts in the trash included). */
  getById(id: string): Promise<PostRecord | null>;
  /** The post a slug names now or named before. */
  lookupSlug(slug: string): Promise<SlugLookup>;
  /**
   * Replaces a stored post with `next` (same id) when its revision is still `expectedRevision`: the
   * store sets the revision to the next number, keeps the version replaced as a revision (every one,
   * so revision numbers have no gaps within the newest REVISIONS_KEPT) and, when the slug changes,
   * keeps the old one as a previous slug. Changes to one post are applied one at a time; resolves once durable.
   */
  save(next: PostRecord, options: SaveOptions): Promise<SaveOutcome>;
  /**
   * Removes a post and its revisions for good; false when there was no such post. Its records in the
   * advertising archive stay; with `archive`, a version of it still live there is closed in the same transaction.
   */
  purge(id: string, options?: { archive?: ArchiveAppend }): Promise<boolean>;
  /**
   * Stores a post exactly as another store kept it (`blogpost import`): its id, order, slugs now and
   * before, revision, Idempotency-Key claim and kept versions (newest first). A StoreError
   * ('conflict') when its id or one of its slugs is taken; resolves once durable.
   */
  restore(record: PostRecord, revisions: readonly StoredRevision[]): Promise<void>;
  /** The kept earlier versions of a post, newest first. */
  revisions(id: string): Promise<StoredRevision[]>;
  /** Scheduled posts (not in the trash) whose time is at or before `at`, earliest first. */
  dueScheduled(at: Date): Promise<PostIndexEntry[]>;
  /**
   * Published and scheduled posts (not in the trash) that carry a compliance approval, the soonest to
   * run out first: read from an index of the approvals, however many posts there are.
   */
  approved(): Promise<PostIndexEntry[]>;
  /** The earliest time of a scheduled post not in the trash, or null. */
  nextScheduledAt(): Promise<Date | null>;
  /** Posts in the trash since before `cutoff`. */
  trashedBefore(cutoff: Date): Promise<PostIndexEntry[]>;
  /**
   * Posts not in the trash whose title reads as this one (the same slug made from it: case, spacing
   * and punctuation ignored), excluding `exceptId`.
   */
  sameTitle(title: string, exceptId?: string): Promise<PostIndexEntry[]>;
  /** Published posts per category slug. */
  publishedPerCategory(): Promise<Map<string, number>>;
  counts(): Promise<PostCounts>;
  /** Grows on every change to the posts, so renders can be cached until it moves. */
  revision(): number;
  /**
   * What the changes after `revision` reached (api/store/post-scopes.ts), so cached pages made from
   * nothing that changed are kept; null when that is not known (changes this process did not see one by
   * one, or too far back): take it that everything changed.
   */
  changesSince(revision: number): readonly string[] | null;
}

/** What changes on a key after it is made: bookkeeping of its use and failures, and its revocation. */
export type KeyPatch = Partial<Pick<KeyRecord, 'lastUsedAt' | 'lastFailedAt' | 'lastFailureCode' | 'revokedAt' | 'revokedBy' | 'revokeReason'>>;

export interface KeyRepository {
  /** Every key record, revoked ones included. Sees changes another process (the CLI) made. */
  list(): Promise<KeyRecord[]>;
  /** The key with this public id. Sees changes another process (the CLI) made. */
  findById(id: string): Promise<KeyRecord | undefined>;
  /**
   * Adds a key unless an active (not revoked) key already has its name, compared case-insensitively,
   * checked and added atomically: of two creations of one name at once (the server and the CLI, or two
   * servers on one database), one is answered 'added' and the other 'name_taken', which stores nothing.
   * A StoreError ('conflict') when its id exists.
   */
  add(record: KeyRecord): Promise<'added' | 'name_taken'>;
  /**
   * Adds a key as an export holds it, whatever the names of the keys stored (`blogpost import`: an
   * export made before names were checked atomically may hold two active keys with one name, and
   * must still import whole). A StoreError ('conflict') when its id exists.
   */
  restore(record: KeyRecord): Promise<void>;
  /** Applies `patch`; the updated record, or undefined when there is no such key. */
  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined>;
  demoKeyIssuedAt(): Promise<string | null>;
  /**
   * Records `at` as the time the demo key was issued unless a time is recorded already, atomically: of
   * several instances starting at once on one store, exactly one is answered true and issues the key.
   */
  claimDemoKey(at: Date): Promise<boolean>;
  /** Sets the time the demo key was issued (an import), or clears it (a claim whose key could not be made). */
  markDemoKeyIssued(at: Date | null): Promise<void>;
}

export interface LeadQuery {
  /** Only leads with this status. */
  status?: LeadStatus;
  /** `false` (default): real requests only; `true`: only those kept aside as spam; `'any'`: both. */
  spam?: boolean | 'any';
}

/**
 * The one-time token of the form a lead was sent from (decision 0018): while a token's claim is
 * unexpired, it names one lead only. Times are milliseconds since the epoch, by the intake's clock.
 */
export interface LeadIntent {
  token: string;
  nowMs: number;
  /** Until when the token names this lead; sent again later, it claims a new one. */
  expiresAtMs: number;
}

/** What `create` came to: stored, or not stored because the token named a lead already (that lead). */
export type LeadCreateOutcome = { kind: 'created' } | { kind: 'replayed'; lead: LeadRecord };

/**
 * Quote requests (personal data: never listed to the public). Another process (the CLI) may change a
 * lead while the server runs, so every call reads what is stored, never a copy in memory.
 */
export interface LeadRepository {
  /**
   * Stores a new lead and queues its notifications; resolves once both are durable. The
   * notifications are written first, so a crash in between leaves a notification whose lead is
   * missing (dropped by the outbox), never a lead nobody is told about. With `intent`, the token is
   * claimed in the same transaction: when an unexpired claim of it names another lead (sent by any
   * server, even at the same moment), nothing is stored and that lead is the answer. A lead's
   * `reference` is unique.
   */
  create(lead: LeadRecord, deliveries: readonly DeliveryRecord[], intent?: LeadIntent): Promise<LeadCreateOutcome>;
  /** The lead an unexpired claim of `token` names, or null. */
  byIntent(token: string, nowMs: number): Promise<LeadRecord | null>;
  /** The lead with this reference, or null. */
  byReference(reference: string): Promise<LeadRecord | null>;
  /** Forgets the claims of tokens expired by `nowMs` (their leads stay); how many. */
  purgeExpiredIntents(nowMs: number): Promise<number>;
  get(id: string): Promise<LeadRecord | null>;
  /** Newest first. */
  list(query?: LeadQuery): Promise<LeadRecord[]>;
  /**
   * The leads `list` returns, in its order, read `size` rows at a time: an export of any length in
   * bounded memory. A lead added or removed while it runs may or may not be in it; none is read twice.
   */
  batches(query?: LeadQuery, size?: number): AsyncGenerator<LeadRecord[]>;
  /** Applies `change` to the stored lead (one change at a time); the stored result, or null when there is no such lead. */
  update(id: string, change: (lead: LeadRecord) => LeadRecord): Promise<LeadRecord | null>;
  /** Removes a lead and its notifications for good (a visitor asked to be forgotten); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** The round robin's next turn (1, 2, 3...), one statement: two servers never get the same number. */
  nextTurn(): Promise<number>;
  /** Records that the owner of an e-mail address asked not to be contacted (kept as the SHA-256 of the address lower-cased); the first record stays. */
  addOptOut(optOut: { address: string; leadId: string; at: string; channel: string }): Promise<void>;
  /** Whether the owner of this e-mail address (any case) asked not to be contacted. */
  isOptedOut(address: string): Promise<boolean>;
}

/** Notifications of leads waiting to be sent (and those sent, as a record). */
export interface OutboxRepository {
  /** Not yet sent, the earliest due first. */
  pending(): Promise<DeliveryRecord[]>;
  /** Every notification of one lead, sent or not. */
  forLead(leadId: string): Promise<DeliveryRecord[]>;
  /** Every notification of these leads, by lead id (in `forLead`'s order): a few queries for a whole export, not one a lead. */
  forLeads(leadIds: readonly string[]): Promise<Map<string, DeliveryRecord[]>>;
  /**
   * Takes a notification for one attempt by this server, until `until` (ISO 8601): the record as stored
   * now, or null when it was sent or removed meanwhile, or another server on the same store holds it
   * (its hold ends at its `save`, or at its `until`). A store one server uses never has to refuse.
   */
  claim(id: string, now: string, until: string): Promise<DeliveryRecord | null>;
  /** Stores the state of a notification after an attempt (durable before it resolves); ends this server's hold on it. */
  save(record: DeliveryRecord): Promise<void>;
  /** Removes a notification (its lead is gone). */
  remove(id: string): Promise<void>;
}

export type StaffPatch = Partial<Pick<StaffRecord, 'name' | 'passwordHash' | 'passwordChangedAt' | 'disabledAt' | 'takesLeads'>>;

/** Staff accounts (the CLI adds and disables them while the server runs: every call reads what is stored). */
export interface StaffRepository {
  list(): Promise<StaffRecord[]>;
  findById(id: string): Promise<StaffRecord | undefined>;
  /** `email` is matched without regard to case. */
  findByEmail(email: string): Promise<StaffRecord | undefined>;
  /** Adds an account; a StoreError ('conflict') when its id or e-mail exists. */
  add(record: StaffRecord): Promise<void>;
  update(id: string, patch: StaffPatch): Promise<StaffRecord | undefined>;
}

/** Sign-in sessions, by the hash of their id. */
export interface SessionRepository {
  create(record: SessionRecord): Promise<void>;
  get(idHash: string): Promise<SessionRecord | null>;
  /** Moves `lastSeenAt` (the idle expiry counts from it). */
  touch(idHash: string, at: string): Promise<void>;
  delete(idHash: string): Promise<boolean>;
  /** Ends every session of one staff member (sign out everywhere, a disabled account); how many. */
  deleteForStaff(staffId: string): Promise<number>;
  /** Removes sessions past their absolute end or idle since before `idleCutoff`; how many. */
  purgeExpired(now: string, idleCutoff: string): Promise<number>;
}

/** Uploaded images and their variants (contract/media.ts). */
export interface MediaRepository {
  /**
   * Stores the variants' files, then the record; resolves once all are durable. When a medium with
   * this id exists, no file is written: the existing record gains the new owners ('existing').
   */
  save(record: MediaRecord, files: ReadonlyMap<string, Uint8Array>): Promise<{ kind: 'created' | 'existing'; record: MediaRecord }>;
  get(id: string): Promise<MediaRecord | null>;
  /** Newest first; with `owner`, only the media that owner uploaded. */
  list(query?: { owner?: string }): Promise<MediaRecord[]>;
  /** Removes the record and every file of it; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** A variant's bytes by its file name (`<id>-<width>.<ext>`), or null. */
  read(file: string): Promise<Uint8Array | null>;
}

/** The audit log: appended to, never changed. */
export interface AuditLog {
  /** Durable before it resolves. */
  append(entry: AuditEntry): Promise<void>;
  /** Oldest first; `since` inclusive. */
  list(query?: { since?: string; limit?: number }): Promise<AuditEntry[]>;
  /**
   * The store's own random key (32 bytes, made on first use, the same for every server on the store)
   * for keyed hashes of what the audit must not keep in the clear: an e-mail typed at a failed sign-in
   * that names no staff account.
   */
  pseudonymKey(): Promise<Buffer>;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/**
 * One rate limit: a token bucket per caller holding `perMinute` tokens, refilling evenly over its
 * window. In memory (api/http/rate-limit.ts RateLimiter) or shared by every server on one database.
 */
export interface RateLimit {
  /** Tokens a full bucket holds; 0 turns the limit off. */
  readonly perMinute: number;
  /** Takes a token when there is one. */
  take(id: string): RateDecision | Promise<RateDecision>;
  /** Whether a token is there, without taking it. */
  check(id: string): RateDecision | Promise<RateDecision>;
  /** Gives back a token taken for a request that turned out not to count. */
  refund(id: string): void | Promise<void>;
}

/** Rate limits whose buckets every server on the store shares (several app servers on one database). */
export interface SharedRateLimits {
  /** The limit `name` (buckets of different names never mix): `perMinute` tokens refilled over `windowMs` (default a minute). */
  limit(name: string, perMinute: number, windowMs?: number): RateLimit;
}

/** What an IndieAuth authorization code was issued for (decision 0030); the code itself is never stored. */
export interface IndieAuthGrant {
  clientId: string;
  redirectUri: string;
  /** The scopes granted, space-separated. */
  scope: string;
  /** PKCE: the S256 challenge the token request's verifier must match. */
  codeChallenge: string;
  /** The staff member who granted it: the key's owner. */
  staffEmail: string;
  me: string;
}

/** IndieAuth's authorization codes, by their SHA-256: added once, taken (and so removed) at most once. */
export interface IndieAuthCodeRepository {
  add(codeSha256: string, grant: IndieAuthGrant, expiresAtMs: number): Promise<void>;
  /** The grant of an unexpired code, removed in the same statement (a second take finds nothing); expired codes are removed too. */
  take(codeSha256: string, nowMs: number): Promise<IndieAuthGrant | null>;
}

/**
 * The advertising archive (decision 0028): appended to, never changed but for a record's `liveTo`, set
 * once by the append that ends its version; never pruned with the posts. Records are chained by hash.
 */
export interface ArchiveRepository {
  /** Appends a record (a closing one only when its subject has a version live: null otherwise); durable before it resolves. */
  append(entry: ArchiveAppend): Promise<ArchiveRecord | null>;
  /** Appends a site page's version unless the newest record of its path holds the same HTML; null when unchanged. */
  appendIfChanged(entry: ArchiveAppend): Promise<ArchiveRecord | null>;
  /** The records asked for, in `seq` order. */
  list(query?: ArchiveQuery): Promise<ArchiveRecord[]>;
  /** Where the chain starts (null: at its first record, nothing ever removed). */
  base(): Promise<ArchiveBase | null>;
  /**
   * Removes the oldest records whose version stopped being live before `before` (a prefix of the chain,
   * so it stays verifiable from its new base); how many. A StoreError ('conflict') when `before` is later than
   * `now` less `retentionYears`: nothing is removed.
   */
  prune(before: Date, options: { now: Date; retentionYears: number }): Promise<number>;
  /** The next number for a generated approval code (1, 2, 3...), one statement: two servers never get the same one. */
  nextApprovalNumber(): Promise<number>;
  /** The number of the last approval code generated (0: none yet), for `blogpost export`. */
  approvalNumber(): Promise<number>;
  /**
   * `blogpost import`: the records as exported (numbers, times and hashes kept, so the chain verifies
   * as before), where the chain starts, and the approval codes' counter, into an archive with no record;
   * a StoreError ('conflict') when it has one.
   */
  restore(archive: { records: readonly ArchiveRecord[]; base: ArchiveBase | null; approvalNumber: number }): Promise<void>;
}

/** An item of an import (a WordPress export's post), by its guid (decision 0029). */
export interface ImportedItem {
  source: string;
  guid: string;
  state: 'pending' | 'done';
  slug: string;
  postId: string | null;
}

/** An imported item as stored, with when it was begun. */
export type ImportedItemRecord = ImportedItem & { at: string };

/** An old address and where it now answers: a post (by id, followed to its current slug) or a fixed path. */
export type ImportedUrl = { path: string; postId: string; target?: undefined } | { path: string; target: string; postId?: undefined };

/** What imports remember: the items imported (so a re-run skips them) and the old addresses. */
export interface ImportRepository {
  item(source: string, guid: string): Promise<ImportedItem | null>;
  /** Durable before the post is made: the slug it will have. */
  begin(source: string, guid: string, slug: string, at: string): Promise<void>;
  /** The item done (its post made), with its old addresses, in one transaction. */
  finish(source: string, guid: string, postId: string, urls: readonly ImportedUrl[]): Promise<void>;
  /** Old addresses not tied to an item (categories, tags); an address already known keeps its answer. */
  addUrls(urls: readonly ImportedUrl[]): Promise<void>;
  /** Where an old address (`/2024/05/slug`, `/?p=12`) now answers, or null. */
  redirect(path: string): Promise<ImportedUrl | null>;
  /** Every item and old address, for `blogpost export`. */
  everything(): Promise<{ items: ImportedItemRecord[]; urls: ImportedUrl[] }>;
  /** `blogpost import`: items and addresses as exported. */
  restore(everything: { items: readonly ImportedItemRecord[]; urls: readonly ImportedUrl[] }): Promise<void>;
}

/** One counted page view (decision 0032): never an address or a cookie; `visitor` null for GPC/DNT visitors. */
export interface PageView {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  at: string;
  /** The route template (`/blog/:slug`) or the page's path. */
  route: string;
  slug: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  device: 'mobile' | 'tablet' | 'desktop';
  visitor: string | null;
}

/** A quote request's attribution (decision 0032). */
export interface Conversion {
  leadId: string;
  day: string;
  /** The first page of the visit (route, with its slug for an article: `/blog/my-post`). */
  landing: string | null;
  /** Slugs of the articles (/blog/:slug) read before it that day, in the order first read. */
  articles: string[];
  utmSource: string | null;
}

/** Views counted per day and page, referrer and source, from raw views and from the daily roll-ups alike. */
export interface ViewCount {
  day: string;
  route: string;
  slug: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  views: number;
}

/** A daily roll-up row of page views, as stored (decision 0032). */
export interface RolledUpViews {
  day: string;
  route: string;
  slug: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  device: PageView['device'];
  views: number;
}

/** Views and distinct visitors of a day whose raw views were rolled up. */
export interface VisitorDay {
  day: string;
  views: number;
  visitors: number;
}

export interface AnalyticsRepository {
  /** Stores views in one transaction. */
  addViews(views: readonly PageView[]): Promise<void>;
  /** The salt of `day` (this `candidate` when no server chose one yet); salts of earlier days are deleted. */
  salt(day: string, candidate: string): Promise<string>;
  /** The views of one visitor hash on one day, oldest first. */
  visit(day: string, visitor: string): Promise<PageView[]>;
  addConversion(conversion: Conversion): Promise<void>;
  conversion(leadId: string): Promise<Conversion | null>;
  /** Raw views of days before `beforeDay` rolled up into daily counts and deleted, in one transaction; how many raw views went. */
  rollUp(beforeDay: string): Promise<number>;
  /** Views counted per day, page, referrer host and UTM source from `fromDay` to `toDay` (inclusive). */
  counts(fromDay: string, toDay: string): Promise<ViewCount[]>;
  /** Distinct visitor hashes per day (rolled-up days keep their count). */
  visitors(fromDay: string, toDay: string): Promise<Map<string, number>>;
  conversions(fromDay: string, toDay: string): Promise<Conversion[]>;
  /** Stores Core Web Vitals events in one transaction (decision 0037). */
  addVitals(events: readonly VitalEvent[]): Promise<void>;
  /** Raw vitals events (at most VITALS_READ_LIMIT, newest days first) and rolled-up days, from `fromDay` to `toDay` (inclusive). */
  vitals(fromDay: string, toDay: string): Promise<{ raw: VitalEvent[]; daily: VitalDaily[] }>;
  /** Raw vitals events of days before `beforeDay` rolled up into daily p75s and ratings and deleted, in one transaction; how many raw events went. */
  rollUpVitals(beforeDay: string): Promise<number>;
  /** Raw views stored after the one numbered `afterId`, oldest first, at most `limit`, and the number to go on from: how an export pages through them. */
  rawViews(afterId: number, limit: number): Promise<{ views: PageView[]; lastId: number }>;
  /** Every daily roll-up and rolled-up day, as stored. */
  rolledUp(): Promise<{ daily: RolledUpViews[]; days: VisitorDay[] }>;
  /** Puts exported roll-ups back (`blogpost import`, into an empty store). */
  restoreRolledUp(data: { daily: readonly RolledUpViews[]; days: readonly VisitorDay[] }): Promise<void>;
  /** Raw vitals events stored after the one numbered `afterId`, oldest first, at most `limit`, and the number to go on from (an export). */
  rawVitals(afterId: number, limit: number): Promise<{ events: VitalEvent[]; lastId: number }>;
  /** Every rolled-up day of vitals, as stored. */
  vitalsRolledUp(): Promise<VitalDaily[]>;
  /** Puts exported vitals roll-ups back (`blogpost import`, into an empty store). */
  restoreVitalsRolledUp(rows: readonly VitalDaily[]): Promise<void>;
}

/** Raw vitals events read for the staff view at most (a 30-day window of a sampled small site holds far fewer). */
export const VITALS_READ_LIMIT = 200_000;

/** One Core Web Vitals measure from a real visitor's page (decision 0037): no address, no cookie, no slug. */
export interface VitalEvent {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  /** The route template (`/blog/:slug`) or the page's path. */
  route: string;
  device: 'mobile' | 'tablet' | 'desktop';
  metric: VitalMetric;
  /** Clamped: milliseconds for LCP, INP and TTFB; unitless for CLS. */
  value: number;
  rating: VitalRating;
  /** The client build's version the server was serving. */
  build: string;
  /** What caused it, short: the LCP element, the INP target and interaction type, the load state. */
  attribution: string | null;
}

/** A day of vitals events rolled up per page type, device class, metric and build. */
export interface VitalDaily {
  day: string;
  route: string;
  device: 'mobile' | 'tablet' | 'desktop';
  metric: VitalMetric;
  build: string;
  p75: number;
  events: number;
  good: number;
  needsImprovement: number;
  poor: number;
}

export interface Store {
  posts: PostRepository;
  keys: KeyRepository;
  leads: LeadRepository;
  outbox: OutboxRepository;
  staff: StaffRepository;
  sessions: SessionRepository;
  audit: AuditLog;
  media: MediaRepository;
  indieAuthCodes: IndieAuthCodeRepository;
  /** The advertising archive (decision 0028). */
  archive: ArchiveRepository;
  /** Imports from WordPress: items imported and old addresses (decision 0029). */
  imports: ImportRepository;
  /** First-party analytics: page views, the daily salt, roll-ups, quote requests' attribution (decision 0032). */
  analytics: AnalyticsRepository;
  /**
   * Rate limits counted across every server on this store; absent for a store only one server uses
   * (SQLite), whose limits are kept in that server's memory.
   */
  rateLimits?: SharedRateLimits;
  /** Calls `listener` when posts changed, by this server or another one on the same store; the unsubscribe. Absent: only this server changes them. */
  onPostsChanged?: (listener: () => void) => () => void;
  /** True when this open created the store (an empty database, nothing imported into it). */
  created: boolean;
  /** Releases what the store holds open (every write resolved once it was committed: nothing is pending). */
  close(): Promise<void>;
}
