/**
 * Every FAQ list on the site: the FAQ page's three categories (19 general, 1 retirement, 12 business),
 * which the home page also shows, and the Ultimate Guide's own 8 questions. Answers are plain text (no
 * product-name tokens), so every page and the FAQPage structured data use them as they are. Figures are
 * those of SPEC section 9; anything about returns is a projection, never a promise.
 */
import type { ComplianceCopyAcceptance } from '../../contract/compliance';
import { CONTRIBUTION_LIMITS, limitDollars } from './contribution-limits';
export type FaqItem = { id: string; question: string; answer: string; bullets?: string[] };

export interface FaqCategory {
  id: 'general' | 'retirement' | 'business';
  label: string;
  items: readonly FaqItem[];
}

export const GENERAL_FAQS: readonly FaqItem[] = [
  {
    id: 'what-is-iul',
    question: 'What is indexed universal life (IUL) insurance?',
    answer:
      'Indexed universal life is permanent life insurance with a cash value account. Part of each premium pays for the insurance and policy charges; the rest goes into cash value that earns interest credits linked to the performance of a market index such as the S&P 500, without your money being invested in the market itself. The policy pays an income-tax-free death benefit to your beneficiaries, and the cash value can be used during your lifetime, including as a source of retirement income.',
  },
  {
    id: 'max-funded',
    question: 'What does "maximum-funded" mean?',
    answer:
      'A maximum-funded policy is designed with the smallest death benefit the tax code allows for the premium you plan to pay, so that as much of each dollar as possible goes into cash value rather than into insurance costs. The premium is kept just under the federal limits that would turn the policy into a modified endowment contract (MEC), which would change how money taken out of it is taxed. These policies are usually funded for 7+ years and held with a time horizon of 10+ years.',
  },
  {
    id: 'index-crediting',
    question: 'How does index crediting work?',
    answer:
      'At the end of each crediting period, usually one year, the insurer looks at how the chosen index moved. If it rose, your cash value is credited with that gain up to a cap; if it fell, you are credited the floor instead of a loss. Gains that are credited are locked in and become part of the base for the next period.',
    bullets: [
      'Floor: typically 0-1%, so a market drop does not reduce your credited cash value.',
      'Cap: typically 8-12%, the most you can be credited in a period.',
      'Policy charges are still deducted every month, in up years and down years alike.',
    ],
  },
  {
    id: 'in-the-market',
    question: 'Is my money invested in the stock market?',
    answer:
      'No. Your cash value sits in the insurer’s general account. The index is only a yardstick used to calculate your interest credit, which is why a market crash does not take your credited value down with it. The trade-off is that you do not receive dividends and your upside is limited by the cap.',
  },
  {
    id: 'lose-money',
    question: 'Can I lose money in an IUL?',
    answer:
      'The floor protects you from index losses, but a policy can still lose value. Monthly policy charges are taken out whether or not the index grows, surrender charges apply if you cancel in the early years, and a policy that is underfunded, or borrowed against too heavily, can lapse; policy loans also reduce the cash value and the death benefit. That is why we design policies to be well funded and review them every year.',
  },
  {
    id: 'tax-free-income',
    question: 'How does an IUL provide tax-free retirement income?',
    answer:
      'Cash value grows tax-deferred. In retirement you draw income mainly through policy loans, which are generally not taxable income as long as the policy stays in force and is not a modified endowment contract. The loan is repaid from the death benefit when you pass away, so policy loans reduce the death benefit your family receives. Tax treatment depends on your situation, so confirm it with your tax advisor.',
  },
  {
    id: 'policy-loans',
    question: 'How do policy loans work?',
    answer:
      'You borrow from the insurer using your cash value as collateral; your cash value itself stays in the policy and can keep earning index credits. There is no approval process, no credit check and no fixed repayment schedule.',
    bullets: [
      'Loan access is typically 80-90% of cash value.',
      'Loan interest typically runs 4-6% a year, depending on the insurer and the loan type.',
      'Unpaid loans and interest reduce the cash value and the death benefit, and a policy that is borrowed too heavily can lapse and create a tax bill.',
    ],
  },
  {
    id: 'fees',
    question: 'What fees and costs does an IUL have?',
    answer:
      'IUL policies have real costs, and you should see every one of them in your illustration before you decide. A maximum-funded design keeps the insurance costs as low as the rules allow, but it does not remove them.',
    bullets: [
      'Premium expense charge: 5-10% of each premium.',
      'Index fee or spread: 0.5-1% a year on some index accounts.',
      'Fixed administrative fee: often $5-15 a month.',
      'Cost of insurance: monthly charges based on your age, health and the amount at risk.',
      'Surrender charges: apply if you cancel during the first 10-15 years.',
    ],
  },
  {
    id: 'surrender-charges',
    question: 'What are surrender charges?',
    answer:
      'Surrender charges are fees the insurer keeps if you cancel the policy or withdraw more than the allowed amount in the early years. They typically last 10-15 years and shrink each year. They are the main reason an IUL should be treated as a long-term commitment and funded only with money you will not need to take back out in the first decade.',
  },
  {
    id: 'cash-value-growth',
    question: 'When does the cash value start to grow?',
    answer:
      'Slowly at first. Early premiums carry the heaviest charges, so cash value is typically low in years 3-5, and the policy usually grows most after years 5-7, once the charges have been absorbed and compounding has more to work with. Plan to fund the policy for 7+ years and keep it for 10+ years before judging it.',
  },
  {
    id: 'time-horizon',
    question: 'How long should I plan to keep the policy?',
    answer:
      'An IUL built for retirement income works best with a time horizon of 10+ years, and ideally much longer. If you might need the money back within a few years, a savings account or another short-term option is the better home for it.',
  },
  {
    id: 'getting-started-premium',
    question: 'How much do I need to get started?',
    answer:
      'Some policies can be started at $100-200 a month, but we usually recommend $300-500 a month or more so that enough goes into cash value to make the strategy work. Larger maximum-funded designs are built around annual premiums. Whatever the amount, it should be money you can commit for 7+ years without strain.',
  },
  {
    id: 'medical-exam',
    question: 'Do I need to qualify medically?',
    answer:
      'Yes. An IUL is life insurance, so the insurer underwrites your health, usually with a questionnaire and often a paramedical exam or records review. Better health ratings mean lower insurance costs and more of each premium going into cash value, which is one reason starting earlier helps.',
  },
  {
    id: 'iul-vs-whole-life',
    question: 'How does an IUL compare with whole life insurance?',
    answer:
      'Whole life offers fixed premiums and guaranteed cash value growth, typically 2-4%, plus possible dividends, with policy loans that typically cost 5-8%. An IUL has flexible premiums and credits linked to an index with a floor of 0-1% and a cap of 8-12%, and its loans typically cost 4-6%; in both, loans reduce the death benefit. Illustrations often show 30-50% more retirement income from a well-funded IUL than from whole life at the same premium, but those are projections, not guarantees.',
  },
  {
    id: 'iul-vs-roth-401k',
    question: 'How is an IUL different from a 401(k) or Roth IRA?',
    answer:
      `A 401(k) and a Roth IRA have federal contribution limits and a Roth IRA has income limits; an IUL has neither, though the tax code limits how much premium a policy can take for its death benefit. For 2024, a 401(k) allows ${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} plus a ${limitDollars(CONTRIBUTION_LIMITS[2024].k401CatchUp)} catch-up over 50, and a Roth IRA allows ${limitDollars(CONTRIBUTION_LIMITS[2024].rothIra)} plus a ${limitDollars(CONTRIBUTION_LIMITS[2024].rothCatchUp)} catch-up over 50, with the Roth income phase-out starting at ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} single and ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} married filing jointly. Many families use an IUL alongside these accounts rather than instead of them.`,
  },
  {
    id: 'required-distributions',
    question: 'Does an IUL have required minimum distributions?',
    answer:
      'No. Traditional 401(k)s and IRAs require minimum distributions starting at age 73, whether or not you need the money. An IUL has no required minimum distributions, so you decide when and how much to take.',
  },
  {
    id: 'early-access',
    question: 'Can I use the money before age 59½?',
    answer:
      'Yes. Withdrawals from retirement accounts before 59½ usually carry a 10% penalty on top of income tax. Policy loans and withdrawals from an IUL have no age restriction and no such penalty, as long as the policy is not a modified endowment contract. Keep in mind that surrender charges apply in the early years and that loans reduce the death benefit.',
  },
  {
    id: 'death-benefit',
    question: 'What happens to the death benefit?',
    answer:
      'When you pass away, your beneficiaries receive the death benefit, generally free of income tax, minus any outstanding policy loans and interest. Many policies also offer living benefit riders that let you draw part of the death benefit early after a qualifying critical, chronic or terminal illness.',
  },
  {
    id: 'guaranteed',
    question: 'Are the returns in an illustration guaranteed?',
    answer:
      'No. An illustration shows projected values using the insurer’s current caps, charges and an assumed crediting rate; actual results will differ, and caps and charges can change within the limits of the contract. Every illustration also shows a guaranteed column, which is the figure to study when you ask how the policy could perform in a poor stretch. Guarantees depend on the claims-paying ability of the insurer.',
  },
];

