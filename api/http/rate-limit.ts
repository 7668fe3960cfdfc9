/**
 * Per-key write limit: a token bucket per API key holding `perMinute` tokens and refilling evenly, so a
 * key can burst up to its limit and then write at the steady rate. Over the limit is a 429 with
 * Retry-After. Kept in memory: a restart forgets the buckets, which only ever errs towards allowing.
 */
import { ApiError } from '../../contract/errors';
import type { ApiMiddleware } from './context';

interface Bucket {
  tokens: number;
  at: number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

const MAX_IDLE_BUCKETS = 10_000;

export class RateLimiter {
  readonly perMinute: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  /** `perMinute` 0 turns the limit off. */
  constructor(perMinute: number, now: () => number = Date.now) {
    this.perMinute = perMinute;
    this.#now = now;
  }

  take(id: string): RateDecision {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const now = this.#now();
    const perMs = this.perMinute / 60_000;
    const bucket = this.#buckets.get(id) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (!this.#buckets.has(id)) this.#prune(now);
    this.#buckets.set(id, bucket);
    if (bucket.tokens < 1) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    bucket.tokens -= 1;
    return { allowed: true, remaining: Math.floor(bucket.tokens) };
  }

  /** Forgets buckets that have refilled completely, so many one-off keys cannot grow the map forever. */
  #prune(now: number): void {
    if (this.#buckets.size < MAX_IDLE_BUCKETS) return;
    const refillMs = 60_000;
    for (const [id, bucket] of this.#buckets) if (now - bucket.at >= refillMs) this.#buckets.delete(id);
  }
}

/** Per API key (run after authenticate); a request without a key is not limited here. */
export function rateLimit(limiter: RateLimiter): ApiMiddleware {
  return (ctx, next) => {
    const key = ctx.state.key;
    if (!key || limiter.perMinute <= 0) return next();
    const decision = limiter.take(key.id);
    ctx.set('RateLimit-Limit', String(limiter.perMinute));
    if (!decision.allowed) {
      ctx.set('RateLimit-Remaining', '0');
      throw new ApiError('rate_limited', {
        message: `Too many writes with this API key (the limit is ${limiter.perMinute} a minute). Retry in ${decision.retryAfterSeconds} seconds.`,
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        extra: { retryAfterSeconds: decision.retryAfterSeconds, limitPerMinute: limiter.perMinute },
      });
    }
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    return next();
  };
}
