import { describe, expect, it } from 'vitest';
import { isClientGone } from './app';

describe('isClientGone', () => {
  it('recognises a visitor who left while a response was being sent', () => {
    for (const code of ['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']) {
      expect(isClientGone(Object.assign(new Error('gone'), { code }))).toBe(true);
    }
  });

  it('leaves real failures to be logged', () => {
    expect(isClientGone(Object.assign(new Error('disk'), { code: 'EIO' }))).toBe(false);
    expect(isClientGone(new Error('no code'))).toBe(false);
    expect(isClientGone('text')).toBe(false);
  });
});
