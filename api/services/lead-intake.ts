/**
 * Takes quote requests in from the /get-quote form (contract/leads.ts QuoteIntake): checks the answers
 * with the contract's schema, limits how many one address may send, keeps what looks like a robot's
 * aside as spam (stored, never delivered), writes the consent record of what the visitor saw and
 * agreed to, and stores the lead with its notifications queued, durable before the visitor is told
 * it arrived. When the store is out of reach (the database restarting), the visitor is told so with
 * everything they typed kept in the form and the phone number (decision 0017), never a bare 500.
 * One request per intent (decision 0018): every render of the form carries a one-time token, and the
 * store keeps one lead per token; the same form sent again (a double-click, a retry, Back and send) is
 * answered as the first was, with the same reference, storing nothing and counting nothing against the
 * hourly limit. A form without a token (a page from before tokens, a robot) is taken as it always was.
 * Logs name a lead by its id only: leads are personal data.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { DeliveryRecord, LeadRecord, QuoteIntake, QuoteOutcome, QuoteSubmission, SpamReason } from '../../contract/leads';
import { FORM_TOKEN_TTL_MS, parseFormToken, parseQuoteReference, quoteReference, REFERENCE_ALPHABET, REFERENCE_DIGITS } from '../../contract/quote-intent';
import type { QuoteFormValues, QuoteRequestInput } from '../../contract/quote-request';
import { checkQuoteRequest, CONSENT_VERSION, consentText, QUOTE_FIELDS, QUOTE_FORM_CONTROLS, quoteFormValues } from '../../contract/quote-request';
import { RateLimiter } from '../http/rate-limit';
import type { SharedRateLimits } from '../store/store';
import type { LeadRepository } from '../store/store';
import { isStoreRefusal, storeRefusalStatus, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../store/store-error';
import { randomBase62 } from './keys';

export interface LeadIntakeSettings {
  /** The least time between the page's render and a person's send (LEAD_MIN_FILL_SECONDS). */
  minFillMs: number;
  /** Requests an address may send an hour (LEAD_REQUESTS_PER_HOUR, 0 for no limit). */
  perHour: number;
}

export const DEFAULT_LEAD_INTAKE: LeadIntakeSettings = { minFillMs: 3000, perHour: 5 };

export interface LeadIntakeOptions {
  leads: LeadRepository;
  agencyName: string;
  /** Read at every request (the minimum fill time may be changed while running); `perHour` at start. */
  settings?: Partial<LeadIntakeSettings>;
  /** The notifications a new lead gets (none for spam): the outbox's plan. */
  plan?: (lead: LeadRecord, now: Date) => DeliveryRecord[];
  /** Who follows a new real lead up (round robin); a failure leaves it unassigned, never fails the form. */
  assign?: (at: Date) => Promise<LeadRecord['assignee']>;
  /** Records a stored real lead's attribution (api/analytics, decision 0032); never fails the request. */
  attribute?: (leadId: string, client: QuoteSubmission['client']) => Promise<void>;
  /** Told once a lead is stored, so its notifications go out soon. */
  onStored?: () => void;
  log?: (line: string) => void;
  now?: () => Date;
  /** The store's limits shared by every server on it (several app servers): the hourly limit per address counts across them. */
  sharedLimits?: SharedRateLimits;
}

const HOUR_MS = 60 * 60 * 1000;
/** A page older than this is still a person's (a tab left open), never "too fast". */
const FORM_TIME_FUTURE_SLACK_MS = 5 * 60 * 1000;

export function newLeadId(): string {
  return `lead_${randomBase62(20)}`;
}

/** A new reference: 60 random bits in Crockford's base 32 (contract/quote-intent.ts). */
export function newQuoteReference(): string {
  return quoteReference(Array.from({ length: REFERENCE_DIGITS }, () => randomInt(REFERENCE_ALPHABET.length)));
}