export const RETIREMENT_FAQS: readonly FaqItem[] = [
  {
    id: 'iul-and-401k',
    question: 'Should I keep contributing to my 401(k) if I start an IUL?',
    answer:
      'For most people, yes, at least up to the employer match, which is money you would otherwise leave on the table. An IUL then complements the 401(k): it adds a pool of money with no contribution limits, no required minimum distributions at 73 and no 10% penalty for access before 59½, and retirement income from it can come through policy loans that are generally not taxed (loans reduce the death benefit).',
    bullets: [
      `2023 limits: 401(k) ${limitDollars(CONTRIBUTION_LIMITS[2023].k401)}; IRA ${limitDollars(CONTRIBUTION_LIMITS[2023].ira)}.`,
      `2024 limits: 401(k) ${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} plus ${limitDollars(CONTRIBUTION_LIMITS[2024].k401CatchUp)} catch-up over 50; Roth IRA ${limitDollars(CONTRIBUTION_LIMITS[2024].rothIra)} plus ${limitDollars(CONTRIBUTION_LIMITS[2024].rothCatchUp)} catch-up over 50.`,
      `Roth IRA income phase-out for 2024 starts at ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutSingle)} single and ${limitDollars(CONTRIBUTION_LIMITS[2024].rothPhaseOutJoint)} married filing jointly.`,
    ],
  },
];

