/**
 * The quote request a visitor sends from /get-quote (SPEC section 3, "Quote request record"): the form's
 * fields, their limits and messages, and the consent text it shows. One schema checks the form in the
 * browser as the visitor types and on the server when it arrives, so both say the same thing. Values
 * arrive as the strings of a form; the schema turns them into the record's types.
 */
import { z } from 'zod';
import { LEAD_STATUSES } from './choices';

export const HEALTH_RATINGS = ['excellent', 'good', 'average', 'below-average'] as const;
export type HealthRating = (typeof HEALTH_RATINGS)[number];
export const HEALTH_RATING_LABELS: Record<HealthRating, string> = {
  excellent: 'Excellent',
  good: 'Good',
  average: 'Average',
  'below-average': 'Below average',
};

export const CONTACT_METHODS = ['phone', 'email'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

export { LEAD_STATUSES };
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** The form's field names, in the order the form shows them (short ones first). */
export const QUOTE_FIELDS = [
  'name',
  'email',
  'phone',
  'preferredContactMethod',
  'age',
  'annualContribution',
  'retirementAge',
  'currentRetirementSavings',
  'healthRating',
  'tobaccoUser',
  'additionalNotes',
] as const;
export type QuoteField = (typeof QUOTE_FIELDS)[number];

/** Fields the form posts besides the visitor's answers. */
export const QUOTE_FORM_CONTROLS = {
  /** The consent checkbox (value "yes" when checked). */
  consent: 'consent',
  /** The version of the consent text the page showed. */
  consentVersion: 'consentVersion',
  /** When the page was rendered (ms since 1970), for the minimum fill time. */
  startedAt: 'startedAt',
  /** Hidden from people (off screen, not focusable); a value means a robot filled it. */
  honeypot: 'website',
  /** The render's one-time token: one request per token (contract/quote-intent.ts, decision 0018). */
  formToken: 'formToken',
} as const;

/** The longest value each text field keeps; the form's maxlength says the same. */
export const QUOTE_LIMITS = {
  name: 100,
  email: 254,
  phone: 30,
  additionalNotes: 2000,
  /** Whole form, in bytes as posted: the server refuses more before reading it. */
  bodyBytes: 16_384,
} as const;

export const AGE_RANGE = { min: 18, max: 85 } as const;
export const CONTRIBUTION_RANGE = { min: 100, max: 10_000_000 } as const;
export const SAVINGS_MAX = 1_000_000_000;

/** A message per field, written for the visitor: what is wrong and what to do. */
export const QUOTE_MESSAGES = {
  nameMissing: 'Enter your name, so we know who to ask for.',
  nameTooLong: `Your name can be at most ${QUOTE_LIMITS.name} characters.`,
  emailInvalid: 'Enter an e-mail address like name@example.com.',
  emailNeeded: 'Enter your e-mail address, or choose phone as the way to reach you.',
  phoneInvalid: 'Enter a phone number with its area code, like (512) 555-0142.',
  phoneNeeded: 'Enter your phone number, or choose e-mail as the way to reach you.',
  contactMethod: 'Choose how we should contact you: phone or e-mail.',
  ageMissing: 'Enter your age in years, for example 45.',
  ageRange: `Enter an age from ${AGE_RANGE.min} to ${AGE_RANGE.max}, in whole years.`,
  contributionMissing: 'Enter roughly what you could put in each year, for example 12,000. An estimate is fine.',
  contributionRange: `Enter a yearly amount from $${CONTRIBUTION_RANGE.min.toLocaleString('en-US')} to $${CONTRIBUTION_RANGE.max.toLocaleString('en-US')}, in dollars.`,
  retirementAge: `Enter the age you would like to retire, from your age today to ${AGE_RANGE.max}, or leave it empty.`,
  savings: 'Enter your current retirement savings in dollars, for example 250,000, or leave it empty.',
  healthRating: 'Choose one of the health ratings, or leave it empty.',
  tobacco: 'Choose yes or no for tobacco use, or leave it empty.',
  notesTooLong: `Your notes can be at most ${QUOTE_LIMITS.additionalNotes} characters; shorten them and we can talk about the rest.`,
} as const;

/** What the schema gives back: the record's fields, typed. */
export interface QuoteRequestInput {
  name: string;
  email: string | null;
  phone: string | null;
  preferredContactMethod: ContactMethod;
  age: number;
  annualContribution: number;
  retirementAge: number | null;
  currentRetirementSavings: number | null;
  healthRating: HealthRating | null;
  tobaccoUser: boolean | null;
  additionalNotes: string | null;
}

/** The form's values as posted: every field a string (absent ones empty). */
export type QuoteFormValues = Partial<Record<QuoteField, string>>;

/** Control characters but tab and newlines are never part of what a visitor meant to send. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

function text(value: string | undefined): string {
  return (value ?? '').replace(CONTROL, '').trim();
}

/** "$12,500", "12 500" and "12500.00" are all 12500; anything else is NaN. */
export function parseDollars(value: string): number {
  const cleaned = value.replace(/[$,\s]/g, '').replace(/\.0+$/, '');
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  return Math.round(Number(cleaned));
}

function parseWhole(value: string): number {
  return /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
}

/** The digits of a phone number when it has 10 (US) or 11 to 15 with a country code; else null. */
export function phoneDigits(value: string): string | null {
  if (!/^[+()\d\s.-]+$/.test(value)) return null;
  const digits = value.replace(/\D/g, '');
  if (digits.length === 10) return digits;
  if (digits.length >= 11 && digits.length <= 15) return digits;
  return null;
}

const EMAIL = z.email();

type Problems = Partial<Record<QuoteField, string>>;

/**
 * Checks the posted values. The result is either the typed request or one message per field that is
 * wrong (the first problem of each), keyed by the field's name.
 */
export function checkQuoteRequest(values: QuoteFormValues): { ok: true; value: QuoteRequestInput } | { ok: false; problems: Problems } {
  const problems: Problems = {};
  const name = text(values.name);
  if (!name) problems.name = QUOTE_MESSAGES.nameMissing;
  else if (name.length > QUOTE_LIMITS.name) problems.name = QUOTE_MESSAGES.nameTooLong;

  const method = text(values.preferredContactMethod);
  const preferredContactMethod = (CONTACT_METHODS as readonly string[]).includes(method) ? (method as ContactMethod) : null;
  if (!preferredContactMethod) problems.preferredContactMethod = QUOTE_MESSAGES.contactMethod;

  const email = text(values.email);
  if (email && (email.length > QUOTE_LIMITS.email || !EMAIL.safeParse(email).success)) problems.email = QUOTE_MESSAGES.emailInvalid;
  else if (!email && preferredContactMethod === 'email') problems.email = QUOTE_MESSAGES.emailNeeded;

  const phone = text(values.phone);
  if (phone && (phone.length > QUOTE_LIMITS.phone || phoneDigits(phone) === null)) problems.phone = QUOTE_MESSAGES.phoneInvalid;
  else if (!phone && preferredContactMethod === 'phone') problems.phone = QUOTE_MESSAGES.phoneNeeded;

  const ageText = text(values.age);
  const age = parseWhole(ageText);
  if (!ageText) problems.age = QUOTE_MESSAGES.ageMissing;
  else if (!(age >= AGE_RANGE.min && age <= AGE_RANGE.max)) problems.age = QUOTE_MESSAGES.ageRange;

  const contributionText = text(values.annualContribution);
  const annualContribution = parseDollars(contributionText);
  if (!contributionText) problems.annualContribution = QUOTE_MESSAGES.contributionMissing;
  else if (!(annualContribution >= CONTRIBUTION_RANGE.min && annualContribution <= CONTRIBUTION_RANGE.max)) {
    problems.annualContribution = QUOTE_MESSAGES.contributionRange;
  }

  const retirementText = text(values.retirementAge);
  const retirementAge = retirementText ? parseWhole(retirementText) : null;
  const youngest = Number.isFinite(age) && age >= AGE_RANGE.min ? age : AGE_RANGE.min;
  if (retirementAge !== null && !(retirementAge >= youngest && retirementAge <= AGE_RANGE.max)) problems.retirementAge = QUOTE_MESSAGES.retirementAge;

  const savingsText = text(values.currentRetirementSavings);
  const currentRetirementSavings = savingsText ? parseDollars(savingsText) : null;
  if (currentRetirementSavings !== null && !(currentRetirementSavings >= 0 && currentRetirementSavings <= SAVINGS_MAX)) {
    problems.currentRetirementSavings = QUOTE_MESSAGES.savings;
  }

  const ratingText = text(values.healthRating);
  const healthRating = ratingText ? ((HEALTH_RATINGS as readonly string[]).includes(ratingText) ? (ratingText as HealthRating) : undefined) : null;
  if (healthRating === undefined) problems.healthRating = QUOTE_MESSAGES.healthRating;

  const tobaccoText = text(values.tobaccoUser);
  const tobaccoUser = tobaccoText === 'yes' ? true : tobaccoText === 'no' ? false : tobaccoText ? undefined : null;
  if (tobaccoUser === undefined) problems.tobaccoUser = QUOTE_MESSAGES.tobacco;

  const notes = (values.additionalNotes ?? '').replace(CONTROL, '').trim();
  if (notes.length > QUOTE_LIMITS.additionalNotes) problems.additionalNotes = QUOTE_MESSAGES.notesTooLong;

  if (Object.keys(problems).length > 0 || !preferredContactMethod || healthRating === undefined || tobaccoUser === undefined) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    value: {
      name,
      email: email || null,
      phone: phone || null,
      preferredContactMethod,
      age,
      annualContribution,
      retirementAge,
      currentRetirementSavings,
      healthRating,
      tobaccoUser,
      additionalNotes: notes || null,
    },
  };
}

