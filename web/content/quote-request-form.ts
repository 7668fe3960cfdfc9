/**
 * Copy of the quote-request form on /get-quote and of its thank-you page: labels, hints, the optional
 * group, the consent text (from the contract, so the page and the consent record say the same words),
 * the notices for a request sent too quickly, too often or twice, what happens next, and the page a
 * thank-you address without a stored request shows. The rules and error
 * messages live in contract/quote-request.ts, shared with the server.
 */
import { consentText, type QuoteField } from '../../contract/quote-request';
import type { SiteConfig } from '../../contract/site-config';

export interface QuoteFieldCopy {
  label: string;
  hint?: string;
}

export interface QuoteRequestFormCopy {
  heading: string;
  intro: string;
  requiredNote: string;
  fields: Record<QuoteField, QuoteFieldCopy>;
  contactLegend: string;
  contactOptions: { phone: string; email: string };
  moreLegend: string;
  moreIntro: string;
  ratingPlaceholder: string;
  tobaccoOptions: { unset: string; yes: string; no: string };
  consent: string;
  consentNote: string;
  submit: string;
  sending: string;
  privacy: string;
  summaryHeading: string;
  tooFast: string;
  rateLimited: (minutes: number, agencyPhone: string) => string;
  /** The request could not be stored just now (the server's database is restarting): nothing typed is lost. */
  unavailable: (agencyPhone: string) => string;
  /** This form was sent before, with other answers (Back, a change, sent again): the change was not sent (decision 0018). */
  alreadySent: (reference: string, agencyPhone: string) => string;
  honeypotLabel: string;
}

export function quoteRequestFormCopy(config: SiteConfig): QuoteRequestFormCopy {
  return {
    heading: 'Request your free illustration',
    intro: 'Four short answers are enough to start. A licensed agent prepares your illustration and goes through it with you.',
    requiredNote: 'Fields marked required are needed; everything else is optional.',
    fields: {
      name: { label: 'Your name' },
      email: { label: 'E-mail', hint: 'Needed if you would like us to e-mail you.' },
      phone: { label: 'Phone', hint: 'With area code. Needed if you would like a call.' },
      preferredContactMethod: { label: 'How should we contact you?' },
      age: { label: 'Your age' },
      annualContribution: { label: 'What you could put in each year', hint: 'In dollars; an estimate is fine.' },
      retirementAge: { label: 'Age you would like to retire' },
      currentRetirementSavings: { label: 'Retirement savings so far', hint: 'In dollars, all accounts together.' },
      healthRating: { label: 'Your health, in general', hint: 'It shapes the cost of insurance in the illustration.' },
      tobaccoUser: { label: 'Do you use tobacco?' },
      additionalNotes: { label: 'Anything else we should know', hint: 'Questions, goals, a good time to call.' },
    },
    contactLegend: 'How should we contact you?',
    contactOptions: { phone: 'By phone', email: 'By e-mail' },
    moreLegend: 'A little more about you (optional)',
    moreIntro: 'These make the first illustration closer to your situation. Skip any you prefer to discuss on the call.',
    ratingPlaceholder: 'Prefer to discuss',
    tobaccoOptions: { unset: 'Prefer to discuss', yes: 'Yes', no: 'No' },
    consent: consentText(config.agencyName),
    consentNote: 'Leave it unchecked and we will contact you only the one way you chose above, about this request.',
    submit: 'Request my free illustration',
    sending: 'Sending your request…',
    privacy: `We use your details to prepare and discuss your illustration and never sell them. Our privacy policy says what we keep and for how long. Illustrations are projections, not guarantees; this request does not commit you to anything.`,
    summaryHeading: 'Please check your request',
    tooFast: 'That was quicker than we expected. Please check your details below and send the request again.',
    rateLimited: (minutes, agencyPhone) =>
      `We have received several requests from your connection in the last hour. Please try again in about ${minutes} minute${minutes === 1 ? '' : 's'}, or call us at ${agencyPhone}.`,
    unavailable: (agencyPhone) =>
      `We could not save your request just now: our system is briefly unavailable. Everything you typed is still below, so please send it again in a minute, or call us at ${agencyPhone} and we will take it by phone.`,
    alreadySent: (reference, agencyPhone) =>
      `This form was already sent, and your request arrived with reference ${reference}. What you changed since has not been sent. To send the details below as a new request, check them and press the button again, or call us at ${agencyPhone} to update your request.`,
    honeypotLabel: 'Leave this field empty',
  };
}

export interface QuoteThankYouCopy {
  title: string;
  description: string;
  heading: string;
  lead: string;
  /** Before the request's reference (contract/quote-intent.ts). */
  referenceLabel: string;
  referenceNote: string;
  nextHeading: string;
  steps: Array<{ id: string; title: string; text: string }>;
  soonerHeading: string;
  soonerText: string;
  scheduleLink: string;
  backLink: string;
  disclaimer: string;
}

const THANKS_DISCLAIMER =
  'Illustrations are hypothetical projections based on current assumptions and are not guarantees of future values. This site is informational and is not an offer to sell insurance.';

export function quoteThankYouCopy(config: SiteConfig): QuoteThankYouCopy {
  return {
    title: 'Thank you: your request has arrived',
    description: 'Your request for a free IUL illustration has arrived. Here is what happens next and when.',
    heading: 'Thank you, your request has arrived',
    lead: `A licensed agent of ${config.agencyName} will contact you within one business day, the way you asked us to.`,
    referenceLabel: 'Your reference is',
    referenceNote: 'If you call us about this request, this is the number to give.',
    nextHeading: 'What happens next',
    steps: [
      {
        id: 'contact',
        title: 'We contact you within one business day',
        text: `${config.officeHours}. A request sent at the weekend or in the evening is answered on the next business day.`,
      },
      {
        id: 'questions',
        title: 'A short conversation',
        text: 'We confirm your goals and ask the few health and budget questions an accurate illustration needs.',
      },
      {
        id: 'illustration',
        title: 'Your illustration',
        text: 'We prepare it and go through it with you line by line: projected values, costs and the assumptions behind them. Nothing is decided until you decide.',
      },
    ],
    soonerHeading: 'Would you rather talk sooner?',
    soonerText: 'Call us, or pick a time for a call with the scheduling form.',
    scheduleLink: 'Pick a time now',
    backLink: 'Back to the home page',
    disclaimer: THANKS_DISCLAIMER,
  };
}

/** The thank-you page opened without a stored request (no reference, or one we do not have): decision 0018. */
export interface QuoteNothingSentCopy {
  title: string;
  description: string;
  heading: string;
  lead: string;
  sentText: string;
  requestHeading: string;
  requestText: string;
  formLink: string;
  disclaimer: string;
}

export function quoteNothingSentCopy(config: SiteConfig): QuoteNothingSentCopy {
  return {
    title: 'No quote request was sent from this page',
    description: 'This page confirms a quote request once it has arrived. It was opened without one, so nothing was sent from here.',
    heading: 'No request was sent from this page',
    lead: 'This page confirms a quote request once it has arrived. It was opened without one, or with a reference we do not have, so nothing was sent from here and nobody will contact you because of this page.',
    sentText: `If you did send the form and ended up here, please call us at ${config.phoneDisplay} and we will check for you.`,
    requestHeading: 'Would you like a free illustration?',
    requestText: 'Four short answers are enough to start, or call us and we will take your request by phone.',
    formLink: 'Request your free illustration',
    disclaimer: THANKS_DISCLAIMER,
  };
}
