/**
 * Copy of the About page (SPEC section 2, "About page"): the family legacy across three generations,
 * the two-person leadership team, the mission, four reasons to choose the agency and the 4-step
 * process. Contact details and office hours are not copy: the page reads them from the site config.
 */
import type { AboutPage, WithContext } from 'schema-dts';
import type { SiteConfig } from '../../contract/site-config';
import type { ComplianceCopyAcceptance } from '../../contract/compliance';
import {
  COMBINED_EXPERIENCE_YEARS,
  familyMember,
  GENERATIONS,
  GENERATIONS_WORD,
  generationLabel,
  generationsLeadingTodayWord,
  leadersToday,
  SECOND_GENERATION_YEAR,
} from './family';

// The family's figures live in web/content/family.ts; re-exported for the page's tests and callers.
export { COMBINED_EXPERIENCE_YEARS, GENERATIONS, SECOND_GENERATION_YEAR };

export type AboutIcon = 'family' | 'education' | 'compare' | 'service';

export interface LegacyMilestone {
  id: string;
  /** A year, or "Today". */
  label: string;
  generation: string;
  title: string;
  text: string;
}

export interface LegacyStat {
  id: string;
  value: string;
  label: string;
}

export interface Leader {
  /** The family member's id (web/content/family.ts), also the avatar's. */
  id: string;
  name: string;
  role: string;
  generation: string;
  bio: string;
}

export interface AboutReason {
  id: string;
  icon: AboutIcon;
  title: string;
  text: string;
}

export interface AboutStep {
  id: string;
  title: string;
  text: string;
}

export interface AboutContent {
  seo: { title: string; description: string };
  hero: { eyebrow: string; heading: string; lead: string };
  legacy: { heading: string; intro: string; stats: LegacyStat[]; milestones: LegacyMilestone[] };
  leadership: { heading: string; intro: string; leaders: Leader[] };
  mission: { heading: string; statement: string; text: string };
  reasons: { heading: string; intro: string; items: AboutReason[] };
  process: { heading: string; intro: string; steps: AboutStep[] };
  contact: { heading: string; intro: string; hoursHeading: string; buttonLabel: string };
  disclaimer: string;
}

/** The leaders' biographies, by family member id; names, roles and generations come from family.ts. */
const LEADER_BIOS: Record<string, string> = {
  'robert-hartwell':
    'Robert has designed life insurance and retirement plans for business owners for almost five decades. He is known for saying no to a policy that does not fit, and for checking in on clients long after the paperwork is done.',
  'catherine-hartwell':
    'Catherine leads the agency and specialises in maximum-funded indexed universal life for high earners and the self-employed. She walks every client through the assumptions behind an illustration, line by line, before anything is signed.',
};

function leaderGeneration(id: string): string {
  const member = familyMember(id);
  return member.joined ? `${generationLabel(member)}, with the agency since ${member.joined}` : generationLabel(member);
}

