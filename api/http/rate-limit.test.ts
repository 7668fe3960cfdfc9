import { describe, expect, it } from 'vitest';
import { FAILED_WRITES_FACTOR, RateLimiter, writeLimits } from './rate-limit';

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
    for (let i = 0; i < 1000; i++) expect(limiter.take('a').allowed).toBe(true);
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
});
