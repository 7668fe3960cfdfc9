/**
 * A quote request as the agency keeps it (a "lead"): the visitor's answers, where it stands, the
 * agents' notes, whether it looked like spam, and the consent record of what the visitor agreed to.
 * Leads are personal data: the site never serves them to the public, and logs name them by id only.
 */
import type { ContactMethod, LeadStatus, QuoteField, QuoteFormValues, QuoteRequestInput } from './quote-request';

export interface ConsentRecord {
  /** The checkbox was checked: calls and texts about the request may use automated technology. */
  given: boolean;
  /** The exact text shown beside the checkbox. */
  text: string;
  version: string;
  /** SHA-256 of `text`, hex. */
  textSha256: string;
  /** When the request arrived (ISO 8601). */
  at: string;
  ip: string;
  userAgent: string;
  /** The page the form was on (path). */
  page: string;
  /** The browser sent `Sec-GPC: 1`: opted out of any marketing use. */
  globalPrivacyControl: boolean;
  /** How the agency may contact the visitor: any way with consent, else only the preferred method. */
  contactOnlyBy: ContactMethod | null;
}

export interface LeadNote {
  at: string;
  /** Who wrote it (a staff member, or "cli" for `blogpost leads set`). */
  by: string;
  text: string;
}

/** Why a request was kept aside as spam (stored, never delivered). */
export type SpamReason = 'honeypot' | 'too-fast' | 'no-form-time';

export interface LeadRecord extends QuoteRequestInput {
  /** `lead_` and 20 random characters. */
  id: string;
  /**
   * What the thank-you page shows the visitor (contract/quote-intent.ts: e.g. `7K3M-Q9XD-4RTA`), and
   * what they can quote when they call; unique. Absent on requests stored before references existed.
   */
  reference?: string;
  status: LeadStatus;
  createdAt: string;
  updatedAt: string;
  agentNotes: LeadNote[];
  /** Null for a real request. */
  spam: SpamReason | null;
  consent: ConsentRecord;
  /** Who follows it up (round robin among staff who take leads, or chosen on the lead page); absent or null: nobody yet. */
  assignee?: LeadAssignee | null;
  /** Every contact attempt staff recorded, oldest first (absent on leads stored before attempts existed). */
  contactAttempts?: ContactAttempt[];
  /** The visitor asked not to be contacted any more (absent or null: they did not). */
  optOut?: LeadOptOut | null;
  /** When the lead was escalated for want of a first contact in time (once at most). */
  escalatedAt?: string | null;
}

export interface LeadAssignee {
  staffId: string;
  name: string;
  email: string;
  at: string;
  /** `round-robin`, or the staff member who chose them (`staff:<e-mail>`). */
  by: string;
}

export const CONTACT_CHANNELS = ['call', 'email', 'text'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_OUTCOMES = ['reached', 'left-message', 'no-answer', 'wrong-number'] as const;
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];
export const CONTACT_OUTCOME_LABELS: Record<ContactOutcome, string> = {
  reached: 'reached',
  'left-message': 'left a message',
  'no-answer': 'no answer',
  'wrong-number': 'wrong number',
};

/** One try to reach the visitor, as staff recorded it. */
export interface ContactAttempt {
  at: string;
  /** The staff member's e-mail. */
  by: string;
  channel: ContactChannel;
  outcome: ContactOutcome;
  note: string | null;
}

/** How a visitor said "stop contacting me": the link in an e-mail, or a phone call staff recorded. */
export type OptOutChannel = 'email-link' | 'phone';

export interface LeadOptOut {
  at: string;
  channel: OptOutChannel;
  /** `visitor` (the link), or the staff member who recorded the call (`staff:<e-mail>`). */
  by: string;
}

/**
 * Where a lead's notification goes: the agency (`email`, `webhook`), the visitor's acknowledgement
 * (`acknowledgement`), the assignee's notice (`assignee`), and the escalation when nobody has made
 * contact in time (`escalation`, due at that time).
 */
export type DeliveryChannel = 'email' | 'webhook' | 'acknowledgement' | 'assignee' | 'escalation';

/** One notification of one lead, waiting in the outbox or sent. */
export interface DeliveryRecord {
  /** `<lead id>.<channel>`: one per lead and channel. */
  id: string;
  leadId: string;
  channel: DeliveryChannel;
  createdAt: string;
  attempts: number;
  /** When the next attempt is due (ISO 8601); null once sent. */
  nextAttemptAt: string | null;
  lastError: string | null;
  sentAt: string | null;
}

/** Who sent a quote request, as the server saw it (for the consent record and the rate limit). */
export interface QuoteClient {
  ip: string;
  userAgent: string;
  /** The browser sent `Sec-GPC: 1`. */
  globalPrivacyControl: boolean;
}

/** What the /get-quote page's action hands the server: the posted form, who sent it and from where. */
export interface QuoteSubmission {
  form: { get(name: string): unknown };
  client: QuoteClient;
  /** The path of the page the form was on. */
  page: string;
}

export type QuoteOutcome =
  /**
   * Stored, now or by the same form's token before (a request that looked like a robot's is answered
   * the same, and kept aside as spam): the thank-you page shows `reference`.
   */
  | { kind: 'received'; reference: string }
  | { kind: 'invalid'; values: QuoteFormValues; problems: Partial<Record<QuoteField, string>> }
  /** Sent sooner after the page loaded than a person fills the form: asked to check and send again. */
  | { kind: 'too_fast'; values: QuoteFormValues }
  /**
   * This form was sent and stored before (`reference`) with other answers (Back, a field changed, sent
   * again): nothing stored now; the page is shown again with these answers, to send as a new request.
   */
  | { kind: 'already_sent'; values: QuoteFormValues; reference: string }
  /** Too many requests from this address lately. */
  | { kind: 'rate_limited'; values: QuoteFormValues; retryAfterSeconds: number }
  /**
   * Not stored: the store is out of reach for now (the database restarting: 503) or its disk is full
   * (507). The form is shown again with everything the visitor typed and the phone number (decision 0017).
   */
  | { kind: 'unavailable'; values: QuoteFormValues; status: 503 | 507; retryAfterSeconds: number };

/** A stored request as the thank-you page may show it: nothing the visitor typed. */
export interface QuoteReceipt {
  reference: string;
}

/** Takes quote requests in: the site's seam to the server (passed in the load context). */
export interface QuoteIntake {
  /** A new one-time token for a render of the form (contract/quote-intent.ts). */
  newFormToken(): string;
  submit(submission: QuoteSubmission): Promise<QuoteOutcome>;
  /** The stored request with this reference, or null when there is none (a reference made up, or a request since deleted). */
  receipt(reference: string): Promise<QuoteReceipt | null>;
  /** The "stop contacting me" link's page: whether its token is good (and already used), before the visitor confirms. */
  optOutStatus(token: string): Promise<OptOutStatus>;
  /** The visitor confirmed: recorded on the lead at once (automatic messages stop); a bad token changes nothing. */
  optOut(token: string, client: QuoteClient): Promise<OptOutStatus>;
}

export type OptOutStatus = { kind: 'valid'; alreadyAt: string | null } | { kind: 'invalid' };

/** How long leads are kept (the privacy policy says the same, from these numbers). */
export const LEAD_RETENTION = {
  /** Requests kept aside as spam are deleted this many days after they arrived. */
  spamDays: 30,
  /** A closed request is deleted this many years after its last change. */
  closedYears: 7,
} as const;
