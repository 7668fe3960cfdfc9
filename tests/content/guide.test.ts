/**
 * The Ultimate Guide as content: the anchors and contents of SPEC section 2, the counts (five structure
 * cards, five implementation steps, eight whole-life rows, three next steps), the case study and every
 * other figure of SPEC section 9 that belongs to the guide, the disclosures, the house rules on loans
 * and projections, and the Article / FAQPage structured data.
 */
import { describe, expect, it } from 'vitest';
import { GUIDE_FAQS } from '../../web/content/faq';
import { COMMON_MISTAKES, COMMON_QUESTIONS, GUIDE_CLOSING_CTA, GUIDE_DISCLOSURES, NEXT_STEPS } from '../../web/content/guide/closing';
import {
  FOUR_01K_INTRO,
  IUL_VS_WHOLE_LIFE_ROWS,
  ROTH_INTRO,
  WHICH_OPTION,
  WHOLE_LIFE_CARDS,
  WHOLE_LIFE_INTRO,
} from '../../web/content/guide/comparisons';
import { GUIDE_CASE_STUDY, IMPLEMENTATION } from '../../web/content/guide/implementation';
import {
  CONTENTS_COPY,
  GUIDE_ANCHORS,
  GUIDE_DESCRIPTION,
  OPTIMAL_STRUCTURE,
  PROTECTION_FEATURES,
  TAX_ADVANTAGES,
  WHAT_IS_IUL,
  guideContents,
  guideHero,
  guideTitle,
  whatIsIulTitle,
} from '../../web/content/guide/overview';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { guideArticleJsonLd } from '../../web/routes/ultimate-guide/article-jsonld';
import { faqPageJsonLd } from '../../web/seo/faq-jsonld';
import { GUIDE_FIGURES } from '../support/spec-figures';

/** Every string inside a content value, however deeply nested. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The guide's own static copy (the parts that do not depend on the site config). */
const STATIC_COPY = [
  CONTENTS_COPY,
  WHAT_IS_IUL,
  TAX_ADVANTAGES,
  PROTECTION_FEATURES,
  OPTIMAL_STRUCTURE,
  IMPLEMENTATION,
  GUIDE_CASE_STUDY,
  ROTH_INTRO,
  FOUR_01K_INTRO,
  WHOLE_LIFE_INTRO,
  WHOLE_LIFE_CARDS,
  IUL_VS_WHOLE_LIFE_ROWS,
  WHICH_OPTION,
  COMMON_MISTAKES,
  COMMON_QUESTIONS,
  NEXT_STEPS,
  GUIDE_DISCLOSURES,
  GUIDE_CLOSING_CTA,
  GUIDE_FAQS,
  GUIDE_DESCRIPTION,
];
const GUIDE_TEXT = [...strings(STATIC_COPY), ...strings(guideHero(DEFAULT_SITE_CONFIG))].join('\n');


const CASE_STUDY_FIGURES = ['45', '$75,000', '$1,450,000', '$116,000 a year', '25 years', '$2,900,000', '$750,000', '$1,600,000', '$64,000 a year'] as const;

