/**
 * Rate limits shared by every app server on one database: the token buckets of api/http/rate-limit.ts
 * (the same arithmetic: a bucket holds `perMinute` tokens and refills evenly over its window) kept in
 * `rate_buckets`, each take or refund one atomic statement, so 80 writes split over two servers meet
 * one allowance of 60. A bucket's time only moves forward: requests that waited for each other's row
 * lock (or instances whose clocks differ by a little) never refill the same moment twice; an instance
 * whose clock is behind refills nothing until it catches up, so skew only ever errs towards refusing.
 * Buckets full again are deleted now and then.
 */
import type { RateDecision, RateLimit, SharedRateLimits } from '../store';
import type { Database } from './database';

const MINUTE_MS = 60_000;

/** The instance's time, milliseconds since the epoch. */
const NOW_MS = '$4::bigint';
/**
 * The tokens of a bucket refilled up to now (over the row's columns, $2 its capacity and $3 its window in
 * ms). Multiplied before divided, as api/http/rate-limit.ts does: a whole window refills exactly $2.
 */
const REFILLED = `LEAST($2::double precision, rate_buckets.tokens + GREATEST(0, ${NOW_MS} - rate_buckets.at_ms) * $2::double precision / $3::double precision)`;

class PgRateLimit implements RateLimit {
  readonly perMinute: number;
  readonly #db: Database;
  readonly #name: string;
  readonly #windowMs: number;
  readonly #now: () => number;
  #lastPrune = 0;

  constructor(db: Database, name: string, perMinute: number, windowMs: number, now: () => number) {
    this.#db = db;
    this.#now = now;
    this.#name = name;
    this.perMinute = perMinute;
    this.#windowMs = windowMs;
  }

  /** The row of a caller's bucket: `<limit name>|<caller>` (limit names have no `|`). */
  #bucket(id: string): string {
    return `${this.#name}|${id}`;
  }

  async take(id: string): Promise<RateDecision> {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    await this.#prune();
    const taken = await this.#db.query<{ tokens: number }>(
      'count a request against its rate limit',
      `INSERT INTO rate_buckets (bucket, tokens, at_ms) VALUES ($1, $2::double precision - 1, ${NOW_MS})
       ON CONFLICT (bucket) DO UPDATE SET tokens = ${REFILLED} - 1, at_ms = GREATEST(rate_buckets.at_ms, ${NOW_MS})
       WHERE ${REFILLED} >= 1
       RETURNING tokens`,
      [this.#bucket(id), this.perMinute, this.#windowMs, this.#now()],
    );
    const row = taken.rows[0];
    if (row) return { allowed: true, remaining: Math.floor(row.tokens) };
    return this.check(id);
  }

  async check(id: string): Promise<RateDecision> {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const { rows } = await this.#db.query<{ tokens: number }>('read a rate limit', `SELECT ${REFILLED} AS tokens FROM rate_buckets WHERE bucket = $1`, [
      this.#bucket(id),
      this.perMinute,
      this.#windowMs,
      this.#now(),
    ]);
    const tokens = rows[0]?.tokens ?? this.perMinute;
    if (tokens >= 1) return { allowed: true, remaining: Math.floor(tokens) };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - tokens) * this.#windowMs) / this.perMinute / 1000)) };
  }

  async refund(id: string): Promise<void> {
    if (this.perMinute <= 0) return;
    await this.#db.query(
      'give back a rate-limit token',
      `UPDATE rate_buckets SET tokens = LEAST($2::double precision, ${REFILLED} + 1), at_ms = GREATEST(rate_buckets.at_ms, ${NOW_MS}) WHERE bucket = $1`,
      [this.#bucket(id), this.perMinute, this.#windowMs, this.#now()],
    );
  }

  /** Deletes this limit's buckets that have refilled completely (at most once a window per server). */
  async #prune(): Promise<void> {
    const now = this.#now();
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
