/**
 * Copy of the SEP IRA versus IUL comparison page (SPEC section 2, "SEP comparison page"): hero, four
 * statistic tiles, the SEP IRA explainer (with a short note on the SIMPLE IRA the route names), the
 * comparison table, four reasons IUL is preferred and the closing call to action. Figures are the
 * spec's (section 9); the product name comes from the site config.
 */
import type { SiteConfig } from '../../contract/site-config';
import type { ComplianceCopyAcceptance } from '../../contract/compliance';
import { CONTRIBUTION_LIMITS, limitDollars } from './contribution-limits';

export interface SepStatTile {
  id: string;
  value: string;
  label: string;
  detail: string;
}

export interface SepComparisonRow {
  id: string;
  feature: string;
  sepIra: string;
  iul: string;
  explanation: string;
}

export interface SepReason {
  id: string;
  title: string;
  text: string;
}

export interface SepExplainerBlock {
  id: string;
  heading: string;
  paragraphs: string[];
  bullets?: string[];
}

export interface SepContent {
  seo: { title: string; description: string };
  hero: { eyebrow: string; heading: string; lead: string; buttonLabel: string; guideLinkLabel: string };
  statsHeading: string;
  stats: SepStatTile[];
  explainer: { heading: string; intro: string; blocks: SepExplainerBlock[] };
  comparison: { heading: string; intro: string; caption: string; sepHeader: string; iulHeader: string; rows: SepComparisonRow[] };
  reasons: { heading: string; intro: string; items: SepReason[] };
  whenSep: { heading: string; intro: string; bullets: string[]; closing: string };
  cta: { heading: string; text: string };
  disclaimer: string;
}

