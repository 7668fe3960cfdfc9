/**
 * Rate limits shared by every app server on one database: the token buckets of api/http/rate-limit.ts
 * (the same arithmetic: a bucket holds `perMinute` tokens and refills evenly over its window; a clock
 * set back refills nothing) kept in `rate_buckets`, each take or refund one atomic statement, so 80
 * writes split over two servers meet one allowance of 60. Buckets full again are deleted now and then.
 */
import type { RateDecision, RateLimit, SharedRateLimits } from '../store';
import type { Database } from './database';

const MINUTE_MS = 60_000;

interface BucketRow {
  tokens: number;
  at_ms: string;
}

/** The tokens of a bucket refilled up to `now` (SQL, over the row's columns and $2 capacity, $3 now, $4 tokens per ms). */
const REFILLED = 'LEAST($2::double precision, rate_buckets.tokens + GREATEST(0, $3::bigint - rate_buckets.at_ms) * $4::double precision)';

class PgRateLimit implements RateLimit {
  readonly perMinute: number;
  readonly #db: Database;
  readonly #name: string;
  readonly #windowMs: number;
  readonly #now: () => number;
  #lastPrune = 0;

  constructor(db: Database, name: string, perMinute: number, windowMs: number, now: () => number) {
    this.#db = db;
    this.#name = name;
    this.perMinute = perMinute;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  get #perMs(): number {
    return this.perMinute / this.#windowMs;
  }

  /** The row of a caller's bucket: `<limit name>|<caller>` (limit names have no `|`). */
  #bucket(id: string): string {
    return `${this.#name}|${id}`;
  }

  #denied(tokens: number): RateDecision {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.#perMs / 1000)) };
  }

  async take(id: string): Promise<RateDecision> {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const now = this.#now();
    await this.#prune(now);
    const values = [this.#bucket(id), this.perMinute, now, this.#perMs];
    const taken = await this.#db.query<{ tokens: number }>(
      'count a request against its rate limit',
      `INSERT INTO rate_buckets (bucket, tokens, at_ms) VALUES ($1, $2::double precision - 1, $3)
       ON CONFLICT (bucket) DO UPDATE SET tokens = ${REFILLED} - 1, at_ms = $3
       WHERE ${REFILLED} >= 1
       RETURNING tokens`,
      values,
    );
    const row = taken.rows[0];
    if (row) return { allowed: true, remaining: Math.floor(row.tokens) };
    return this.check(id);
  }

  async check(id: string): Promise<RateDecision> {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const { rows } = await this.#db.query<BucketRow>('read a rate limit', 'SELECT tokens, at_ms FROM rate_buckets WHERE bucket = $1', [this.#bucket(id)]);
    const row = rows[0];
    const tokens = row ? Math.min(this.perMinute, row.tokens + Math.max(0, this.#now() - Number(row.at_ms)) * this.#perMs) : this.perMinute;
    return tokens < 1 ? this.#denied(tokens) : { allowed: true, remaining: Math.floor(tokens) };
  }

  async refund(id: string): Promise<void> {
    if (this.perMinute <= 0) return;
    await this.#db.query(
      'give back a rate-limit token',
      `UPDATE rate_buckets SET tokens = LEAST($2::double precision, ${REFILLED} + 1), at_ms = $3 WHERE bucket = $1`,
      [this.#bucket(id), this.perMinute, this.#now(), this.#perMs],
    );
  }

  /** Deletes this limit's buckets that have refilled completely (at most once a window per server). */
  async #prune(now: number): Promise<void> {
    if (now - this.#lastPrune < this.#windowMs) return;
    this.#lastPrune = now;
    await this.#db.query('forget idle rate-limit buckets', 'DELETE FROM rate_buckets WHERE left(bucket, $1) = $2 AND at_ms < $3', [
      this.#name.length + 1,
      `${this.#name}|`,
      now - this.#windowMs,
    ]);
  }
}

export function pgRateLimits(db: Database, now: () => number = Date.now): SharedRateLimits {
  return { limit: (name, perMinute, windowMs = MINUTE_MS) => new PgRateLimit(db, name, perMinute, windowMs, now) };
}
