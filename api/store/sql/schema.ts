/**
 * The tables of the store as the query builder (Kysely) sees them, the same in SQLite and PostgreSQL
 * (api/store/sql/migrations.ts makes them). Records are kept whole as JSON text beside the columns that
 * queries, ordering and constraints need; times in those columns are ISO 8601 text (UTC, so they compare
 * as text), except `*_ms` columns, which are milliseconds since the epoch.
 */
import type { ColumnType, Generated } from 'kysely';

export interface StoreMetaTable {
  name: string;
  value: string | null;
}

export interface PostsTable {
  id: string;
  seq: number;
  slug: string;
  status: string;
  deleted_at: string | null;
  publish_at: string | null;
  /** publishedAt, else publishAt, else createdAt: lists are newest first by it, then by seq. */
  sort_key: string;
  category_slug: string;
  owner: string | null;
  author_lower: string;
  revision: number;
  /** The record without its content (PostIndexEntry), as JSON. */
  entry: string;
  content: string;
  /** The Markdown source the post was written as (records.ts), as JSON; null for none. */
  source: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the compliance approval the post went live under runs out (migration 0011); null for none. */
  approval_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row per distinct tag of a post, lowercased. */
export interface PostTagsTable {
  post_id: string;
  tag_lower: string;
}

/** Every slug a post has or had: one row each, so a slug is unique by this key, now and before. */
export interface PostSlugsTable {
  slug: string;
  post_id: string;
}

export interface PostRevisionsTable {
  n: Generated<number>;
  post_id: string;
  replaced_at: string;
  /** JSON array of field names. */
  changed: string;
  /** JSON of the kept record. */
  record: string;
}

export interface IdempotencyClaimsTable {
  scope: string;
  fingerprint: string;
  post_id: string;
  expires_at_ms: number;
}

export interface ApiKeysTable {
  seq: Generated<number>;
  id: string;
  record: string;
}

export interface LeadsTable {
  id: string;
  created_at: string;
  /** The record's reference (unique); null for requests stored before references existed. */
  reference: string | null;
  record: string;
}

/** A form's one-time token, naming the lead it was sent with until it expires (decision 0018). */
/** A visitor's "stop contacting me" (migration 0004), by the SHA-256 of their lower-cased e-mail address. */
export interface LeadOptOutsTable {
  address_sha256: string;
  lead_id: string;
  at: string;
  channel: string;
}

export interface LeadIntentsTable {
  token: string;
  lead_id: string;
  expires_at_ms: number;
}

/** An IndieAuth authorization code (decision 0030): only its SHA-256 kept, with what it was issued for, as JSON. */
export interface IndieAuthCodesTable {
  code_sha256: string;
  record: string;
  expires_at_ms: number;
}

export interface OutboxTable {
  id: string;
  lead_id: string;
  /** Until when one server holds it for an attempt (ISO 8601, UTC): the others leave it alone. */
  held_until: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  record: string;
}

export interface StaffTable {
  seq: Generated<number>;
  id: string;
  /** Lowercased: an e-mail is unique without regard to case. */
  email: string;
  record: string;
}

export interface StaffSessionsTable {
  id_hash: string;
  staff_id: string;
  /** Milliseconds since the epoch of the record's expiresAt and lastSeenAt (purges compare them as times). */
  expires_at_ms: number;
  last_seen_at_ms: number;
  record: string;
}

export interface AuditLogTable {
  n: Generated<number>;
  at: string;
  entry: string;
}

export interface MediaTable {
  seq: Generated<number>;
  id: string;
  uploaded_at: string;
  record: string;
}

/** Who uploaded an image (the same picture uploaded by two keys has two owners). */
export interface MediaOwnersTable {
  media_id: string;
  owner: string;
}

/**
 * A variant of an uploaded image. With SQLite its bytes are a content-addressed file under
 * DATA_DIR/media (`bytes` is null); with PostgreSQL, shared by several app servers, they are here.
 */
export interface MediaFilesTable {
  file: string;
  media_id: string;
  bytes: Uint8Array | null;
}

/** Token buckets of the API's rate limits, shared by every server on the store. */
export interface RateBucketsTable {
  bucket: string;
  tokens: number;
  at_ms: number;
}

/** The advertising archive (migration 0005, decision 0028): appended, never changed but for `live_to` once. */
export interface AdvertisingArchiveTable {
  seq: number;
  subject: string;
  kind: string;
  event: string;
  path: string;
  title: string;
  html: string;
  text: string;
  content_hash: string;
  live_from: string;
  live_to: string | null;
  /** JSON array of the findings at that moment. */
  findings: string;
  made_by: string | null;
  approver: string | null;
  approval_code: string | null;
  recorded_at: string;
  prev_hash: string;
  hash: string;
}

/** An item of a WordPress (or other) export, by its guid: `pending` while its post is being made, then `done` (decision 0029). */
export interface ImportedItemsTable {
  source: string;
  guid: string;
  state: string;
  /** The slug the post is made with, chosen before it is made (a re-run finds a post made just before a crash by it). */
  slug: string;
  post_id: string | null;
  at: string;
}

/** An old address (a path, or `/?p=123`) answered 301: to a post (followed to its current slug) or to a fixed target. */
export interface ImportedUrlsTable {
  path: string;
  post_id: string | null;
  target: string | null;
}

/** One page view (decision 0032): no address, no cookie; `visitor` is the day's salted hash, null for GPC/DNT. */
export interface AnalyticsViewsTable {
  id: Generated<number>;
  day: string;
  at: string;
  route: string;
  slug: string | null;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  device: string;
  visitor: string | null;
}

/** The day's random salt of the visitor hash, shared by every app server on the store; deleted the next day. */
export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

/** Views past ANALYTICS_RETENTION_DAYS, counted per day, page, referrer host, UTM source and device ('' for none). */
export interface AnalyticsDailyTable {
  day: string;
  route: string;
  slug: string;
  referrer_host: string;
  utm_source: string;
  device: string;
  views: number;
}

/** Views and distinct visitor hashes of a day whose raw views were rolled up. */
export interface AnalyticsDaysTable {
  day: string;
  views: number;
  visitors: number;
}

/** A quote request's attribution: its visit's landing page, the articles read before it, the first view's UTM source. */
export interface AnalyticsConversionsTable {
  lead_id: string;
  day: string;
  landing: string | null;
  articles: string;
  utm_source: string | null;
}

/** One Core Web Vitals event (decision 0037): route template, device class, metric, clamped value, build; never an address. */
export interface AnalyticsVitalsTable {
  id: Generated<number>;
  day: string;
  route: string;
  device: string;
  metric: string;
  value: number;
  rating: string;
  build: string;
  attribution: string | null;
}

/** Vitals events past ANALYTICS_RETENTION_DAYS: the day's p75 and ratings per page type, device class, metric and build. */
export interface AnalyticsVitalsDailyTable {
  day: string;
  route: string;
  device: string;
  metric: string;
  build: string;
  p75: number;
  events: number;
  good: number;
  needs_improvement: number;
  poor: number;
}

export interface StoreSchema {
  store_meta: StoreMetaTable;
  posts: PostsTable;
  post_tags: PostTagsTable;
  post_slugs: PostSlugsTable;
  post_revisions: PostRevisionsTable;
  idempotency_claims: IdempotencyClaimsTable;
  api_keys: ApiKeysTable;
  leads: LeadsTable;
  lead_intents: LeadIntentsTable;
  lead_opt_outs: LeadOptOutsTable;
  indieauth_codes: IndieAuthCodesTable;
  outbox: OutboxTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  audit_log: AuditLogTable;
  media: MediaTable;
  media_owners: MediaOwnersTable;
  media_files: MediaFilesTable;
  rate_buckets: RateBucketsTable;
  advertising_archive: AdvertisingArchiveTable;
  imported_items: ImportedItemsTable;
  imported_urls: ImportedUrlsTable;
  analytics_views: AnalyticsViewsTable;
  analytics_salts: AnalyticsSaltsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_days: AnalyticsDaysTable;
  analytics_conversions: AnalyticsConversionsTable;
  analytics_vitals: AnalyticsVitalsTable;
  analytics_vitals_daily: AnalyticsVitalsDailyTable;
}
