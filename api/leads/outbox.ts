/**
 * The outbox of lead notifications: every notification is a file in the data directory before anyone
 * is told (the intake writes it with the lead), and stays until it is sent, so a restart or an
 * unreachable mail server delays a notification but never loses it. One timer, set for the earliest
 * attempt due (like api/services/scheduler.ts); on start it sends what a crash or a restart left. A
 * failed attempt is tried again after a growing delay, then every hour, forever. Log lines name the lead
 * id, the channel, the attempt and the reason: never the visitor's details.
 */
import type { DeliveryChannel, DeliveryRecord, LeadRecord } from '../../contract/leads';
import type { SiteConfig } from '../../contract/site-config';
import type { LeadRepository, OutboxRepository } from '../store/store';
import type { LeadDeliverySettings } from './delivery-settings';
import { leadMailer, type LeadMailer } from './lead-email';
import { postWebhook } from './webhook';
import { SerialRuns } from '../services/serial-runs';
import type { LeadFollowUp } from '../services/lead-follow-up';

/** 30 s, 1 min, 2 min, 5 min, 15 min, 30 min, then every hour (the last delay repeats forever). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [30_000, 60_000, 120_000, 300_000, 900_000, 1_800_000, 3_600_000];
/**
 * How long a server holds a notification for one attempt (several servers on one database): longer
 * than an attempt can take; the hold ends as soon as the attempt's outcome is stored.
 */
const CLAIM_MS = 10 * 60_000;
/** A notification whose lead is missing this long was left by a crash (or its lead was deleted). */
const ORPHAN_AFTER_MS = 60_000;
/** Look at the outbox at least this often (a clock that jumps, notifications another process queued). */
const MAX_WAIT_MS = 5 * 60_000;
const CHANNELS: readonly DeliveryChannel[] = ['email', 'webhook', 'acknowledgement', 'assignee', 'escalation'];
/** The follow-up e-mails (speed to lead): sent through the agency's e-mail settings, written by `followUp`. */
const FOLLOW_UPS: ReadonlySet<DeliveryChannel> = new Set(['acknowledgement', 'assignee', 'escalation']);
const CHANNEL_NAMES: Record<DeliveryChannel, string> = {
  email: 'e-mail',
  webhook: 'webhook',
  acknowledgement: "visitor's acknowledgement",
  assignee: "assignee's notice",
  escalation: 'escalation',
};
const EMAIL_SETUP = 'set SMTP_URL and LEAD_NOTIFY_TO and restart';
const CHANNEL_SETUP: Record<DeliveryChannel, string> = {
  email: EMAIL_SETUP,
  webhook: 'set LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET and restart',
  acknowledgement: EMAIL_SETUP,
  assignee: EMAIL_SETUP,
  escalation: EMAIL_SETUP,
};

/** The settings a channel needs (the follow-ups go by e-mail). */
function channelSettings(settings: LeadDeliverySettings, channel: DeliveryChannel): object | null {
  return channel === 'webhook' ? settings.webhook : settings.email;
}

/** What a new lead's follow-ups need: when its escalation is due (office hours), none when not wanted. */
export interface FollowUpTimes {
  escalationDueAt: Date;
}
const REASON_CHARS = 300;

/**
 * The notifications of a new lead: one per configured channel, due now; with `followUp` (and e-mail
 * configured), the visitor's acknowledgement (when they gave an address), the assignee's notice (when
 * it has one) and the escalation, due at its time; none for spam.
 */
export function newDeliveries(lead: LeadRecord, settings: LeadDeliverySettings, now: Date, followUp?: FollowUpTimes): DeliveryRecord[] {
  if (lead.spam !== null) return [];
  const at = now.toISOString();
  const wanted = CHANNELS.filter((channel) => {
    if (channelSettings(settings, channel) === null) return false;
    if (!FOLLOW_UPS.has(channel)) return true;
    if (!followUp) return false;
    if (channel === 'acknowledgement') return Boolean(lead.email);
    if (channel === 'assignee') return Boolean(lead.assignee);
    return true;
  });
  return wanted.map((channel) => ({
    id: `${lead.id}.${channel}`,
    leadId: lead.id,
    channel,
    createdAt: at,
    attempts: 0,
    nextAttemptAt: channel === 'escalation' && followUp ? followUp.escalationDueAt.toISOString() : at,
    lastError: null,
    sentAt: null,
  }));
}

export interface LeadOutbox {
  /** Sends what is due (left by a crash or a restart), then keeps watching; resolves after that first run. */
  start(): Promise<void>;
  /** A lead was stored: look again soon. */
  poke(): void;
  /** Clears the timer, waits for the attempts under way and closes the mail transport. */
  stop(): Promise<void>;
}

export interface LeadOutboxOptions {
  config: SiteConfig;
  now?: () => Date;
  log: (line: string) => void;
  onError: (message: string, error: unknown) => void;
  retryDelaysMs?: readonly number[];
  /** Writes the follow-up e-mails at the moment they go (or says why one is not sent); without it they wait. */
  followUp?: Pick<LeadFollowUp, 'messageFor' | 'escalated'>;
}

