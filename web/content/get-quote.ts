/**
 * Copy of the quote page (/get-quote, SPEC "Quote page"): the title, the intro video, the embedded
 * scheduling form (its steps, facade, fallback), what a free illustration includes, a few FAQs, and the
 * Service JSON-LD with its free Offer, built from the same copy. Contact details come from the config.
 */
import type { Service, WithContext } from 'schema-dts';
import type { SiteConfig } from '../../contract/site-config';
import type { ComplianceCopyAcceptance } from '../../contract/compliance';

/** The booking form's frame (SPEC section 9): 800px tall, never below 600px. */
export const BOOKING_FRAME_SIZE = { height: '800px', minHeight: '600px' } as const;
/** How long the form may take to fire its load event before the phone fallback shows. */
export const BOOKING_LOAD_TIMEOUT_MS = 15_000;
/** The illustration's price, as the structured data states it. */
export const ILLUSTRATION_OFFER = { price: '0', priceCurrency: 'USD' } as const;

export interface QuoteFormStep {
  id: string;
  title: string;
  text: string;
}

export interface QuoteInclusion {
  id: string;
  title: string;
  text: string;
}

export interface QuoteFaq {
  id: string;
  question: string;
  answer: string;
}

export interface BookingFormCopy {
  heading: string;
  intro: string;
  stepsHeading: string;
  steps: QuoteFormStep[];
  openLabel: string;
  /** Said before the form is opened: what opening it loads, and from where. */
  privacyNote: string;
  frameTitle: string;
  loadingMessage: string;
  fallbackHeading: string;
  fallbackText: string;
}

export interface QuoteContent {
  seo: { title: string; description: string };
  hero: { eyebrow: string; heading: string; freeBadge: string; lead: string; highlights: string[] };
  video: { heading: string; title: string; caption: string };
  form: BookingFormCopy;
  /** The phone fallback shown beside the form at all times. */
  phone: { prompt: string; text: string };
  inclusions: { heading: string; intro: string; items: QuoteInclusion[]; projectionNote: string };
  faqs: { heading: string; items: QuoteFaq[] };
  service: { name: string; serviceType: string; description: string };
  disclaimer: string;
}

