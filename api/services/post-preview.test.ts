import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewTokens } from './post-preview';

const KEY = randomBytes(32);
const tokens = previewTokens(async () => KEY);
const NOW = new Date('2026-11-02T15:00:00Z');

describe('preview tokens', () => {
  it('name any post id for 7 days to the second, then are expired', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 60, unit: 'binary' }), async (id) => {
        const { token, expiresAt } = await tokens.make(id, NOW);
        expect(expiresAt.toISOString()).toBe('2026-11-09T15:00:00.000Z');
        expect(await tokens.check(token, NOW)).toEqual({ kind: 'good', postId: id, expiresAt });
        expect(await tokens.check(token, new Date(expiresAt.getTime() - 1))).toMatchObject({ kind: 'good' });
        expect(await tokens.check(token, expiresAt)).toEqual({ kind: 'expired', postId: id, expiresAt });
      }),
      { numRuns: 50 },
    );
  });

  it('refuse any change to a token, a token made with another key, and text that is no token', async () => {
    const { token } = await tokens.make('post-1', NOW);
    const other = await previewTokens(async () => randomBytes(32)).make('post-1', NOW);
    expect(await tokens.check(other.token, NOW)).toEqual({ kind: 'bad' });
    await fc.assert(
      fc.asyncProperty(fc.nat(token.length - 1), fc.constantFrom(...'ABCabc019_-.x'), async (at, char) => {
        const changed = `${token.slice(0, at)}${char}${token.slice(at + 1)}`;
        fc.pre(changed !== token);
        expect(await tokens.check(changed, NOW)).toEqual({ kind: 'bad' });
      }),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (text) => {
        fc.pre(text !== token);
        expect(await tokens.check(text, NOW)).toEqual({ kind: 'bad' });
      }),
    );
  });
});
