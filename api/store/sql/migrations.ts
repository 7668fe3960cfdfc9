/**
 * The store's schema as numbered migrations, one history for SQLite and PostgreSQL, applied by Kysely's
 * migrator when the store opens. A migration is never edited once released: a change is a new one. The
 * migrator applies the ones a database lacks in one transaction under its lock (PostgreSQL: a row lock
 * that a second server starting at once waits on; SQLite: the database's write lock), so servers and
 * CLI runs starting together migrate once. A migration that fails leaves the database as it was.
 *
 * Where the two engines spell a column type differently, `types(kind)` names it once; every statement is
 * otherwise the same text.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { EngineKind } from './database';

interface ColumnTypes {
  /** A 64-bit integer that numbers rows as they are added (never reused). */
  serial: string;
  /** Text compared byte by byte (slugs: `-` sorts just before `.`). */
  bytewiseText: string;
  bytes: string;
  real: string;
}

function types(kind: EngineKind): ColumnTypes {
  return kind === 'sqlite'
    ? { serial: 'INTEGER PRIMARY KEY AUTOINCREMENT', bytewiseText: 'TEXT', bytes: 'BLOB', real: 'REAL' }
    : { serial: 'BIGSERIAL PRIMARY KEY', bytewiseText: 'TEXT COLLATE "C"', bytes: 'BYTEA', real: 'DOUBLE PRECISION' };
}

/** Statements run one by one (the SQLite driver takes one statement per call). */
function statements(kind: EngineKind): string[] {
  const t = types(kind);
  return [
    `CREATE TABLE store_meta (name TEXT PRIMARY KEY, value TEXT)`,
    `INSERT INTO store_meta (name, value) VALUES ('demo_key_issued_at', NULL), ('posts_revision', '0'), ('post_seq', '0')`,

    `CREATE TABLE posts (
      id TEXT PRIMARY KEY,
      seq BIGINT NOT NULL UNIQUE,
      slug ${t.bytewiseText} NOT NULL UNIQUE,
      status TEXT NOT NULL,
      deleted_at TEXT,
      publish_at TEXT,
      sort_key TEXT NOT NULL,
      category_slug TEXT NOT NULL,
      owner TEXT,
      author_lower TEXT NOT NULL,
      revision INTEGER NOT NULL,
      entry TEXT NOT NULL,
      content TEXT NOT NULL
    )`,
    `CREATE INDEX posts_listing ON posts (status, sort_key DESC, seq DESC) WHERE deleted_at IS NULL`,
    `CREATE INDEX posts_trashed ON posts (deleted_at) WHERE deleted_at IS NOT NULL`,
    `CREATE INDEX posts_category ON posts (category_slug, sort_key DESC, seq DESC) WHERE deleted_at IS NULL`,
    `CREATE INDEX posts_author ON posts (author_lower, sort_key DESC, seq DESC) WHERE deleted_at IS NULL`,
    `CREATE INDEX posts_owner ON posts (owner, sort_key DESC, seq DESC) WHERE owner IS NOT NULL`,
    `CREATE INDEX posts_scheduled ON posts (publish_at) WHERE status = 'scheduled' AND deleted_at IS NULL`,
    `CREATE INDEX posts_newest ON posts (sort_key DESC, seq DESC)`,

    `CREATE TABLE post_tags (
      post_id TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      tag_lower TEXT NOT NULL,
      PRIMARY KEY (post_id, tag_lower)
    )`,
    `CREATE INDEX post_tags_tag ON post_tags (tag_lower, post_id)`,

    `CREATE TABLE post_slugs (
      slug ${t.bytewiseText} PRIMARY KEY,
      post_id TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
    )`,
    `CREATE INDEX post_slugs_post ON post_slugs (post_id)`,

    `CREATE TABLE post_revisions (
      n ${t.serial},
      post_id TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      replaced_at TEXT NOT NULL,
      changed TEXT NOT NULL,
      record TEXT NOT NULL
    )`,
    `CREATE INDEX post_revisions_post ON post_revisions (post_id, n)`,

    `CREATE TABLE idempotency_claims (
      scope TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      post_id TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
      expires_at_ms BIGINT NOT NULL
    )`,
    `CREATE INDEX idempotency_claims_post ON idempotency_claims (post_id)`,

    `CREATE TABLE api_keys (seq ${t.serial}, id TEXT NOT NULL UNIQUE, record TEXT NOT NULL)`,

    `CREATE TABLE leads (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, record TEXT NOT NULL)`,
    `CREATE INDEX leads_created ON leads (created_at DESC, id DESC)`,
    `CREATE TABLE outbox (
      id TEXT PRIMARY KEY,
      lead_id TEXT NOT NULL,
      held_until TEXT,
      next_attempt_at TEXT,
      sent_at TEXT,
      record TEXT NOT NULL
    )`,
    `CREATE INDEX outbox_lead ON outbox (lead_id)`,
    `CREATE INDEX outbox_pending ON outbox (next_attempt_at, id) WHERE sent_at IS NULL`,

    `CREATE TABLE staff (seq ${t.serial}, id TEXT NOT NULL UNIQUE, email TEXT NOT NULL UNIQUE, record TEXT NOT NULL)`,
    `CREATE TABLE staff_sessions (
      id_hash TEXT PRIMARY KEY,
      staff_id TEXT NOT NULL,
      expires_at_ms BIGINT NOT NULL,
      last_seen_at_ms BIGINT NOT NULL,
      record TEXT NOT NULL
    )`,
    `CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id)`,

    `CREATE TABLE audit_log (n ${t.serial}, at TEXT NOT NULL, entry TEXT NOT NULL)`,
    `CREATE INDEX audit_log_at ON audit_log (at, n)`,

    `CREATE TABLE media (seq ${t.serial}, id TEXT NOT NULL UNIQUE, uploaded_at TEXT NOT NULL, record TEXT NOT NULL)`,
    `CREATE INDEX media_uploaded ON media (uploaded_at DESC, id DESC)`,
    `CREATE TABLE media_owners (
      media_id TEXT NOT NULL REFERENCES media (id) ON DELETE CASCADE,
      owner TEXT NOT NULL,
      PRIMARY KEY (media_id, owner)
    )`,
    `CREATE INDEX media_owners_owner ON media_owners (owner)`,
    `CREATE TABLE media_files (
      file TEXT PRIMARY KEY,
      media_id TEXT NOT NULL REFERENCES media (id) ON DELETE CASCADE,
      bytes ${t.bytes}
    )`,
    `CREATE INDEX media_files_media ON media_files (media_id)`,

    `CREATE TABLE rate_buckets (bucket TEXT PRIMARY KEY, tokens ${t.real} NOT NULL, at_ms BIGINT NOT NULL)`,
  ];
}

