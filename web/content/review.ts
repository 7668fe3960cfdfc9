/**
 * Who reviewed the education pages and when: one family member (web/content/family.ts) and one date,
 * shown as "Reviewed by <name>, <credentials> on <date>" near the heading of the guide, /faq, the SEP
 * comparison and the home page's explanation (web/components/ui/ReviewedBy.tsx). Change the date here
 * when the pages are reviewed again.
 */
import { familyMember } from './family';

/** The family member who reviews the education pages. */
export const REVIEWER_ID = 'catherine-hartwell';
/** The day of the last review, ISO 8601 (a calendar date, no time zone). */
export const REVIEWED_ON = '2026-11-02';

export interface ReviewNote {
  name: string;
  credentials: string;
  role: string;
  /** ISO date, for `<time dateTime>`. */
  date: string;
  /** The date as a visitor reads it: "November 2, 2026". */
  dateLabel: string;
}

/** "November 2, 2026" from "2026-11-02", the same on the server and in any browser (UTC, en-US). */
export function formatReviewDate(isoDate: string): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** The review line's facts: the reviewer's name, credentials and role from the family, and the date. */
export function reviewNote(): ReviewNote {
  const reviewer = familyMember(REVIEWER_ID);
  return {
    name: reviewer.name,
    credentials: reviewer.credentials ?? '',
    role: reviewer.role,
    date: REVIEWED_ON,
    dateLabel: formatReviewDate(REVIEWED_ON),
  };
}

/** A short note placed next to figures whose disclosure is further down the page (FigureNote.tsx). */
export const FIGURE_NOTE = {
  text: 'Typical figures and projections, not guarantees: caps, floors, limits and costs vary by insurer, policy and tax year.',
  linkLabel: 'Read the disclosures',
} as const;