export function aboutContent(config: SiteConfig): AboutContent {
  const founded = config.foundedYear;
  const [founder, second, third] = [familyMember('walter-hartwell'), familyMember('robert-hartwell'), familyMember('catherine-hartwell')];
  const leadingWord = generationsLeadingTodayWord();
  return {
    seo: {
      title: `About Us: A Family Agency Since ${founded}`,
      description: `Meet the family behind ${config.agencyName}: founded in ${founded}, ${GENERATIONS_WORD} generations of leadership and about ${COMBINED_EXPERIENCE_YEARS} years of experience.`,
    },
    hero: {
      eyebrow: 'About Us',
      heading: `About ${config.agencyName}`,
      lead: `A family insurance agency founded in ${founded}. For ${GENERATIONS_WORD} generations we have helped families, professionals and business owners protect what they have built and plan retirement income they can count on.`,
    },
    legacy: {
      heading: `A family legacy across ${GENERATIONS_WORD} generations`,
      intro: `Our story began in ${founded} with a single office, a telephone and a promise to explain every policy in plain English. The second generation joined in ${SECOND_GENERATION_YEAR}, and ${GENERATIONS_WORD} generations of leadership have built up about ${COMBINED_EXPERIENCE_YEARS} years of combined experience. Today ${second.firstName} and ${third.firstName}, the second and third generations, lead the agency together and bring that experience to every conversation.`,
      stats: [
        { id: 'founded', value: String(founded), label: 'Year the agency was founded' },
        { id: 'generations', value: String(GENERATIONS), label: 'Generations of leadership' },
        { id: 'experience', value: `About ${COMBINED_EXPERIENCE_YEARS}`, label: 'Years of combined experience' },
      ],
      milestones: [
        {
          id: 'first-generation',
          label: String(founded),
          generation: generationLabel(founder),
          title: 'The agency opens its doors',
          text: `${founder.name} founded the agency in ${founded} to sell life insurance to the farming and ranching families around ${config.city}, Texas, one kitchen-table conversation at a time.`,
        },
        {
          id: 'second-generation',
          label: String(SECOND_GENERATION_YEAR),
          generation: generationLabel(second),
          title: 'The second generation joins',
          text: `In ${SECOND_GENERATION_YEAR} ${second.name} joined his father and added retirement planning for small-business owners, who needed protection and savings from the same plan.`,
        },
        {
          id: 'third-generation',
          label: 'Today',
          generation: generationLabel(third),
          title: `${GENERATIONS_WORD.charAt(0).toUpperCase()}${GENERATIONS_WORD.slice(1)} generations of leadership`,
          text: `${third.name} now leads the agency alongside her father, ${second.firstName}, bringing modern illustration software and online consultations to the same personal, unhurried service.`,
        },
      ],
    },
    leadership: {
      heading: 'Our leadership team',
      intro: `${leadingWord.charAt(0).toUpperCase()}${leadingWord.slice(1)} generations of the family lead the agency today. Every client works directly with one of them.`,
      leaders: leadersToday().map((member) => ({
        id: member.id,
        name: member.name,
        role: member.role,
        generation: leaderGeneration(member.id),
        bio: LEADER_BIOS[member.id] ?? '',
      })),
    },
    mission: {
      heading: 'Our mission',
      statement: 'To help every family we serve retire with confidence, through honest education and carefully designed protection.',
      text: 'We believe a good decision starts with understanding. That is why we explain the costs, the limits and the risks of every strategy as plainly as its benefits, show projections for what they are (projections, not guarantees), and never ask anyone to decide on the spot.',
    },
    reasons: {
      heading: 'Four reasons families choose us',
      intro: 'What you can expect from a family agency that has been answering the same phone number for generations.',
      items: [
        {
          id: 'family-owned',
          icon: 'family',
          title: 'Family-owned and accountable',
          text: `The same family has run the agency since ${founded}. Our name is on the door, and our reputation depends on the advice we gave twenty years ago still looking good today.`,
        },
        {
          id: 'education-first',
          icon: 'education',
          title: 'Education before any application',
          text: 'We teach first. You will see how a policy works, what it costs and what can go wrong before you decide anything. Our content is informational, not a solicitation.',
        },
        {
          id: 'carrier-comparison',
          icon: 'compare',
          title: 'Designs compared across carriers',
          text: 'We compare policy designs from several highly rated insurers, so the caps, floors, fees and loan terms in your illustration are chosen for you rather than for a single company.',
        },
        {
          id: 'lifetime-service',
          icon: 'service',
          title: 'Service for the life of the policy',
          text: 'A policy is a long-term commitment. We review it with you every year and adjust premiums and loans as your life changes, because policy loans reduce the death benefit and need watching.',
        },
      ],
    },
    process: {
      heading: 'How we work with you',
      intro: 'Four unhurried steps, with no obligation at any point before you sign.',
      steps: [
        {
          id: 'consultation',
          title: 'A free conversation',
          text: 'We learn about your income, savings, goals and timeline by phone or video, and answer your questions about how indexed universal life works.',
        },
        {
          id: 'illustration',
          title: 'Your personalised illustration',
          text: 'We prepare a free illustration of projected cash value, tax-free income and death benefit, with the costs and assumptions shown in full.',
        },
        {
          id: 'design-and-apply',
          title: 'Design and application',
          text: 'If you decide to go ahead, we fine-tune the policy design, help with the application and guide you through medical underwriting.',
        },
        {
          id: 'annual-review',
          title: 'Annual reviews',
          text: 'Every year we compare the policy with its illustration, and adjust contributions or income so the plan stays on track.',
        },
      ],
    },
    contact: {
      heading: 'Contact us',
      intro: 'Call, e-mail or visit our Texas office. A member of the family answers.',
      hoursHeading: 'Office hours',
      buttonLabel: 'Get Your Free IUL Illustration',
    },
    disclaimer:
      'This page is informational and is not a solicitation to buy insurance. Illustrations show projections based on assumptions; they are not guaranteed.',
  };
}

/** AboutPage structured data, from the same copy the page shows; the agency itself is the root's JSON-LD. */
export function aboutPageJsonLd(config: SiteConfig, content: AboutContent = aboutContent(config)): WithContext<AboutPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'AboutPage',
    name: content.hero.heading,
    description: content.seo.description,
    url: `${config.siteUrl}/about-us`,
    mainEntity: { '@id': `${config.siteUrl}/#agency` },
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
    reason: 'Names a line of the free illustration in the process step ("projected cash value, tax-free income and death benefit"), not a promise; the page disclaimer says illustrations are projections based on assumptions.',
  },
];
