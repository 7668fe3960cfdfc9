/**
 * The words and numbers of the home page, section by section (SPEC sections 1, 2 and 9). Text that
 * names the product is a function of the site config, so the name is never written here. Figures the
 * spec quotes appear exactly as written; income figures are projections, never promises.
 */
import type { SiteConfig } from '../../contract/site-config';
import type { ComplianceCopyAcceptance } from '../../contract/compliance';
import { CONTRIBUTION_LIMITS, limitDollars, limitLabel } from './contribution-limits';

type ProductConfig = Pick<SiteConfig, 'productName'>;

/** Every section of the home page in the order the page shows them (SPEC section 2). */
export const HOME_SECTION_IDS = [
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
] as const;

export type HomeSectionId = (typeof HOME_SECTION_IDS)[number];

export interface SectionIntro {
  eyebrow: string;
  heading: string;
  lead: string;
}

// ---------------------------------------------------------------------------------------------------
// Hero

export interface HeroClaim {
  value: string;
  label: string;
}

export interface HeroContent {
  eyebrow: string;
  heading: string;
  lead: string;
  claims: readonly HeroClaim[];
  claimsNote: string;
  ctaLabel: string;
  mobileCallLabel: string;
  portraitVideoTitle: string;
  landscapeVideoTitle: string;
}

export function heroContent(config: ProductConfig): HeroContent {
  return {
    eyebrow: `${config.productName} strategy`,
    heading: 'Tax-Free Retirement Income, Protected From Market Losses',
    lead: `A ${config.productName} policy is built to grow cash value without tax, protect it from market downturns, and let you draw on it for life, with an income-tax-free death benefit for the people you love.`,
    claims: [
      { value: '$200K+', label: 'Annual Tax-Free Income' },
      { value: '0%', label: 'Market Loss Risk' },
      { value: '100%', label: 'Tax-Free Growth' },
      { value: '24/7', label: 'Access to Funds' },
    ],
    claimsNote:
      'Income figures are projections for well-funded policies, not guarantees; your own figures depend on your age, health, premium and the crediting rates actually paid. 0% market loss risk means index losses are never credited to your cash value; policy charges still apply. Income taken as policy loans is tax-free under current tax law while the policy stays in force.',
    ctaLabel: 'Get Your Free IUL Illustration',
    mobileCallLabel: 'Questions? Call Now',
    portraitVideoTitle: `How a ${config.productName} works`,
    landscapeVideoTitle: `How a ${config.productName} works`,
  };
}

// ---------------------------------------------------------------------------------------------------
// What is the product (#how-it-works)

export interface PolicyDesign {
  title: string;
  summary: string;
  points: readonly string[];
  highlighted: boolean;
}

export interface HowItWorksStep {
  title: string;
  text: string;
}

export interface WhatIsContent extends SectionIntro {
  paragraphs: readonly string[];
  comparisonHeading: string;
  designs: readonly PolicyDesign[];
  stepsHeading: string;
  steps: readonly HowItWorksStep[];
}

