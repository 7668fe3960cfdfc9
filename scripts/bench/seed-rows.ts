/**
 * Seeding the benchmark's stores fast: posts and leads written straight into the database in one
 * transaction, as rows of the shape the repositories write (api/store/sql/posts.ts and leads.ts), rather
 * than one durable create after another (a commit and a wait for the disk per post). Each post still
 * goes through the contract's check and `cleanPost`, and its record is made by the store's own
 * `newPostRecord`, so what the server reads back is what a create would have stored. The same code
 * seeds SQLite and PostgreSQL (Kysely over the store's StoreSchema); SQLite's file is written without its
 * journal while seeding, then put back in WAL mode.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type Insertable, sql } from 'kysely';
import { checkCreatePostBody } from '../../contract/blog';
import type { DeliveryRecord, LeadRecord } from '../../contract/leads';
import { LEAD_STATUSES } from '../../contract/quote-request';
import { RESERVED_SLUGS } from '../../contract/slug';
import { cleanPost } from '../../api/services/posts';
import { newPostRecord } from '../../api/store/records';
import type { PostRecord } from '../../api/store/store';
import { SqlDatabase } from '../../api/store/sql/database';
import { deliveryRow } from '../../api/store/sql/leads';
import { movePostSeqPast, postRow, tagRows } from '../../api/store/sql/posts';
import type { LeadsTable, OutboxTable, PostSlugsTable, PostsTable, PostTagsTable } from '../../api/store/sql/schema';
import { DATABASE_FILE } from '../../api/store/data-dir';
import { benchPayload, FIRST_POST_AT, POST_SPACING_MS } from './payloads';
import { isDatabaseUrl } from './stores';

/** The staff member the lead-export bench signs in as (added through the store by seed.ts). */
export const BENCH_STAFF = { email: 'bench-agent@example.com', name: 'Bench Agent', password: 'correct horse battery staple 42' } as const;

/** Rows a multi-row INSERT carries: within both engines' limits on bound values (13 columns x 500). */
const ROWS_PER_INSERT = 500;
/** Posts or leads built and written per round (bounded memory at a million). */
const PER_ROUND = 5_000;

/** The rows the repository writes for a new post: the post, its distinct lowercased tags, its slug. */
export interface PostRows {
  post: Insertable<PostsTable>;
  tags: Array<Insertable<PostTagsTable>>;
  slug: Insertable<PostSlugsTable>;
}

/** A post's rows, as api/store/sql/posts.ts stores a created post (its own row builders). */
export function postRows(record: PostRecord): PostRows {
  return { post: postRow(record), tags: tagRows(record), slug: { slug: record.slug, post_id: record.id } };
}

/** Hands out slugs as the repository does for posts created in order: the base, then `base-2`, `base-3` ... */
class Slugs {
  readonly #taken = new Set<string>();

  take(base: string): string {
    let slug = base;
    for (let n = 2; this.#taken.has(slug) || RESERVED_SLUGS.has(slug); n++) slug = `${base}-${n}`;
    this.#taken.add(slug);
    return slug;
  }
}

/** Post number `n` (0-based) as the store would hold it after a create at its date. */
function benchRecord(n: number, slugs: Slugs): PostRecord {
  const check = checkCreatePostBody(benchPayload(n));
  if (!check.ok) throw new Error(`bench post ${n} does not pass the schema: ${JSON.stringify(check)}`);
  const at = new Date(FIRST_POST_AT + n * POST_SPACING_MS);
  const clean = cleanPost(check.data, check.ignoredFields, null, at);
  if (!clean.ok) throw new Error(`bench post ${n} does not clean: ${JSON.stringify(clean.problems)}`);
  return newPostRecord(clean.cleaned.post, { id: randomUUID(), seq: n + 1, slug: slugs.take(clean.cleaned.slugBase), at: at.toISOString(), idempotency: null });
}

/** `rows` in slices of ROWS_PER_INSERT, one multi-row INSERT each. */
function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let first = 0; first < rows.length; first += ROWS_PER_INSERT) yield rows.slice(first, first + ROWS_PER_INSERT);
}

/** Opens the database of `target` (a data directory's SQLite file, or a PostgreSQL URL), set for one large write. */
async function openForSeeding(target: string): Promise<SqlDatabase> {
  if (isDatabaseUrl(target)) return SqlDatabase.postgres(target, 'PostgreSQL');
  const database = await SqlDatabase.sqlite(path.join(target, DATABASE_FILE));
  // No journal and no waiting for the disk while seeding (set-up, not measured); put back below.
  database.sqlite?.pragma('journal_mode = OFF');
  database.sqlite?.pragma('synchronous = OFF');
  database.sqlite?.pragma('cache_size = -262144');
  return database;
}

async function closeAfterSeeding(database: SqlDatabase): Promise<void> {
  database.sqlite?.pragma('journal_mode = WAL');
  // The statistics autovacuum would have gathered over a million separate creates.
  if (database.kind === 'postgres') await sql`ANALYZE`.execute(database.db);
  await database.close();
}

