/**
 * The Ultimate Guide, first half: hero, table of contents and the four explainer sections (what an IUL
 * is, its tax advantages, its protection features, and the five-part optimal structure). Figures are
 * SPEC section 9's typical ranges; the product name comes from the site config.
 */
import type { SiteConfig } from '../../../contract/site-config';
import type { ComplianceCopyAcceptance } from '../../../contract/compliance';

/** The in-page anchors of the guide, in the order of SPEC section 2. */
export const GUIDE_ANCHORS = [
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
] as const;

export type GuideAnchor = (typeof GUIDE_ANCHORS)[number];

export interface GuideCard {
  title: string;
  text: string;
}

export interface KeyFact {
  value: string;
  label: string;
}

export interface GuideHeroCopy {
  eyebrow: string;
  title: string;
  lead: string;
  facts: readonly KeyFact[];
  buttonLabel: string;
}

export function guideTitle(config: Pick<SiteConfig, 'productName'>): string {
  return `The Ultimate Guide to ${config.productName}`;
}

export const GUIDE_DESCRIPTION =
  'How a maximum-funded IUL works, how it is taxed, what it costs, how to structure it, and how it compares with a Roth IRA, a 401(k) and whole life.';

export function guideHero(config: Pick<SiteConfig, 'productName'>): GuideHeroCopy {
  return {
    eyebrow: 'Ultimate Guide',
    title: guideTitle(config),
    lead: 'Everything we explain to families across our kitchen tables, in one place: how a maximum-funded indexed universal life policy works, how it is taxed, what it costs, how to structure it for retirement income, and how it compares with a Roth IRA, a 401(k) and whole life.',
    facts: [
      { value: '0-1%', label: 'typical floor when the index falls' },
      { value: '8-12%', label: 'typical cap on index credits' },
      { value: '7+ years', label: 'of funding to build cash value' },
      { value: '10+ years', label: 'time horizon for the strategy' },
    ],
    buttonLabel: 'Get Your Free IUL Illustration',
  };
}

export interface ContentsEntry {
  id: GuideAnchor;
  title: string;
  summary: string;
}

export const CONTENTS_COPY = {
  title: 'What This Guide Covers',
  tabsLabel: 'Table of contents views',
  listTab: 'List View',
  tableTab: 'Table View',
  sectionHeader: 'Section',
  summaryHeader: 'What you will learn',
  caption: 'Sections of this guide',
} as const;

/** The product name is configuration, so the first entry's title is built from it. */
export function guideContents(config: Pick<SiteConfig, 'productName'>): ContentsEntry[] {
  return [
    {
      id: 'what-is-iul',
      title: whatIsIulTitle(config),
      summary: 'The three parts of a policy and why maximum funding matters.',
    },
    {
      id: 'tax-advantages',
      title: 'Tax Advantages',
      summary: 'Tax-deferred growth, tax-free access and an income-tax-free death benefit.',
    },
    {
      id: 'protection-features',
      title: 'Protection Features',
      summary: 'The floor, the cap, locked-in gains and living benefits.',
    },
    {
      id: 'optimal-structure',
      title: 'Optimal Structure',
      summary: 'Five design choices that put the most of each premium into cash value.',
    },
    {
      id: 'implementation',
      title: 'Implementation',
      summary: 'Five steps from first conversation to annual review, and a case study.',
    },
    {
      id: 'iul-vs-roth',
      title: 'IUL vs Roth IRA',
      summary: 'Contribution and income limits, growth, downside and access compared.',
    },
    {
      id: 'iul-vs-401k',
      title: 'IUL vs 401(k)',
      summary: 'Taxes, limits, employer match, withdrawals and distributions compared.',
    },
    {
      id: 'iul-vs-whole-life',
      title: 'IUL vs Whole Life',
      summary: 'Two kinds of permanent life insurance, side by side in eight rows.',
    },
    {
      id: 'common-questions',
      title: 'Common Questions',
      summary: 'Eight short answers on fit, risks, costs, funding and growth.',
    },
    { id: 'next-steps', title: 'Next Steps', summary: 'How to go from reading to a personalised illustration.' },
  ];
}

export function whatIsIulTitle(config: Pick<SiteConfig, 'productName'>): string {
  return `What Is ${config.productName}?`;
}

export interface ExplainerSection {
  id: GuideAnchor;
  title: string;
  paragraphs: readonly string[];
  cards: readonly GuideCard[];
  note?: string;
}

export interface DesignContrast {
  title: string;
  standard: { heading: string; points: readonly string[] };
  maxFunded: { heading: string; points: readonly string[] };
}

/** The what-is-iul section; its title comes from whatIsIulTitle(config). */
export const WHAT_IS_IUL: Omit<ExplainerSection, 'title'> & { contrast: DesignContrast } = {
  id: 'what-is-iul',
  paragraphs: [
    'Indexed universal life (IUL) is permanent life insurance with a cash value account. Each premium pays for the insurance and the policy’s charges, and the rest goes into the cash value, which earns interest credits linked to a market index such as the S&P 500. Your money is not invested in the market: the index is only the yardstick used to measure the credit.',
    'A maximum-funded IUL turns the usual design around. Instead of buying the largest death benefit for the smallest premium, it pairs the premium you want to save with the smallest death benefit the tax code allows. Less of each dollar goes to insurance costs and more goes to cash value, while the policy stays under the limits that would make it a modified endowment contract (MEC).',
  ],
  cards: [
    {
      title: 'Death benefit',
      text: 'An income-tax-free payment to your beneficiaries, sized as small as the tax rules allow for the premium you plan to pay.',
    },
    {
      title: 'Cash value',
      text: 'The savings side of the policy. It grows tax-deferred and can be reached during your lifetime through policy loans and withdrawals, which reduce the death benefit.',
    },
    {
      title: 'Index crediting',
      text: 'Each year the cash value is credited based on the index, between a floor of typically 0-1% and a cap of typically 8-12%.',
    },
  ],
  contrast: {
    title: 'Standard versus maximum-funded design',
    standard: {
      heading: 'Standard design',
      points: [
        'Largest death benefit for the premium',
        'More of each premium goes to insurance costs',
        'Slower cash value growth',
      ],
    },
    maxFunded: {
      heading: 'Maximum-funded design',
      points: [
        'Smallest death benefit the tax code allows for the premium',
        'Lower insurance costs for each dollar saved',
        'More cash value available for retirement income',
      ],
    },
  },
};

