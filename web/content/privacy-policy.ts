/** The privacy policy's text, as data: sections of paragraphs and bullet lists. */
import { ANALYTICS_DEFAULT_RETENTION_DAYS } from '../../contract/analytics';
import { LEAD_RETENTION } from '../../contract/leads';
import { fullAddress, type SiteConfig } from '../../contract/site-config';

export const PRIVACY_POLICY_EFFECTIVE_DATE = '2026-11-29';

export interface PolicySection {
  id: string;
  heading: string;
  paragraphs: string[];
  bullets?: string[];
}

const SHARES: ReadonlyArray<readonly [rate: number, words: string]> = [
  [1, 'every page you open'],
  [0.5, 'one in two of the pages you open'],
  [0.25, 'one in four of the pages you open'],
  [0.2, 'one in five of the pages you open'],
  [0.1, 'one in ten of the pages you open'],
  [0.05, 'one in twenty of the pages you open'],
  [0.01, 'one in a hundred of the pages you open'],
];

/** The share of pages RUM_SAMPLE_RATE samples, in words (as the site is set up, never a default it may not use). */
function sampleShare(rate: number): string {
  const named = SHARES.find(([share]) => Math.abs(share - rate) < 1e-9)?.[1];
  if (named) return named;
  const percent = Math.round(rate * 1000) / 10;
  return `about ${percent > 0 ? percent : 0.1}% of the pages you open`;
}

