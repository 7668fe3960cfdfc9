import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverFileSize } from './cover';

const ID = '0123456789abcdef0123456789abcdef';

describe('coverFileSize', () => {
  it('gives the size of the variant the URL names when it is narrower than the picture', () => {
    expect(coverFileSize({ url: `/media/${ID}-1600.jpg`, width: 3200, height: 2000 })).toEqual({ width: 1600, height: 1000 });
    expect(coverFileSize({ url: `https://example.com/media/${ID}-960.png?v=1`, width: 1920, height: 1080 })).toEqual({ width: 960, height: 540 });
  });

  it("gives the picture's own size when the URL names no narrower width", () => {
    expect(coverFileSize({ url: `/media/${ID}-1200.jpg`, width: 1200, height: 800 })).toEqual({ width: 1200, height: 800 });
    expect(coverFileSize({ url: '/images/cover.jpg', width: 1200, height: 800 })).toEqual({ width: 1200, height: 800 });
  });

  it('keeps the aspect ratio within a pixel for any picture and variant width', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), (width, height, named) => {
        const size = coverFileSize({ url: `/media/${ID}-${named}.webp`, width, height });
        expect(size.width).toBe(Math.min(width, named));
        expect(size.height).toBeGreaterThanOrEqual(1);
        expect(Math.abs(size.height - (height * size.width) / width)).toBeLessThanOrEqual(1);
      }),
    );
  });
});