export const TAX_ADVANTAGES: ExplainerSection = {
  id: 'tax-advantages',
  title: 'Tax Advantages',
  paragraphs: [
    'The tax treatment is the heart of the strategy. Premiums are paid with after-tax dollars, so there is no deduction going in; the advantages come while the money grows and when you use it.',
  ],
  cards: [
    {
      title: 'Tax-deferred growth',
      text: 'Index credits are not taxed as they are earned, so the whole balance keeps compounding year after year.',
    },
    {
      title: 'Tax-free access',
      text: 'Retirement income is usually taken as policy loans, which are generally not taxable while the policy stays in force and is not a MEC. Withdrawals up to what you have paid in are generally tax-free too. Policy loans reduce the death benefit.',
    },
    {
      title: 'No required minimum distributions',
      text: 'Traditional 401(k)s and IRAs force taxable withdrawals starting at age 73. An IUL has no required minimum distributions, so you decide when and how much to take.',
    },
    {
      title: 'No early-access penalty',
      text: 'Retirement accounts usually charge a 10% penalty on withdrawals before age 59½. Policy loans have no age restriction and no such penalty, though they reduce the death benefit.',
    },
    {
      title: 'Income-tax-free death benefit',
      text: 'Your beneficiaries generally receive the death benefit free of income tax, less any outstanding policy loans.',
    },
  ],
  note: 'Tax-free income depends on keeping the policy in force and within the MEC limits. Tax law can change and your own situation matters, so confirm the treatment with your tax advisor.',
};

export const PROTECTION_FEATURES: ExplainerSection = {
  id: 'protection-features',
  title: 'Protection Features',
  paragraphs: [
    'A maximum-funded IUL is built to protect what you have accumulated, not only to grow it. These are the features that do the protecting, and the trade-offs that come with them.',
  ],
  cards: [
    {
      title: 'A floor under every year',
      text: 'When the index falls, your cash value is credited the floor, typically 0-1%, instead of a loss. Policy charges are still deducted, but a market crash does not take your credited gains with it.',
    },
    {
      title: 'A cap on the upside',
      text: 'In exchange for the floor, credits are limited by a cap, typically 8-12%. You give up part of the best years so that you never have to climb back from the worst ones.',
    },
    {
      title: 'Gains locked in each year',
      text: 'Once a credit is applied it becomes part of your cash value. Each new crediting year starts from the higher value, so a bad year cannot undo a good one.',
    },
    {
      title: 'Living benefits',
      text: 'Many policies include or offer riders that let you draw part of the death benefit early after a qualifying critical, chronic or terminal illness.',
    },
    {
      title: 'Protection from creditors',
      text: 'In many states, including Texas, state law protects life insurance cash value and death benefits from most creditors. The rules vary, so ask an attorney how they apply to you.',
    },
    {
      title: 'Overloan protection',
      text: 'Some insurers offer a rider that keeps a heavily borrowed policy from lapsing late in life, which protects you from an unexpected tax bill.',
    },
  ],
};

export const OPTIMAL_STRUCTURE: ExplainerSection = {
  id: 'optimal-structure',
  title: 'Optimal Structure',
  paragraphs: [
    'Two policies from the same insurer can perform very differently depending on how they are put together. These five design choices are what make a policy maximum-funded.',
  ],
  cards: [
    {
      title: 'Keep the death benefit to the minimum',
      text: 'Set the death benefit as low as the tax code allows for your planned premiums, so the least possible goes to insurance costs. Many designs use an increasing death benefit while premiums are paid and switch to a level one before income begins.',
    },
    {
      title: 'Fund right up to the MEC limit',
      text: 'Pay as much premium as the policy can take without becoming a modified endowment contract. Below that line policy loans stay tax-free (they still reduce the death benefit); above it, loans and withdrawals become taxable and, before 59½, subject to a 10% penalty.',
    },
    {
      title: 'Commit to funding for 7+ years',
      text: 'Consistent funding for 7+ years carries the policy through the early years, when cash value is lowest (typically years 3-5), into the stretch where it grows most, after years 5-7.',
    },
    {
      title: 'Balance the index strategies',
      text: 'Spread the cash value across the insurer’s index accounts, weighing caps of typically 8-12% against any index fee or spread of 0.5-1% a year, and revisit the mix at every annual review.',
    },
    {
      title: 'Plan the income phase in advance',
      text: 'Decide how income will be taken (the loan type, loan interest of typically 4-6%, and how much of the 80-90% of cash value you could borrow you will actually use) so the policy stays healthy for life. Loans reduce the death benefit, so income is designed to leave a cushion.',
    },
  ],
};

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    reason: 'The title of the Tax Advantages card whose text says loans are "generally not taxable while the policy stays in force and is not a MEC".',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    reason: "The table of contents' one-line summary of the Tax Advantages section, whose note says tax-free income depends on keeping the policy in force and within the MEC limits.",
  },
];