/**
 * One quote request per intent (decision 0018): a lead's reference, unique, for the thank-you page
 * (requests stored before have none: many NULLs are allowed by a unique index on both engines); and the
 * claims of the form's one-time tokens, one row per token naming its lead until it expires, written in
 * the lead's transaction, so two requests with one token store one lead whichever server takes them.
 * A claim goes with its lead (ON DELETE CASCADE); it is checked at the commit, since the claim is
 * taken before the lead's row is written.
 */
const LEAD_INTENTS = [
  `ALTER TABLE leads ADD COLUMN reference TEXT`,
  `CREATE UNIQUE INDEX leads_reference ON leads (reference)`,
  `CREATE TABLE lead_intents (
    token TEXT PRIMARY KEY,
    lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    expires_at_ms BIGINT NOT NULL
  )`,
  `CREATE INDEX lead_intents_lead ON lead_intents (lead_id)`,
  `CREATE INDEX lead_intents_expiry ON lead_intents (expires_at_ms)`,
];

/**
 * A post's Markdown source (decision 0022): the file its author wrote, kept beside the HTML rendered
 * from it, so `blogpost get --markdown` gives it back byte for byte. A column of the post's row (read
 * with the content, never with the lists), JSON; NULL for posts written as HTML or JSON, and for every
 * post stored before.
 */
const POST_SOURCE = [`ALTER TABLE posts ADD COLUMN source TEXT`];

/**
 * Speed to lead (decision 0023): the round robin's counter among staff who take leads (a row of
 * store_meta, moved by one statement, so two servers never give two leads the same turn), and the
 * visitors who said "stop contacting me", by the SHA-256 of their lower-cased e-mail address: kept
 * apart from the lead, so a second request from the same address gets no automatic e-mail either, and
 * no address is kept in clear beside it. The rest (assignee, contact attempts, the opt-out, the
 * escalation's time) lives in the lead's record.
 */
const LEAD_FOLLOW_UP = [
  `INSERT INTO store_meta (name, value) VALUES ('lead_assign_seq', '0')`,
  `CREATE TABLE lead_opt_outs (address_sha256 TEXT PRIMARY KEY, lead_id TEXT NOT NULL, at TEXT NOT NULL, channel TEXT NOT NULL)`,
];

/**
 * IndieAuth (decision 0030): the authorization codes a signed-in staff member granted an app, each
 * kept only as its SHA-256 until it is exchanged (once: the exchange deletes it) or expires.
 */
const INDIEAUTH = [`CREATE TABLE indieauth_codes (code_sha256 TEXT PRIMARY KEY, record TEXT NOT NULL, expires_at_ms BIGINT NOT NULL)`];

