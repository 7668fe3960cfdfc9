/**
 * Yearly contribution limits from one place (web/content/contribution-limits.ts): the figures are the
 * ones SPEC.md gives for their years, no content module writes one of them as a literal any more, and
 * every sentence of the copy that quotes a limit names its year.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { CONTRIBUTION_LIMITS, limitDollars, limitLabel } from '../../web/content/contribution-limits';
import * as comparisons from '../../web/content/comparisons';
import * as faq from '../../web/content/faq';
import * as home from '../../web/content/home';
import { sepComparisonContent } from '../../web/content/sep-comparison';

const CONTENT_DIR = path.join(import.meta.dirname, '../../web/content');
const LIMIT_FIGURES = ['$22,500', '$23,000', '$7,500', '$66,000', '$70,000', '$146,000'];

function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (typeof value === 'function') return into;
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

describe('contribution limits', () => {
  it('holds the figures SPEC.md gives, by year', () => {
    expect(CONTRIBUTION_LIMITS[2023]).toEqual({ k401: 22_500, ira: 7_000, sepPercent: 25, sep: 66_000 });
    expect(CONTRIBUTION_LIMITS[2024]).toMatchObject({ k401: 23_000, k401CatchUp: 7_500, rothIra: 7_000, rothCatchUp: 1_000, rothPhaseOutSingle: 146_000, rothPhaseOutJoint: 230_000 });
    expect(CONTRIBUTION_LIMITS[2025]).toEqual({ sepPercent: 25, sep: 70_000 });
    expect(limitDollars(CONTRIBUTION_LIMITS[2024].k401)).toBe('$23,000');
    expect(limitLabel(2024)).toBe('2024 limit');
  });

  it('is the only content module that writes a limit as a literal', () => {
    for (const file of readdirSync(CONTENT_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== 'contribution-limits.ts')) {
      const source = readFileSync(path.join(CONTENT_DIR, file), 'utf8');
      for (const figure of LIMIT_FIGURES) expect(source.includes(figure), `${file} writes ${figure}`).toBe(false);
    }
  });

  it('names the year in every sentence of the copy that quotes a limit', () => {
    const copy = [...strings(home), ...strings(faq), ...strings(comparisons), ...strings(sepComparisonContent(DEFAULT_SITE_CONFIG))];
    let quoted = 0;
    for (const text of copy) {
      if (/^\$[\d,]+$/.test(text)) continue; // a figure tile's value; its label names the year
      for (const sentence of text.split(/(?<=[.;])\s+/)) {
        if (!LIMIT_FIGURES.some((figure) => sentence.includes(figure))) continue;
        quoted += 1;
        expect(sentence, sentence).toMatch(/\b20(2[3-9])\b/);
      }
    }
    expect(quoted).toBeGreaterThan(10);
  });
});
