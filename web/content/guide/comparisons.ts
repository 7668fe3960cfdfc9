/**
 * The guide's comparison sections: the words around the shared IUL vs Roth and IUL vs 401(k) tables
 * (their rows live in ../comparisons.ts), and the guide's own IUL vs Whole Life cards, 8-row table and
 * guidance box. Any statement about IUL income is a projection ("illustrations often show").
 */
import type { ComplianceCopyAcceptance } from '../../../contract/compliance';

export interface ComparisonIntro {
  id: 'iul-vs-roth' | 'iul-vs-401k' | 'iul-vs-whole-life';
  title: string;
  intro: string;
  caption: string;
  iulHeader: string;
  otherHeader: string;
}

export const ROTH_INTRO: ComparisonIntro = {
  id: 'iul-vs-roth',
  title: 'IUL vs Roth IRA',
  intro:
    'A Roth IRA and a maximum-funded IUL both offer tax-free growth and tax-free income. They differ in who may contribute, how much, what happens when markets fall and how you reach the money before retirement. Select a row to read the details.',
  caption: 'Maximum-funded IUL compared with a Roth IRA',
  iulHeader: 'IUL',
  otherHeader: 'Roth IRA',
};

export const FOUR_01K_INTRO: ComparisonIntro = {
  id: 'iul-vs-401k',
  title: 'IUL vs 401(k)',
  intro:
    'A 401(k) gives a deduction today and often an employer match; an IUL gives tax-free access later and no required distributions. Many families use both: enough in the 401(k) to capture the match, and the next dollars in an IUL. Select a row to read the details.',
  caption: 'Maximum-funded IUL compared with a 401(k)',
  iulHeader: 'IUL',
  otherHeader: '401(k)',
};

export const WHOLE_LIFE_INTRO: ComparisonIntro = {
  id: 'iul-vs-whole-life',
  title: 'IUL vs Whole Life',
  intro:
    'Both are permanent life insurance with cash value you can borrow against. They differ in how the cash value grows, how flexible the premiums are, and what is guaranteed. Select a row in the table to read the details.',
  caption: 'Indexed universal life compared with whole life',
  iulHeader: 'Indexed Universal Life',
  otherHeader: 'Whole Life',
};

export interface FeatureCard {
  id: 'iul' | 'whole-life';
  title: string;
  summary: string;
  features: readonly string[];
}

export const WHOLE_LIFE_CARDS: readonly FeatureCard[] = [
  {
    id: 'iul',
    title: 'Indexed Universal Life',
    summary: 'Growth potential with a floor, and flexibility.',
    features: [
      'Flexible premiums within policy limits',
      'Index-linked credits with a floor of typically 0-1% and a cap of typically 8-12%',
      'Policy loans at typically 4-6% interest',
      'Adjustable death benefit and index allocation',
      'Illustrations often show 30-50% more retirement income than whole life (a projection, not a promise)',
    ],
  },
  {
    id: 'whole-life',
    title: 'Whole Life',
    summary: 'Guarantees and predictability.',
    features: [
      'Fixed premiums for life',
      'Guaranteed cash value growth of typically 2-4%, plus possible dividends',
      'Policy loans at typically 5-8% interest',
      'Level, guaranteed death benefit',
      'Simple to own, with little to manage',
    ],
  },
];

/** One row of the IUL versus whole life table (SPEC section 3). */
export interface IulVsWholeLifeRow {
  id:
    | 'premium-structure'
    | 'cash-value-growth'
    | 'retirement-income-potential'
    | 'policy-costs'
    | 'risk-profile'
    | 'policy-loans'
    | 'customisation'
    | 'best-use-case';
  feature: string;
  iul: string;
  wholeLife: string;
  explanation: string;
}

