/**
 * Rate limits shared by every app server on one database: the token buckets of api/http/rate-limit.ts
 * (the same arithmetic: a bucket holds `perMinute` tokens and refills evenly over its window) kept in
 * `rate_buckets`. Each take or refund reads and writes its bucket inside one write transaction (the row
 * locked on PostgreSQL; SQLite runs write transactions one at a time), so 80 writes split over two
 * servers meet one allowance of 60, and the arithmetic is done here, exactly as the in-memory limiter
 * does it, on both engines. A bucket's time only moves forward: requests that waited for each other's
 * lock (or instances whose clocks differ by a little) never refill the same moment twice; an instance
 * whose clock is behind refills nothing until it catches up, so skew only ever errs towards refusing.
 * Buckets full again are deleted now and then.
 */
import { sql } from 'kysely';
import type { RateDecision, RateLimit, SharedRateLimits } from '../store';
import type { SqlDatabase, Tx } from './database';

const MINUTE_MS = 60_000;

/** A bucket as stored: its tokens at `atMs` (milliseconds since the epoch). */
interface Bucket {
  tokens: number;
  atMs: number;
}

/** What a take came to: the tokens left after taking one, or the tokens there were (fewer than one). */
type Taken = { taken: true; tokens: number } | { taken: false; tokens: number };

class SqlRateLimit implements RateLimit {
  readonly perMinute: number;
  readonly #database: SqlDatabase;
  readonly #name: string;
  readonly #windowMs: number;
  readonly #now: () => number;
  #lastPrune = 0;

  constructor(database: SqlDatabase, name: string, perMinute: number, windowMs: number, now: () => number) {
    this.#database = database;
    this.#now = now;
    this.#name = name;
    this.perMinute = perMinute;
    this.#windowMs = windowMs;
  }

  /** The row of a caller's bucket: `<limit name>|<caller>` (limit names have no `|`). */
  #bucket(id: string): string {
    return `${this.#name}|${id}`;
  }

  /**
   * The tokens of `bucket` refilled up to `nowMs`. Multiplied before divided, as api/http/rate-limit.ts
   * does: a whole window refills exactly `perMinute` (59 / 60,000 a millisecond, times 60,000, is not 59).
   */
  #refilled(bucket: Bucket, nowMs: number): number {
    return Math.min(this.perMinute, bucket.tokens + (Math.max(0, nowMs - bucket.atMs) * this.perMinute) / this.#windowMs);
  }

  /** A bucket's row inside a write, locked on PostgreSQL until the write commits. */
  async #locked(tx: Tx, bucket: string): Promise<Bucket | undefined> {
    const row = await tx
      .selectFrom('rate_buckets')
      .select(['tokens', 'at_ms'])
      .where('bucket', '=', bucket)
      .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    return row ? { tokens: Number(row.tokens), atMs: Number(row.at_ms) } : undefined;
  }

  #decision(tokens: number): RateDecision {
    if (tokens >= 1) return { allowed: true, remaining: Math.floor(tokens) };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - tokens) * this.#windowMs) / this.perMinute / 1000)) };
  }

  async take(id: string): Promise<RateDecision> {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    await this.#prune();
    const bucket = this.#bucket(id);
    const nowMs = this.#now();
    const outcome = await this.#database.write<Taken>('count a request against its rate limit', async (tx) => {
      // A new bucket starts full, less the token taken; of two servers adding it at once, the second
      // waits for the first (PostgreSQL) and then takes from its row below.
      const inserted = await tx
        .insertInto('rate_buckets')
        .values({ bucket, tokens: this.perMinute - 1, at_ms: nowMs })
        .onConflict((conflict) => conflict.column('bucket').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return { taken: true, tokens: this.perMinute - 1 };
      const stored = await this.#locked(tx, bucket);
      if (!stored) {
        // Pruned by another server between the two statements: it starts again, full.
        await tx.insertInto('rate_buckets').values({ bucket, tokens: this.perMinute - 1, at_ms: nowMs }).execute();
        return { taken: true, tokens: this.perMinute - 1 };
      }
      const tokens = this.#refilled(stored, nowMs);
      // Fewer than one token: nothing is written, so a refused request takes nothing either.
      if (tokens < 1) return { taken: false, tokens };
      await tx
        .updateTable('rate_buckets')
        .set({ tokens: tokens - 1, at_ms: Math.max(stored.atMs, nowMs) })
        .where('bucket', '=', bucket)
        .execute();
      return { taken: true, tokens: tokens - 1 };
    });
    return outcome.taken ? { allowed: true, remaining: Math.floor(outcome.tokens) } : this.#decision(outcome.tokens);
  }

  async check(id: string): Promise<RateDecision> {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const nowMs = this.#now();
    const row = await this.#database.read('read a rate limit', (db) => db.selectFrom('rate_buckets').select(['tokens', 'at_ms']).where('bucket', '=', this.#bucket(id)).executeTakeFirst());
    return this.#decision(row ? this.#refilled({ tokens: Number(row.tokens), atMs: Number(row.at_ms) }, nowMs) : this.perMinute);
  }

  async refund(id: string): Promise<void> {
    if (this.perMinute <= 0) return;
    const bucket = this.#bucket(id);
    const nowMs = this.#now();
    await this.#database.write('give back a rate-limit token', async (tx) => {
      const stored = await this.#locked(tx, bucket);
      if (!stored) return;
      await tx
        .updateTable('rate_buckets')
        .set({ tokens: Math.min(this.perMinute, this.#refilled(stored, nowMs) + 1), at_ms: Math.max(stored.atMs, nowMs) })
        .where('bucket', '=', bucket)
        .execute();
    });
  }

  /** Deletes this limit's buckets that have refilled completely (at most once a window per server). */
  async #prune(): Promise<void> {
    const now = this.#now();
    if (now - this.#lastPrune < this.#windowMs) return;
    this.#lastPrune = now;
    const prefix = `${this.#name}|`;
    await this.#database.write('forget idle rate-limit buckets', (tx) =>
      tx
        .deleteFrom('rate_buckets')
        // substr, not LIKE: a limit's name is matched exactly, whatever characters it holds.
        .where(sql<string>`substr(bucket, 1, ${prefix.length})`, '=', prefix)
        .where('at_ms', '<', now - this.#windowMs)
        .execute(),
    );
  }
}

/** The shared rate limits of one database; `nowMs` is this server's clock (tests move it). */
export function sqlRateLimits(database: SqlDatabase, nowMs: () => number = Date.now): SharedRateLimits {
  return { limit: (name, perMinute, windowMs = MINUTE_MS) => new SqlRateLimit(database, name, perMinute, windowMs, nowMs) };
}