export function whatIsContent(config: ProductConfig): WhatIsContent {
  return {
    eyebrow: 'How it works',
    heading: `What Is a ${config.productName}?`,
    lead: 'Indexed universal life (IUL) is permanent life insurance with a cash value that earns interest linked to a stock market index, without being invested in the market.',
    paragraphs: [
      'Most life insurance is bought for the death benefit, with as little premium as possible. A maximum-funded policy turns that around: it is designed to hold as much premium as the tax code allows for the smallest death benefit that still keeps the policy’s tax advantages, so that more of every dollar goes to work as cash value.',
      'The cash value is credited each year from an index formula: when the index rises you share in the gain up to a cap, typically 8-12%; when it falls you receive the floor, typically 0-1%. Later in life you can draw on the cash value through policy loans, typically at 4-6% interest, and withdrawals up to what you paid in. Loans are not taxed while the policy stays in force, and they reduce the death benefit until repaid.',
    ],
    comparisonHeading: 'Standard versus Max Funded',
    designs: [
      {
        title: 'Standard IUL',
        summary: 'Built for the death benefit.',
        points: [
          'The premium is the lowest that keeps the chosen death benefit in force.',
          'Much of each premium pays for the cost of insurance.',
          'Cash value builds slowly and may stay small for many years.',
          'A good fit when protecting your family is the only goal.',
        ],
        highlighted: false,
      },
      {
        title: 'Max Funded IUL',
        summary: 'Built for the cash value.',
        points: [
          'The premium is as high as the tax rules allow for the death benefit, kept below the limit that would make it a modified endowment contract.',
          'The death benefit is kept as low as the rules allow, so insurance costs take a smaller share.',
          'Cash value builds faster and can supply projected tax-free retirement income through policy loans.',
          'Works best when funded for 7+ years and left to grow for 10+ years.',
        ],
        highlighted: true,
      },
    ],
    stepsHeading: 'Three steps, from first premium to retirement income',
    steps: [
      {
        title: 'Fund the policy',
        text: 'You pay a flexible premium, monthly or yearly, for at least seven years. Most of it builds cash value once the insurance and policy charges are paid.',
      },
      {
        title: 'Earn index-linked growth',
        text: 'Each year your cash value is credited from the index you choose, up to the cap in good years and never less than the floor in bad ones. Gains already credited are locked in.',
      },
      {
        title: 'Draw tax-free income',
        text: 'From retirement, you take policy loans against the cash value for projected tax-free income, on your schedule, while the rest keeps earning. Loans reduce the death benefit your family receives.',
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// Noah's Ark

export interface ArkPoint {
  title: string;
  text: string;
}

export interface NoahsArkContent extends SectionIntro {
  paragraphs: readonly string[];
  points: readonly ArkPoint[];
}

export const NOAHS_ARK: NoahsArkContent = {
  eyebrow: 'Noah’s Ark',
  heading: 'Build the Ark Before the Rain',
  lead: 'Noah did not wait for the first drops to start building. He built while the sky was clear, because by the time the flood came it would be too late.',
  paragraphs: [
    'Retirement works the same way. A policy takes time and good health to put in place, and its cash value needs years to grow. The best time to build is while you are earning, healthy and able to fund it, not after the market has fallen or tax rates have risen.',
  ],
  points: [
    {
      title: 'Shelter from market floods',
      text: 'The floor, typically 0-1%, means a falling index never takes value out of your cash value, so a crash in the year you retire cannot undo decades of saving.',
    },
    {
      title: 'Shelter from tax storms',
      text: 'Money that grows and comes out tax-free does not depend on what tax rates will be in twenty or thirty years.',
    },
    {
      title: 'Shelter for your family',
      text: 'From the first premium, the death benefit protects the people who depend on you, and living-benefit riders can help if serious illness strikes first.',
    },
  ],
};

// ---------------------------------------------------------------------------------------------------
// Tax Train

export interface TaxStation {
  period: string;
  rate: string;
  text: string;
}

export interface DebtFigure {
  value: string;
  label: string;
}

export interface TaxTrainContent extends SectionIntro {
  stationsLabel: string;
  stations: readonly TaxStation[];
  figures: readonly DebtFigure[];
  paragraphs: readonly string[];
}

export const TAX_TRAIN: TaxTrainContent = {
  eyebrow: 'The Tax Train',
  heading: 'Where Are Tax Rates Headed?',
  lead: 'Money in a 401(k) or traditional IRA has a silent partner: the government, which decides the tax rate on every dollar when you take it out. Nobody knows what that rate will be.',
  stationsLabel: 'Top federal income tax rate',
  stations: [
    { period: 'Past', rate: '70%', text: 'The top federal income tax rate as recently as 1981.' },
    { period: 'Present', rate: '37%', text: 'Today’s top federal income tax rate, set by law that can be changed.' },
    { period: 'Future', rate: 'Unknown', text: 'Set by future Congresses, when your retirement savings come out.' },
  ],
  figures: [
    { value: '$34 trillion', label: 'National debt' },
    { value: 'Over $150 trillion', label: 'Unfunded obligations, such as future Social Security and Medicare promises' },
  ],
  paragraphs: [
    'With a national debt of $34 trillion and over $150 trillion in unfunded obligations, many planners expect pressure on tax rates to rise rather than fall. We cannot tell you what will happen, and neither can anyone else.',
    'What you can decide is how much of your retirement depends on the answer. Money in a tax-free bucket is already off the train.',
  ],
};

// ---------------------------------------------------------------------------------------------------
// Seed versus harvest

export interface SeedHarvestOption {
  title: string;
  examples: string;
  points: readonly string[];
  preferred: boolean;
}

export interface SeedHarvestContent extends SectionIntro {
  options: readonly SeedHarvestOption[];
  conclusion: string;
}

export const SEED_HARVEST: SeedHarvestContent = {
  eyebrow: 'Seed versus harvest',
  heading: 'Would You Rather Pay Tax on the Seed or on the Harvest?',
  lead: 'A farmer who could choose would pay tax on the bag of seed in spring, not on the barn full of grain in autumn. Your savings are the same.',
  options: [
    {
      title: 'Tax the harvest',
      examples: '401(k), traditional IRA, SEP IRA',
      points: [
        'You skip the tax on the small amount you put in today.',
        'You pay tax on the much larger amount you take out later, at future rates.',
        'Required minimum distributions from age 73 decide part of the timing for you.',
      ],
      preferred: false,
    },
    {
      title: 'Tax the seed',
      examples: 'Maximum-funded IUL, Roth IRA',
      points: [
        'You pay tax on what you put in, at today’s known rates.',
        'The growth, often most of the final value, comes out tax-free when taken correctly.',
        'You choose when to take income, and how much.',
      ],
      preferred: true,
    },
  ],
  conclusion:
    'With $100,000 growing for 30 years at a hypothetical 8%, the seed is $100,000 and the harvest is $1,006,266. Paying tax on the seed, not the harvest, is the idea behind every tax-free strategy.',
};

// ---------------------------------------------------------------------------------------------------
// Three buckets of money (four columns)

export interface MoneyBucket {
  title: string;
  taxTreatment: string;
  examples: readonly string[];
  points: readonly string[];
}

export interface ThreeBucketsContent extends SectionIntro {
  buckets: readonly MoneyBucket[];
  note: string;
}

export const THREE_BUCKETS: ThreeBucketsContent = {
  eyebrow: 'Three buckets of money',
  heading: 'Where Your Money Sits Decides What You Keep',
  lead: 'All savings fall into three buckets: taxable, tax-deferred and tax-free. The tax-free bucket comes in two kinds, so we show four columns.',
  buckets: [
    {
      title: 'Tax-Deferred',
      taxTreatment: 'Tax later, on everything',
      examples: ['401(k)', 'Traditional IRA', 'SEP IRA'],
      points: [
        'Contributions lower today’s taxable income.',
        'Every withdrawal is taxed as ordinary income.',
        '10% penalty before 59½; required distributions from 73.',
      ],
    },
    {
      title: 'Government Tax-Free',
      taxTreatment: 'Tax now, tax-free later',
      examples: ['Roth IRA', 'Roth 401(k)'],
      points: [
        `Roth IRA: ${limitDollars(CONTRIBUTION_LIMITS[2024].rothIra)} a year, plus ${limitDollars(CONTRIBUTION_LIMITS[2024].rothCatchUp)} over age 50 (${limitLabel(2024)}).`,
        `Contributions phase out from ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} single, ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} married filing jointly (${limitLabel(2024)}).`,
        'Earnings locked up until 59½, under rules Congress can change.',
      ],
    },
    {
      title: 'Insurance Tax-Free',
      taxTreatment: 'Tax now, tax-free later',
      examples: ['Maximum-funded IUL'],
      points: [
        'No IRS contribution limit and no income limit.',
        'Access at any age through policy loans, tax-free while the policy stays in force; loans reduce the death benefit.',
        'Floor against market losses and an income-tax-free death benefit.',
      ],
    },
    {
      title: 'Taxable',
      taxTreatment: 'Tax every year',
      examples: ['Brokerage account', 'Savings', 'CDs'],
      points: [
        'Interest, dividends and realised gains taxed each year.',
        'Easy access, but taxes slow the compounding.',
        'Useful for short-term needs and emergencies.',
      ],
    },
  ],
  note: 'Most families we meet have nearly everything in the tax-deferred and taxable buckets. Moving part of it into tax-free buckets gives you a choice of where to draw income from when tax rates change.',
};

// ---------------------------------------------------------------------------------------------------
// Benefits (#benefits)

export interface HeadlineBenefit {
  title: string;
  text: string;
}

export interface BenefitCard {
  icon: 'infinity' | 'users' | 'calendar' | 'heart-pulse' | 'unlock' | 'shield';
  title: string;
  text: string;
}

export interface BenefitsContent extends SectionIntro {
  headline: readonly HeadlineBenefit[];
  cardsHeading: string;
  cards: readonly BenefitCard[];
}

export function benefitsContent(config: ProductConfig): BenefitsContent {
  return {
    eyebrow: 'Benefits',
    heading: `Why Families Choose a ${config.productName}`,
    lead: 'Four reasons sit at the heart of the strategy, and six more make it flexible enough to fit real lives.',
    headline: [
      {
        title: 'Tax-free growth',
        text: 'Cash value grows without current income tax, so all of the compounding stays working for you.',
      },
      {
        title: 'Protection from market losses',
        text: 'A floor, typically 0-1%, means a falling index never reduces your cash value; charges still apply.',
      },
      {
        title: 'Tax-free retirement income',
        text: 'Policy loans can supply projected income for life that is tax-free under current tax law, as long as the policy stays in force; loans reduce the death benefit.',
      },
      {
        title: 'A tax-free legacy',
        text: 'The death benefit passes to your beneficiaries generally free of income tax, usually well above what you paid in.',
      },
    ],
    cardsHeading: 'More reasons it works',
    cards: [
      {
        icon: 'infinity',
        title: 'No IRS contribution limits',
        text: `Unlike a 401(k) at ${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} or an IRA at ${limitDollars(CONTRIBUTION_LIMITS[2024].ira)} (${limitLabel(2024)}s), the premium is set by the policy design, not an IRS cap.`,
      },
      {
        icon: 'users',
        title: 'No income limits',
        text: `High earners phased out of a Roth IRA from ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} single or ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} married filing jointly (2024) can still fund a policy.`,
      },
      {
        icon: 'calendar',
        title: 'No required distributions',
        text: 'No one forces you to take money out at 73. You draw income when you need it, and not before.',
      },
      {
        icon: 'heart-pulse',
        title: 'Living benefits',
        text: 'Riders can advance part of the death benefit for a critical, chronic or terminal illness; the amount advanced reduces the death benefit.',
      },
      {
        icon: 'unlock',
        title: 'Access before 59½',
        text: 'Borrow against your cash value at any age without the 10% early-withdrawal penalty, typically at 4-6% loan interest.',
      },
      {
        icon: 'shield',
        title: 'Creditor protection',
        text: 'Many states, Texas among them, shield life insurance cash value from most creditors. Protection varies by state.',
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// Is it right for you?

export interface RightForYouContent extends SectionIntro {
  perfectHeading: string;
  perfect: readonly string[];
  notIdealHeading: string;
  notIdeal: readonly string[];
  premiumNote: string;
  requestLabel: string;
  callLabel: string;
}

export const RIGHT_FOR_YOU: RightForYouContent = {
  eyebrow: 'Is it right for you?',
  heading: 'An Honest Look at Who This Fits',
  lead: 'A maximum-funded IUL is a long-term commitment. It is an excellent tool for some families and the wrong one for others, and we would rather tell you which before you start.',
  perfectHeading: 'Perfect For You If',
  perfect: [
    'You earn a strong, steady income and already capture any 401(k) employer match.',
    'You earn too much to contribute to a Roth IRA directly, or want to save more than the Roth and 401(k) limits allow.',
    'You are self-employed or own a business and want tax-free income you control.',
    'You can fund the policy for 7+ years and leave it to grow for 10+ years.',
    'You want protection from market losses close to retirement.',
    'You want to leave a tax-free legacy to your family.',
  ],
  notIdealHeading: 'May Not Be Ideal If',
  notIdeal: [
    'You need the money within the next few years: cash value is low in years 3-5 and surrender charges apply for 10-15 years.',
    'You have high-interest debt or no emergency savings yet.',
    'You cannot commit a steady premium for at least seven years.',
    'You want the full upside of the stock market and accept its losses.',
    'Health or age makes the cost of insurance too high for the numbers to work.',
  ],
  premiumNote:
    'Most people can start with $100-200 a month; we recommend $300-500 a month for the policy to build meaningful cash value.',
  requestLabel: 'Request My Free Illustration',
  callLabel: 'Talk It Through',
};

// ---------------------------------------------------------------------------------------------------
// Comparison table

export const COMPARISON_INTRO: SectionIntro & { caption: string; hint: string } = {
  eyebrow: 'Side by side',
  heading: 'How an IUL Compares With Other Retirement Accounts',
  lead: 'A yes means the account has the feature as a rule; details and exceptions are in each explanation.',
  caption: 'IUL compared with a 401(k), traditional IRA, Roth IRA, SEP IRA and an investment portfolio',
  hint: 'Select a feature to read what it means and why it matters.',
};

// ---------------------------------------------------------------------------------------------------
// Compound growth (#calculator)

export interface CompoundExample {
  text: string;
}

export interface CompoundGrowthContent extends SectionIntro {
  quoteHeading: string;
  examples: readonly CompoundExample[];
  acceleratorsHeading: string;
  accelerators: readonly { title: string; text: string }[];
  calculatorHeading: string;
  calculatorIntro: string;
  illustrationNote: string;
}

export const COMPOUND_GROWTH: CompoundGrowthContent = {
  eyebrow: 'Compound growth',
  heading: 'The Power of Compound Growth, With and Without Taxes',
  lead: 'Compounding rewards three things: time, the rate of return, and keeping taxes from taking a share of every year’s growth.',
  quoteHeading: 'What compounding can do',
  examples: [
    { text: '$10,000 a year for 30 years gives $838,017 at 6%, $1,244,563 at 8% and $1,889,315 at 10%.' },
    {
      text: 'For $100,000 over 30 years at 8%: a taxable account at a 33% tax rate gives $661,436; tax-deferred and tax-free accounts each give $1,006,266.',
    },
  ],
  acceleratorsHeading: 'The three accelerators',
  accelerators: [
    { title: 'Start early', text: 'Every extra year gives each dollar one more round of growth on growth.' },
    { title: 'Increase returns', text: 'A few percentage points, compounded for decades, can double the result.' },
    { title: 'Eliminate taxes', text: 'Growth that is never taxed keeps compounding in full, and comes out whole.' },
  ],
  calculatorHeading: 'Try your own numbers',
  calculatorIntro:
    'Change the contribution, the years, the growth rate and your tax rate to see how taxes change what you keep.',
  illustrationNote:
    'The quoted examples above are illustrations and are kept exactly as quoted. Only the first one ($838,017) follows this calculator’s assumptions; the 8% and 10% figures and the $100,000 example were worked out on other assumptions, so the calculator (whose formula and assumptions are stated below) gives different figures for them.',
};

// ---------------------------------------------------------------------------------------------------
// Tables, case studies, FAQ, closing call to action

export const IUL_VS_ROTH_INTRO: SectionIntro & { caption: string } = {
  eyebrow: 'IUL vs Roth IRA',
  heading: 'IUL vs Roth IRA',
  lead: 'Both offer tax-free growth and tax-free income. They differ in who can use them, how much they hold, and what happens when markets fall. Select a row to read more.',
  caption: 'Indexed universal life compared with a Roth IRA',
};

export const IUL_VS_401K_INTRO: SectionIntro & { caption: string } = {
  eyebrow: 'IUL vs 401(k)',
  heading: 'IUL vs 401(k)',
  lead: 'A 401(k) defers tax until retirement; an IUL removes it on the way out. Many families use both: the 401(k) up to the employer match, then the IUL. Select a row to read more.',
  caption: 'Indexed universal life compared with a 401(k)',
};

export const HOME_FAQ_INTRO: SectionIntro & { viewAllLabel: string; seeMoreLabel: string; seeMoreText: string } = {
  eyebrow: 'Questions',
  heading: 'Frequently Asked Questions',
  lead: 'The questions families ask us most often about maximum-funded IUL.',
  viewAllLabel: 'View All FAQs',
  seeMoreText: 'Questions about retirement income, 401(k) rollovers or business ownership?',
  seeMoreLabel: 'See More Questions',
};

export const HOME_CLOSING_CTA = {
  heading: 'See What Tax-Free Retirement Could Look Like for You',
  text: 'Your free illustration shows projected cash value, income and death benefit for your age, health and budget. No cost, no obligation.',
} as const;

/** Title and description of the page's head. */
export function homeMeta(config: Pick<SiteConfig, 'productName' | 'agencyName'>): { title: string; description: string } {
  return {
    title: `${config.productName}: Tax-Free Retirement Income | ${config.agencyName}`,
    description: `Grow retirement savings tax-free, protected from market losses, with income you control. See how a ${config.productName} works.`,
  };
}

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'risk-free',
    text: '0% market loss risk',
    reason: "The hero's SPEC claim, kept as the agency wrote it; the same sentence of the note under the claims defines it: index losses are never credited to the cash value, and policy charges still apply.",
  },
  {
    rule: 'unqualified-projection',
    text: '$10,000 a year for 30 years gives $838,017 at 6%, $1,244,563 at 8% and $1,889,315 at 10%',
    reason: "SPEC section 1's worked compound-growth example, quoted exactly; the section's note calls the examples illustrations, and the calculator's assumptions say it is arithmetic, not a policy illustration.",
  },
  {
    rule: 'unqualified-projection',
    text: '$100,000 over 30 years at 8%: a taxable account at a 33% tax rate gives $661,436; tax-deferred and tax-free accounts each give $1,006,266',
    reason: "SPEC section 1's second worked example, quoted exactly: arithmetic of taxes on compounding for account types, not a policy projection; the section's note calls it an illustration.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'tax-deferred and tax-free accounts each give',
    reason: "SPEC section 1's worked example, quoted exactly, about a tax-free account type in general (a Roth IRA as much as a policy).",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'Tax-Free Retirement Income, Protected From Market Losses',
    reason: "The hero heading, the strategy as SPEC section 1 describes it; the note under the hero's claims says loan income is tax-free under current tax law while the policy stays in force.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'Annual Tax-Free Income',
    reason: 'A SPEC hero claim label ($200K+ annual tax-free income), kept as the agency wrote it, with the qualifying note that sits under the claims (projections, current tax law, policy in force).',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'Tax-Free Growth',
    reason: 'A SPEC hero claim label (100% tax-free growth), kept as the agency wrote it, with the qualifying note that sits under the claims.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'Tax-Free Retirement Income |',
    reason: "The home page's title, naming the strategy as SPEC section 1 does; the page's hero note states the tax conditions.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Grow retirement savings tax-free',
    reason: "The home page's search description, a one-line summary; the page's hero note and the benefit cards state the conditions.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'Government Tax-Free',
    reason: 'The title of SPEC section 2\'s "government tax-free" bucket (Roth accounts), whose points give the Roth rules.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'Insurance Tax-Free',
    reason: 'The title of SPEC section 2\'s "insurance tax-free" bucket, whose points say access is tax-free while the policy stays in force.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Tax now, tax-free later',
    reason: 'The tax-treatment line of the Roth and the insurance buckets; their points give the Roth rules and say policy loans are tax-free while the policy stays in force.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'three buckets: taxable, tax-deferred and tax-free',
    reason: "Names SPEC section 2's bucket categories; each bucket's column states its rules.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Moving part of it into tax-free buckets',
    reason: 'Refers to the two tax-free buckets above it, whose points state their conditions.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Money in a tax-free bucket is already off the train',
    reason: 'The Tax Train metaphor, pointing to the buckets of the next section, where each bucket states its conditions.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Money that grows and comes out tax-free',
    reason: "A point of the Noah's Ark metaphor about tax-free money in general; how policy income is tax-free, and while the policy stays in force, is said in How it works.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'comes out tax-free when taken correctly',
    reason: 'The "tax the seed" column covers a Roth IRA and an IUL alike; "when taken correctly" is the condition in brief, spelled out in the buckets and How it works.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'the idea behind every tax-free strategy',
    reason: 'Names the idea of paying tax on the seed, not a claim about a product; the figures before it are labelled hypothetical.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Both offer tax-free growth and tax-free income',
    reason: 'The intro of the IUL vs Roth table, about both accounts; the Growth row says both grow free of tax under current tax law.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'want tax-free income you control',
    reason: 'Describes a reader the policy fits (what they want), not what it promises; the hero note gives the conditions.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'leave a tax-free legacy',
    reason: 'Describes a reader the policy fits; the benefit card says the death benefit passes "generally free of income tax".',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'A tax-free legacy',
    reason: 'The title of the benefit card whose text says the death benefit passes to beneficiaries "generally free of income tax".',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    reason: 'The titles of two headline benefit cards ("Tax-free growth", "Tax-free retirement income"); their texts say "without current income tax" and "tax-free under current tax law, as long as the policy stays in force".',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'can supply projected tax-free retirement income through policy loans',
    reason: 'A point of the Max Funded design card; the paragraph above it in How it works says loans are not taxed while the policy stays in force.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'Draw tax-free income',
    reason: 'The title of the third How it works step; the paragraph above the steps says loans are not taxed while the policy stays in force.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'for projected tax-free income, on your schedule',
    reason: 'The third How it works step, projected income through loans; the paragraph above the steps says loans are not taxed while the policy stays in force.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-Free',
    where: 'See What Tax-Free Retirement Could Look Like for You',
    reason: 'The closing call to action, inviting an illustration; the text under it says the illustration shows projected income for the reader.',
  },
];
