/**
 * The FAQ lists as content: the counts and categories of SPEC sections 2 and 3, unique ids, no
 * placeholder or hard-coded contact literals, the spec's figures (section 9), the house rules on loans
 * and projections, and the FAQPage structured data built from the same lists.
 */
import { describe, expect, it } from 'vitest';
import {
  BUSINESS_FAQS,
  FAQ_CATEGORIES,
  FAQ_PAGE,
  type FaqItem,
  GENERAL_FAQS,
  GUIDE_FAQS,
  RETIREMENT_FAQS,
} from '../../web/content/faq';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { faqAnswerText, faqPageJsonLd } from '../../web/seo/faq-jsonld';
import { FAQ_PAGE_FIGURES } from '../support/spec-figures';

const FAQ_PAGE_ITEMS = FAQ_CATEGORIES.flatMap((category) => category.items);
const ALL_ITEMS: readonly FaqItem[] = [...FAQ_PAGE_ITEMS, ...GUIDE_FAQS];

function texts(item: FaqItem): string[] {
  return [item.question, item.answer, ...(item.bullets ?? [])];
}

const FAQ_PAGE_TEXT = FAQ_PAGE_ITEMS.flatMap(texts).join('\n');


describe('FAQ lists', () => {
  it('hold 19 general, 1 retirement, 12 business and 8 guide questions', () => {
    expect(GENERAL_FAQS).toHaveLength(19);
    expect(RETIREMENT_FAQS).toHaveLength(1);
    expect(BUSINESS_FAQS).toHaveLength(12);
    expect(GUIDE_FAQS).toHaveLength(8);
  });

  it('are grouped in the three categories of the FAQ page, in order, general first', () => {
    expect(FAQ_CATEGORIES.map((c) => [c.id, c.label, c.items.length])).toEqual([
      ['general', 'General IUL Questions', 19],
      ['retirement', 'Retirement Income & 401(k)', 1],
      ['business', 'Business Owner Questions', 12],
    ]);
    expect(FAQ_CATEGORIES[0]?.items).toBe(GENERAL_FAQS);
    expect(FAQ_CATEGORIES[1]?.items).toBe(RETIREMENT_FAQS);
    expect(FAQ_CATEGORIES[2]?.items).toBe(BUSINESS_FAQS);
  });

  it('give every question a unique, URL-safe id and a real question and answer', () => {
    const ids = ALL_ITEMS.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const item of ALL_ITEMS) {
      expect(item.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(item.question.trim().endsWith('?'), item.id).toBe(true);
      expect(item.answer.length, item.id).toBeGreaterThan(120);
      for (const bullet of item.bullets ?? []) expect(bullet.trim().length, item.id).toBeGreaterThan(10);
    }
    const questions = ALL_ITEMS.map((item) => item.question);
    expect(new Set(questions).size).toBe(questions.length);
  });

  it('covers the eight topics of the guide, in the order of the spec', () => {
    expect(GUIDE_FAQS.map((item) => item.id)).toEqual([
      'guide-suitability',
      'guide-risks',
      'guide-return-limits',
      'guide-fees',
      'guide-how-much',
      'guide-cash-value',
      'guide-401k-ira-funding',
      'guide-iul-vs-whole-life',
    ]);
    const [suitability, risks, limits, fees, howMuch, growth, funding, wholeLife] = GUIDE_FAQS;
    expect(suitability?.question).toMatch(/right for/i);
    expect(risks?.question).toMatch(/risks/i);
    expect(limits?.question).toMatch(/returns limited/i);
    expect(fees?.question).toMatch(/fees and costs/i);
    expect(howMuch?.question).toMatch(/how much should I contribute/i);
    expect(growth?.question).toMatch(/cash value grow/i);
    expect(funding?.question).toMatch(/401\(k\) or IRA/);
    expect(wholeLife?.question).toMatch(/whole life/i);
    expect(howMuch?.answer).toContain('$10,000');
    expect(howMuch?.answer).toContain('$25,000-$100,000+');
  });

  it('contain no placeholder tokens and no hard-coded product name, phone, e-mail or slug', () => {
    for (const text of ALL_ITEMS.flatMap(texts)) {
      expect(text).not.toMatch(/[{}]/);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.productName);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.productSlug);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.phoneDisplay);
      expect(text).not.toContain(DEFAULT_SITE_CONFIG.email);
    }
  });

  it.each(FAQ_PAGE_FIGURES)('quote the spec figure %s on the FAQ page', (figure) => {
    expect(FAQ_PAGE_TEXT).toContain(figure);
  });

  it('present the 30-50% income figure only as what illustrations often show', () => {
    for (const item of ALL_ITEMS) {
      for (const text of texts(item)) {
        if (text.includes('30-50%')) expect(text, item.id).toMatch(/illustrations often show/i);
      }
    }
  });

  it('say that loans reduce the death benefit wherever an answer discusses policy loans', () => {
    for (const item of ALL_ITEMS) {
      const text = texts(item).join(' ');
      if (/\bloans?\b|\bborrow/i.test(text)) {
        expect(text, item.id).toMatch(/reduce (the |your )?(cash value and the )?death benefit|subtracted from it|minus any outstanding policy loans|less any outstanding/i);
      }
    }
  });

  it('keep the FAQ page head within the SEO lengths', () => {
    expect(FAQ_PAGE.title).toBe('Frequently Asked Questions');
    expect(FAQ_PAGE.description.length).toBeGreaterThanOrEqual(15);
    expect(FAQ_PAGE.description.length).toBeLessThanOrEqual(160);
  });
});

describe('FAQPage structured data', () => {
  it('holds one Question per item with the visible question and the full visible answer', () => {
    const ld = faqPageJsonLd(FAQ_PAGE_ITEMS, { url: 'http://localhost:3000/faq' });
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('FAQPage');
    const entities = ld.mainEntity as Array<{ '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }>;
    expect(entities).toHaveLength(32);
    entities.forEach((entity, index) => {
      const item = FAQ_PAGE_ITEMS[index];
      expect(entity['@type']).toBe('Question');
      expect(entity.name).toBe(item?.question);
      expect(entity.acceptedAnswer['@type']).toBe('Answer');
      expect(entity.acceptedAnswer.text.startsWith(item?.answer ?? '-')).toBe(true);
      for (const bullet of item?.bullets ?? []) expect(entity.acceptedAnswer.text).toContain(bullet);
    });
  });

  it('joins an answer and its bullets with single spaces', () => {
    expect(faqAnswerText({ id: 'x', question: 'Q?', answer: 'A.', bullets: ['One.', 'Two.'] })).toBe('A. One. Two.');
    expect(faqAnswerText({ id: 'y', question: 'Q?', answer: 'Only.' })).toBe('Only.');
  });
});
