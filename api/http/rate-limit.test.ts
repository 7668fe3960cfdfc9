import type { ParameterizedContext } from 'koa';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../contract/errors';
import type { SharedRateLimits } from '../store/store';
import type { ApiState } from './context';
import { FAILED_WRITES_FACTOR, RateLimiter, requestRateLimit, writeLimits, writeRateLimit } from './rate-limit';

describe('RateLimiter', () => {
  it('lets a key burst to its limit, then refills evenly', () => {
    let now = 0;
    const limiter = new RateLimiter(60, () => now);
    for (let i = 0; i < 60; i++) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 1000;
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0 });
    now += 60_000;
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 59 });
  });

  it('says how long to wait at low limits', () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    now += 29_000;
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('is off at 0', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) expect(limiter.take('a')).toEqual({ allowed: true, remaining: Number.POSITIVE_INFINITY });
    limiter.refund('a');
    expect(limiter.check('a')).toEqual({ allowed: true, remaining: Number.POSITIVE_INFINITY });
  });

  it('keeps the state of callers still refilling when it forgets idle ones among very many callers', () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const limiter = new RateLimiter(1, () => now);
    expect(limiter.take('busy').allowed).toBe(true);
    for (let i = 0; i < 10_000; i++) limiter.take(`one-off-${i}`);
    // Half a minute later a new caller arrives while the map is full: only fully refilled buckets may go.
    now += 30_000;
    expect(limiter.take('newcomer').allowed).toBe(true);
    expect(limiter.take('busy')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.take('one-off-1')).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it('is full again exactly one window after it was drained, kept or forgotten among very many callers', () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    // 59 a minute: 59 / 60,000 a millisecond, times 60,000, would be 58.99999999999999.
    const limiter = new RateLimiter(59, () => now);
    for (let i = 0; i < 59; i++) limiter.take('kept');
    expect(limiter.take('kept').allowed).toBe(false);
    now += 60_000;
    expect(limiter.take('kept')).toEqual({ allowed: true, remaining: 58 });

    for (let i = 0; i < 59; i++) limiter.take('busy');
    expect(limiter.take('busy').allowed).toBe(false);
    // With 'kept' and 'busy', 10,000 callers: the map is full when the newcomer arrives a whole window later.
    for (let i = 0; i < 9_998; i++) limiter.take(`one-off-${i}`);
    now += 60_000;
    limiter.take('newcomer');
    expect(limiter.take('busy')).toEqual({ allowed: true, remaining: 58 });
  });
});

describe('RateLimiter.check and refund', () => {
  it('checks without taking, and takes a refunded token again', () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.check('a')).toEqual({ allowed: true, remaining: 2 });
    limiter.take('a');
    limiter.take('a');
    expect(limiter.check('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    limiter.refund('a');
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0 });
    now += 30_000;
    expect(limiter.check('a').allowed).toBe(true);
  });

  it('never refunds above the limit', () => {
    const limiter = new RateLimiter(3, () => 0);
    limiter.refund('a');
    limiter.refund('a');
    expect(limiter.check('a')).toEqual({ allowed: true, remaining: 3 });
  });
});

describe('writeLimits', () => {
  it('allows FAILED_WRITES_FACTOR times as many failed attempts as writes, and none when writes are unlimited', () => {
    const limits = writeLimits(4);
    expect(limits.writes.perMinute).toBe(4);
    expect(limits.failedWrites.perMinute).toBe(4 * FAILED_WRITES_FACTOR);
    expect(writeLimits(0).failedWrites.perMinute).toBe(0);
  });

  it('counts writes and failed attempts in the shared limits when given them, so every server on the store counts together', async () => {
    // A store's shared limits: one bucket set per name, whichever server asks (the names are stored,
    // so a server of another version on the same store must find them under the same names).
    const asked: Array<[string, number]> = [];
    const byName = new Map<string, RateLimiter>();
    const shared: SharedRateLimits = {
      limit: (name, perMinute) => {
        asked.push([name, perMinute]);
        const limiter = byName.get(name) ?? new RateLimiter(perMinute, () => 0);
        byName.set(name, limiter);
        return limiter;
      },
    };
    const serverA = writeRateLimit(writeLimits(1, () => 0, shared));
    const serverB = writeRateLimit(writeLimits(1, () => 0, shared));
    expect(asked).toEqual([
      ['writes', 1],
      ['failed-writes', FAILED_WRITES_FACTOR],
      ['writes', 1],
      ['failed-writes', FAILED_WRITES_FACTOR],
    ]);
    expect((await call(serverA, 'k1')).ran).toBe(true);
    expect((await call(serverB, 'k1')).error?.code).toBe('rate_limited');
  });
});

interface Answer {
  headers: Record<string, string>;
  error?: ApiError;
  ran: boolean;
}