/**
 * The advertising archive (decision 0028): every version of a post or a site page that the public saw,
 * appended and never changed but for `live_to`, set once when the next version of the same subject goes
 * live or it stops being public. `seq` is numbered by the writer under the archive's lock (no gaps), and
 * each row's `hash` covers its fields and the `prev_hash` of the row before: a removed or altered row
 * breaks the chain. `archive_base` in store_meta: the seq and hash of the last record removed after its
 * retention (the chain then starts there); NULL while nothing was ever removed. `approval_seq`: the
 * number of the last approval code generated (ADV-2026-0042), moved by one statement.
 */
function advertisingArchive(kind: EngineKind): string[] {
  const big = kind === 'sqlite' ? 'INTEGER' : 'BIGINT';
  return [
    `CREATE TABLE advertising_archive (
      seq ${big} PRIMARY KEY,
      subject TEXT NOT NULL,
      kind TEXT NOT NULL,
      event TEXT NOT NULL,
      path TEXT NOT NULL,
      title TEXT NOT NULL,
      html TEXT NOT NULL,
      text TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      live_from TEXT NOT NULL,
      live_to TEXT,
      findings TEXT NOT NULL,
      made_by TEXT,
      approver TEXT,
      approval_code TEXT,
      recorded_at TEXT NOT NULL,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL
    )`,
    `CREATE INDEX advertising_archive_subject ON advertising_archive (subject, seq)`,
    `CREATE INDEX advertising_archive_live ON advertising_archive (live_from, seq)`,
    `INSERT INTO store_meta (name, value) VALUES ('archive_base', NULL), ('approval_seq', '0')`,
  ];
}

/**
 * Imports from WordPress (decision 0029): each export item by its guid (pending while its post is
 * made, then done, with the post's id), and the old addresses that answer 301.
 */
const IMPORTED_URLS = [
  `CREATE TABLE imported_items (source TEXT NOT NULL, guid TEXT NOT NULL, state TEXT NOT NULL, slug TEXT NOT NULL, post_id TEXT, at TEXT NOT NULL, PRIMARY KEY (source, guid))`,
  `CREATE TABLE imported_urls (path TEXT PRIMARY KEY, post_id TEXT, target TEXT)`,
];

/**
 * First-party analytics (decision 0032): raw page views (no address, no cookie), the day's salt of the
 * visitor hash (one row per day, shared by every app server, deleted the next day), the daily counts raw
 * views are rolled up into after ANALYTICS_RETENTION_DAYS, and each quote request's attribution.
 */
function analytics(kind: EngineKind): string[] {
  const t = types(kind);
  return [
    `CREATE TABLE analytics_views (id ${t.serial}, day TEXT NOT NULL, at TEXT NOT NULL, route TEXT NOT NULL, slug TEXT, referrer_host TEXT, utm_source TEXT, utm_medium TEXT, utm_campaign TEXT, device TEXT NOT NULL, visitor TEXT)`,
    `CREATE INDEX analytics_views_day ON analytics_views (day)`,
    `CREATE INDEX analytics_views_visitor ON analytics_views (visitor, day) WHERE visitor IS NOT NULL`,
    `CREATE TABLE analytics_salts (day TEXT PRIMARY KEY, salt TEXT NOT NULL)`,
    `CREATE TABLE analytics_daily (day TEXT NOT NULL, route TEXT NOT NULL, slug TEXT NOT NULL, referrer_host TEXT NOT NULL, utm_source TEXT NOT NULL, device TEXT NOT NULL, views INTEGER NOT NULL)`,
    `CREATE INDEX analytics_daily_day ON analytics_daily (day)`,
    `CREATE TABLE analytics_days (day TEXT PRIMARY KEY, views INTEGER NOT NULL, visitors INTEGER NOT NULL)`,
    `CREATE TABLE analytics_conversions (lead_id TEXT PRIMARY KEY, day TEXT NOT NULL, landing TEXT, articles TEXT NOT NULL, utm_source TEXT)`,
    `CREATE INDEX analytics_conversions_day ON analytics_conversions (day)`,
  ];
}

/**
 * Decision 0036: on PostgreSQL a new post's `seq` comes from a sequence, which no create waits on (the
 * row 'post_seq' of store_meta was a lock every create held until its commit), started past every
 * number given so far; the row goes, so nothing can number from it again. SQLite keeps the row: its
 * writes run one at a time anyway.
 */
