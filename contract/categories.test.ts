import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOG_CATEGORIES, closestCategory, unknownCategoryWarning } from './categories';

describe('unknownCategoryWarning', () => {
  it('says nothing for a built-in category, by name or slug in any case, nor for uncategorized', () => {
    for (const category of BLOG_CATEGORIES) {
      expect(unknownCategoryWarning(category.name)).toBeNull();
      expect(unknownCategoryWarning(category.slug.toUpperCase())).toBeNull();
    }
    expect(unknownCategoryWarning('Uncategorized')).toBeNull();
  });

  it('names the closest built-in category for a near miss', () => {
    expect(unknownCategoryWarning('Tax Benefit')).toBe('Category "Tax Benefit" is not a built-in category: the post was filed under uncategorized. Did you mean "Tax Benefits"?');
    expect(closestCategory('IUL Strategy')?.name).toBe('IUL Strategies');
    expect(closestCategory('retirment-planning')?.name).toBe('Retirement Planning');
    expect(closestCategory('insurance basic')?.name).toBe('Insurance Basics');
  });

  it('lists the built-in categories when nothing is near', () => {
    expect(unknownCategoryWarning('Cooking')).toBe(
      'Category "Cooking" is not a built-in category: the post was filed under uncategorized. The built-in ones are "Insurance Basics", "IUL Strategies", "Retirement Planning", "Tax Benefits", "Financial Education".',
    );
  });

  it('suggests, for any one-letter slip in a built-in name, that very category', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BLOG_CATEGORIES), fc.nat(), fc.constantFrom('x', 'q', 'z'), (category, at, letter) => {
        const i = at % category.name.length;
        const slipped = `${category.name.slice(0, i)}${letter}${category.name.slice(i + 1)}`;
        fc.pre(slipped.toLowerCase() !== category.name.toLowerCase());
        expect(closestCategory(slipped)?.slug).toBe(category.slug);
      }),
    );
  });
});