type AttemptOutcome = { ok: true } | { ok: false; reason: string } | { skipped: string };

/** Keeps a receiver's answer from carrying the visitor's details into a log line. */
function redactLead(reason: string, lead: LeadRecord): string {
  let redacted = reason.replace(/\s+/g, ' ').trim();
  for (const value of [lead.name, lead.email, lead.phone]) {
    if (value && value.trim().length >= 3) redacted = redacted.split(value.trim()).join('[redacted]');
  }
  return redacted.length > REASON_CHARS ? `${redacted.slice(0, REASON_CHARS)}…` : redacted;
}

function errorReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && typeof error.code === 'string' ? `${error.code}: ` : '';
  return `${code}${error.message}`;
}

class Outbox implements LeadOutbox {
  readonly #store: { leads: LeadRepository; outbox: OutboxRepository };
  readonly #settings: LeadDeliverySettings;
  readonly #options: LeadOutboxOptions;
  readonly #now: () => Date;
  readonly #delays: readonly number[];
  #mailer: LeadMailer | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #runs = new SerialRuns(() => this.#tick(), () => this.#stopped);
  #stopped = true;
  /** Notifications already reported as waiting for an unconfigured channel. */
  readonly #reportedUnconfigured = new Set<string>();
  /** Notifications whose last attempt could not be saved: not tried again before this time. */
  readonly #heldUntil = new Map<string, number>();

  constructor(store: { leads: LeadRepository; outbox: OutboxRepository }, settings: LeadDeliverySettings, options: LeadOutboxOptions) {
    this.#store = store;
    this.#settings = settings;
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#delays = options.retryDelaysMs && options.retryDelaysMs.length > 0 ? options.retryDelaysMs : DEFAULT_RETRY_DELAYS_MS;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    await this.#run();
  }

  poke(): void {
    if (!this.#stopped) void this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#runs.settled();
    this.#mailer?.close();
    this.#mailer = undefined;
  }

  #run(): Promise<void> {
    return this.#runs.run();
  }

