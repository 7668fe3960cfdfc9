/**
 * Comparison tables shared by the home page and the Ultimate Guide: the home table (IUL against five
 * other accounts, yes/no per account), IUL versus a Roth IRA and IUL versus a 401(k). Figures follow
 * SPEC section 9 (2024 limits, RMD age 73, 59½ with a 10% penalty, loans 4-6%, floor 0-1%, caps
 * 8-12%). Any statement about IUL income is a projection, and every mention of loans says that they
 * reduce the death benefit.
 */
import type { ComplianceCopyAcceptance } from '../../contract/compliance';
import { CONTRIBUTION_LIMITS, limitDollars } from './contribution-limits';

/** One row of the home comparison table; `iul` is the indexed universal life column. */
export interface HomeComparisonRow {
  id: string;
  feature: string;
  explanation: string;
  iul: boolean;
  traditional401k: boolean;
  traditionalIRA: boolean;
  rothIRA: boolean;
  sepIRA: boolean;
  investmentPortfolio: boolean;
  /** A heading row that groups the sub-rows pointing at it with `categoryId`. */
  isCategory?: boolean;
  categoryId?: string;
}

/** The account columns of the home table, in display order. */
export type HomeComparisonAccount =
  | 'iul'
  | 'traditional401k'
  | 'traditionalIRA'
  | 'rothIRA'
  | 'sepIRA'
  | 'investmentPortfolio';

export interface HomeComparisonColumn {
  key: HomeComparisonAccount;
  header: string;
}

export const HOME_COMPARISON_COLUMNS: readonly HomeComparisonColumn[] = [
  { key: 'iul', header: 'IUL' },
  { key: 'traditional401k', header: '401(k)' },
  { key: 'traditionalIRA', header: 'Traditional IRA' },
  { key: 'rothIRA', header: 'Roth IRA' },
  { key: 'sepIRA', header: 'SEP IRA' },
  { key: 'investmentPortfolio', header: 'Investment Portfolio' },
];

export const LIVING_BENEFITS_CATEGORY_ID = 'living-benefits';