export function quoteContent(config: SiteConfig): QuoteContent {
  const productName = config.productName;
  const freeBadge = 'Free, no obligation';
  return {
    seo: {
      title: 'Get Your Free IUL Illustration',
      description: `Request a free, no-obligation ${productName} illustration: projected cash value, tax-free income, death benefit and costs, prepared for you.`,
    },
    hero: {
      eyebrow: 'Free IUL Illustration',
      heading: 'Get Your Free IUL Illustration',
      freeBadge,
      lead: `See what a ${productName} policy designed for you could look like, year by year, before you decide anything. The illustration is free, and there is no obligation to buy.`,
      highlights: ['Prepared by a licensed agent in our family', 'Costs and assumptions shown in full', 'Reviewed with you by phone or video'],
    },
    video: {
      heading: 'Watch: how the free illustration works',
      title: 'How your free IUL illustration works',
      caption: 'A short introduction to what we ask, what you receive and how we review it with you.',
    },
    form: {
      heading: 'Optional: pick a time for your consultation',
      intro: 'Sent your request above? You can also choose a time for the call now with our scheduling form, or skip this step: we will contact you within one business day either way.',
      stepsHeading: 'What the form asks',
      steps: [
        {
          id: 'about-you',
          title: 'About you',
          text: 'Your name, e-mail, phone number and age, and how you prefer to be contacted.',
        },
        {
          id: 'your-plans',
          title: 'Your retirement plans',
          text: 'The age you would like to retire, what you could contribute each year and what you have saved so far.',
        },
        {
          id: 'your-health',
          title: 'Your health',
          text: 'A general health rating and whether you use tobacco, which shape the cost of insurance in the illustration.',
        },
        {
          id: 'your-time',
          title: 'A time to talk',
          text: 'Choose a consultation time and add any notes or questions you would like us to look at.',
        },
      ],
      openLabel: 'Open the scheduling form',
      privacyNote: 'The form is provided by our scheduling service and loads from its website only when you open it.',
      frameTitle: 'Scheduling form: request your free IUL illustration',
      loadingMessage: 'The scheduling form is opening below.',
      fallbackHeading: 'The scheduling form could not load',
      fallbackText:
        'Something stopped the form from loading, perhaps a content blocker or a network problem. You can still request your free illustration by phone or e-mail:',
    },
    phone: {
      prompt: 'Prefer to talk? Call',
      text: 'A member of our family answers, and we can take your details over the phone instead of the form.',
    },
    inclusions: {
      heading: 'What your illustration includes',
      intro: 'A policy illustration is a detailed, year-by-year projection. Yours will show:',
      items: [
        {
          id: 'cash-value',
          title: 'Projected cash value by year',
          text: 'How the cash value could grow each year, from the early years when it is low to the later years when it grows most.',
        },
        {
          id: 'tax-free-income',
          title: 'Projected tax-free income',
          text: 'How much income policy loans could provide each year in retirement, and for how long. Policy loans reduce the death benefit.',
        },
        {
          id: 'death-benefit',
          title: 'Death benefit',
          text: 'The income-tax-free death benefit your family would receive each year, before and after retirement income begins.',
        },
        {
          id: 'costs',
          title: 'Costs and charges',
          text: 'Every charge: premium expense charges, the cost of insurance, administrative fees, index fees and surrender charges.',
        },
        {
          id: 'assumptions',
          title: 'The assumptions used',
          text: 'The index crediting rate, cap, floor and loan interest rate behind the numbers, and what changes if they are lower.',
        },
        {
          id: 'taxable-comparison',
          title: 'A comparison against a taxable account',
          text: 'The same contributions in a taxable account, so you can see what the tax treatment is worth to you.',
        },
      ],
      projectionNote:
        'Illustrations are projections, not guarantees. Actual results depend on index performance, policy charges and how you fund and use the policy.',
    },
    faqs: {
      heading: 'Questions about the illustration',
      items: [
        {
          id: 'is-it-free',
          question: 'Is the illustration really free?',
          answer: 'Yes. Preparing and reviewing your illustration costs nothing, and you are under no obligation to apply for a policy.',
        },
        {
          id: 'how-long',
          question: 'When will I see my illustration?',
          answer: 'We prepare the illustration before your consultation, so the call is spent on your questions. Afterwards we can run other scenarios, such as a different contribution or retirement age.',
        },
        {
          id: 'medical-exam',
          question: 'Do I need a medical exam for an illustration?',
          answer: 'No. The illustration uses the health rating you tell us. Medical underwriting only happens if you later decide to apply.',
        },
      ],
    },
    service: {
      name: 'Free IUL Illustration',
      serviceType: 'Indexed universal life insurance illustration',
      description: `A personalised ${productName} illustration showing projected cash value, tax-free income, death benefit and costs. ${freeBadge}.`,
    },
    disclaimer:
      'This page is informational and is not a solicitation to buy insurance. Illustrations are projections based on assumptions and are not guaranteed.',
  };
}

/** Service structured data with a free Offer, built from the copy the page shows. */
export function quoteServiceJsonLd(config: SiteConfig, content: QuoteContent = quoteContent(config)): WithContext<Service> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: content.service.name,
    serviceType: content.service.serviceType,
    description: content.service.description,
    url: `${config.siteUrl}/get-quote`,
    areaServed: 'US',
    provider: { '@id': `${config.siteUrl}/#agency` },
    offers: {
      '@type': 'Offer',
      price: ILLUSTRATION_OFFER.price,
      priceCurrency: ILLUSTRATION_OFFER.priceCurrency,
      description: content.hero.freeBadge,
      url: `${config.siteUrl}/get-quote`,
    },
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
    reason: 'Names a line of the illustration the page offers ("projected ... tax-free income"), in the page description, the structured data and the list of what the illustration includes; the page disclaimer says illustrations are projections and are not guaranteed.',
  },
];
