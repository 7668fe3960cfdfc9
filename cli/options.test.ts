import { InvalidArgumentError } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wholeNumber } from './options';

describe('wholeNumber', () => {
  const parse = wholeNumber('--retries', 1, 10);

  it('takes every whole number in range, with spaces around it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.constantFrom('', ' '), (n, pad) => {
        expect(parse(`${pad}${n}${pad}`)).toBe(n);
      }),
    );
  });

  it('refuses anything else with a message naming the option and the range', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        if (/^\s*\d{1,9}\s*$/.test(text) && Number(text) >= 1 && Number(text) <= 10) return;
        expect(() => parse(text)).toThrow(InvalidArgumentError);
        expect(() => parse(text)).toThrow('--retries takes a whole number from 1 to 10.');
      }),
      { numRuns: 500 },
    );
    for (const text of ['0', '11', '-1', '2.5', '1e1', 'Infinity', 'NaN', '0x5', '9'.repeat(20)]) expect(() => parse(text), text).toThrow(InvalidArgumentError);
  });
});
