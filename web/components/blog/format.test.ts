import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPostDate, publishedDate } from './format';

const intl = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

describe('formatPostDate', () => {
  it('writes the UTC calendar date as "Month D, YYYY"', () => {
    expect(formatPostDate('2026-11-22T23:59:05.242Z')).toBe('November 22, 2026');
    expect(formatPostDate('2025-01-01T00:00:00.000Z')).toBe('January 1, 2025');
  });

  it('matches Intl.DateTimeFormat in UTC for any date from 1970 to 2199', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        expect(formatPostDate(date.toISOString())).toBe(intl.format(date));
      }),
      { numRuns: 500 },
    );
  });

  it('gives back text that is not a date unchanged', () => {
    expect(formatPostDate('not a date')).toBe('not a date');
  });

  it('uses the publication date, or the creation date of a post never published', () => {
    expect(publishedDate({ published_at: '2026-02-01T00:00:00Z', created_at: '2026-01-01T00:00:00Z' })).toBe('2026-02-01T00:00:00Z');
    expect(publishedDate({ published_at: null, created_at: '2026-01-01T00:00:00Z' })).toBe('2026-01-01T00:00:00Z');
  });
});
