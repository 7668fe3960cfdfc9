/**
 * The home page's content modules: every figure SPEC sections 1, 2 and 9 quote for the home page is
 * present exactly as written, the counts and ids are the spec's, the product name comes from the
 * config, and the head stays within the SEO lengths.
 */
import { describe, expect, it } from 'vitest';
import { CASE_STUDIES, CASE_STUDY_DISCLAIMER } from '../../web/content/case-studies';
import {
  HOME_COMPARISON_COLUMNS,
  HOME_COMPARISON_ROWS,
  IUL_VS_401K_ROWS,
  IUL_VS_ROTH_ROWS,
  LIVING_BENEFITS_CATEGORY_ID,
} from '../../web/content/comparisons';
import { GENERAL_FAQS } from '../../web/content/faq';
import {
  COMPOUND_GROWTH,
  HOME_SECTION_IDS,
  NOAHS_ARK,
  RIGHT_FOR_YOU,
  SEED_HARVEST,
  TAX_TRAIN,
  THREE_BUCKETS,
  benefitsContent,
  heroContent,
  homeMeta,
  whatIsContent,
} from '../../web/content/home';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../contract/site-config';
import { HOME_SPEC_FIGURES } from '../support/spec-figures';

const OTHER_CONFIG: SiteConfig = { ...DEFAULT_SITE_CONFIG, productName: 'Zephyr Plan', agencyName: 'Example Agency' };

/** All the home page's copy as one text, built with the given config. */
function homeText(config: SiteConfig): string {
  return JSON.stringify([
    heroContent(config),
    whatIsContent(config),
    NOAHS_ARK,
    TAX_TRAIN,
    SEED_HARVEST,
    THREE_BUCKETS,
    benefitsContent(config),
    RIGHT_FOR_YOU,
    COMPOUND_GROWTH,
    CASE_STUDIES,
    HOME_COMPARISON_ROWS,
    IUL_VS_ROTH_ROWS,
    IUL_VS_401K_ROWS,
  ]);
}

describe('spec figures', () => {
  const text = homeText(DEFAULT_SITE_CONFIG);
  it.each(HOME_SPEC_FIGURES)('the home content contains %s', (figure) => {
    expect(text).toContain(figure);
  });
});

describe('hero', () => {
  it('has the four claims exactly', () => {
    expect(heroContent(DEFAULT_SITE_CONFIG).claims.map((c) => `${c.value} ${c.label}`.toLowerCase())).toEqual([
      '$200k+ annual tax-free income',
      '0% market loss risk',
      '100% tax-free growth',
      '24/7 access to funds',
    ]);
  });

  it('has the spec button labels and says income is a projection', () => {
    const hero = heroContent(DEFAULT_SITE_CONFIG);
    expect(hero.ctaLabel).toBe('Get Your Free IUL Illustration');
    expect(hero.mobileCallLabel).toBe('Questions? Call Now');
    expect(hero.claimsNote).toMatch(/projections/);
    expect(hero.claimsNote).toMatch(/not guarantees/);
  });
});

