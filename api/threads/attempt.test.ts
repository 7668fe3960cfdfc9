import { describe, expect, it } from 'vitest';
import { attempt } from './attempt';

describe('attempt', () => {
  it('resolves with a value, and with the very promise a function returns', async () => {
    await expect(attempt(() => 42)).resolves.toBe(42);
    const promise = Promise.resolve('same');
    expect(attempt(() => promise)).toBe(promise);
  });

  it('turns a throw into a rejection, with an Error for anything thrown', async () => {
    await expect(attempt(() => {
      throw new TypeError('bad');
    })).rejects.toThrow(TypeError);
    await expect(attempt(() => {
      throw 'text';
    })).rejects.toThrow('text');
  });
});