export function privacyPolicy(config: SiteConfig): PolicySection[] {
  const agency = config.agencyLegalName;
  return [
    {
      id: 'who-we-are',
      heading: 'Who we are',
      paragraphs: [
        `${agency} ("we", "us") is an independent insurance agency based at ${fullAddress(config)}. This policy explains how we collect, use, share and protect personal information when you visit this website, request an illustration or a quote, call or e-mail us, or publish an article through our blog API.`,
        'It does not cover the insurance companies whose policies we offer. When you apply for a policy, the issuing insurer collects and uses your information under its own privacy notice, which you will receive with your application.',
      ],
    },
    {
      id: 'information-we-collect',
      heading: 'Information we collect',
      paragraphs: ['We collect only what we need to answer you and to prepare an accurate illustration:'],
      bullets: [
        'Contact details you give us: name, e-mail address, phone number and preferred contact method.',
        'Planning details you choose to share: age, intended retirement age, annual contribution, current retirement savings, general health rating and tobacco use. These are needed because life insurance costs depend on them.',
        'Messages and notes from our conversations with you.',
        'Blog authors: your name, biography, credentials and the articles you submit. API keys are stored only as a one-way hash.',
        'Technical data sent by your browser: IP address, browser type, pages visited and the time of the visit, kept in server logs for security and troubleshooting.',
      ],
    },
    {
      id: 'how-we-use-information',
      heading: 'How we use information',
      paragraphs: ['We use personal information to:'],
      bullets: [
        'prepare the illustration or quote you asked for and discuss it with you;',
        'schedule and hold consultations, and answer your questions;',
        'help you apply for coverage with an insurer if you decide to;',
        'publish and attribute the blog articles you submit;',
        'keep this website secure, prevent abuse and fix problems;',
        'meet our legal, licensing and record-keeping obligations.',
      ],
    },
    {
      id: 'quote-requests',
      heading: 'Quote requests you send from this website',
      paragraphs: [
        'When you send the quote-request form on our Get a Quote page, we store what you entered on our own server, not with an outside form provider. With it we keep a consent record: the exact consent wording the form showed, whether you checked the box, the time, your IP address, your browser and the page. This record is how we can show what you agreed to.',
        'If you check the consent box, we may call or text you about your request, including with automated technology. If you leave it unchecked, we contact you only the one way you chose, and only about your request. If your browser sends a Global Privacy Control signal, we record it and do not use your details for marketing.',
        'Your request is sent to our licensed agents by e-mail and, where we use one, to our customer-management system. Requests that look automated (for example a hidden field a person would not fill) are kept aside, never sent on, and deleted automatically.',
      ],
      bullets: [
        `Requests kept aside as suspected spam: deleted ${LEAD_RETENTION.spamDays} days after they arrive.`,
        `Other requests and their consent records: kept while we are helping you; once closed, deleted ${LEAD_RETENTION.closedYears} years after their last change, the longest period state record-keeping rules for insurance agencies require.`,
        'Ask us at any time to see, correct or delete your request (see Your rights and choices below).',
      ],
    },
    {
      id: 'sharing',
      heading: 'When we share information',
      paragraphs: [
        'We do not sell or rent your personal information, and we do not share it for cross-context behavioral advertising.',
        'We share it only with insurance carriers when you ask us to obtain a quote or submit an application; with service providers who act for us (scheduling, e-mail, hosting), under contracts that limit their use of it; and with regulators or courts when the law requires it.',
      ],
    },
    {
      id: 'third-party-services',
      heading: 'Embedded third-party services',
      paragraphs: [
        'Our videos and our booking form are provided by outside services. They load only when you choose to play a video or open the booking form, and those services then receive your IP address and browser information under their own privacy policies.',
      ],
    },
    {
      id: 'cookies',
      heading: 'Cookies and local storage',
      paragraphs: [
        'This website does not use advertising or analytics cookies. It sets no cookie at all for visitors; the only cookies it sets are the sign-in cookies of our own staff area. Your browser\'s local storage holds a small amount of data that the site itself needs, such as test results on the Blog API examples page and, if you ask it to, the API keys you want the test console to remember. You can clear it at any time in your browser settings.',
      ],
    },
    {
      id: 'visit-counts',
      heading: 'How we count visits, without cookies',
      paragraphs: [
        'To learn which articles are useful and which lead people to ask for a quote, our own server counts each page you load here. No outside analytics service is involved, no cookie is set and nothing is stored in your browser for it. For each page view we keep only:',
      ],
      bullets: [
        'the day, and which page it was (for an article, its address name);',
        'the name of the website that sent you here, if your browser says so (only the site\'s name, such as google.com, never the full address you came from);',
        'the campaign tags in the link you followed, if any (utm_source, utm_medium and utm_campaign);',
        'whether your device is a phone, a tablet or a computer;',
        'a visitor code made by scrambling your IP address and browser type with a random value that changes every day. The random value is deleted the next day, after which nobody, including us, can link the code to you or to your visits on other days. Your IP address itself is not stored with the count.',
        'If your browser sends a Global Privacy Control or Do Not Track signal, your page view is counted without any visitor code.',
        'When you send a quote request, we note with it the first page of your visit that day, the articles you read before sending it, and the campaign tag of your first page, found through that day\'s visitor code. With Global Privacy Control or Do Not Track we note none of this.',
        `After ${ANALYTICS_DEFAULT_RETENTION_DAYS} days, the page views are reduced to daily totals and the individual records, visitor codes included, are deleted.`,
        'Search engines and other automated programs, and pages your browser loads ahead of time without you opening them, are not counted.',
      ],
    },
    {
      id: 'site-speed',
      heading: 'How we measure the site\'s speed',
      paragraphs: [
        config.rumSampleRate > 0
          ? `To know how fast this site is on our visitors' own phones and computers, ${sampleShare(config.rumSampleRate)} (chosen at random in your browser, and only when JavaScript runs and you have used the page) measures how quickly the page showed its main content, how quickly it answered your taps and keys, and how much it moved while loading. When you leave the page, your browser sends these few numbers once to our own server; no outside service is involved, no cookie is set and nothing is stored in your browser. With each measure we keep only:`
          : 'This site does not measure its speed in your browser at present. If we turn it on, a share of the pages you open (chosen at random in your browser, and only when JavaScript runs and you have used the page) will measure how quickly the page showed its main content, how quickly it answered your taps and keys, and how much it moved while loading, and send these few numbers once to our own server when you leave the page; no outside service, no cookie, nothing stored in your browser. With each measure we would keep only:',
      ],
      bullets: [
        'the day, and the kind of page it was (for an article, not which article);',
        'the measure and its value;',
        'which part of the page it concerned, such as the heading or the button you tapped (a short technical description, never what you typed);',
        'whether your device is a phone, a tablet or a computer, and which version of the site you saw.',
        'Your IP address is used only to stop one device from sending too many measures, and only in scrambled form in our server\'s memory for a minute; it is never stored. No visitor code is kept with the speed measures.',
        `After ${ANALYTICS_DEFAULT_RETENTION_DAYS} days, the measures are reduced to daily figures per kind of page and the individual measures are deleted.`,
      ],
    },
    {
      id: 'retention',
      heading: 'How long we keep information',
      paragraphs: [
        `We keep inquiry records for as long as we are helping you and then for the period state insurance regulations require agencies to keep records, typically five to seven years; quote requests sent from this website are deleted ${LEAD_RETENTION.closedYears} years after they are closed, and suspected spam after ${LEAD_RETENTION.spamDays} days. Server logs are kept for no more than 90 days. Published blog articles stay online until their author or we remove them.`,
      ],
    },
    {
      id: 'security',
      heading: 'How we protect information',
      paragraphs: [
        'We use encrypted connections, access limited to staff who need it, hashed API keys and regular review of our systems. No method of transmission or storage is completely secure, so we also ask you not to send sensitive details such as Social Security numbers by e-mail.',
      ],
    },
    {
      id: 'your-choices',
      heading: 'Your rights and choices',
      paragraphs: [
        'You may ask us to tell you what personal information we hold about you, to correct it, to delete it, or to stop contacting you. Depending on your state (for example California or Washington) you may have further rights, described in our state privacy notices. We will not treat you differently for exercising any of these rights.',
        `To make a request, e-mail ${config.email} or call ${config.phoneDisplay}. We will verify your identity before acting on it and answer within 45 days.`,
      ],
    },
    {
      id: 'children',
      heading: 'Children',
      paragraphs: [
        'This website is meant for adults planning their finances. We do not knowingly collect information from children under 16.',
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to this policy',
      paragraphs: [
        'When we change this policy we update the effective date below and, for significant changes, put a notice on the home page before the change takes effect.',
      ],
    },
    {
      id: 'contact',
      heading: 'Contact us',
      paragraphs: [
        `${agency}, ${fullAddress(config)}. Phone ${config.phoneDisplay} (${config.officeHours}). E-mail ${config.email}.`,
      ],
    },
  ];
}