export function sepComparisonContent(config: SiteConfig): SepContent {
  const productName = config.productName;
  return {
    seo: {
      title: `SEP IRA vs ${productName} for the Self-Employed`,
      description: `Compare a SEP IRA with a ${productName} policy: contribution limits, taxes, RMDs at 73, early access and market protection for the self-employed.`,
    },
    hero: {
      eyebrow: 'For the self-employed and small-business owners',
      heading: `SEP IRA vs ${productName}: which fits your retirement plan?`,
      lead: `A SEP IRA gives your business a tax deduction today. A ${productName} policy is built for tax-free income later, with protection from market losses. Here is how the two compare, and when each one makes sense.`,
      buttonLabel: 'Get Your Free IUL Illustration',
      guideLinkLabel: 'Read the Ultimate Guide to IUL',
    },
    statsHeading: 'The numbers at a glance',
    stats: [
      {
        id: 'sep-limit-2025',
        value: `${limitDollars(CONTRIBUTION_LIMITS[2025].sep)}`,
        label: '2025 SEP IRA limit',
        detail: `For 2025, contributions up to 25% of compensation or ${limitDollars(CONTRIBUTION_LIMITS[2025].sep)}, whichever is less. In 2023 the limit was 25% of pay or ${limitDollars(CONTRIBUTION_LIMITS[2023].sep)}.`,
      },
      {
        id: 'rmd-age',
        value: '73',
        label: 'Age required minimum distributions begin',
        detail: `A SEP IRA must start paying out taxable required minimum distributions at 73. A ${productName} policy has none.`,
      },
      {
        id: 'early-withdrawal',
        value: '59½',
        label: 'Age before which withdrawals are penalised',
        detail: 'Taking money from a SEP IRA before 59½ generally means income tax plus a 10% penalty.',
      },
      {
        id: 'iul-floor',
        value: '0%',
        label: 'Typical IUL floor',
        detail: 'With an IUL floor typically 0-1%, a year when the index falls credits no loss; caps typically 8-12% limit the gains in strong years.',
      },
    ],
    explainer: {
      heading: 'What is a SEP IRA?',
      intro:
        'A Simplified Employee Pension (SEP) IRA is a retirement account that a business, including a sole proprietor with no employees, opens for its owner and staff. Only the employer contributes, and it can choose how much to put in each year, or nothing at all.',
      blocks: [
        {
          id: 'how-it-works',
          heading: 'How a SEP IRA works',
          paragraphs: [
            'The business deducts its contributions in the year it makes them, the money grows tax-deferred, and every dollar that comes out in retirement is taxed as ordinary income.',
          ],
          bullets: [
            `For 2025, up to 25% of compensation or ${limitDollars(CONTRIBUTION_LIMITS[2025].sep)}, whichever is less (2023: 25% of pay or ${limitDollars(CONTRIBUTION_LIMITS[2023].sep)}).`,
            'Withdrawals before 59½ generally carry a 10% penalty on top of income tax.',
            'Required minimum distributions begin at 73, whether or not you need the income.',
            'If you have eligible employees, you must contribute the same percentage of pay for them as for yourself.',
          ],
        },
        {
          id: 'who-it-suits',
          heading: 'Who a SEP IRA suits',
          paragraphs: [
            'A SEP IRA is simple and inexpensive to run. It suits owners with uneven income who want a large deduction in a good year, who expect to be in a lower tax bracket in retirement, and who have few or no employees.',
          ],
        },
        {
          id: 'simple-ira',
          heading: 'And the SIMPLE IRA?',
          paragraphs: [
            'A SIMPLE IRA (Savings Incentive Match Plan for Employees) works differently: employees defer part of their own salary and the employer must either match those deferrals or contribute for every eligible employee. Its limits are set by the IRS each year and are usually lower than what a high-earning owner can put into a SEP IRA. Like a SEP IRA, it is tax-deferred rather than tax-free, with the same early-withdrawal penalty and required minimum distributions.',
          ],
        },
      ],
    },
    comparison: {
      heading: `SEP IRA vs ${productName}, side by side`,
      intro: 'Select a feature to read why it matters. Select it again to close the explanation.',
      caption: `SEP IRA compared with a ${productName} policy`,
      sepHeader: 'SEP IRA',
      iulHeader: productName,
      rows: [
        {
          id: 'contribution-limits',
          feature: 'Contribution limits',
          sepIra: `Up to 25% of compensation or ${limitDollars(CONTRIBUTION_LIMITS[2025].sep)} (2025)`,
          iul: 'No IRS dollar limit; set by the policy design',
          explanation:
            'A SEP IRA caps what the business can put in each year. A life insurance policy has no IRS contribution limit of its own; premiums are limited by the death benefit and by the tax rules that keep the policy from becoming a modified endowment contract, which a careful design respects.',
        },
        {
          id: 'tax-deduction',
          feature: 'Tax deduction today',
          sepIra: 'Yes, contributions are deductible',
          iul: 'No, premiums are paid with after-tax dollars',
          explanation:
            'This is the SEP IRA’s biggest advantage. If your tax rate is high now and you expect it to be lower in retirement, the deduction today can be worth more than tax-free income later.',
        },
        {
          id: 'income-taxes',
          feature: 'Taxes on retirement income',
          sepIra: 'Taxed as ordinary income',
          iul: 'Tax-free through policy loans when properly structured',
          explanation:
            'SEP IRA withdrawals are taxed at whatever your rate is in retirement. IUL income is usually taken as policy loans, which are not taxable while the policy stays in force. Policy loans accrue interest and reduce the death benefit and cash value.',
        },
        {
          id: 'market-downside',
          feature: 'Market downside',
          sepIra: 'Can lose value with the investments',
          iul: 'Floor typically 0-1%; caps typically 8-12%',
          explanation:
            'A SEP IRA holds whatever you invest in, so a market fall shows up in the balance. An IUL credits interest linked to an index, with a floor that prevents index losses and a cap that limits gains. Policy charges still come out in every year, including years with no credited interest.',
        },
        {
          id: 'early-access',
          feature: 'Access before 59½',
          sepIra: 'Income tax plus a 10% penalty',
          iul: 'Policy loans at any age',
          explanation:
            'Cash value can be borrowed at any age without an age-based penalty. Early in the policy, though, cash value is low and surrender charges apply for 10-15 years, so an IUL is a long-term tool rather than an emergency fund.',
        },
        {
          id: 'rmds',
          feature: 'Required minimum distributions',
          sepIra: 'Yes, starting at 73',
          iul: 'None',
          explanation:
            'A SEP IRA forces taxable withdrawals from 73, which can push you into a higher bracket and raise taxes on Social Security. An IUL lets you decide when, and whether, to take income.',
        },
        {
          id: 'employees',
          feature: 'Contributions for employees',
          sepIra: 'Required at the same percentage of pay',
          iul: 'Not required; an individual policy',
          explanation:
            'With eligible employees, every SEP IRA contribution for you means a matching percentage for them. A personal IUL policy covers only the insured, so it does not grow your payroll costs.',
        },
        {
          id: 'death-benefit',
          feature: 'Death benefit',
          sepIra: 'The account balance; taxable to most heirs',
          iul: 'Income-tax-free death benefit',
          explanation:
            'Heirs who inherit a SEP IRA generally pay income tax on what they take out. An IUL pays an income-tax-free death benefit, reduced by any outstanding policy loans.',
        },
        {
          id: 'costs',
          feature: 'Costs',
          sepIra: 'Low: fund expenses and account fees',
          iul: 'Higher: insurance charges and policy fees',
          explanation:
            'An IUL carries a premium expense charge of 5-10%, the cost of insurance, an index fee or spread of 0.5-1% a year and a fixed administrative fee often $5-15 a month. Maximum funding spreads those costs over more cash value, but they are real and appear in every illustration.',
        },
      ],
    },
    reasons: {
      heading: `Four reasons many self-employed savers prefer ${productName}`,
      intro: 'Many of the business owners we work with keep a SEP IRA and add an IUL. These are the reasons they give most often.',
      items: [
        {
          id: 'tax-free-income',
          title: 'Tax-free income in retirement',
          text: 'Income taken through properly structured policy loans is not taxed, so a future tax increase does not shrink it. Loans reduce the death benefit and must be managed so the policy stays in force.',
        },
        {
          id: 'no-market-losses',
          title: 'No index losses',
          text: 'With a floor typically 0-1%, the cash value is not credited with a loss when the index falls, so a bad market year near retirement does not undo decades of saving.',
        },
        {
          id: 'no-rmds-or-age-penalty',
          title: 'No RMDs and no age-59½ penalty',
          text: 'You decide when income starts and how much to take, with no required minimum distributions at 73 and no 10% penalty for using the money before 59½.',
        },
        {
          id: 'protection',
          title: 'Protection for family and business',
          text: 'The policy pays an income-tax-free death benefit from day one, and many policies offer living benefits for critical, chronic or terminal illness.',
        },
      ],
    },
    whenSep: {
      heading: 'When a SEP IRA may be the better tool',
      intro: 'An IUL is not the right answer for everyone. A SEP IRA may serve you better if:',
      bullets: [
        'you want the business to take a tax deduction now, and your tax rate today is higher than you expect it to be in retirement;',
        'you cannot commit to funding a policy for 7+ years, or your time horizon is shorter than 10+ years;',
        'you want the lowest possible costs and are comfortable with market ups and downs: an IUL carries a premium expense charge of 5-10%, an index fee or spread of 0.5-1% a year, a fixed administrative fee often $5-15 a month and surrender charges for 10-15 years;',
        'you do not need life insurance, or cannot qualify for it on good terms.',
      ],
      closing: 'For many owners the answer is both: a SEP IRA for the deduction today and an IUL for a tax-free bucket later. Your illustration can show both side by side.',
    },
    cta: {
      heading: 'See how an IUL could work next to your SEP IRA',
      text: 'Request a free, no-obligation illustration built around your income and your business, or call us to talk it through.',
    },
    disclaimer:
      'This page is informational and is not a solicitation. Figures shown for an IUL are typical ranges; actual caps, floors and charges vary by insurer and policy. Illustrations are projections, not guarantees. Policy loans accrue interest and reduce the cash value and death benefit. Consult a tax professional about your own situation.',
  };
}

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'built for tax-free income later',
    reason: 'The hero lead; the first reason below says income through properly structured policy loans is not taxed and the loans must be managed so the policy stays in force.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'worth more than tax-free income later',
    reason: "Argues for the SEP IRA's deduction over later tax-free income: a comparison that favours the other product, not a claim about the policy.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'an IUL for a tax-free bucket later',
    reason: 'The closing line, after the reasons that state the conditions (properly structured loans, a policy kept in force).',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    reason: 'The title of the first reason, whose text says the income is untaxed only through properly structured policy loans, managed so the policy stays in force.',
  },
];
