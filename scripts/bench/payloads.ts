/**
 * The benchmark's posts: post number `n` as an integrator would send it, varied (titles from 20 subjects
 * x 10 angles x 10 audiences x 12 qualifiers, the five categories weighted 3:5:4:2:3, 1-4 of 20 tags,
 * 2-4 sections of HTML, about one in twenty a draft) and the same on every run, so every store size
 * and every engine holds the same posts.
 */
import { BLOG_CATEGORIES } from '../../contract/categories';
import type { CreatePostInput } from '../../contract/blog';

/** Posts are dated one after another from here, about three hours apart. */
export const FIRST_POST_AT = Date.parse('2014-01-06T09:00:00.000Z');
export const POST_SPACING_MS = 3 * 60 * 60 * 1000;

const SUBJECTS = ['Indexed Universal Life', 'Cash Value', 'Policy Loans', 'Retirement Income', 'Roth Conversions', 'the 401(k) Match', 'Term Life', 'Whole Life', 'Death Benefits', 'Cap Rates', 'Participation Rates', 'Premium Funding', 'Estate Planning', 'Tax-Free Growth', 'Annuities', 'Required Minimum Distributions', 'Long-Term Care Riders', 'College Savings', 'Inflation', 'Sequence Risk'];
const ANGLES = ['A Plain Guide to', 'Five Questions About', 'What Nobody Tells You About', 'How to Think About', 'Common Mistakes With', 'Comparing Options for', 'A Case Study in', 'The Numbers Behind', 'Myths and Facts About', 'Planning Ahead With'];
const AUDIENCES = ['for Young Families', 'for Business Owners', 'in Your 50s', 'Before Retirement', 'for High Earners', 'for First-Time Buyers', 'in 2025', 'for Teachers', 'for Self-Employed People', ''];
const QUALIFIERS = ['', 'Explained', 'Step by Step', 'in Practice', 'Revisited', 'by the Numbers', 'With Examples', 'Part Two', 'Questions Answered', 'at a Glance', 'for Beginners', 'in Depth'];
const TAGS = ['IUL', 'retirement', 'tax-free income', 'cash value', 'policy loans', 'Roth IRA', '401(k)', 'estate planning', 'term life', 'whole life', 'annuities', 'inflation', 'college savings', 'small business', 'riders', 'premiums', 'death benefit', 'market index', 'caps and floors', 'budgeting'];
const SENTENCES = [
  'An indexed universal life policy credits interest based on a market index, with a floor that keeps the credited rate from going below zero.',
  'The cap limits how much of the index gain is credited in a given year, which is the price of the floor.',
  'Policy loans let an owner reach the cash value without a taxable event, as long as the policy stays in force.',
  'Funding a policy near the limit the tax code allows puts more of each premium to work as cash value.',
  'A Roth account and a life policy both offer tax-free income later, but they follow very different rules.',
  'Fees matter most in the early years, when the cash value is still small compared with the cost of insurance.',
  'A family that needs coverage for twenty years may be better served by a term policy and a separate savings plan.',
  'Required minimum distributions can push retirees into a higher bracket, which is why planners look at the order of withdrawals.',
  'Participation rates and caps are set by the insurer and can change from year to year within the limits of the contract.',
  'A policy review every few years checks that the premiums still support the death benefit the family expects.',
  'Inflation quietly reduces what a fixed benefit buys, so many plans build in increases or keep a growth component.',
  'Business owners often use life insurance to fund a buy-sell agreement so the business can continue after a death.',
];

/** A deterministic pseudo-random stream, so every run seeds the same posts. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function paragraph(random: () => number): string {
  const count = 2 + Math.floor(random() * 4);
  return `<p>${Array.from({ length: count }, () => pick(random, SENTENCES)).join(' ')}</p>`;
}

/** Category weights: the blog writes more about strategy than about taxes, as real blogs lean. */
const CATEGORY_WEIGHTS = [3, 5, 4, 2, 3];

function category(random: () => number): string {
  const total = CATEGORY_WEIGHTS.reduce((sum, w) => sum + w, 0);
  let roll = random() * total;
  for (const [i, weight] of CATEGORY_WEIGHTS.entries()) {
    roll -= weight;
    if (roll < 0) return BLOG_CATEGORIES[i]?.name ?? 'IUL Strategies';
  }
  return BLOG_CATEGORIES[0].name;
}

/** Post number `n`: a payload as an integrator sends it; about one in twenty is a draft. */
export function benchPayload(n: number): CreatePostInput {
  const random = randomFrom(n * 2_654_435_761 + 1);
  const subject = pick(random, SUBJECTS);
  const title = [pick(random, ANGLES), subject, pick(random, AUDIENCES), pick(random, QUALIFIERS)].filter((part) => part !== '').join(' ');
  const sections = 2 + Math.floor(random() * 3);
  const content = Array.from({ length: sections }, (_, i) => `<h2>Part ${i + 1}: ${subject}</h2>${paragraph(random)}${paragraph(random)}`).join('');
  const tags = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, TAGS)))];
  return {
    title,
    content,
    excerpt: `${pick(random, SENTENCES)} ${pick(random, SENTENCES)}`.slice(0, 300),
    category: category(random),
    tags,
    status: random() < 0.05 ? 'Draft' : 'Published',
    author: { name: pick(random, ['Jane Author', 'Marcus Lee', 'Priya Raman', 'Tom Becker', 'Ana Souza']), credentials: pick(random, ['CFP', 'ChFC', 'CLU', '']) },
    trust: random() < 0.5 ? { sources: [{ name: 'IRS Publication 590-B', url: 'https://www.irs.gov/publications/p590b' }], lastUpdated: '2025-01-15' } : null,
  };
}