describe('sections', () => {
  it('lists the section ids in the page order of the spec, with every in-page anchor', () => {
    expect(HOME_SECTION_IDS).toEqual([
      'hero',
      'how-it-works',
      'noahs-ark',
      'tax-train',
      'seed-harvest',
      'three-buckets',
      'benefits',
      'right-for-you',
      'comparison',
      'calculator',
      'iul-vs-roth',
      'iul-vs-401k',
      'case-studies',
      'faq',
      'get-started',
    ]);
    const index = (id: string) => HOME_SECTION_IDS.indexOf(id as (typeof HOME_SECTION_IDS)[number]);
    // SPEC section 2: how-it-works, benefits, comparison, compound growth, roth, 401k, case studies, faq.
    const order = ['how-it-works', 'benefits', 'comparison', 'calculator', 'iul-vs-roth', 'iul-vs-401k', 'case-studies', 'faq'];
    expect(order.map(index)).toEqual([...order.map(index)].sort((a, b) => a - b));
    expect(order.every((id) => index(id) >= 0)).toBe(true);
  });

  it('compares Standard with Max Funded', () => {
    const content = whatIsContent(DEFAULT_SITE_CONFIG);
    expect(content.comparisonHeading).toBe('Standard versus Max Funded');
    expect(content.designs.map((d) => d.title)).toEqual(['Standard IUL', 'Max Funded IUL']);
  });

  it('has the Tax Train stations past 70%, present 37%, future unknown', () => {
    expect(TAX_TRAIN.stations.map((s) => [s.period, s.rate])).toEqual([
      ['Past', '70%'],
      ['Present', '37%'],
      ['Future', 'Unknown'],
    ]);
    expect(TAX_TRAIN.figures.map((f) => f.value)).toEqual(['$34 trillion', 'Over $150 trillion']);
  });

  it('has seed-versus-harvest with both options', () => {
    expect(SEED_HARVEST.options.map((o) => o.title)).toEqual(['Tax the harvest', 'Tax the seed']);
  });

  it('has four bucket columns in the spec order', () => {
    expect(THREE_BUCKETS.buckets.map((b) => b.title)).toEqual([
      'Tax-Deferred',
      'Government Tax-Free',
      'Insurance Tax-Free',
      'Taxable',
    ]);
  });

  it('has four numbered headline benefits and six benefit cards', () => {
    const benefits = benefitsContent(DEFAULT_SITE_CONFIG);
    expect(benefits.headline).toHaveLength(4);
    expect(benefits.cards).toHaveLength(6);
    expect(new Set(benefits.cards.map((c) => c.title)).size).toBe(6);
  });

  it('has the is-it-right-for-you lists and actions', () => {
    expect(RIGHT_FOR_YOU.perfectHeading).toBe('Perfect For You If');
    expect(RIGHT_FOR_YOU.notIdealHeading).toBe('May Not Be Ideal If');
    expect(RIGHT_FOR_YOU.perfect.length).toBeGreaterThanOrEqual(4);
    expect(RIGHT_FOR_YOU.notIdeal.length).toBeGreaterThanOrEqual(4);
    expect(RIGHT_FOR_YOU.requestLabel).toBe('Request My Free Illustration');
  });

  it('quotes the compound-growth examples verbatim and lists the three accelerators', () => {
    expect(COMPOUND_GROWTH.examples.map((e) => e.text)).toEqual([HOME_SPEC_FIGURES[8], HOME_SPEC_FIGURES[9]]);
    expect(COMPOUND_GROWTH.accelerators.map((a) => a.title)).toEqual(['Start early', 'Increase returns', 'Eliminate taxes']);
    expect(COMPOUND_GROWTH.illustrationNote).toMatch(/different figures/);
  });
});

describe('comparison rows', () => {
  it('has the home table: six products, eight rows, the living-benefits category and five sub-rows', () => {
    expect(HOME_COMPARISON_COLUMNS.map((c) => c.key)).toEqual([
      'iul',
      'traditional401k',
      'traditionalIRA',
      'rothIRA',
      'sepIRA',
      'investmentPortfolio',
    ]);
    expect(HOME_COMPARISON_ROWS).toHaveLength(14);
    expect(HOME_COMPARISON_ROWS.slice(0, 8).map((r) => r.feature)).toEqual([
      'Tax-free growth',
      'No income limits',
      'No contribution limits',
      'Market downside protection',
      'Lifetime access without penalties',
      'No required minimum distributions',
      'Guaranteed tax-free lifetime income',
      'Tax-free death benefit',
    ]);
    const category = HOME_COMPARISON_ROWS[8];
    expect(category).toMatchObject({ id: LIVING_BENEFITS_CATEGORY_ID, feature: 'Living Benefits', isCategory: true });
    const subRows = HOME_COMPARISON_ROWS.slice(9);
    expect(subRows.map((r) => r.feature)).toEqual([
      'Critical illness',
      'Chronic illness',
      'Terminal illness',
      'Accident / critical injury',
      'Alzheimer’s',
    ]);
    expect(subRows.every((r) => r.categoryId === LIVING_BENEFITS_CATEGORY_ID && !r.isCategory)).toBe(true);
    expect(HOME_COMPARISON_ROWS.slice(0, 8).every((r) => !r.isCategory && !r.categoryId)).toBe(true);
  });

  it('gives IUL a yes on every home row', () => {
    expect(HOME_COMPARISON_ROWS.every((r) => r.iul)).toBe(true);
  });

  it('has the spec ids for IUL vs Roth and IUL vs 401(k)', () => {
    expect(IUL_VS_ROTH_ROWS.map((r) => r.id)).toEqual([
      'contributions',
      'income-limits',
      'growth',
      'downside',
      'early-access',
      'death-benefit',
      'fees',
      'control',
    ]);
    expect(IUL_VS_401K_ROWS.map((r) => r.id)).toEqual([
      'contributions',
      'contribution-limits',
      'employer-match',
      'growth',
      'downside',
      'withdrawals',
      'early-access',
      'rmds',
      'death-benefit',
      'fees',
    ]);
  });

  it('fills every field and keeps ids unique within each table', () => {
    for (const rows of [HOME_COMPARISON_ROWS, IUL_VS_ROTH_ROWS, IUL_VS_401K_ROWS]) {
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      for (const row of rows) {
        expect(row.feature.length, row.id).toBeGreaterThan(2);
        expect(row.explanation.length, row.id).toBeGreaterThan(60);
      }
    }
    for (const row of IUL_VS_ROTH_ROWS) expect(row.iul && row.rothIra, row.id).toBeTruthy();
    for (const row of IUL_VS_401K_ROWS) expect(row.iul && row.retirement401k, row.id).toBeTruthy();
  });

  it('says loans reduce the death benefit wherever a row discusses loans, and marks IUL income as projected', () => {
    for (const row of [...HOME_COMPARISON_ROWS, ...IUL_VS_ROTH_ROWS, ...IUL_VS_401K_ROWS]) {
      if (/\b(policy |IUL |cash value )?loans?\b/i.test(row.explanation.replace(/plan loans/g, ''))) {
        expect(row.explanation, row.id).toMatch(/(reduce the death benefit|subtracted from it|reduces the death benefit)/);
      }
    }
    // Rows about the income an IUL pays out (not about income limits on who may contribute).
    const income = [...HOME_COMPARISON_ROWS, ...IUL_VS_ROTH_ROWS, ...IUL_VS_401K_ROWS].filter((r) =>
      /lifetime income|withdrawals in retirement|control/i.test(r.feature),
    );
    expect(income.map((r) => r.id)).toEqual(['guaranteed-tax-free-lifetime-income', 'control', 'withdrawals']);
    for (const row of income) expect(row.explanation, row.id).toMatch(/projection|projected/i);
  });
});