/** A new one-time form token: 128 random bits, base64url (22 characters). */
export function newFormToken(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether `lead` holds the same answers (and the same consent) as this request: the same form sent again. */
function sameRequest(lead: LeadRecord, request: QuoteRequestInput, consentGiven: boolean): boolean {
  return lead.consent.given === consentGiven && QUOTE_FIELDS.every((field) => lead[field] === request[field]);
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function field(form: QuoteSubmission['form'], name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** Why a request that passed the checks looks like a robot's, or null for a person's. */
function spamReason(submission: QuoteSubmission, now: number, minFillMs: number): SpamReason | 'too-fast' | null {
  if (field(submission.form, QUOTE_FORM_CONTROLS.honeypot).trim() !== '') return 'honeypot';
  const startedText = field(submission.form, QUOTE_FORM_CONTROLS.startedAt);
  const started = /^\d{10,16}$/.test(startedText) ? Number(startedText) : Number.NaN;
  if (!Number.isFinite(started) || started > now + FORM_TIME_FUTURE_SLACK_MS) return 'no-form-time';
  if (now - started < minFillMs) return 'too-fast';
  return null;
}

export function leadIntake(options: LeadIntakeOptions): Omit<QuoteIntake, 'optOutStatus' | 'optOut'> {
  const settings = () => ({ ...DEFAULT_LEAD_INTAKE, ...options.settings });
  const { perHour } = settings();
  const now = options.now ?? (() => new Date());
  const limiter = options.sharedLimits ? options.sharedLimits.limit('quote-requests', perHour, HOUR_MS) : new RateLimiter(perHour, () => now().getTime(), HOUR_MS);
  const log = options.log ?? (() => undefined);
  const text = consentText(options.agencyName);
  const textSha256 = sha256(text);

  /**
   * The answer to a form whose token named `earlier`: as the first send was answered (asked to send
   * again when it came too fast, else the thank-you with its reference); but answers changed since
   * (Back, a field edited, sent again) are not dropped without a word: the visitor is told the form went
   * before and may send the changed one as a new request from the page shown again (with a new token).
   */
  function answerAgain(earlier: LeadRecord, values: QuoteFormValues, request: QuoteRequestInput, consentGiven: boolean): QuoteOutcome {
    if (!earlier.reference) throw new Error(`Quote request ${earlier.id}, named by a form token, has no reference.`);
    log(`Quote request ${earlier.id} sent again with the same form; nothing more stored.`);
    if (earlier.spam === 'too-fast') return { kind: 'too_fast', values };
    if (!sameRequest(earlier, request, consentGiven)) return { kind: 'already_sent', values, reference: earlier.reference };
    return { kind: 'received', reference: earlier.reference };
  }

  /** Counts the request against its address's limit and stores it; throws what the store throws. */
  async function store(submission: QuoteSubmission, values: QuoteFormValues, request: QuoteRequestInput): Promise<QuoteOutcome> {
    const token = parseFormToken(submission.form.get(QUOTE_FORM_CONTROLS.formToken));
    const consentGiven = field(submission.form, QUOTE_FORM_CONTROLS.consent) === 'yes';
    // The same form sent again after it was stored: answered without counting against the limit.
    const stored = token ? await options.leads.byIntent(token, now().getTime()) : null;
    if (stored) return answerAgain(stored, values, request, consentGiven);
    const client = `ip:${submission.client.ip}`;
    const decision = await limiter.take(client);
    if (!decision.allowed) {
      // Over the limit, but this form may have been stored a moment ago (a double-click's first send).
      const meanwhile = token ? await options.leads.byIntent(token, now().getTime()) : null;
      if (meanwhile) return answerAgain(meanwhile, values, request, consentGiven);
      log(`Quote request from one address refused: over ${perHour} an hour (retry in ${decision.retryAfterSeconds} s).`);
      return { kind: 'rate_limited', values, retryAfterSeconds: decision.retryAfterSeconds };
    }
    const at = now();
    const spam = spamReason(submission, at.getTime(), settings().minFillMs);
    const iso = at.toISOString();
    const reference = newQuoteReference();
    const lead: LeadRecord = {
      ...request,
      id: newLeadId(),
      reference,
      status: 'new',
      createdAt: iso,
      updatedAt: iso,
      agentNotes: [],
      spam,
      consent: {
        given: consentGiven,
        text,
        version: CONSENT_VERSION,
        textSha256,
        at: iso,
        ip: submission.client.ip,
        userAgent: submission.client.userAgent.slice(0, 512),
        page: submission.page,
        globalPrivacyControl: submission.client.globalPrivacyControl,
        contactOnlyBy: consentGiven ? null : request.preferredContactMethod,
      },
    };
    if (spam === null && options.assign) {
      try {
        lead.assignee = await options.assign(at);
      } catch (error) {
        log(`Quote request ${lead.id} was left unassigned: ${error instanceof Error ? error.message : String(error)}.`);
      }
    }
    const deliveries = spam === null && options.plan ? options.plan(lead, at) : [];
    const outcome = await options.leads.create(lead, deliveries, token ? { token, nowMs: at.getTime(), expiresAtMs: at.getTime() + FORM_TOKEN_TTL_MS } : undefined);
    if (outcome.kind === 'replayed') {
      // Another send of this form was stored first (at the same moment): that one counts, this one not.
      await limiter.refund(client);
      return answerAgain(outcome.lead, values, request, consentGiven);
    }
    if (spam === null && options.attribute) await options.attribute(lead.id, submission.client).catch(() => undefined);
    log(spam === null ? `Quote request ${lead.id} stored (${deliveries.length} notification(s) queued).` : `Quote request ${lead.id} kept aside as spam (${spam}).`);
    if (deliveries.length > 0) options.onStored?.();
    if (spam === 'too-fast') return { kind: 'too_fast', values };
    return { kind: 'received', reference };
  }

  return {
    newFormToken,

    async receipt(reference: string) {
      const parsed = parseQuoteReference(reference);
      const lead = parsed ? await options.leads.byReference(parsed) : null;
      return lead?.reference ? { reference: lead.reference } : null;
    },

    async submit(submission: QuoteSubmission): Promise<QuoteOutcome> {
      const values = quoteFormValues(submission.form);
      const checked = checkQuoteRequest(values);
      if (!checked.ok) return { kind: 'invalid', values, problems: checked.problems };
      try {
        return await store(submission, values, checked.value);
      } catch (error) {
        if (!isStoreRefusal(error)) throw error;
        log(`A quote request could not be stored (${error.message}); the visitor was shown the form again with what they typed and the phone number.`);
        return { kind: 'unavailable', values, status: storeRefusalStatus(error), retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS };
      }
    },
  };
}