  /** One pass over the outbox: the channels side by side, each one notification at a time. */
  async #tick(): Promise<void> {
    clearTimeout(this.#timer);
    let pending: DeliveryRecord[] = [];
    try {
      pending = await this.#store.outbox.pending();
    } catch (error) {
      this.#options.onError('Could not read the outbox of lead notifications; trying again later.', error);
    }
    const wakes = await Promise.all(CHANNELS.map((channel) => this.#runChannel(pending.filter((record) => record.channel === channel))));
    if (this.#stopped) return;
    const next = Math.min(...wakes.flat(), this.#now().getTime() + MAX_WAIT_MS);
    // A few milliseconds late rather than early: a timer that fires before the time sends nothing.
    this.#timer = setTimeout(() => void this.#run(), Math.max(0, next - this.#now().getTime()) + 5);
    this.#timer.unref();
  }

  /** Handles one channel's notifications in order; the times (ms) at which some of them are due next. */
  async #runChannel(records: DeliveryRecord[]): Promise<number[]> {
    const wakes: number[] = [];
    for (const record of records) {
      if (this.#stopped) break;
      const wake = await this.#handle(record).catch((error: unknown) => {
        // #save may already hold it (longer, or for good when it was sent but not recorded).
        const retryAt = Math.max(this.#heldUntil.get(record.id) ?? 0, this.#now().getTime() + this.#delayAfter(record.attempts + 1));
        this.#heldUntil.set(record.id, retryAt);
        this.#options.onError(`Could not handle the ${CHANNEL_NAMES[record.channel]} notification of ${record.leadId}; trying again later.`, error);
        return retryAt;
      });
      if (wake !== null) wakes.push(wake);
    }
    return wakes;
  }

  /** Sends one notification if it is due; when it is due next (ms), or null when nothing will make it due. */
  async #handle(record: DeliveryRecord): Promise<number | null> {
    const now = this.#now().getTime();
    if (channelSettings(this.#settings, record.channel) === null || (FOLLOW_UPS.has(record.channel) && !this.#options.followUp)) {
      this.#reportUnconfigured(record);
      return null;
    }
    const dueAt = Math.max(Date.parse(record.nextAttemptAt ?? record.createdAt) || 0, this.#heldUntil.get(record.id) ?? 0);
    if (dueAt > now) return dueAt;
    const lead = await this.#store.leads.get(record.leadId);
    if (!lead) return this.#handleMissingLead(record, now);
    if (lead.spam !== null) {
      await this.#store.outbox.remove(record.id);
      this.#options.log(`Removed the ${CHANNEL_NAMES[record.channel]} notification of ${record.leadId}: the lead is marked as spam, which is never sent.`);
      return null;
    }
    // Held by another server on the same store (or sent meanwhile): looked at again when its hold ends.
    const claimed = await this.#store.outbox.claim(record.id, new Date(now).toISOString(), new Date(now + CLAIM_MS).toISOString());
    if (!claimed) return now + CLAIM_MS;
    return this.#attempt(claimed, lead);
  }

  #reportUnconfigured(record: DeliveryRecord): void {
    if (this.#reportedUnconfigured.has(record.id)) return;
    this.#reportedUnconfigured.add(record.id);
    this.#options.log(
      `The ${CHANNEL_NAMES[record.channel]} notification of ${record.leadId} waits: ${CHANNEL_NAMES[record.channel]} notifications are not configured ` +
        `(${CHANNEL_SETUP[record.channel]} to send it).`,
    );
  }

  /** The lead may still be on its way to disk (notifications are written first); after a minute it is gone. */
  async #handleMissingLead(record: DeliveryRecord, now: number): Promise<number | null> {
    const orphanAt = (Date.parse(record.createdAt) || 0) + ORPHAN_AFTER_MS;
    if (orphanAt > now) return orphanAt;
    await this.#store.outbox.remove(record.id);
    this.#heldUntil.delete(record.id);
    this.#options.log(`Removed the ${CHANNEL_NAMES[record.channel]} notification of ${record.leadId}: the lead no longer exists.`);
    return null;
  }

  async #attempt(record: DeliveryRecord, lead: LeadRecord): Promise<number | null> {
    const attempt = record.attempts + 1;
    const outcome = await this.#send(record, lead);
    const at = this.#now();
    const channel = CHANNEL_NAMES[record.channel];
    if ('skipped' in outcome) {
      await this.#store.outbox.remove(record.id);
      this.#heldUntil.delete(record.id);
      this.#options.log(`Did not send the ${channel} notification of ${record.leadId}: ${outcome.skipped}.`);
      return null;
    }
    if (outcome.ok) {
      await this.#save({ ...record, attempts: attempt, nextAttemptAt: null, lastError: null, sentAt: at.toISOString() }, at);
      this.#options.log(`Sent the ${channel} notification of ${record.leadId} (attempt ${attempt}).`);
      if (record.channel === 'escalation') await this.#options.followUp?.escalated(lead, at);
      return null;
    }
    const reason = redactLead(outcome.reason, lead);
    const nextAt = new Date(at.getTime() + this.#delayAfter(attempt));
    await this.#save({ ...record, attempts: attempt, nextAttemptAt: nextAt.toISOString(), lastError: reason }, at);
    this.#options.log(`Could not send the ${channel} notification of ${record.leadId} (attempt ${attempt}): ${reason}; next attempt at ${nextAt.toISOString()}.`);
    return nextAt.getTime();
  }

  async #send(record: DeliveryRecord, lead: LeadRecord): Promise<AttemptOutcome> {
    if (record.channel === 'webhook') {
      const webhook = this.#settings.webhook;
      return webhook ? postWebhook(webhook, record.id, lead, this.#now()) : { ok: false, reason: 'the webhook is not configured' };
    }
    const email = this.#settings.email;
    if (!email) return { ok: false, reason: 'e-mail is not configured' };
    this.#mailer ??= leadMailer(email, this.#options.config);
    try {
      if (FOLLOW_UPS.has(record.channel)) {
        const plan = this.#options.followUp ? await this.#options.followUp.messageFor(record, lead) : { skip: 'follow-ups are not configured' };
        if ('skip' in plan) return { skipped: plan.skip };
        await this.#mailer.sendMessage(plan.send, record.id, lead.id);
        return { ok: true };
      }
      await this.#mailer.send(lead, record.id);
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: errorReason(error) };
    }
  }

  /** Stores the state after an attempt; when that fails, the attempt is not repeated before its back-off. */
  async #save(record: DeliveryRecord, at: Date): Promise<void> {
    try {
      await this.#store.outbox.save(record);
      this.#heldUntil.delete(record.id);
    } catch (error) {
      if (record.sentAt !== null) {
        // Sent but not recorded: keep it from being sent again in this run of the server.
        this.#heldUntil.set(record.id, Number.POSITIVE_INFINITY);
      } else {
        this.#heldUntil.set(record.id, at.getTime() + this.#delayAfter(record.attempts));
      }
      throw error;
    }
  }

  /** The wait after the `attempt`-th failed attempt (1-based); the last delay repeats forever. */
  #delayAfter(attempt: number): number {
    return this.#delays[Math.min(attempt, this.#delays.length) - 1] ?? this.#delays[this.#delays.length - 1] ?? 60_000;
  }
}

/** The outbox of one server: sends the notifications of `store` through the channels `settings` configures. */
export function leadOutbox(
  store: { leads: LeadRepository; outbox: OutboxRepository },
  settings: LeadDeliverySettings,
  options: LeadOutboxOptions,
): LeadOutbox {
  return new Outbox(store, settings, options);
}
