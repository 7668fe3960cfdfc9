/**
 * The PostgreSQL notification of a post change (decision 0036): what a server announces is read back
 * by the others as the same change, a change too large for NOTIFY reads as "everything", and whatever
 * arrives on the channel (an older server's payload, anything else) never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postsChangedPayload, readPostsChanged } from './posts';

describe('the notification of a post change', () => {
  it('reads back what was announced: the same origin and scopes, or no scopes (everything) when they do not fit in NOTIFY', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 600 }), (origin, scopes) => {
        const payload = postsChangedPayload({ origin, scopes });
        expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(8_000);
        const read = readPostsChanged(payload);
        if (read?.scopes) expect(read).toEqual({ origin, scopes });
        else expect(read).toEqual({ origin });
      }),
    );
    const many = Array.from({ length: 300 }, (_, n) => `post:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
    expect(readPostsChanged(postsChangedPayload({ origin: 'o', scopes: many }))).toEqual({ origin: 'o' });
    expect(readPostsChanged(postsChangedPayload({ origin: 'o', scopes: many.slice(0, 100) }))).toEqual({ origin: 'o', scopes: many.slice(0, 100) });
  });

  it("reads an older server's payloads as changes from elsewhere: with their scopes, or of everything", () => {
    expect(readPostsChanged(JSON.stringify({ revision: 12, scopes: ['post:a', 'list'] }))).toEqual({ scopes: ['post:a', 'list'] });
    expect(readPostsChanged('12')).toEqual({});
    expect(readPostsChanged(JSON.stringify({ revision: 12 }))).toEqual({});
  });

  it('never throws on whatever arrives, and gives scopes only when every one is text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((value) => JSON.stringify(value))), (payload) => {
        const read = readPostsChanged(payload);
        if (read === null) return;
        if (read.scopes !== undefined) expect(read.scopes.every((scope) => typeof scope === 'string')).toBe(true);
        if (read.origin !== undefined) expect(typeof read.origin).toBe('string');
      }),
    );
    expect(readPostsChanged(undefined)).toBeNull();
    expect(readPostsChanged('{"scopes": [1, "post:a"]}')).toEqual({});
  });
});