describe('case studies', () => {
  it('has the three cases in order, each with every part', () => {
    expect(CASE_STUDIES.map((c) => [c.title, c.age])).toEqual([
      ['Early Career Professional', 35],
      ['Business Owner', 45],
      ['Pre-Retiree', 55],
    ]);
    for (const study of CASE_STUDIES) {
      expect(study.profile.length, study.id).toBeGreaterThan(0);
      expect(study.strategy.length, study.id).toBeGreaterThan(0);
      expect(study.results.length, study.id).toBeGreaterThan(0);
      expect(study.benefits.length, study.id).toBeGreaterThan(0);
      for (const result of study.results) expect(result.description, result.label).toMatch(/Projected|death benefit/);
    }
    expect(CASE_STUDY_DISCLAIMER).toMatch(/^Hypothetical projection, not a guarantee\./);
  });

  it('carries the spec figures on the right case', () => {
    const values = (id: string) => CASE_STUDIES.find((c) => c.id === id)?.results.map((r) => r.value);
    const strategy = (id: string) => CASE_STUDIES.find((c) => c.id === id)?.strategy.join(' ');
    expect(values('early-career')).toEqual(['$2,496,000', '$230,000', '$6,900,000', '$3,000,000']);
    expect(strategy('early-career')).toContain('$25,000 a year');
    expect(values('business-owner')).toEqual(['$2,850,000', '$229,000', '$5,725,000', '$950,000']);
    expect(strategy('business-owner')).toContain('$30,000 a year');
    expect(values('pre-retiree')).toEqual(['$730,000', '$58,000', '$1,160,000', '$350,000']);
    expect(strategy('pre-retiree')).toContain('$50,000 a year for 10 years');
  });
});

describe('FAQ', () => {
  it('shows the 19 general questions', () => {
    expect(GENERAL_FAQS).toHaveLength(19);
  });
});

describe('config, not literals', () => {
  it('names the product from the config and never writes the default name', () => {
    const text = homeText(OTHER_CONFIG);
    expect(text).toContain('Zephyr Plan');
    expect(text).not.toContain(DEFAULT_SITE_CONFIG.productName);
    expect(text).not.toContain(DEFAULT_SITE_CONFIG.phoneDisplay);
    expect(text).not.toContain(DEFAULT_SITE_CONFIG.email);
    expect(text).not.toContain(DEFAULT_SITE_CONFIG.productSlug);
  });
});

describe('head', () => {
  it('has a title with Tax-Free Retirement and the product name, and a 15-160 character description', () => {
    for (const config of [DEFAULT_SITE_CONFIG, OTHER_CONFIG]) {
      const meta = homeMeta(config);
      expect(meta.title).toContain('Tax-Free Retirement');
      expect(meta.title).toContain(config.productName);
      expect(meta.title.length).toBeGreaterThanOrEqual(5);
      expect(meta.title.length).toBeLessThanOrEqual(120);
      expect(meta.description.length).toBeGreaterThanOrEqual(15);
      expect(meta.description.length).toBeLessThanOrEqual(160);
    }
  });
});
