/**
 * The three hypothetical case studies of the home page (SPEC sections 3 and 9): each has an icon name,
 * title, subtitle, profile, strategy, projected results (label, value, description) and benefits. The
 * figures are the spec's, exactly; every one is a hypothetical projection, not a guarantee.
 */
import type { ComplianceCopyAcceptance } from '../../contract/compliance';

export type CaseStudyIcon = 'briefcase' | 'building' | 'sunset';

export interface CaseStudyResult {
  label: string;
  value: string;
  description: string;
  /** A yearly figure (the income), drawn beside the yearly premium rather than with the totals. */
  perYear?: true;
}

export interface CaseStudy {
  id: 'early-career' | 'business-owner' | 'pre-retiree';
  icon: CaseStudyIcon;
  title: string;
  age: number;
  subtitle: string;
  profile: readonly string[];
  strategy: readonly string[];
  /** The premium paid each year, in dollars: the figure of the first strategy line, for the chart. */
  annualPremium: number;
  results: readonly CaseStudyResult[];
  benefits: readonly string[];
}

export const CASE_STUDIES_INTRO = {
  eyebrow: 'Case studies',
  heading: 'What It Could Look Like at 35, 45 and 55',
  lead: 'Three hypothetical people at three stages of life. Choose one to see how a policy might be designed and what it could project.',
  selectorLabel: 'Choose a case study',
} as const;

/** The words of each case's results chart: its yearly figures, then its projected totals. */
export const CASE_STUDY_CHART = {
  yearlyHeading: 'Each year',
  totalsHeading: 'Projected totals',
  premiumLabel: 'Premium paid',
  titleSuffix: 'projected results in bars',
  summaryIntro: 'Bars compare the premium paid each year with the projected yearly income, then the projected totals:',
} as const;

export const CASE_STUDY_DISCLAIMER =
  'Hypothetical projection, not a guarantee. These examples are illustrations built on assumed crediting rates and current policy charges; actual results will be different. Policy loans reduce the cash value and the death benefit, and the income they supply is tax-free under current tax law only while the policy stays in force and is not a modified endowment contract.';

export const CASE_STUDIES: readonly CaseStudy[] = [
  {
    id: 'early-career',
    icon: 'briefcase',
    title: 'Early Career Professional',
    age: 35,
    subtitle: 'Age 35, building tax-free wealth with time on her side',
    profile: [
      'Age 35, in good health, non-smoker',
      'Strong, growing income and already receiving her full 401(k) match',
      'Earns too much to contribute to a Roth IRA directly',
      'Wants retirement income that does not depend on future tax rates',
    ],
    strategy: [
      'Pays $25,000 a year into a maximum-funded IUL until age 65',
      'Death benefit kept as low as the tax rules allow, to build cash value faster',
      'Cash value credited from an index strategy with a floor and a cap',
      'Takes tax-free income through policy loans from age 65',
    ],
    annualPremium: 25_000,
    results: [
      { label: 'Cash value at 65', value: '$2,496,000', description: 'Projected cash value when income begins.' },
      { label: 'Annual tax-free income', value: '$230,000', description: 'Projected yearly income through policy loans.', perYear: true },
      { label: 'Total income', value: '$6,900,000', description: 'Projected total income over 30 years of withdrawals.' },
      { label: 'Death benefit', value: '$3,000,000', description: 'Initial income-tax-free death benefit for her family.' },
    ],
    benefits: [
      'Three decades of tax-free compounding',
      'No market losses credited to her cash value in down years',
      'Income that does not raise her taxable income in retirement',
      'Family protected from the first premium',
    ],
  },
  {
    id: 'business-owner',
    icon: 'building',
    title: 'Business Owner',
    age: 45,
    subtitle: 'Age 45, turning business profits into private, tax-free retirement income',
    profile: [
      'Age 45, owns a profitable small business',
      'Income varies from year to year',
      'Has outgrown the contribution limits of his SEP IRA',
      'Wants money he can reach before 59½ if the business needs it',
    ],
    strategy: [
      'Pays $30,000 a year into a maximum-funded IUL',
      'Flexible premiums allow a smaller payment in a lean year',
      'Policy loans available for business opportunities, at typically 4-6% interest',
      'Tax-free income through policy loans in retirement',
    ],
    annualPremium: 30_000,
    results: [
      { label: 'Cash value at retirement', value: '$2,850,000', description: 'Projected cash value when income begins.' },
      { label: 'Annual tax-free income', value: '$229,000', description: 'Projected yearly income through policy loans.', perYear: true },
      { label: 'Total income', value: '$5,725,000', description: 'Projected total income over 25 years of withdrawals.' },
      {
        label: 'Remaining death benefit',
        value: '$950,000',
        description: 'Projected death benefit left for his heirs after loans are subtracted.',
      },
    ],
    benefits: [
      'No IRS contribution limit on the premium',
      'Access to cash value without the 10% early-withdrawal penalty',
      'No required minimum distributions at 73',
      'A legacy for his family, even after years of income',
    ],
  },
  {
    id: 'pre-retiree',
    icon: 'sunset',
    title: 'Pre-Retiree',
    age: 55,
    subtitle: 'Age 55, adding a tax-free income stream in the last decade of work',
    profile: [
      'Age 55, ten years from retirement',
      'Most savings are in a 401(k) that will be taxed on the way out',
      'Worried about a market crash just before retirement',
      'Wants a source of income that will not raise taxes on Social Security',
    ],
    strategy: [
      'Pays $50,000 a year for 10 years into a maximum-funded IUL',
      'Floor protection for the money closest to retirement',
      'Tax-free income through policy loans from age 65',
      'Draws from the 401(k) and the IUL in the mix that keeps taxes lowest',
    ],
    annualPremium: 50_000,
    results: [
      { label: 'Cash value at 65', value: '$730,000', description: 'Projected cash value when income begins.' },
      { label: 'Annual tax-free income', value: '$58,000', description: 'Projected yearly income through policy loans.', perYear: true },
      { label: 'Total income', value: '$1,160,000', description: 'Projected total income over 20 years of withdrawals.' },
      {
        label: 'Remaining death benefit',
        value: '$350,000',
        description: 'Projected death benefit left for her heirs after loans are subtracted.',
      },
    ],
    benefits: [
      'Protection from market losses in the years that matter most',
      'A second, tax-free income stream beside the 401(k)',
      'More control over taxable income in retirement',
      'A death benefit for her heirs',
    ],
  },
];

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    reason: 'Subtitles, strategies, results and benefits of the three hypothetical case studies; CASE_STUDY_DISCLAIMER, shown under every case, says the loan income is tax-free under current tax law only while the policy stays in force and is not a MEC.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    reason: 'The strategy and benefit lines "Tax-free income through policy loans" of the hypothetical cases; CASE_STUDY_DISCLAIMER under every case states the conditions (current tax law, policy in force, not a MEC).',
  },
];