export const BUSINESS_FAQS: readonly FaqItem[] = [
  {
    id: 'why-business-owners',
    question: 'Why do business owners use an IUL?',
    answer:
      'Owners often earn more than qualified plans let them shelter, have income that varies from year to year, and want access to capital before retirement. An IUL has no contribution limits set by retirement-plan rules, flexible premiums, cash value that can be borrowed against at any age (loans reduce the death benefit), and a death benefit that can protect the family and the business.',
  },
  {
    id: 'sep-ira-vs-iul',
    question: 'How does an IUL compare with a SEP IRA?',
    answer:
      `A SEP IRA is simple and gives a current tax deduction, but contributions are capped and withdrawals are taxed as income. For 2023 the limit was 25% of pay or ${limitDollars(CONTRIBUTION_LIMITS[2023].sep)}; for 2025 it is up to 25% of compensation or ${limitDollars(CONTRIBUTION_LIMITS[2025].sep)}. SEP withdrawals before 59½ generally carry a 10% penalty and distributions are required from age 73. An IUL is funded with after-tax dollars but has no such contribution cap, no required distributions and income that can come through policy loans, which reduce the death benefit.`,
  },
  {
    id: 'company-pays-premium',
    question: 'Can my business pay the premiums?',
    answer:
      'Often, yes. A common way is an executive bonus arrangement: the business pays a bonus that covers the premium on a policy you own personally. The bonus is usually deductible to the business and taxable income to you. Your CPA should confirm how it fits your entity type.',
  },
  {
    id: 'premiums-deductible',
    question: 'Are IUL premiums tax-deductible?',
    answer:
      'Premiums on a policy you own personally are not deductible. The advantage comes later: tax-deferred growth, income through policy loans that is generally not taxed (loans reduce the death benefit), and an income-tax-free death benefit. Where the business pays a bonus to cover the premium, the business may deduct the bonus as compensation.',
  },
  {
    id: 'executive-bonus',
    question: 'What is an executive bonus (Section 162) plan?',
    answer:
      'It is a simple way to reward yourself or key employees: the company pays for a life insurance policy owned by the employee, as taxable compensation. It needs no IRS approval, has no non-discrimination testing, and lets you choose who participates. Some employers add a restrictive agreement so the employee keeps full access only after staying a set number of years.',
  },
  {
    id: 'key-person',
    question: 'What is key-person insurance?',
    answer:
      'Key-person coverage is a policy the business owns on someone whose loss would hurt revenue, such as the owner or a top producer. If that person dies, the business receives the death benefit to cover lost income, recruit a replacement or reassure lenders. An IUL used this way also builds cash value the business can draw on.',
  },
  {
    id: 'buy-sell',
    question: 'Can an IUL fund a buy-sell agreement?',
    answer:
      'Yes. Partners often buy life insurance on each other so that, if one dies, the survivors have the money to buy the deceased partner’s share from the family at the agreed price. Permanent coverage such as an IUL lasts as long as the agreement and builds cash value that can help fund a buyout at retirement as well.',
  },
  {
    id: 'key-employees',
    question: 'Can I use an IUL to keep key employees?',
    answer:
      'Yes. Executive bonus plans and non-qualified deferred compensation plans funded with life insurance let you offer selected employees a retirement benefit beyond the company 401(k), with vesting that rewards them for staying. The design and the tax treatment differ between the two, so we work alongside your CPA or attorney.',
  },
  {
    id: 'variable-income',
    question: 'My income changes from year to year. Does an IUL still work?',
    answer:
      'It can. Premiums are flexible within limits, so you can pay more in strong years and less in lean ones. The policy still needs to be funded for 7+ years to build meaningful cash value, and skipping too many payments can reduce results or cause a lapse, so we design around a premium you can sustain in an average year.',
  },
  {
    id: 'solo-401k',
    question: 'I am self-employed. Should I use a solo 401(k) as well?',
    answer:
      `Many self-employed people do both. A solo 401(k) gives a current deduction up to its limits (for 2024 the employee deferral is ${limitDollars(CONTRIBUTION_LIMITS[2024].k401)} plus a ${limitDollars(CONTRIBUTION_LIMITS[2024].k401CatchUp)} catch-up over 50, before the employer contribution), and an IUL adds tax-advantaged savings above those limits with access before 59½. Which to fund first depends on your tax bracket now and what you expect it to be in retirement.`,
  },
  {
    id: 'creditor-protection',
    question: 'Is the cash value protected from creditors?',
    answer:
      'In many states, including Texas, the cash value and death benefit of life insurance enjoy strong protection from creditors under state law. The rules differ from state to state and have exceptions, for example for transfers made to avoid a known creditor, so ask an attorney how they apply to you.',
  },
  {
    id: 'selling-the-business',
    question: 'What happens to my policy if I sell or close the business?',
    answer:
      'A policy you own personally stays yours. Its cash value and death benefit are unaffected by the sale, and it can become a source of income after you leave the business. A policy owned by the business can usually be transferred to you, though the transfer may have tax consequences that your CPA should review first.',
  },
];

