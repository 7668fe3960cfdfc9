/**
 * The guide's implementation section: five steps, the design-elements panel, what to look for in a
 * policy illustration, and the $75,000 case study (SPEC section 9, "Guide example"), which is always
 * labelled a hypothetical projection.
 */
import type { GuideCard } from './overview';
import type { ComplianceCopyAcceptance } from '../../../contract/compliance';

export interface LabelledValue {
  label: string;
  value: string;
}

export interface CaseStudyResult {
  label: string;
  value: string;
  description: string;
}

export interface GuideCaseStudy {
  title: string;
  badge: string;
  summary: string;
  profile: readonly string[];
  results: readonly CaseStudyResult[];
  alternative: { title: string; results: readonly CaseStudyResult[]; note: string };
  disclaimer: string;
}

export interface ImplementationCopy {
  id: 'implementation';
  title: string;
  intro: string;
  stepsTitle: string;
  steps: readonly GuideCard[];
  designTitle: string;
  designElements: readonly LabelledValue[];
  illustrationTitle: string;
  illustrationIntro: string;
  illustrationChecks: readonly string[];
}

export const IMPLEMENTATION: ImplementationCopy = {
  id: 'implementation',
  title: 'Implementation: From Plan to Policy',
  intro:
    'A maximum-funded IUL is put in place once and then looked after for decades. This is how we do it with every family, in five steps.',
  stepsTitle: 'Five steps to a well-built policy',
  steps: [
    {
      title: 'Set your goals and budget',
      text: 'We start with your retirement income goal, your time horizon and the premium you can commit for 7+ years. We suggest a minimum annual premium of $10,000; typical clients contribute $25,000-$100,000+ a year.',
    },
    {
      title: 'Check health and choose the insurer',
      text: 'Your age and health set the cost of insurance. We compare insurers on their caps, charges, loan terms and financial strength, and pre-screen your health before you apply.',
    },
    {
      title: 'Design and review the illustration',
      text: 'We build an illustration around your premium with the minimum death benefit, then walk through the guaranteed and projected columns with you, line by line.',
    },
    {
      title: 'Apply, underwrite and fund',
      text: 'Once underwriting approves the policy, you pay the first premium and set the funding schedule, monthly or annually, that keeps the policy below the MEC limit.',
    },
    {
      title: 'Review every year',
      text: 'Each year we compare actual credits and charges with the illustration, rebalance the index strategies and, when the time comes, plan income so the policy stays in force for life.',
    },
  ],
  designTitle: 'Key design elements',
  designElements: [
    { label: 'Death benefit', value: 'The minimum allowed for the premium: increasing while you fund, level before income' },
    { label: 'Premium', value: 'Planned for 7+ years; suggested minimum $10,000 a year, typical $25,000-$100,000+' },
    { label: 'MEC limit', value: 'Funded just below it and tested every year' },
    { label: 'Index allocation', value: 'Balanced across strategies with a floor of typically 0-1% and caps of typically 8-12%' },
    { label: 'Loan provision', value: 'Loan interest typically 4-6%, with access to 80-90% of cash value' },
    { label: 'Riders', value: 'Living benefits and, where offered, overloan protection' },
  ],
  illustrationTitle: 'Reading a policy illustration',
  illustrationIntro:
    'An illustration is the insurer’s projection of how a policy could perform. It is not a guarantee. These are the points we go through with every client:',
  illustrationChecks: [
    'Compare the guaranteed and non-guaranteed columns. The guaranteed column shows the policy with minimum credits and maximum charges.',
    'Check the assumed crediting rate. It should sit well below the cap of typically 8-12%, and we also run a lower rate to see how the plan holds up.',
    'Find every charge: the premium expense charge of 5-10%, any index fee or spread of 0.5-1% a year, the fixed administrative fee (often $5-15 a month) and the cost of insurance.',
    'Read the surrender value, not only the cash value, for the first 10-15 years, while surrender charges apply.',
    'Expect the cash value to be low in years 3-5 and to grow most after years 5-7.',
    'Check the loan interest assumed for income (typically 4-6%) and how loans reduce the death benefit in later years.',
  ],
};

export const GUIDE_CASE_STUDY: GuideCaseStudy = {
  title: 'Case study: starting at 45',
  badge: 'Hypothetical projection',
  summary:
    'A 45-year-old professional in good health pays a $75,000 annual premium into a maximum-funded IUL until age 60, then draws tax-free income through policy loans.',
  profile: ['Age 45, good health, non-smoker', '$75,000 premium a year until age 60', 'Income taken through policy loans from age 60'],
  results: [
    { label: 'Annual premium', value: '$75,000', description: 'Paid each year from age 45 to 60.' },
    { label: 'Projected cash value at 60', value: '$1,450,000', description: 'Before any income is drawn.' },
    { label: 'Projected tax-free income', value: '$116,000 a year', description: 'For 25 years, through policy loans.' },
    { label: 'Projected total income', value: '$2,900,000', description: 'Over the 25 years of income.' },
    { label: 'Projected remaining death benefit', value: '$750,000', description: 'For heirs, after the loans are repaid from it.' },
  ],
  alternative: {
    title: 'The same savings in a taxable account',
    results: [
      { label: 'Projected account value at 60', value: '$1,600,000', description: 'No insurance charges, but taxed along the way.' },
      { label: 'Projected after-tax income', value: '$64,000 a year', description: 'Withdrawals and growth are both taxed.' },
    ],
    note: 'The taxable account is projected to hold more at 60 because it carries no insurance charges, but taxes on its growth and on each withdrawal hold its after-tax income to about $64,000 a year, and it includes no death benefit.',
  },
  disclaimer:
    'Hypothetical projection for illustration only. It assumes a constant crediting rate, current charges and loan terms, and a policy kept in force; actual results will vary and are not guaranteed. Policy loans reduce the cash value and the death benefit.',
};

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    reason: "The guide's hypothetical case study (SPEC section 9's example) and its result label; the case's disclaimer says it assumes a policy kept in force and that results are not guaranteed.",
  },
];