export const HOME_COMPARISON_ROWS: readonly HomeComparisonRow[] = [
  {
    id: 'tax-free-growth',
    feature: 'Tax-free growth',
    explanation:
      'Cash value inside a properly structured IUL grows without current income tax, and can be reached tax-free through policy loans (which reduce the death benefit) and withdrawals up to basis. A Roth IRA also grows tax-free. A 401(k), traditional IRA and SEP IRA grow tax-deferred: every dollar that comes out later is taxed as ordinary income. A taxable investment portfolio pays tax on dividends, interest and realised gains along the way.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: true,
    sepIRA: false,
    investmentPortfolio: false,
  },
  {
    id: 'no-income-limits',
    feature: 'No income limits',
    explanation:
      `There is no income ceiling on who may own an IUL, a 401(k), a SEP IRA or a brokerage account. A Roth IRA contribution starts to phase out at ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} of income for a single filer and ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} for married couples filing jointly (2024), and a traditional IRA contribution stops being deductible at moderate incomes when you also have a workplace plan.`,
    iul: true,
    traditional401k: true,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: true,
    investmentPortfolio: true,
  },
  {
    id: 'no-contribution-limits',
    feature: 'No contribution limits',
    explanation:
      `The IRS sets annual caps on qualified plans: in 2024 a 401(k) allows ${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} plus a ${limitDollars(CONTRIBUTION_LIMITS[2024].k401CatchUp)} catch-up over age 50, an IRA ${limitDollars(CONTRIBUTION_LIMITS[2024].ira)} plus a ${limitDollars(CONTRIBUTION_LIMITS[2024].rothCatchUp)} catch-up, and a SEP IRA up to 25% of compensation. An IUL has no IRS contribution cap; the most you can put in is set by the size of the death benefit under the tax code’s life insurance rules, which is why the policy is designed for the premium you want to pay.`,
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: true,
  },
  {
    id: 'market-downside-protection',
    feature: 'Market downside protection',
    explanation:
      'IUL cash value is credited by an index formula rather than invested in the market directly. In a year the index falls, the credit is the policy floor, typically 0-1%, so the cash value does not lose value to the market (policy charges still apply). The trade-off is a cap on the upside, typically 8-12%. Accounts invested in stocks and funds rise and fall with the market.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
  },
  {
    id: 'lifetime-access-without-penalties',
    feature: 'Lifetime access without penalties',
    explanation:
      'Before age 59½, withdrawals from a 401(k), IRA or SEP IRA usually carry a 10% penalty on top of income tax, and Roth earnings are treated the same way. IUL cash value can be reached at any age through policy loans (typically 4-6% interest) or withdrawals, with no IRS age penalty. Surrender charges apply in the early policy years, and loans reduce the death benefit until they are repaid.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: true,
  },
  {
    id: 'no-required-minimum-distributions',
    feature: 'No required minimum distributions',
    explanation:
      'From age 73, a 401(k), traditional IRA and SEP IRA must pay out a required minimum distribution every year, taxed as income, whether you need the money or not. An IUL has no required distributions, and neither does a Roth IRA for its original owner or a taxable portfolio.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: true,
    sepIRA: false,
    investmentPortfolio: true,
  },
  {
    id: 'guaranteed-tax-free-lifetime-income',
    feature: 'Guaranteed tax-free lifetime income',
    explanation:
      'Many IUL policies offer an optional lifetime income or overloan-protection rider that, when its conditions are met, keeps the policy in force and the income tax-free for life. The amount of income shown in an illustration is a projection, not a guarantee, and any guarantee rests on the rider terms and the insurer’s claims-paying ability. Income taken as policy loans reduces the death benefit. The other accounts pay out only what is in them and can run dry.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
  },
  {
    id: 'tax-free-death-benefit',
    feature: 'Tax-free death benefit',
    explanation:
      'An IUL pays your beneficiaries a death benefit, generally free of income tax, that is usually far larger than the premiums paid; outstanding policy loans are subtracted from it. Retirement accounts and portfolios pass on only their balance: heirs pay income tax on inherited 401(k), traditional IRA and SEP IRA money, and a Roth IRA passes on its balance but adds no insurance on top.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
  },
  {
    id: LIVING_BENEFITS_CATEGORY_ID,
    feature: 'Living Benefits',
    explanation:
      'Living benefits, offered through accelerated benefit riders, let you draw part of the death benefit while you are alive if you suffer a qualifying illness or injury. Riders, their costs and their conditions vary by insurer and state, and any amount you accelerate reduces the death benefit your family receives. None of the other accounts carries insurance of this kind.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
    isCategory: true,
  },
  {
    id: 'critical-illness',
    feature: 'Critical illness',
    explanation:
      'A critical illness rider can advance part of the death benefit after a qualifying diagnosis such as a heart attack, stroke or invasive cancer, to cover treatment or replace lost income. The amount advanced reduces the death benefit.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
    categoryId: LIVING_BENEFITS_CATEGORY_ID,
  },
  {
    id: 'chronic-illness',
    feature: 'Chronic illness',
    explanation:
      'A chronic illness rider can pay part of the death benefit when you cannot perform two of the six activities of daily living, such as bathing or dressing, helping with care at home or in a facility. The amount advanced reduces the death benefit.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
    categoryId: LIVING_BENEFITS_CATEGORY_ID,
  },
  {
    id: 'terminal-illness',
    feature: 'Terminal illness',
    explanation:
      'A terminal illness rider can advance a large share of the death benefit when a doctor certifies a life expectancy of 12 to 24 months (the period depends on the policy), so you can settle your affairs on your own terms. The amount advanced reduces the death benefit.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
    categoryId: LIVING_BENEFITS_CATEGORY_ID,
  },
  {
    id: 'accident-critical-injury',
    feature: 'Accident / critical injury',
    explanation:
      'A critical injury rider can pay part of the death benefit after a qualifying injury such as paralysis, a severe burn or a traumatic brain injury. The amount advanced reduces the death benefit.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
    categoryId: LIVING_BENEFITS_CATEGORY_ID,
  },
  {
    id: 'alzheimers',
    feature: 'Alzheimer’s',
    explanation:
      'A diagnosis of Alzheimer’s disease or another severe cognitive impairment usually qualifies under the chronic illness rider, giving access to part of the death benefit for memory care. The amount advanced reduces the death benefit.',
    iul: true,
    traditional401k: false,
    traditionalIRA: false,
    rothIRA: false,
    sepIRA: false,
    investmentPortfolio: false,
    categoryId: LIVING_BENEFITS_CATEGORY_ID,
  },
];

