/**
 * The links' signatures: a signature checks for its own purpose and payload under its own key, and for
 * nothing else (another purpose, another payload, another key, one character changed, cut short).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkSigner } from './signed-links';

const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);

describe('linkSigner', () => {
  it('checks its own signature only', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), fc.string(), fc.integer({ min: 8, max: 43 }), fc.nat(), async (payload, other, length, at) => {
        const signer = linkSigner(() => Promise.resolve(keyA), length);
        const signature = await signer.sign('lead-opt-out', payload);
        expect(signature).toMatch(new RegExp(`^[A-Za-z0-9_-]{${length}}$`));
        expect(await signer.verify('lead-opt-out', payload, signature)).toBe(true);
        expect(await signer.verify('post-preview', payload, signature)).toBe(false);
        if (other !== payload) expect(await signer.verify('lead-opt-out', other, signature)).toBe(false);
        expect(await linkSigner(() => Promise.resolve(keyB), length).verify('lead-opt-out', payload, signature)).toBe(false);
        const i = at % signature.length;
        const changed = `${signature.slice(0, i)}${signature[i] === 'A' ? 'B' : 'A'}${signature.slice(i + 1)}`;
        expect(await signer.verify('lead-opt-out', payload, changed)).toBe(false);
        expect(await signer.verify('lead-opt-out', payload, signature.slice(0, -1))).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
