/**
 * The privacy policy says how many pages measure the site's speed as the site is set up
 * (RUM_SAMPLE_RATE), not as a default it may not use; with the measuring off it says so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { privacyPolicy } from '../../web/content/privacy-policy';

function speedSection(rumSampleRate: number): string {
  const section = privacyPolicy({ ...DEFAULT_SITE_CONFIG, rumSampleRate }).find((part) => part.id === 'site-speed');
  return section?.paragraphs.join(' ') ?? '';
}

describe("the privacy policy's speed measuring", () => {
  it('names the share of pages the site is set up to measure', () => {
    expect(speedSection(DEFAULT_SITE_CONFIG.rumSampleRate)).toContain('one in ten of the pages you open (chosen at random in your browser');
    expect(speedSection(1)).toContain('every page you open (chosen at random');
    expect(speedSection(0.25)).toContain('one in four of the pages you open');
    expect(speedSection(0.37)).toContain('about 37% of the pages you open');
    expect(speedSection(0.0004)).toContain('about 0.1% of the pages you open');
  });

  it('says the site does not measure its speed when the rate is 0', () => {
    expect(speedSection(0)).toMatch(/^This site does not measure its speed in your browser at present\./);
    expect(speedSection(0)).not.toContain('one in ten');
  });

  it('never words a rate above 0 as none, nor a share beyond every page', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.000001, max: 1, noNaN: true }), (rate) => {
        const words = /measures how quickly/.test(speedSection(rate)) ? (/computers, (.*?) \(chosen at random/.exec(speedSection(rate))?.[1] ?? '') : '';
        expect(words).toMatch(/pages? you open$/);
        const percent = /about ([\d.]+)%/.exec(words)?.[1];
        if (percent) expect(Number(percent)).toBeGreaterThan(0);
        if (percent) expect(Number(percent)).toBeLessThanOrEqual(100);
      }),
    );
  });
});
