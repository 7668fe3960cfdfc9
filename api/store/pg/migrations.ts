/**
 * The PostgreSQL schema, as numbered migrations kept in the repo (never edited once released: a change
 * is a new migration). `migrate` applies the ones a database lacks in one transaction, under a
 * transaction-scoped advisory lock, so two instances starting together migrate once: the second waits
 * for the first and then finds nothing to do. A migration that fails leaves the database as it was.
 *
 * Records are kept whole as `json` (which keeps the text as written, unlike `jsonb`), beside the
 * columns that queries, ordering and constraints need. Times in those columns are ISO 8601 text, the
 * form the records carry, compared as text exactly as the file store compares them.
 */
import type pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the store: posts, keys, leads, staff, sessions, audit, media, rate limits',
    sql: `
CREATE TABLE store_meta (
  name text PRIMARY KEY,
  value text
);
INSERT INTO store_meta (name, value) VALUES ('created_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), ('demo_key_issued_at', NULL), ('posts_revision', '0');

CREATE SEQUENCE post_seq;
CREATE TABLE posts (
  id text PRIMARY KEY,
  seq bigint NOT NULL UNIQUE,
  slug text COLLATE "C" NOT NULL UNIQUE,
  status text NOT NULL,
  deleted_at text,
  publish_at text,
  -- publishedAt, else publishAt, else createdAt: lists are newest first by it, then by seq.
  sort_key text NOT NULL,
  category_slug text NOT NULL,
  owner text,
  tags_lower text[] NOT NULL,
  author_lower text NOT NULL,
  revision integer NOT NULL,
  entry json NOT NULL,
  content text NOT NULL
);
CREATE INDEX posts_listing ON posts (status, sort_key DESC, seq DESC) WHERE deleted_at IS NULL;
CREATE INDEX posts_trashed ON posts (deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX posts_category ON posts (category_slug, sort_key DESC, seq DESC) WHERE deleted_at IS NULL;
CREATE INDEX posts_owner ON posts (owner) WHERE owner IS NOT NULL;
CREATE INDEX posts_scheduled ON posts (publish_at) WHERE status = 'scheduled' AND deleted_at IS NULL;

-- Every slug a post has or had: one row each, so a slug is unique by this key, now and before.
CREATE TABLE post_slugs (
  slug text COLLATE "C" PRIMARY KEY,
  post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX post_slugs_post ON post_slugs (post_id);

CREATE TABLE post_revisions (
  post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  n bigserial,
  replaced_at text NOT NULL,
  changed json NOT NULL,
  record json NOT NULL,
  PRIMARY KEY (post_id, n)
);

CREATE TABLE idempotency_claims (
  scope text PRIMARY KEY,
  fingerprint text NOT NULL,
  post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  expires_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  seq bigserial,
  record json NOT NULL
);

CREATE TABLE leads (
  id text PRIMARY KEY,
  created_at text NOT NULL,
  record json NOT NULL
);
CREATE TABLE outbox (
  id text PRIMARY KEY,
  lead_id text NOT NULL,
  -- Until when one server holds it for an attempt (ISO 8601, UTC): the others leave it alone.
  held_until text,
  next_attempt_at text,
  sent_at text,
  record json NOT NULL
);
CREATE INDEX outbox_lead ON outbox (lead_id);
CREATE INDEX outbox_pending ON outbox (next_attempt_at NULLS FIRST, id) WHERE sent_at IS NULL;

CREATE TABLE staff (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  seq bigserial,
  record json NOT NULL
);
CREATE TABLE staff_sessions (
  id_hash text PRIMARY KEY,
  staff_id text NOT NULL,
  record json NOT NULL
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);

CREATE TABLE audit_log (
  n bigserial PRIMARY KEY,
  at text NOT NULL,
  entry json NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at, n);

CREATE TABLE media (
  id text PRIMARY KEY,
  uploaded_at text NOT NULL,
  seq bigserial,
  record json NOT NULL
);
CREATE TABLE media_files (
  file text PRIMARY KEY,
  media_id text NOT NULL REFERENCES media (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  bytes bytea NOT NULL
);
CREATE INDEX media_files_media ON media_files (media_id);

-- Token buckets of the API's rate limits, shared by every instance.
CREATE TABLE rate_buckets (
  bucket text PRIMARY KEY,
  tokens double precision NOT NULL,
  at_ms bigint NOT NULL
);
`,
  },
];

/** Any 64-bit number unique to this application: the advisory lock migrations hold. */
const MIGRATION_LOCK = 7_235_905_113_402_001;

/** Applies the migrations the database lacks; the versions applied (empty when it was up to date). */
export async function migrate(client: pg.ClientBase, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return applied;
}

/** The newest version this code knows. */
export const LATEST_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version));
