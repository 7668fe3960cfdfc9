/**
 * The SEP IRA vs IUL page's copy (web/content/sep-comparison.ts): four tiles, the explainer (with the
 * SIMPLE IRA), the comparison rows, four reasons and the "when a SEP IRA is better" caveat; every
 * spec figure for the page; the product name from the config; SEO lengths.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sepComparisonContent } from '../../web/content/sep-comparison';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../contract/site-config';
import { SEP_PAGE_FIGURES } from '../support/spec-figures';

const text = z.string().min(2);
const idOf = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

const schema = z.object({
  seo: z.object({ title: z.string().min(5).max(120), description: z.string().min(15).max(160) }),
  hero: z.object({ eyebrow: text, heading: text, lead: text, buttonLabel: text, guideLinkLabel: text }),
  statsHeading: text,
  stats: z.array(z.object({ id: idOf, value: z.string().min(1), label: text, detail: text })).length(4),
  explainer: z.object({
    heading: text,
    intro: text,
    blocks: z.array(z.object({ id: idOf, heading: text, paragraphs: z.array(text).min(1), bullets: z.array(text).optional() })).min(2),
  }),
  comparison: z.object({
    heading: text,
    intro: text,
    caption: text,
    sepHeader: text,
    iulHeader: text,
    rows: z.array(z.object({ id: idOf, feature: text, sepIra: text, iul: text, explanation: z.string().min(60) })).min(6),
  }),
  reasons: z.object({ heading: text, intro: text, items: z.array(z.object({ id: idOf, title: text, text })).length(4) }),
  whenSep: z.object({ heading: text, intro: text, bullets: z.array(text).min(2), closing: text }),
  cta: z.object({ heading: text, text }),
  disclaimer: text,
});

const content = sepComparisonContent(DEFAULT_SITE_CONFIG);
const serialized = JSON.stringify(content);


describe('SEP comparison copy', () => {
  it('matches its schema: 4 tiles, 4 reasons, a comparison table', () => {
    expect(() => schema.parse(content)).not.toThrow();
    expect(content.stats).toHaveLength(4);
    expect(content.reasons.items).toHaveLength(4);
  });

  it('has unique ids in every list', () => {
    for (const list of [content.stats, content.explainer.blocks, content.comparison.rows, content.reasons.items]) {
      const ids = list.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it.each(SEP_PAGE_FIGURES)('quotes the spec figure %s', (figure) => {
    expect(serialized).toContain(figure);
  });

  it('shows the 2025 and 2023 SEP IRA limits, RMDs at 73, 59½ and the IUL floor on the tiles', () => {
    const tiles = JSON.stringify(content.stats);
    for (const figure of ['25% of compensation or $70,000', '25% of pay or $66,000', '73', '59½', '10% penalty', '0-1%']) {
      expect(tiles, figure).toContain(figure);
    }
  });

  it('explains the SEP IRA and mentions the SIMPLE IRA without figures the spec does not give', () => {
    const simple = content.explainer.blocks.find((block) => block.id === 'simple-ira');
    expect(simple?.heading).toContain('SIMPLE IRA');
    expect(JSON.stringify(simple)).not.toMatch(/\$\d|\d+%/);
    expect(content.explainer.heading).toContain('SEP IRA');
  });

  it('is balanced: says when a SEP IRA may be better, including the deduction now', () => {
    expect(content.whenSep.heading).toMatch(/SEP IRA may be the better/);
    expect(content.whenSep.bullets.join(' ')).toMatch(/deduction now/);
  });

  it('warns that loans reduce the death benefit and that projections are not guaranteed', () => {
    expect(serialized).toMatch(/loans? (accrue interest and )?reduce the (cash value and )?death benefit/i);
    expect(content.disclaimer).toMatch(/not guarantees/);
    expect(content.disclaimer).toMatch(/not a solicitation/);
  });

  it('takes the product name from the config', () => {
    const other: SiteConfig = { ...DEFAULT_SITE_CONFIG, productName: 'Test Product Plan', productSlug: 'test-product' };
    const otherCopy = sepComparisonContent(other);
    expect(otherCopy.hero.heading).toContain('Test Product Plan');
    expect(otherCopy.comparison.iulHeader).toBe('Test Product Plan');
    expect(JSON.stringify(otherCopy)).not.toContain(DEFAULT_SITE_CONFIG.productName);
    for (const literal of [DEFAULT_SITE_CONFIG.phoneDisplay, DEFAULT_SITE_CONFIG.email, DEFAULT_SITE_CONFIG.productSlug]) {
      expect(serialized).not.toContain(literal);
    }
  });

  it('keeps SEP IRA in the title and heading', () => {
    expect(content.seo.title).toContain('SEP IRA');
    expect(content.hero.heading).toContain('SEP IRA');
  });
});