function postSeqSequence(kind: EngineKind): string[] {
  if (kind === 'sqlite') return [];
  return [
    `CREATE SEQUENCE post_seq AS BIGINT`,
    `SELECT setval('post_seq', GREATEST(COALESCE((SELECT CAST(value AS BIGINT) FROM store_meta WHERE name = 'post_seq'), 0), COALESCE((SELECT MAX(seq) FROM posts), 0), 1), EXISTS (SELECT 1 FROM posts) OR COALESCE((SELECT CAST(value AS BIGINT) FROM store_meta WHERE name = 'post_seq'), 0) > 0)`,
    `DELETE FROM store_meta WHERE name = 'post_seq'`,
  ];
}

/**
 * Core Web Vitals from real visitors (decision 0037): raw events (route template, device class, metric,
 * clamped value, rating, build, a short attribution; no address, no slug) and the daily p75 and ratings
 * they are rolled up into after ANALYTICS_RETENTION_DAYS.
 */
function vitals(kind: EngineKind): string[] {
  const t = types(kind);
  return [
    `CREATE TABLE analytics_vitals (id ${t.serial}, day TEXT NOT NULL, route TEXT NOT NULL, device TEXT NOT NULL, metric TEXT NOT NULL, value ${t.real} NOT NULL, rating TEXT NOT NULL, build TEXT NOT NULL, attribution TEXT)`,
    `CREATE INDEX analytics_vitals_day ON analytics_vitals (day)`,
    `CREATE TABLE analytics_vitals_daily (day TEXT NOT NULL, route TEXT NOT NULL, device TEXT NOT NULL, metric TEXT NOT NULL, build TEXT NOT NULL, p75 ${t.real} NOT NULL, events INTEGER NOT NULL, good INTEGER NOT NULL, needs_improvement INTEGER NOT NULL, poor INTEGER NOT NULL)`,
    `CREATE INDEX analytics_vitals_daily_day ON analytics_vitals_daily (day)`,
  ];
}

/**
 * The compliance approval a post went live under (decision 0028) runs out: the scheduler and the staff
 * dashboard ask for the posts that carry one every minute. They read every published and scheduled post
 * for it (at a million posts, a list the scheduler could not even hold); the approval's expiry is now a
 * column of its own with a partial index of the posts that have one, filled from the records (only rows
 * holding an approval are written).
 */
function postApprovals(kind: EngineKind): string[] {
  const expiresAt = kind === 'sqlite' ? `json_extract(entry, '$.approval.expiresAt')` : `(CAST(entry AS jsonb) -> 'approval' ->> 'expiresAt')`;
  return [
    `ALTER TABLE posts ADD COLUMN approval_expires_at TEXT`,
    `UPDATE posts SET approval_expires_at = ${expiresAt} WHERE entry LIKE '%"approval":{%' AND ${expiresAt} IS NOT NULL`,
    `CREATE INDEX posts_approval ON posts (approval_expires_at) WHERE approval_expires_at IS NOT NULL`,
  ];
}

/** A migration that runs `list` statement by statement. */
function run(list: readonly string[]): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const statement of list) await sql.raw(statement).execute(db);
    },
  };
}

/** The migrations in order; their names sort in the order they apply. */
export function migrations(kind: EngineKind): Record<string, Migration> {
  return {
    '0001-store': run(statements(kind)),
    '0002-lead-intents': run(LEAD_INTENTS),
    '0003-post-source': run(POST_SOURCE),
    '0004-lead-follow-up': run(LEAD_FOLLOW_UP),
    '0005-advertising-archive': run(advertisingArchive(kind)),
    '0006-imported-urls': run(IMPORTED_URLS),
    '0007-indieauth': run(INDIEAUTH),
    '0008-analytics': run(analytics(kind)),
    '0009-post-seq-sequence': run(postSeqSequence(kind)),
    '0010-vitals': run(vitals(kind)),
    '0011-post-approvals': run(postApprovals(kind)),
  };
}

/** The name of the first migration: the open that applied it made the store. */
export const FIRST_MIGRATION = '0001-store';

/** The newest migration this code knows. */
export function latestMigration(kind: EngineKind): string {
  return Object.keys(migrations(kind)).sort().at(-1) ?? FIRST_MIGRATION;
}

class Provider implements MigrationProvider {
  constructor(private readonly kind: EngineKind) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations(this.kind));
  }
}

/** Applies the migrations the database lacks; the names applied (empty when it was up to date). Throws the migrator's error. */
export async function migrate<DB>(db: Kysely<DB>, kind: EngineKind): Promise<string[]> {
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider: new Provider(kind), migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** The migrations applied to a database, in order (for `blogpost doctor`). */
export async function appliedMigrations<DB>(db: Kysely<DB>, kind: EngineKind): Promise<string[]> {
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider: new Provider(kind), migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });
  const all = await migrator.getMigrations();
  return all.filter((migration) => migration.executedAt !== undefined).map((migration) => migration.name);
}