/** Runs a limit middleware for a request (with a key id or none) whose handler answers `status` or throws `thrown`. */
async function call(
  middleware: ReturnType<typeof requestRateLimit>,
  keyId: string | null,
  outcome: { status?: number; thrown?: unknown; ip?: string } = {},
): Promise<Answer> {
  const answer: Answer = { headers: {}, ran: false };
  let status = 404;
  const ctx = {
    ip: outcome.ip ?? '203.0.113.9',
    state: keyId ? { key: { id: keyId } } : {},
    set: (name: string, value: string) => {
      answer.headers[name] = value;
    },
    get status() {
      return status;
    },
  } as unknown as ParameterizedContext<ApiState>;
  try {
    await middleware(ctx, async () => {
      answer.ran = true;
      if (outcome.thrown !== undefined) throw outcome.thrown;
      status = outcome.status ?? 201;
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    answer.error = error;
  }
  return answer;
}

describe('writeRateLimit', () => {
  it('counts successful writes per key, with RateLimit headers, and answers 429 with Retry-After past the limit', async () => {
    const now = 0;
    const middleware = writeRateLimit(writeLimits(2, () => now));
    expect((await call(middleware, 'k1')).headers).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1' });
    expect((await call(middleware, 'k1')).headers).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0' });
    const over = await call(middleware, 'k1');
    expect(over.ran).toBe(false);
    expect(over.headers).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0' });
    expect(over.error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      hints: [],
      message: 'Too many writes with this API key (the limit is 2 successful writes a minute; failed requests do not count). Retry in 30 seconds.',
      headers: { 'Retry-After': '30' },
      extra: { retryAfterSeconds: 30, limitPerMinute: 2 },
    });
    expect((await call(middleware, 'k2')).ran).toBe(true);
  });

  it('leaves requests without a key, and every request when the limit is off, alone', async () => {
    const limited = writeRateLimit(writeLimits(1, () => 0));
    for (let i = 0; i < 3; i++) expect(await call(limited, null)).toEqual({ headers: {}, ran: true });
    const off = writeRateLimit(writeLimits(0, () => 0));
    for (let i = 0; i < 3; i++) expect(await call(off, 'k1')).toEqual({ headers: {}, ran: true });
  });

  it('gives back the token of a failed write (answered or thrown), and a 4xx uses a failed attempt until those run out', async () => {
    const middleware = writeRateLimit(writeLimits(1, () => 0));
    for (let i = 0; i < FAILED_WRITES_FACTOR; i++) {
      const failed = i % 2 === 0 ? await call(middleware, 'k1', { status: 400 }) : await call(middleware, 'k1', { thrown: new ApiError('validation_failed') });
      expect(failed.ran, `attempt ${i}`).toBe(true);
      // A thrown failure still reaches the client as the handler's own answer.
      if (i % 2 === 1) expect(failed.error?.code, `attempt ${i}`).toBe('validation_failed');
    }
    const stopped = await call(middleware, 'k1', { status: 201 });
    expect(stopped.ran).toBe(false);
    expect(stopped.error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many failed requests with this API key (the limit is 5 failed attempts a minute, apart from the 1 successful writes). Retry in 12 seconds.',
      hints: ['Fix what the earlier answers reported (their code and errors say what) before sending the post again.'],
      extra: { limitPerMinute: 5 },
    });
  });

  it('does not count a server error or a 429 as a failed attempt, but gives the token back', async () => {
    const middleware = writeRateLimit(writeLimits(1, () => 0));
    // More of each than the key's failed attempts: none of them may use one up.
    for (let i = 0; i < FAILED_WRITES_FACTOR + 1; i++) await call(middleware, 'k1', { status: 500 });
    for (let i = 0; i < FAILED_WRITES_FACTOR + 1; i++) await call(middleware, 'k1', { status: 429 });
    expect((await call(middleware, 'k1', { status: 201 })).ran).toBe(true);
    expect((await call(middleware, 'k1', { status: 201 })).error?.code).toBe('rate_limited');
  });

  it('keeps the token of a write answered below 400', async () => {
    const middleware = writeRateLimit(writeLimits(1, () => 0));
    await call(middleware, 'k1', { status: 399 });
    expect((await call(middleware, 'k1')).error?.code).toBe('rate_limited');
  });
});

describe('requestRateLimit', () => {
  it('limits per key, or per IP without one, naming which in the 429', async () => {
    const middleware = requestRateLimit(new RateLimiter(1, () => 0), 'validations');
    expect((await call(middleware, 'k1')).headers).toEqual({ 'RateLimit-Limit': '1', 'RateLimit-Remaining': '0' });
    const key = await call(middleware, 'k1');
    expect(key.ran).toBe(false);
    expect(key.headers['RateLimit-Remaining']).toBe('0');
    expect(key.error).toMatchObject({ status: 429, message: 'Too many validations from this API key (the limit is 1 a minute). Retry in 60 seconds.', headers: { 'Retry-After': '60' } });
    expect((await call(middleware, null)).ran).toBe(true);
    const ip = await call(middleware, null);
    expect(ip.error?.message).toBe('Too many validations from this IP address (the limit is 1 a minute). Retry in 60 seconds.');
    expect(ip.error?.hints).toEqual([]);
  });

  it('gives each key and each IP address a limit of its own', async () => {
    const middleware = requestRateLimit(new RateLimiter(1, () => 0), 'validations');
    expect((await call(middleware, 'k1')).ran).toBe(true);
    expect((await call(middleware, 'k2')).ran).toBe(true);
    expect((await call(middleware, null, { ip: '198.51.100.1' })).ran).toBe(true);
    expect((await call(middleware, null, { ip: '198.51.100.2' })).ran).toBe(true);
    expect((await call(middleware, 'k1')).error?.code).toBe('rate_limited');
    expect((await call(middleware, null, { ip: '198.51.100.1' })).error?.code).toBe('rate_limited');
  });

  it('is off at 0', async () => {
    const middleware = requestRateLimit(new RateLimiter(0, () => 0), 'validations');
    for (let i = 0; i < 3; i++) expect(await call(middleware, 'k1')).toEqual({ headers: {}, ran: true });
  });
});
