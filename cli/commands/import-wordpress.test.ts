import { describe, expect, it } from 'vitest';
import { progressLine } from './import-wordpress';

describe('the import progress line on a terminal', () => {
  it('counts what is done and estimates what is left from the pace so far', () => {
    expect(progressLine({ done: 100, total: 300, imported: 90, skipped: 6, failed: 4 }, 20_000)).toBe('100/300 posts: 90 imported, 6 skipped, 4 failed, about 40 s left');
    expect(progressLine({ done: 10, total: 300, imported: 10, skipped: 0, failed: 0 }, 10_000)).toBe('10/300 posts: 10 imported, 0 skipped, 0 failed, about 5 min left');
    expect(progressLine({ done: 300, total: 300, imported: 300, skipped: 0, failed: 0 }, 60_000)).toBe('300/300 posts: 300 imported, 0 skipped, 0 failed');
  });
});