/**
 * Writes posts 0 to `count - 1` of payloads.ts into the migrated, post-less store at `target`, in one
 * transaction, and moves the store's post numbering and revision past them.
 */
export async function insertBenchPosts(target: string, count: number): Promise<void> {
  const database = await openForSeeding(target);
  try {
    const slugs = new Slugs();
    await database.db.transaction().execute(async (tx) => {
      for (let first = 0; first < count; first += PER_ROUND) {
        const rows: PostRows[] = [];
        for (let n = first; n < Math.min(count, first + PER_ROUND); n += 1) rows.push(postRows(benchRecord(n, slugs)));
        for (const chunk of chunks(rows.map((row) => row.post))) await tx.insertInto('posts').values(chunk).execute();
        for (const chunk of chunks(rows.map((row) => row.slug))) await tx.insertInto('post_slugs').values(chunk).execute();
        for (const chunk of chunks(rows.flatMap((row) => row.tags))) await tx.insertInto('post_tags').values(chunk).execute();
      }
      // PostgreSQL numbers posts from a sequence and counts changes in each server (decision 0036); SQLite from store_meta.
      if (database.kind === 'postgres') {
        if (count > 0) await movePostSeqPast(tx, count);
      } else await tx.updateTable('store_meta').set({ value: String(count) }).where('name', 'in', ['post_seq', 'posts_revision']).execute();
    });
  } finally {
    await closeAfterSeeding(database);
  }
}

const FIRST_LEAD_AT = Date.parse('2025-01-01T08:00:00.000Z');
const LEAD_SPACING_MS = 5 * 60 * 1000;

/** Lead number `n`: a quote request as the form stores it, with its two notifications (e-mail sent, webhook pending after tries). */
function benchLead(n: number): { lead: LeadRecord; deliveries: DeliveryRecord[] } {
  const at = new Date(FIRST_LEAD_AT + n * LEAD_SPACING_MS).toISOString();
  const id = `lead_${n.toString(36).padStart(20, '0')}`;
  const lead: LeadRecord = {
    id,
    name: `Visitor ${n}`,
    email: `visitor${n}@example.com`,
    phone: '(512) 555-0199',
    preferredContactMethod: n % 2 === 0 ? 'phone' : 'email',
    age: 30 + (n % 35),
    annualContribution: 6_000 + (n % 20) * 1_000,
    retirementAge: 60 + (n % 8),
    currentRetirementSavings: (n % 50) * 10_000,
    healthRating: 'good',
    tobaccoUser: n % 9 === 0,
    additionalNotes: n % 3 === 0 ? 'Looking to compare an IUL with my 401(k) match; evenings are best.' : null,
    status: LEAD_STATUSES[n % LEAD_STATUSES.length] ?? 'new',
    createdAt: at,
    updatedAt: at,
    agentNotes: n % 4 === 0 ? [{ at, by: BENCH_STAFF.email, text: 'Called, left a message.' }] : [],
    spam: null,
    consent: {
      given: true,
      text: 'I agree to be contacted by a licensed agent about life insurance by phone, text or e-mail.',
      version: '2026-11-25',
      textSha256: 'a'.repeat(64),
      at,
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
      page: '/get-quote',
      globalPrivacyControl: false,
      contactOnlyBy: null,
    },
  };
  const delivery = (channel: DeliveryRecord['channel'], state: Partial<DeliveryRecord>): DeliveryRecord => ({
    id: `${id}.${channel}`,
    leadId: id,
    channel,
    createdAt: at,
    attempts: 0,
    nextAttemptAt: at,
    lastError: null,
    sentAt: null,
    ...state,
  });
  return {
    lead,
    deliveries: [delivery('email', { attempts: 1, sentAt: at, nextAttemptAt: null }), delivery('webhook', { attempts: 3, lastError: 'HTTP 503', nextAttemptAt: '2099-01-01T00:00:00.000Z' })],
  };
}

/** The rows api/store/sql/leads.ts writes for a lead and its notifications. */
export function leadRows(lead: LeadRecord, deliveries: readonly DeliveryRecord[]): { lead: Insertable<LeadsTable>; outbox: Array<Insertable<OutboxTable>> } {
  return {
    lead: { id: lead.id, created_at: lead.createdAt, record: JSON.stringify(lead) },
    outbox: deliveries.map(deliveryRow),
  };
}

/** Writes `count` leads with their notifications into the migrated store at `target`, in one transaction. */
export async function insertBenchLeads(target: string, count: number): Promise<void> {
  const database = await openForSeeding(target);
  try {
    await database.db.transaction().execute(async (tx) => {
      for (let first = 0; first < count; first += PER_ROUND) {
        const rows = Array.from({ length: Math.min(count, first + PER_ROUND) - first }, (_, i) => {
          const { lead, deliveries } = benchLead(first + i);
          return leadRows(lead, deliveries);
        });
        for (const chunk of chunks(rows.map((row) => row.lead))) await tx.insertInto('leads').values(chunk).execute();
        for (const chunk of chunks(rows.flatMap((row) => row.outbox))) await tx.insertInto('outbox').values(chunk).execute();
      }
    });
  } finally {
    await closeAfterSeeding(database);
  }
}