export const IUL_VS_WHOLE_LIFE_ROWS: readonly IulVsWholeLifeRow[] = [
  {
    id: 'premium-structure',
    feature: 'Premium structure',
    iul: 'Flexible: pay more or less within policy limits',
    wholeLife: 'Fixed premiums that must be paid as scheduled',
    explanation:
      'An IUL lets you vary premiums from year to year within limits, which suits business owners and anyone whose income changes; it still needs funding for 7+ years to work well. Whole life premiums are set when you buy the policy and must be paid on schedule, which enforces discipline but leaves no room for a lean year.',
  },
  {
    id: 'cash-value-growth',
    feature: 'Cash value growth',
    iul: 'Index-linked: floor typically 0-1%, cap typically 8-12%',
    wholeLife: 'Guaranteed, typically 2-4%, plus possible dividends',
    explanation:
      'IUL cash value is credited from an index formula: a floor of typically 0-1% in down years and a cap of typically 8-12% in up years. Whole life grows at a guaranteed rate of typically 2-4%, and participating policies may add dividends, which are not guaranteed.',
  },
  {
    id: 'retirement-income-potential',
    feature: 'Retirement income potential',
    iul: 'Illustrations often show 30-50% more income',
    wholeLife: 'Lower, but more predictable',
    explanation:
      'For the same premium, illustrations often show 30-50% more retirement income from a well-funded IUL than from whole life, mainly because of its higher crediting potential and lower loan costs. That is a projection, not a promise: actual IUL credits vary, while whole life income rests more on guarantees.',
  },
  {
    id: 'policy-costs',
    feature: 'Policy costs',
    iul: 'Itemised: premium expense 5-10%, index fee 0.5-1% a year, admin fee often $5-15 a month, cost of insurance',
    wholeLife: 'Built into a higher, fixed premium',
    explanation:
      'An IUL shows its charges separately: a premium expense charge of 5-10%, an index fee or spread of 0.5-1% a year on some strategies, a fixed administrative fee often $5-15 a month, and the cost of insurance. Whole life builds its costs into the premium, which is usually higher for the same death benefit. Both carry surrender charges in the early years, for 10-15 years in a typical IUL.',
  },
  {
    id: 'risk-profile',
    feature: 'Risk profile',
    iul: 'No market losses, but credits vary from year to year',
    wholeLife: 'Guaranteed growth; dividends not guaranteed',
    explanation:
      'Neither policy loses value to a market fall. IUL credits can be as low as the floor for several years in a row while charges continue, so an underfunded IUL can struggle; caps and charges can also change within contract limits. Whole life removes most of that uncertainty in exchange for lower expected growth. Guarantees in both depend on the claims-paying ability of the insurer.',
  },
  {
    id: 'policy-loans',
    feature: 'Policy loans',
    iul: 'Typically 4-6% interest; access to 80-90% of cash value',
    wholeLife: 'Typically 5-8% interest',
    explanation:
      'Both let you borrow against cash value without credit checks or a repayment schedule. IUL loans typically cost 4-6% and give access to 80-90% of cash value; whole life loans typically cost 5-8%. In both, unpaid loans and interest reduce the cash value and the death benefit, and a policy borrowed too heavily can lapse.',
  },
  {
    id: 'customisation',
    feature: 'Customisation',
    iul: 'Adjustable premiums, death benefit and index allocation',
    wholeLife: 'Limited: mainly dividend options and paid-up additions',
    explanation:
      'An IUL can be tuned as life changes: premiums, the death benefit option and the mix of index strategies can all be adjusted. Whole life is largely fixed once issued; the main choices are how dividends are used and whether to add paid-up additions.',
  },
  {
    id: 'best-use-case',
    feature: 'Best use case',
    iul: 'Tax-free retirement income with growth potential',
    wholeLife: 'Guaranteed lifelong coverage and conservative savings',
    explanation:
      'An IUL fits savers who want tax-free retirement income, growth potential with a floor, and flexibility, and who will fund it for 7+ years with a time horizon of 10+ years. Whole life fits people who value guarantees above all, such as estate planning or a guaranteed legacy.',
  },
];

export interface ChoiceGuidance {
  title: string;
  intro: string;
  options: ReadonlyArray<{ id: 'iul' | 'whole-life'; heading: string; points: readonly string[] }>;
  note: string;
}

export const WHICH_OPTION: ChoiceGuidance = {
  title: 'Which Option Is Right For You',
  intro: 'There is no single right answer. The better choice depends on what you want the policy to do.',
  options: [
    {
      id: 'iul',
      heading: 'An IUL may suit you if',
      points: [
        'Your main goal is tax-free retirement income',
        'You want growth potential with protection from market losses',
        'Your income varies and you value flexible premiums',
        'You accept credits that vary from year to year',
      ],
    },
    {
      id: 'whole-life',
      heading: 'Whole life may suit you if',
      points: [
        'You value guarantees above growth potential',
        'You can commit to a fixed premium for life',
        'Your main goal is a guaranteed death benefit or estate planning',
        'You prefer a policy that needs little attention',
      ],
    },
  ],
  note: 'Some families own both. We are glad to show you illustrations of each, side by side, at the same premium.',
};

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'guaranteed-returns',
    text: 'guaranteed rate',
    reason: "About whole life's contractual guaranteed rate (typically 2-4%) in the cash value growth row; the risk profile row says guarantees in both depend on the insurer's claims-paying ability.",
  },
  {
    rule: 'guaranteed-returns',
    text: 'Guaranteed growth',
    reason: "About whole life's contractual guaranteed rate; the claims-paying ability note follows in the same row's explanation.",
  },
  {
    rule: 'guaranteed-returns',
    text: 'Guaranteed cash value growth',
    reason: "A feature of the whole life card: its contractual guaranteed rate, which the risk profile row says depends on the insurer's claims-paying ability.",
  },
  {
    rule: 'unqualified-projection',
    text: '2-4%',
    reason: "Whole life's contractual guaranteed rate (SPEC section 9: whole life guaranteed growth 2-4%), a term of the contract, not a projected return.",
  },
  {
    rule: 'unqualified-projection',
    text: '4-6%',
    reason: 'The IUL cell of the policy loans row: loan interest the policyholder pays (SPEC section 9: loan interest 4-6%), not a return.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    reason: "The IUL cell of the best use case row, naming the goal it suits; the guide's Tax Advantages note says tax-free income depends on keeping the policy in force and within the MEC limits.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'tax-free access later',
    reason: "The intro of the IUL vs 401(k) table; the table's rows say policy loans are not taxable while the policy stays in force.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'both offer tax-free growth and tax-free income',
    reason: 'The intro of the IUL vs Roth table, about both accounts; the Growth row says both grow free of tax under current tax law.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'An IUL fits savers who want tax-free retirement income',
    reason: 'Says whom the IUL suits (savers who want tax-free income), not what it promises; the same sentence requires funding for 7+ years and a 10+ year horizon.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Your main goal is tax-free retirement income',
    reason: 'A point of the "which option is right for you" guidance, naming a reader\'s goal; the conditions are in the guide\'s Tax Advantages section.',
  },
];