describe('guide contents and anchors', () => {
  it('lists the ten anchors of the spec in order, each once, in both views', () => {
    expect(GUIDE_ANCHORS).toEqual([
      'what-is-iul',
      'tax-advantages',
      'protection-features',
      'optimal-structure',
      'implementation',
      'iul-vs-roth',
      'iul-vs-401k',
      'iul-vs-whole-life',
      'common-questions',
      'next-steps',
    ]);
    const contents = guideContents(DEFAULT_SITE_CONFIG);
    expect(contents.map((entry) => entry.id)).toEqual([...GUIDE_ANCHORS]);
    for (const entry of contents) {
      expect(entry.title.length).toBeGreaterThan(3);
      expect(entry.summary.length).toBeGreaterThan(20);
    }
    expect([CONTENTS_COPY.listTab, CONTENTS_COPY.tableTab]).toEqual(['List View', 'Table View']);
  });

  it('gives each anchored section the id its contents entry links to', () => {
    const sectionIds = [
      WHAT_IS_IUL.id,
      TAX_ADVANTAGES.id,
      PROTECTION_FEATURES.id,
      OPTIMAL_STRUCTURE.id,
      IMPLEMENTATION.id,
      ROTH_INTRO.id,
      FOUR_01K_INTRO.id,
      WHOLE_LIFE_INTRO.id,
      COMMON_QUESTIONS.id,
      NEXT_STEPS.id,
    ];
    expect(sectionIds).toEqual([...GUIDE_ANCHORS]);
  });

  it('takes the product name from the config, never from a literal', () => {
    const config = { ...DEFAULT_SITE_CONFIG, productName: 'Acme Growth IUL' };
    expect(guideTitle(config)).toBe('The Ultimate Guide to Acme Growth IUL');
    expect(whatIsIulTitle(config)).toBe('What Is Acme Growth IUL?');
    expect(guideContents(config)[0]?.title).toBe('What Is Acme Growth IUL?');
    expect(guideHero(config).title).toContain('Ultimate Guide');
    for (const text of strings(STATIC_COPY)) {
      expect(text).not.toMatch(/[{}]/);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.productName);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.productSlug);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.phoneDisplay);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.email);
    }
  });
});

describe('guide counts', () => {
  it('has five numbered structure cards and five implementation steps', () => {
    expect(OPTIMAL_STRUCTURE.cards).toHaveLength(5);
    expect(IMPLEMENTATION.steps).toHaveLength(5);
    expect(IMPLEMENTATION.designElements.length).toBeGreaterThanOrEqual(4);
    expect(IMPLEMENTATION.illustrationChecks.length).toBeGreaterThanOrEqual(4);
  });

  it('compares IUL with whole life in two cards and the eight rows of the spec', () => {
    expect(WHOLE_LIFE_CARDS.map((card) => card.id)).toEqual(['iul', 'whole-life']);
    expect(IUL_VS_WHOLE_LIFE_ROWS.map((row) => [row.id, row.feature])).toEqual([
      ['premium-structure', 'Premium structure'],
      ['cash-value-growth', 'Cash value growth'],
      ['retirement-income-potential', 'Retirement income potential'],
      ['policy-costs', 'Policy costs'],
      ['risk-profile', 'Risk profile'],
      ['policy-loans', 'Policy loans'],
      ['customisation', 'Customisation'],
      ['best-use-case', 'Best use case'],
    ]);
    for (const row of IUL_VS_WHOLE_LIFE_ROWS) {
      expect(row.iul.length, row.id).toBeGreaterThan(5);
      expect(row.wholeLife.length, row.id).toBeGreaterThan(5);
      expect(row.explanation.length, row.id).toBeGreaterThan(100);
    }
    expect(WHICH_OPTION.title).toBe('Which Option Is Right For You');
    expect(WHICH_OPTION.options).toHaveLength(2);
  });

  it('has three next steps: consultation, personalised analysis, implementation', () => {
    expect(NEXT_STEPS.steps.map((step) => step.title)).toEqual([
      'Schedule a consultation',
      'Receive your personalised analysis',
      'Implementation',
    ]);
  });

  it('has a further section of common mistakes', () => {
    expect(COMMON_MISTAKES.mistakes.length).toBeGreaterThanOrEqual(4);
  });
});