/** One row of the IUL versus Roth IRA table. */
export interface IulVsRothRow {
  id: 'contributions' | 'income-limits' | 'growth' | 'downside' | 'early-access' | 'death-benefit' | 'fees' | 'control';
  feature: string;
  iul: string;
  rothIra: string;
  explanation: string;
}

export const IUL_VS_ROTH_ROWS: readonly IulVsRothRow[] = [
  {
    id: 'contributions',
    feature: 'Annual contributions',
    iul: 'No IRS cap; set by the policy design',
    rothIra: `${limitDollars(CONTRIBUTION_LIMITS[2024].rothIra)} a year, plus ${limitDollars(CONTRIBUTION_LIMITS[2024].rothCatchUp)} catch-up over age 50 (2024)`,
    explanation:
      `A Roth IRA lets you put in ${limitDollars(CONTRIBUTION_LIMITS[2024].rothIra)} a year in 2024, or ${limitDollars(CONTRIBUTION_LIMITS[2024].rothIra + CONTRIBUTION_LIMITS[2024].rothCatchUp)} from age 50 with the ${limitDollars(CONTRIBUTION_LIMITS[2024].rothCatchUp)} catch-up. An IUL has no IRS contribution limit; the premium you can pay is governed by the death benefit under the tax code’s life insurance rules, so a high earner can put away far more each year.`,
  },
  {
    id: 'income-limits',
    feature: 'Income limits',
    iul: 'None',
    rothIra: `Phase-out from ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} single, ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} married filing jointly (2024)`,
    explanation:
      `Direct Roth contributions begin to phase out at ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} of modified adjusted gross income for single filers and ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} for married couples filing jointly in 2024. Anyone who qualifies for the insurance can own an IUL, whatever their income.`,
  },
  {
    id: 'growth',
    feature: 'Growth',
    iul: 'Index-linked credits, typically capped at 8-12%; tax-free',
    rothIra: 'Full market returns, gains and losses; tax-free',
    explanation:
      'Both grow free of tax under current tax law. A Roth IRA invested in funds takes the full market return, up or down. IUL cash value is credited from an index formula with a cap, typically 8-12%, so you give up some upside in strong years in exchange for protection in weak ones. Past index performance does not predict future credits.',
  },
  {
    id: 'downside',
    feature: 'Market downside',
    iul: 'Floor of typically 0-1%: no loss to the market',
    rothIra: 'Full exposure to market losses',
    explanation:
      'When the index falls, IUL credits the floor, typically 0-1%, so the cash value does not drop with the market, although policy charges are still deducted. A Roth IRA invested in stocks can lose a large share of its value just before you need it.',
  },
  {
    id: 'early-access',
    feature: 'Access before 59½',
    iul: 'Policy loans at any age, typically 4-6% interest',
    rothIra: 'Contributions anytime; earnings usually taxed plus 10% penalty',
    explanation:
      'You can take back Roth contributions at any time, but earnings withdrawn before 59½ (and before the account is five years old) are usually taxed and charged a 10% penalty. IUL cash value can be borrowed at any age with no IRS penalty, at typically 4-6% loan interest. Surrender charges apply in the early years, and unpaid loans reduce the death benefit.',
  },
  {
    id: 'death-benefit',
    feature: 'Death benefit',
    iul: 'Income-tax-free death benefit, usually well above premiums paid',
    rothIra: 'Account balance only',
    explanation:
      'An IUL pays beneficiaries a death benefit, generally free of income tax, from day one; outstanding loans are subtracted from it. A Roth IRA passes on whatever balance is left, with no insurance added.',
  },
  {
    id: 'fees',
    feature: 'Fees and costs',
    iul: 'Insurance and policy charges, highest in early years',
    rothIra: 'Fund expense ratios and any advisory fees',
    explanation:
      'An IUL carries the cost of insurance, a premium expense charge (typically 5-10%), an administrative fee (often $5-15 a month) and surrender charges for the first 10-15 years. Maximum funding keeps the death benefit as low as the rules allow so more of each premium builds cash value. A Roth IRA costs only what its funds and advisers charge, which is usually less, especially in the early years.',
  },
  {
    id: 'control',
    feature: 'Control and flexibility',
    iul: 'Flexible premiums, loans on your schedule, no RMDs',
    rothIra: 'You choose investments; no RMDs for the owner',
    explanation:
      'A Roth IRA lets you pick your own investments and has no required distributions for the original owner. An IUL lets you vary premiums within the policy limits, choose index strategies each year and borrow when you decide, with no required distributions. Projected income from an IUL depends on funding and crediting and is not guaranteed, and loans reduce the death benefit.',
  },
];