/** The Ultimate Guide's Common Questions (its own list of 8). */
export const GUIDE_FAQS: readonly FaqItem[] = [
  {
    id: 'guide-suitability',
    question: 'Who is a max-funded IUL right for?',
    answer:
      'It suits people with steady cash flow who already capture any employer match, can commit money for 7+ years, have a time horizon of 10+ years, and want tax-free income and a death benefit in one plan. High earners who are limited by Roth IRA income rules and business owners who have outgrown their retirement plan limits are the most common fit. It is usually not right for someone without an emergency fund, with high-interest debt, or who may need the money back within a few years.',
  },
  {
    id: 'guide-risks',
    question: 'What are the risks?',
    answer:
      'The main risks are underfunding, over-borrowing and changing assumptions. Surrender charges apply for 10-15 years, so cancelling early can cost money. Caps and charges can change within the contract limits, so actual credits may be lower than illustrated. Heavy policy loans reduce the death benefit and can cause a lapse with a tax bill. Guarantees depend on the claims-paying ability of the insurer. Annual reviews keep each of these in view.',
  },
  {
    id: 'guide-return-limits',
    question: 'Are my returns limited?',
    answer:
      'Yes, in both directions. The floor, typically 0-1%, means a negative index year credits nothing rather than a loss. The cap, typically 8-12%, limits what you can be credited in a strong year. You give up part of the best years in exchange for never giving back gains because of a market drop.',
  },
  {
    id: 'guide-fees',
    question: 'What fees and costs should I expect?',
    answer:
      'Expect a premium expense charge of 5-10% of each premium, an index fee or spread of 0.5-1% a year on some index accounts, a fixed administrative fee often $5-15 a month, cost of insurance charges, and surrender charges for 10-15 years. Maximum funding keeps the insurance costs small relative to the cash value, which is what makes the strategy efficient over time.',
  },
  {
    id: 'guide-how-much',
    question: 'How much should I contribute?',
    answer:
      'For a retirement-focused design we suggest a minimum annual premium of $10,000, and typical clients contribute $25,000-$100,000+ a year. The right number is one you can keep paying for 7+ years without touching your emergency fund or giving up an employer match; we set the death benefit around it so the policy stays below the modified endowment contract limits.',
  },
  {
    id: 'guide-cash-value',
    question: 'When will my cash value grow?',
    answer:
      'Expect the cash value to be low in years 3-5 while the early charges are absorbed, and to grow most after years 5-7 as premiums accumulate and credits compound. Judging the policy in its first few years is like judging an orchard by its first harvest.',
  },
  {
    id: 'guide-401k-ira-funding',
    question: 'Can I fund an IUL from my 401(k) or IRA?',
    answer:
      'Yes, but not by a direct transfer: money taken out of a 401(k) or IRA is taxed as income first, and before 59½ it usually carries a 10% penalty as well. Some people spread withdrawals over several years to manage their tax bracket, or start once required minimum distributions begin at 73 and redirect income they do not need. Talk to your tax advisor before moving retirement money.',
  },
  {
    id: 'guide-iul-vs-whole-life',
    question: 'Is an IUL better than whole life?',
    answer:
      'It depends on what you value. Whole life gives guaranteed growth of typically 2-4% and fixed premiums; an IUL gives flexible premiums and index-linked credits with a 0-1% floor and an 8-12% cap. Loans typically cost 4-6% in an IUL against 5-8% in whole life, and in both they reduce the death benefit. Illustrations often show 30-50% more retirement income from an IUL, which is a projection, not a promise. People who want the most guarantees lean to whole life; people who want growth potential and flexibility lean to an IUL.',
  },
];

