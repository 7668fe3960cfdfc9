/**
 * Idempotency claims as a retrying client meets them: the first create is free, a retry with the same
 * body gets the first post (or waits for its write), another body is a conflict, an expired claim is
 * free again, a failed write frees its scope, and claims loaded at start-up count.
 */
import { describe, expect, it } from 'vitest';
import type { IdempotencyClaim, PostIndexEntry } from '../store';
import { IdempotencyClaims } from './idempotency-claims';

const HOUR = 60 * 60 * 1000;

function clock(start = '2026-01-01T00:00:00.000Z') {
  let now = new Date(start);
  return {
    now: () => now,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

const claim = (fingerprint = 'body-a', scope = 'scope-1'): IdempotencyClaim => ({ scope, fingerprint, ttlMs: HOUR });

function entry(id: string, c: IdempotencyClaim | null, expiresAt = '2026-01-01T01:00:00.000Z'): PostIndexEntry {
  return { id, idempotency: c ? { scope: c.scope, fingerprint: c.fingerprint, expiresAt } : null } as unknown as PostIndexEntry;
}

describe('IdempotencyClaims', () => {
  it('lets the first create go ahead', () => {
    expect(new IdempotencyClaims(clock().now).decide(claim())).toEqual({ kind: 'free' });
  });

  it('stores the expiry ttl after now', () => {
    expect(new IdempotencyClaims(clock().now).expiresAt(claim())).toBe('2026-01-01T01:00:00.000Z');
  });

  it('replays the stored post for the same body until the claim expires, then lets a create go ahead', () => {
    const time = clock();
    const claims = new IdempotencyClaims(time.now);
    const post = entry('p1', claim());
    claims.hold(claim(), 'p1', Promise.resolve(post));
    claims.settle(post, true);
    expect(claims.decide(claim())).toEqual({ kind: 'replayed', post });
    expect(claims.decide(claim('body-b'))).toEqual({ kind: 'conflict' });
    expect(claims.decide(claim('body-a', 'scope-2'))).toEqual({ kind: 'free' });
    time.advance(HOUR - 1);
    expect(claims.decide(claim()).kind).toBe('replayed');
    time.advance(1);
    expect(claims.decide(claim())).toEqual({ kind: 'free' });
    expect(claims.decide(claim('body-b'))).toEqual({ kind: 'free' });
  });

  it('makes a retry wait for a write under way, and refuses another body meanwhile', async () => {
    const claims = new IdempotencyClaims(clock().now);
    const post = entry('p1', claim());
    const written = Promise.resolve(post);
    claims.hold(claim(), 'p1', written);
    const decision = claims.decide(claim());
    expect(decision.kind).toBe('pending');
    if (decision.kind === 'pending') await expect(decision.written).resolves.toBe(post);
    expect(claims.decide(claim('body-b'))).toEqual({ kind: 'conflict' });
  });

  it('frees the scope of a failed write', () => {
    const claims = new IdempotencyClaims(clock().now);
    const post = entry('p1', claim());
    claims.hold(claim(), 'p1', Promise.resolve(post));
    claims.settle(post, false);
    expect(claims.decide(claim())).toEqual({ kind: 'free' });
  });

  it('keeps a newer hold of the same scope when an older write settles', () => {
    const claims = new IdempotencyClaims(clock().now);
    const older = entry('p1', claim());
    claims.hold(claim(), 'p1', Promise.resolve(older));
    claims.settle(older, false);
    claims.hold(claim(), 'p2', Promise.resolve(entry('p2', claim())));
    claims.settle(older, false);
    expect(claims.decide(claim()).kind).toBe('pending');
  });

  it('keeps the stored claim when a post whose hold already ended settles again', () => {
    const claims = new IdempotencyClaims(clock().now);
    const post = entry('p1', claim());
    claims.hold(claim(), 'p1', Promise.resolve(post));
    claims.settle(post, true);
    expect(() => claims.settle(post, true)).not.toThrow();
    expect(claims.decide(claim())).toEqual({ kind: 'replayed', post });
  });

  it('ignores a post without a claim', () => {
    const claims = new IdempotencyClaims(clock().now);
    claims.hold(claim(), 'p1', Promise.resolve(entry('p1', claim())));
    claims.settle(entry('p1', null), true);
    expect(claims.decide(claim()).kind).toBe('pending');
  });

  it('counts the unexpired claims of posts loaded at start-up', () => {
    const claims = new IdempotencyClaims(clock().now);
    const kept = entry('p1', claim());
    claims.load([kept, entry('p2', null), entry('p3', claim('body-c', 'scope-old'), '2025-12-31T23:59:59.000Z')]);
    expect(claims.decide(claim())).toEqual({ kind: 'replayed', post: kept });
    expect(claims.decide(claim('body-c', 'scope-old'))).toEqual({ kind: 'free' });
  });
});