/** The posted values of the form's fields (anything else in the form is ignored). */
export function quoteFormValues(form: { get(name: string): unknown }): QuoteFormValues {
  const values: QuoteFormValues = {};
  for (const field of QUOTE_FIELDS) {
    const value = form.get(field);
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

/** The consent text's versions: the one shown now, and any shown before (consent records name theirs). */
export const CONSENT_VERSION = '2026-11-25';

/**
 * The consent checkbox's text, as the page shows it and the consent record keeps it. Changing the
 * wording means a new CONSENT_VERSION.
 */
export function consentText(agencyName: string): string {
  return (
    `I agree that ${agencyName} and its licensed agents may call or text me at the number I gave, ` +
    'including by autodialer, automated technology or prerecorded messages, about my quote request and related ' +
    'insurance products. Consent is not a condition of any purchase, and I can withdraw it at any time by telling us.'
  );
}

/** The same checks as a zod schema over the posted values (what the browser and the server both run). */
export const quoteRequestSchema = z
  .record(z.string(), z.string())
  .transform((values, ctx): QuoteRequestInput => {
    const checked = checkQuoteRequest(values);
    if (checked.ok) return checked.value;
    for (const [field, message] of Object.entries(checked.problems)) ctx.addIssue({ code: 'custom', path: [field], message });
    return z.NEVER;
  });