describe('guide figures', () => {
  it.each(GUIDE_FIGURES)('quotes the spec figure %s', (figure) => {
    expect(GUIDE_TEXT).toContain(figure);
  });

  it('tells the case study of the spec, labelled a hypothetical projection', () => {
    const caseText = strings(GUIDE_CASE_STUDY).join('\n');
    for (const figure of CASE_STUDY_FIGURES) expect(caseText).toContain(figure);
    expect(GUIDE_CASE_STUDY.summary).toContain('45-year-old');
    expect(GUIDE_CASE_STUDY.badge).toBe('Hypothetical projection');
    expect(GUIDE_CASE_STUDY.disclaimer).toMatch(/not guaranteed/);
    expect(GUIDE_CASE_STUDY.results.map((r) => r.value)).toEqual(['$75,000', '$1,450,000', '$116,000 a year', '$2,900,000', '$750,000']);
    expect(GUIDE_CASE_STUDY.alternative.results.map((r) => r.value)).toEqual(['$1,600,000', '$64,000 a year']);
    // $116,000 a year for 25 years is the $2,900,000 total.
    expect(116_000 * 25).toBe(2_900_000);
  });

  it('presents the 30-50% income figure only as what illustrations often show', () => {
    for (const text of strings(STATIC_COPY)) {
      if (text.includes('30-50%')) expect(text).toMatch(/illustrations often show/i);
    }
  });

  it('says that loans reduce the death benefit wherever a passage discusses policy loans', () => {
    const passages = [
      ...strings([WHAT_IS_IUL, TAX_ADVANTAGES, PROTECTION_FEATURES, OPTIMAL_STRUCTURE, COMMON_MISTAKES]),
      ...IUL_VS_WHOLE_LIFE_ROWS.map((row) => row.explanation),
      strings(IMPLEMENTATION.illustrationChecks).join(' '),
      strings(GUIDE_CASE_STUDY).join(' '),
    ];
    for (const text of passages) {
      if (/policy loans|\bloans (reduce|that)|borrowed too heavily/i.test(text)) {
        expect(text).toMatch(/reduce (the |your )?(cash value and the )?death benefit|less any outstanding policy loans/i);
      }
    }
  });
});

describe('guide disclosures and head', () => {
  it('discloses informational purpose, projections, loans, insurer guarantees and tax advice', () => {
    const text = GUIDE_DISCLOSURES.items.join(' ');
    expect(text).toMatch(/informational and is not a solicitation/);
    expect(text).toMatch(/projections .*not guaranteed/);
    expect(text).toMatch(/loans and withdrawals reduce the cash value and the death benefit/i);
    expect(text).toMatch(/claims-paying ability/);
    expect(text).toMatch(/Consult a tax advisor/);
  });

  it('keeps the title and description within the SEO lengths, the title naming the Ultimate Guide', () => {
    const title = guideTitle(DEFAULT_SITE_CONFIG);
    expect(title).toContain('Ultimate Guide');
    expect(title.length).toBeGreaterThanOrEqual(5);
    expect(title.length).toBeLessThanOrEqual(120);
    expect(GUIDE_DESCRIPTION.length).toBeGreaterThanOrEqual(15);
    expect(GUIDE_DESCRIPTION.length).toBeLessThanOrEqual(160);
  });

  it('builds Article data with the agency as author and publisher', () => {
    const url = `${DEFAULT_SITE_CONFIG.siteUrl}${productPaths(DEFAULT_SITE_CONFIG).ultimateGuide}`;
    const article = guideArticleJsonLd(DEFAULT_SITE_CONFIG, url) as unknown as Record<string, unknown>;
    expect(article).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: guideTitle(DEFAULT_SITE_CONFIG),
      description: GUIDE_DESCRIPTION,
      url,
      author: { '@type': 'Organization', name: DEFAULT_SITE_CONFIG.agencyName },
      publisher: { '@type': 'Organization', name: DEFAULT_SITE_CONFIG.agencyName },
    });
  });

  it('builds FAQPage data from the eight guide questions', () => {
    const ld = faqPageJsonLd(GUIDE_FAQS);
    const entities = ld.mainEntity as unknown as Array<{ name: string }>;
    expect(entities.map((e) => e.name)).toEqual(GUIDE_FAQS.map((item) => item.question));
  });
});
