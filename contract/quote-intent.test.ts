/**
 * The quote form's one-time token and the request's reference, as the server reads them from a form
 * and an address: every token the server can make is read back as itself, nothing else is ever taken
 * for a token (so a field tampered with is no token, not a second name of one), and a reference reads
 * back in any case, never from anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFormToken, parseQuoteReference, quoteReference, REFERENCE_ALPHABET, REFERENCE_DIGITS, thankYouPath } from './quote-intent';

/** 16 bytes as base64url without padding, as the server writes a token (node's Buffer, spelled out here). */
function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The 16 bytes a token spells, or null when it is not 22 characters of base64url. */
function decoded(token: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return null;
  const binary = atob(`${token.replaceAll('-', '+').replaceAll('_', '/')}==`);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

const tokenBytes = fc.uint8Array({ minLength: 16, maxLength: 16 });
const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('parseFormToken', () => {
  it('reads every token the server can make (128 random bits) back as itself', () => {
    fc.assert(
      fc.property(tokenBytes, (bytes) => {
        const token = base64url(bytes);
        expect(token).toHaveLength(22);
        expect(parseFormToken(token)).toBe(token);
      }),
    );
  });

  it('takes nothing else for a token: what it accepts is exactly the one spelling of 16 bytes', () => {
    const nearTokens = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 20, maxLength: 24 }),
      fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 22, maxLength: 22 }),
      tokenBytes.map((bytes) => ` ${base64url(bytes)}`),
      tokenBytes.map((bytes) => base64url(bytes).replace(/^./, '+')),
      tokenBytes.map((bytes) => `${base64url(bytes)}=`),
    );
    fc.assert(
      fc.property(nearTokens, (text) => {
        const parsed = parseFormToken(text);
        if (parsed === null) return;
        expect(parsed).toBe(text);
        const bytes = decoded(text);
        expect(bytes).not.toBeNull();
        // Canonical: the bytes it names spell it back exactly (no second token for the same bits).
        expect(base64url(bytes ?? new Uint8Array())).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers null for what a form field can hold that is no token', () => {
    for (const value of [undefined, null, '', 'x', 42, {}, ['AAAAAAAAAAAAAAAAAAAAAA'], 'AAAAAAAAAAAAAAAAAAAAAB', 'AAAAAAAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAA+A', 'AAAAAAAAAAAAAAAAAAAAA\n']) {
      expect(parseFormToken(value)).toBeNull();
    }
    expect(parseFormToken('AAAAAAAAAAAAAAAAAAAAAA')).toBe('AAAAAAAAAAAAAAAAAAAAAA');
    expect(parseFormToken('_-_-_-_-_-_-_-_-_-_-_w')).toBe('_-_-_-_-_-_-_-_-_-_-_w');
  });
});

describe('references', () => {
  const digits = fc.array(fc.integer({ min: 0, max: REFERENCE_ALPHABET.length - 1 }), { minLength: REFERENCE_DIGITS, maxLength: REFERENCE_DIGITS });

  it('spells 60 random bits as three groups of four, read back as they are and in lower case', () => {
    fc.assert(
      fc.property(digits, (numbers) => {
        const reference = quoteReference(numbers);
        expect(reference).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
        expect(reference).not.toMatch(/[ILOU]/);
        expect(parseQuoteReference(reference)).toBe(reference);
        expect(parseQuoteReference(` ${reference.toLowerCase()} `)).toBe(reference);
        expect(thankYouPath(reference)).toBe(`/get-quote/thank-you?ref=${reference}`);
      }),
    );
  });

  it('reads nothing else as a reference', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseQuoteReference(text);
        if (parsed !== null) expect(parsed).toBe(text.trim().toUpperCase());
      }),
      { numRuns: 2000 },
    );
    for (const value of [null, undefined, 7, '', 'AAAA-BBBB-CCC', 'AAAA-BBBB-CCCCC', 'AAAABBBBCCCC', 'AAAA-BBBB-CCCI', 'OOOO-0000-0000', 'AAAA_BBBB_CCCC', '<b>A-B-C</b>']) {
      expect(parseQuoteReference(value)).toBeNull();
    }
  });

  it('refuses to spell anything but 12 numbers from 0 to 31', () => {
    expect(() => quoteReference([1, 2, 3])).toThrow(RangeError);
    expect(() => quoteReference(Array.from({ length: 12 }, () => 32))).toThrow(RangeError);
    expect(() => quoteReference(Array.from({ length: 12 }, () => 1.5))).toThrow(RangeError);
  });
});
