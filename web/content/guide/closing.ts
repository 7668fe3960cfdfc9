/**
 * The guide's closing sections: common mistakes to avoid, the Common Questions heading (its questions
 * are GUIDE_FAQS in ../faq.ts), the three Next Steps, the disclosures and the closing call to action.
 */
import type { GuideCard } from './overview';

export const COMMON_MISTAKES: { id: 'common-mistakes'; title: string; intro: string; mistakes: readonly GuideCard[] } = {
  id: 'common-mistakes',
  title: 'Common Mistakes to Avoid',
  intro: 'Most disappointing IUL outcomes come from a handful of avoidable mistakes. These are the ones we design against.',
  mistakes: [
    {
      title: 'Underfunding the policy',
      text: 'Paying the minimum into a policy meant to be maximum-funded leaves too little cash value to support income later. Fund it as designed, for 7+ years.',
    },
    {
      title: 'Crossing the MEC line',
      text: 'Paying too much too fast turns the policy into a modified endowment contract, and its loans lose their tax-free treatment. We test every premium against the limit.',
    },
    {
      title: 'Judging the policy too early',
      text: 'Cash value is low in years 3-5 by design. Surrendering then, while surrender charges apply for 10-15 years, turns a temporary dip into a real loss.',
    },
    {
      title: 'Borrowing without a plan',
      text: 'Loans that grow faster than the cash value can cause a lapse and a tax bill. Income is planned to leave a cushion, and loans reduce the death benefit.',
    },
    {
      title: 'Buying the illustration, not the policy',
      text: 'An illustration at a high assumed rate proves nothing. Compare insurers at the same conservative assumptions and study the guaranteed column.',
    },
    {
      title: 'Skipping the annual review',
      text: 'Caps, charges and your life all change. A yearly review keeps funding, index allocation and income on track.',
    },
  ],
};

export const COMMON_QUESTIONS = {
  id: 'common-questions',
  title: 'Common Questions',
  intro: 'Short, straight answers to the eight questions we hear most about maximum-funded IUL.',
} as const;

export const NEXT_STEPS: { id: 'next-steps'; title: string; intro: string; steps: readonly GuideCard[]; buttonLabel: string } = {
  id: 'next-steps',
  title: 'Next Steps',
  intro: 'If this guide has raised questions about your own situation, here is how we take it from here.',
  steps: [
    {
      title: 'Schedule a consultation',
      text: 'A no-cost conversation by phone or video about your goals, your timeline and whether an IUL fits alongside what you already have.',
    },
    {
      title: 'Receive your personalised analysis',
      text: 'We design a maximum-funded illustration around your premium and walk you through its guaranteed and projected values, costs and income.',
    },
    {
      title: 'Implementation',
      text: 'If it fits, we handle the application, underwriting and funding schedule, then review the policy with you every year.',
    },
  ],
  buttonLabel: 'Schedule Your Free Consultation',
};

export const GUIDE_DISCLOSURES: { id: 'disclosures'; title: string; items: readonly string[] } = {
  id: 'disclosures',
  title: 'Important Disclosures',
  items: [
    'This guide is for education only. It is informational and is not a solicitation or an offer to sell insurance, and it is not tax, legal or investment advice.',
    'Illustrations, case studies and income figures are hypothetical projections based on current assumptions. They are not guaranteed, and actual results will vary.',
    'Policy loans and withdrawals reduce the cash value and the death benefit, may cause the policy to lapse, and can create a tax liability if the policy lapses or is a modified endowment contract.',
    'Guarantees are based on the claims-paying ability of the issuing insurance company. An indexed policy is not an investment in the stock market or in any index.',
    'Caps, floors, charges and loan rates are typical ranges; they vary by insurer and product and can change within the limits of the contract.',
    'Tax treatment depends on your circumstances and on current law, which can change. Consult a tax advisor before acting on anything in this guide.',
  ],
};

export const GUIDE_CLOSING_CTA = {
  heading: 'Ready to See Your Own Numbers?',
  text: 'Request a free illustration built around your age, health and budget. We will walk you through it, with no obligation.',
} as const;