export const FAQ_CATEGORIES: readonly FaqCategory[] = [
  { id: 'general', label: 'General IUL Questions', items: GENERAL_FAQS },
  { id: 'retirement', label: 'Retirement Income & 401(k)', items: RETIREMENT_FAQS },
  { id: 'business', label: 'Business Owner Questions', items: BUSINESS_FAQS },
];

/** The words around the lists on the /faq page. */
export const FAQ_PAGE = {
  title: 'Frequently Asked Questions',
  description:
    'Straight answers about indexed universal life: how it works, its costs, tax-free retirement income and how business owners use it.',
  eyebrow: 'Answers from our family to yours',
  lead: 'These are the questions we hear most often from families, retirees-to-be and business owners. If yours is not here, call us or request a free illustration and we will walk you through it.',
  tabsLabel: 'FAQ categories',
  questionsLabel: 'Questions by category',
  disclaimer:
    'This page is for education only and is not a solicitation or tax, legal or investment advice. Figures are typical ranges; illustrated values are projections and not guaranteed. Policy loans and withdrawals reduce the cash value and the death benefit.',
  cta: {
    heading: 'Still have questions?',
    text: 'Every situation is different. Request a free, personalised illustration and we will answer your questions with your own numbers.',
  },
} as const;

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'guaranteed-returns',
    text: 'guaranteed cash value growth',
    reason: "About whole life's contractual guaranteed rate (typically 2-4%), set against the IUL's floor and cap in the same answer, which ends by calling the IUL figures projections, not guarantees.",
  },
  {
    rule: 'guaranteed-returns',
    text: 'guaranteed growth',
    reason: "About whole life's contractual guaranteed growth, contrasted with the IUL in the same guide answer; the guide's answer on risks says guarantees depend on the insurer's claims-paying ability.",
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'How does an IUL provide tax-free retirement income?',
    reason: 'The question itself; its answer states the conditions: loans are generally not taxable as long as the policy stays in force and is not a modified endowment contract.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'how business owners use it',
    reason: 'The FAQ page description, listing its topics; the answer on tax-free retirement income on that page states the conditions.',
  },
  {
    rule: 'tax-free-unqualified',
    text: 'tax-free',
    where: 'want tax-free income and a death benefit in one plan',
    reason: "Describes what a suitable buyer wants, not what the policy promises; the guide's Tax Advantages note beside it says tax-free income depends on keeping the policy in force and within the MEC limits.",
  },
];