/** One row of the IUL versus 401(k) table. */
export interface IulVs401kRow {
  id:
    | 'contributions'
    | 'contribution-limits'
    | 'employer-match'
    | 'growth'
    | 'downside'
    | 'withdrawals'
    | 'early-access'
    | 'rmds'
    | 'death-benefit'
    | 'fees';
  feature: string;
  iul: string;
  retirement401k: string;
  explanation: string;
}

export const IUL_VS_401K_ROWS: readonly IulVs401kRow[] = [
  {
    id: 'contributions',
    feature: 'How contributions are taxed',
    iul: 'After-tax premiums',
    retirement401k: 'Pre-tax (traditional) contributions',
    explanation:
      'Traditional 401(k) contributions lower your taxable income today, and the tax is paid later on every dollar withdrawn, at whatever rates apply then. IUL premiums are paid with after-tax dollars, and while the policy stays in force the cash value can later be reached tax-free through policy loans, which reduce the death benefit, and withdrawals up to basis.',
  },
  {
    id: 'contribution-limits',
    feature: 'Contribution limits',
    iul: 'No IRS cap; set by the policy design',
    retirement401k: `${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} plus ${limitDollars(CONTRIBUTION_LIMITS[2024].k401CatchUp)} catch-up over age 50 (2024)`,
    explanation:
      `In 2024 an employee can defer ${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} into a 401(k), plus a ${limitDollars(CONTRIBUTION_LIMITS[2024].k401CatchUp)} catch-up from age 50. An IUL has no IRS dollar limit; the premium is bounded by the death benefit under the tax code’s life insurance rules.`,
  },
  {
    id: 'employer-match',
    feature: 'Employer match',
    iul: 'None',
    retirement401k: 'Often available',
    explanation:
      'If your employer matches 401(k) contributions, that match is an immediate return you should rarely leave on the table. Many families contribute enough to capture the full match and direct further savings to an IUL.',
  },
  {
    id: 'growth',
    feature: 'Growth',
    iul: 'Index-linked credits, typically capped at 8-12%; tax-free access',
    retirement401k: 'Market returns; tax-deferred',
    explanation:
      'A 401(k) invested in funds takes the full market return and defers the tax until withdrawal. IUL cash value earns index-linked credits with a cap, typically 8-12%, and a floor, and can be reached tax-free under current tax law while the policy stays in force. Past index performance does not predict future credits.',
  },
  {
    id: 'downside',
    feature: 'Market downside',
    iul: 'Floor of typically 0-1%: no loss to the market',
    retirement401k: 'Full exposure to market losses',
    explanation:
      'A market fall reduces a 401(k) balance directly, which hurts most in the years just before and after retirement. IUL credits the floor, typically 0-1%, in a down year, so the cash value does not lose value to the market, although policy charges still apply.',
  },
  {
    id: 'withdrawals',
    feature: 'Withdrawals in retirement',
    iul: 'Tax-free through policy loans (projected income)',
    retirement401k: 'Taxed as ordinary income',
    explanation:
      'Every dollar taken from a traditional 401(k) is taxed as ordinary income and can raise the tax on Social Security benefits. IUL income is usually taken as policy loans, which are not taxable while the policy stays in force; the income amount is a projection, not a guarantee, and loans reduce the death benefit.',
  },
  {
    id: 'early-access',
    feature: 'Access before 59½',
    iul: 'Policy loans at any age, typically 4-6% interest',
    retirement401k: '10% penalty plus income tax, with limited exceptions',
    explanation:
      'Withdrawals from a 401(k) before 59½ generally cost a 10% penalty on top of income tax; plan loans are limited and must be repaid if you leave your job. IUL cash value can be borrowed at any age with no IRS penalty, at typically 4-6% loan interest. Surrender charges apply in the early years, and loans reduce the death benefit.',
  },
  {
    id: 'rmds',
    feature: 'Required minimum distributions',
    iul: 'None',
    retirement401k: 'Required from age 73',
    explanation:
      'From age 73 a 401(k) must pay out a required minimum distribution each year, taxed as income, whether you need it or not. An IUL has no required distributions, so you decide when and whether to draw income.',
  },
  {
    id: 'death-benefit',
    feature: 'Death benefit',
    iul: 'Income-tax-free death benefit, reduced by any loans',
    retirement401k: 'Balance passes to heirs, taxed as income',
    explanation:
      'Heirs who inherit a traditional 401(k) pay income tax on what they withdraw, usually within ten years. An IUL pays a death benefit that is generally free of income tax; outstanding policy loans are subtracted from it.',
  },
  {
    id: 'fees',
    feature: 'Fees and costs',
    iul: 'Insurance and policy charges, highest in early years',
    retirement401k: 'Fund expenses and plan administration fees',
    explanation:
      'A 401(k) charges fund expense ratios and plan fees. An IUL charges the cost of insurance, a premium expense charge (typically 5-10%), an administrative fee (often $5-15 a month), an index fee or spread of 0.5-1% a year on some strategies, and surrender charges for the first 10-15 years, which is why it suits money you can leave in place for 10+ years.',
  },
];

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'guaranteed-returns',
    text: 'Guaranteed tax-free lifetime income',
    reason: "A row name of the home comparison table as SPEC section 2 lists it; the row's explanation says the income guarantee comes only from an optional rider when its conditions are met, that illustrated income is a projection, not a guarantee, and that any guarantee rests on the insurer's claims-paying ability.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Guaranteed tax-free lifetime income',
    reason: 'The same SPEC row name; its explanation says the rider keeps the policy in force, which is what keeps the loan income tax-free.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    where: 'Tax-free growth',
    reason: 'A row name of the home comparison table (SPEC section 2); the explanation under it starts "Cash value inside a properly structured IUL grows without current income tax".',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    where: 'Tax-free death benefit',
    reason: 'A row name of the home comparison table (SPEC section 2); the explanation under it says the death benefit is "generally free of income tax", less outstanding loans.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    where: 'Tax-free through policy loans (projected income)',
    reason: 'The IUL cell of the 401(k) table\'s withdrawals row; the row\'s explanation says policy loans "are not taxable while the policy stays in force" and that the income is a projection.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'capped at 8-12%; tax-free',
    reason: 'The IUL cells of the Growth rows in the Roth and 401(k) tables; both rows\' explanations state the condition ("under current tax law", "while the policy stays in force").',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Full market returns, gains and losses; tax-free',
    reason: "Describes the Roth IRA column of the Growth row, whose tax treatment is the Roth rules', not a claim about the policy; the explanation says both grow free of tax under current tax law.",
  },
];
