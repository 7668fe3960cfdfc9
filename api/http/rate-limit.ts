/**
 * Rate limits, each a token bucket per caller holding `perMinute` tokens and refilling evenly, so a
 * caller can burst up to its limit and then go on at the steady rate. Over a limit is a 429 with
 * Retry-After. Writes count only when they succeed: a write that fails gets its token back and uses
 * one of the key's failed attempts instead, a separate and larger allowance, so a broken client cannot
 * hammer the server either. Validations have their own limit, per key or, without one, per IP.
 * Kept in memory: a restart forgets the buckets, which only ever errs towards allowing.
 */
import { ApiError } from '../../contract/errors';
import type { RateDecision, RateLimit, SharedRateLimits } from '../store/store';
import type { ApiMiddleware } from './context';
import { toApiError } from './errors';

interface Bucket {
  tokens: number;
  at: number;
}

export type { RateDecision, RateLimit } from '../store/store';

const MAX_IDLE_BUCKETS = 10_000;

/** Failed write attempts a key may make a minute, as a multiple of its write limit. */
export const FAILED_WRITES_FACTOR = 5;

export class RateLimiter implements RateLimit {
  /** Tokens a full bucket holds, refilled over `windowMs` (the name says the API's window, a minute). */
  readonly perMinute: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  /** `perMinute` 0 turns the limit off; `windowMs` (default a minute) is how long an empty bucket takes to refill. */
  constructor(perMinute: number, now: () => number = Date.now, windowMs = 60_000) {
    this.perMinute = perMinute;
    this.#now = now;
    this.#windowMs = windowMs;
  }

  /** Takes a token when there is one. */
  take(id: string): RateDecision {
    const decision = this.check(id);
    if (decision.allowed && this.perMinute > 0) {
      const bucket = this.#bucket(id);
      bucket.tokens -= 1;
      return { allowed: true, remaining: Math.floor(bucket.tokens) };
    }
    return decision;
  }

  /** Whether a token is there, without taking it. */
  check(id: string): RateDecision {
    if (this.perMinute <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY };
    const bucket = this.#bucket(id);
    if (bucket.tokens < 1) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - bucket.tokens) * this.#windowMs) / this.perMinute / 1000)) };
    return { allowed: true, remaining: Math.floor(bucket.tokens) };
  }

  /** Gives back a token taken for a request that turned out not to count. */
  refund(id: string): void {
    if (this.perMinute <= 0) return;
    const bucket = this.#bucket(id);
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + 1);
  }

  /** The caller's bucket, refilled up to now. */
  #bucket(id: string): Bucket {
    const now = this.#now();
    let bucket = this.#buckets.get(id);
    if (!bucket) {
      this.#prune(now);
      bucket = { tokens: this.perMinute, at: now };
      this.#buckets.set(id, bucket);
    }
    // A clock set back (NTP, an operator) refills nothing rather than draining the bucket.
    // Multiplied before divided: a whole window refills exactly perMinute (59 / 60,000 a millisecond,
    // times 60,000, is 58.99999999999999).
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (Math.max(0, now - bucket.at) * this.perMinute) / this.#windowMs);
    bucket.at = now;
    return bucket;
  }

  /** Forgets buckets that have refilled completely, so many one-off callers cannot grow the map forever. */
  #prune(now: number): void {
    if (this.#buckets.size < MAX_IDLE_BUCKETS) return;
    const refillMs = this.#windowMs;
    for (const [id, bucket] of this.#buckets) if (now - bucket.at >= refillMs) this.#buckets.delete(id);
  }
}

/** The window every limit refills over (RateLimiter's default: a minute). */
const WINDOW_SECONDS = 60;

/** `name` says which limit it was (writes, failed writes, validations), for the request log. */
function limited(message: string, limiter: RateLimit, retryAfterSeconds: number, name: string, hints: string[] = []): ApiError {
  return new ApiError('rate_limited', {
    message: `${message} Retry in ${retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
    hints,
    extra: { retryAfterSeconds, limitPerMinute: limiter.perMinute },
    facts: { rateLimit: { name, perWindow: limiter.perMinute, windowSeconds: WINDOW_SECONDS, retryAfterSeconds } },
  });
}

export interface WriteLimits {
  /** Successful writes a minute per key. */
  writes: RateLimit;
  /** Failed write attempts a minute per key (FAILED_WRITES_FACTOR times the write limit). */
  failedWrites: RateLimit;
}

/** The write limits, in this server's memory or, given `shared`, counted across every server on the store. */
export function writeLimits(writesPerMinute: number, now: () => number = Date.now, shared?: SharedRateLimits): WriteLimits {
  const failedPerMinute = writesPerMinute * FAILED_WRITES_FACTOR;
  if (shared) return { writes: shared.limit('writes', writesPerMinute), failedWrites: shared.limit('failed-writes', failedPerMinute) };
  return { writes: new RateLimiter(writesPerMinute, now), failedWrites: new RateLimiter(failedPerMinute, now) };
}

/** A write that failed because of the request: a 4xx other than 429. */
function failedByRequest(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429;
}

/**
 * Per API key (run after authenticate); a request without a key is not limited here. The token is
 * taken before the write and given back when the write fails (a 4xx or a 5xx); a 4xx then uses one of
 * the key's failed attempts.
 */
export function writeRateLimit(limits: WriteLimits): ApiMiddleware {
  const { writes, failedWrites } = limits;
  return async (ctx, next) => {
    const key = ctx.state.key;
    if (!key || writes.perMinute <= 0) return next();
    const failures = await failedWrites.check(key.id);
    if (!failures.allowed) {
      throw limited(
        `Too many failed requests with this API key (the limit is ${failedWrites.perMinute} failed attempts a minute, apart from the ${writes.perMinute} successful writes).`,
        failedWrites,
        failures.retryAfterSeconds,
        'failed writes',
        ['Fix what the earlier answers reported (their code and errors say what) before sending the post again.'],
      );
    }
    const decision = await writes.take(key.id);
    ctx.set('RateLimit-Limit', String(writes.perMinute));
    if (!decision.allowed) {
      ctx.set('RateLimit-Remaining', '0');
      throw limited(
        `Too many writes with this API key (the limit is ${writes.perMinute} successful writes a minute; failed requests do not count).`,
        writes,
        decision.retryAfterSeconds,
        'writes',
      );
    }
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    const settle = async (status: number) => {
      if (status < 400) return;
      await writes.refund(key.id);
      if (failedByRequest(status)) await failedWrites.take(key.id);
    };
    try {
      await next();
    } catch (error) {
      await settle(toApiError(error).status);
      throw error;
    }
    await settle(ctx.status);
  };
}

/** One limit per API key or, for requests without one, per IP address (POST /api/blog/validate). */
export function requestRateLimit(limiter: RateLimit, what: string): ApiMiddleware {
  return async (ctx, next) => {
    if (limiter.perMinute <= 0) return next();
    const caller = ctx.state.key ? `key:${ctx.state.key.id}` : `ip:${ctx.ip}`;
    const decision = await limiter.take(caller);
    ctx.set('RateLimit-Limit', String(limiter.perMinute));
    if (!decision.allowed) {
      ctx.set('RateLimit-Remaining', '0');
      const from = ctx.state.key ? 'this API key' : 'this IP address';
      throw limited(`Too many ${what} from ${from} (the limit is ${limiter.perMinute} a minute).`, limiter, decision.retryAfterSeconds, what);
    }
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    return next();
  };
}
