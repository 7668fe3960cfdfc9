/**
 * Every service of the server, built once from the store, the settings and the clock. The server
 * (api/main.ts), its API and pages (api/app.ts, api/http/app.ts), the staff area, the scheduler, the
 * demo content and the test server (tests/support/server.ts) all take their services from here, so they
 * cannot drift apart: when each built its own, the staff area's post changes skipped COMPLIANCE_MODE and
 * the audit log, and the test server ran without the lead outbox and the retention job.
 *
 * Building starts nothing (the CLI builds services to seed a store); `start()` starts the background
 * work, each piece of which a test may leave out by name, and `stop()` ends it.
 */
import { Analytics, retentionDays } from '../analytics/analytics';
import { type ComplianceMode } from '../../contract/compliance';
import type { QuoteIntake } from '../../contract/leads';
import { DEFAULT_MEDIA_MAX_BYTES } from '../../contract/media';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../contract/site-config';
import type { LeadDeliverySettings } from '../leads/delivery-settings';
import { type LeadOutbox, leadOutbox, newDeliveries } from '../leads/outbox';
import type { Logger } from '../logger';
import { StaffSessions } from '../staff/sessions';
import { StaffService } from '../staff/staff-service';
import type { Store } from '../store/store';
import type { ApprovalSettings } from './approvals';
import { KeyService } from './keys';
import { type LeadFollowUp, leadFollowUp } from './lead-follow-up';
import { leadIntake, type LeadIntakeSettings } from './lead-intake';
import { type LeadRetention, leadRetention } from './lead-retention';
import { MediaService } from './media';
import { PostService } from './post-service';
import { PostCleaner } from './posts';
import { postScheduler, type Scheduler } from './scheduler';
import type { ThrottleSettings } from '../staff/sign-in-throttle';

export interface ServiceSettings {
  /** The site: SITE_URL (an image may be named by this site's absolute URL), the agency's name (the consent text, e-mails). */
  config: SiteConfig;
  /** COMPLIANCE_MODE: warn, review or block (api/services/compliance-gate.ts), for the API and the staff area alike. */
  complianceMode: ComplianceMode;
  /** MEDIA_MAX_BYTES: the largest image upload taken. */
  mediaMaxBytes: number;
  /** Image uploads re-encoded at once and waiting their turn, when a test needs fewer than MEDIA_JOBS and MEDIA_QUEUE_LENGTH. */
  mediaWork?: { jobs: number; queueLength: number };
  /** The quote form's limits; read at every request, so a test may change them while the server runs. */
  leadIntake: Partial<LeadIntakeSettings>;
  /** The quote form's own clock, when a test moves it apart from the server's; the services' clock otherwise. */
  leadIntakeClock?: () => Date;
  /** Where each lead's notifications go (SMTP_URL, LEAD_WEBHOOK_URL...); none configured: stored only. */
  leadDelivery: LeadDeliverySettings;
  /** APPROVAL_VALID_MONTHS and APPROVAL_EXPIRED: approval codes' expiry (approvals.ts, decision 0028); the defaults otherwise. */
  approvals?: ApprovalSettings;
  /** The staff sign-in's throttle (api/staff/sign-in-throttle.ts), when a test needs fewer free attempts than DEFAULT_THROTTLE. */
  signInThrottle?: Partial<ThrottleSettings>;
  logger: Logger;
  /** ANALYTICS_RETENTION_DAYS: raw page views kept this many days, then rolled up into daily counts (decision 0032). */
  analyticsRetentionDays?: number;
}

export const DEFAULT_SERVICE_SETTINGS: ServiceSettings = {
  config: DEFAULT_SITE_CONFIG,
  complianceMode: 'warn',
  mediaMaxBytes: DEFAULT_MEDIA_MAX_BYTES,
  leadIntake: {},
  leadDelivery: { email: null, webhook: null },
  logger: { info: () => undefined, error: () => undefined },
};

/** The work the services do on their own once started. */
export type BackgroundWork =
  /** Scheduled posts published at their time, the trash emptied after its retention. */
  | 'scheduler'
  /** Lead notifications sent, and retried until they are. */
  | 'outbox'
  /** Leads deleted after the privacy policy's keeping time. */
  | 'retention'
  /** Expired staff sessions removed. */
  | 'sessions'
  /** Page views written every few seconds; raw views past their keeping time rolled up hourly. */
  | 'analytics';

export interface Services {
  /** The store the services write to; pages and lists read it directly. */
  store: Store;
  settings: ServiceSettings;
  clock: () => Date;
  /** Every write to a post (api/services/post-service.ts). */
  posts: PostService;
  keys: KeyService;
  media: MediaService;
  staff: StaffService;
  sessions: StaffSessions;
  /** The quote form's intake: checked, rate limited, stored with its notifications queued. */
  quotes: QuoteIntake;
  /** Speed to lead: assignment, contact attempts, opt-outs, escalation's e-mail, time to first contact. */
  followUp: LeadFollowUp;
  outbox: LeadOutbox;
  retention: LeadRetention;
  scheduler: Scheduler;
  /** Cookie-free page views and quote requests' attribution (api/analytics, decision 0032). */
  analytics: Analytics;
  /** Starts the background work (scheduled posts due and notifications left waiting go first), but for what `without` names. */
  start(options?: { without?: readonly BackgroundWork[] }): Promise<void>;
  /** Stops what `start` started and waits for the work under way; the store stays open. */
  stop(): Promise<void>;
}

const HOUR_MS = 60 * 60 * 1000;

export function createServices(store: Store, settings: Partial<ServiceSettings> = {}, clock: () => Date = () => new Date()): Services {
  const resolved: ServiceSettings = { ...DEFAULT_SERVICE_SETTINGS, ...settings };
  const { config, logger } = resolved;
  const cleaner = new PostCleaner(store.posts, { media: store.media, siteUrl: config.siteUrl });
  // The post service tells the scheduler of every change; the scheduler works through the post service.
  const posts: PostService = new PostService(store.posts, {
    cleaner,
    mode: resolved.complianceMode,
    audit: store.audit,
    now: clock,
    onChange: () => scheduler.poke(),
    ...(resolved.approvals ? { approvals: resolved.approvals } : {}),
    nextApprovalNumber: () => store.archive.nextApprovalNumber(),
  });
  const scheduler = postScheduler(posts, store.posts, { now: clock, log: logger.info, onError: (error) => logger.error('Scheduled publishing failed', error) });
  const outbox: LeadOutbox = leadOutbox(store, resolved.leadDelivery, { config, now: clock, log: logger.info, onError: logger.error, followUp: { messageFor: (record, lead) => followUp.messageFor(record, lead), escalated: (lead, at) => followUp.escalated(lead, at) } });
  const sessions = new StaffSessions(store, { now: clock, ...(resolved.signInThrottle ? { throttle: resolved.signInThrottle } : {}) });
  const followUp = leadFollowUp({ store, config, delivery: resolved.leadDelivery, now: clock, onQueued: () => outbox.poke() });
  const analytics = new Analytics({
    store: store.analytics,
    siteHost: new URL(config.siteUrl).host,
    now: clock,
    log: logger.info,
    retentionDays: resolved.analyticsRetentionDays ?? retentionDays(undefined),
  });
  const retention = leadRetention(store.leads, { now: clock, log: logger.info, onError: logger.error });
  const intake = leadIntake({
    leads: store.leads,
    agencyName: config.agencyName,
    settings: resolved.leadIntake,
    assign: (at) => followUp.nextAssignee(at),
    plan: (lead, at) => newDeliveries(lead, resolved.leadDelivery, at, { escalationDueAt: followUp.dueAt(lead.createdAt) }),
    onStored: () => outbox.poke(),
    attribute: (leadId, client) => analytics.attribute(leadId, { ip: client.ip, userAgent: client.userAgent, optedOut: client.globalPrivacyControl }),
    log: logger.info,
    now: resolved.leadIntakeClock ?? clock,
    ...(store.rateLimits ? { sharedLimits: store.rateLimits } : {}),
  });
  const quotes: QuoteIntake = {
    ...intake,
    optOutStatus: (token) => followUp.optOutStatus(token),
    optOut: (token, client) => followUp.optOutByLink(token, client.ip),
  };
  let sessionPurge: NodeJS.Timeout | undefined;
  let stopListening: (() => void) | undefined;
  const purgeSessions = () => void sessions.purgeExpired().catch((error: unknown) => logger.error('Removing expired staff sessions failed', error));

  return {
    store,
    settings: resolved,
    clock,
    posts,
    keys: new KeyService(store.keys, clock),
    media: new MediaService(store, { maxBytes: resolved.mediaMaxBytes, now: clock, ...resolved.mediaWork }),
    staff: new StaffService(store, clock),
    sessions,
    quotes,
    followUp,
    outbox,
    retention,
    scheduler,
    analytics,
    async start({ without = [] } = {}) {
      const runs = (work: BackgroundWork) => !without.includes(work);
      if (runs('scheduler')) {
        // What came due while the server was down is published before the first request is answered.
        await scheduler.start();
        // Several servers on one database: a post another one schedules or changes is looked at here too.
        stopListening = store.onPostsChanged?.(() => scheduler.poke());
      }
      // Notifications left by a crash or a restart go out before the first request.
      if (runs('outbox')) await outbox.start();
      if (runs('retention')) retention.start();
      if (runs('analytics')) analytics.start();
      if (runs('sessions')) {
        // Each expired session is refused anyway; this keeps the table small.
        purgeSessions();
        sessionPurge = setInterval(purgeSessions, HOUR_MS);
        sessionPurge.unref();
      }
    },
    async stop() {
      stopListening?.();
      retention.stop();
      clearInterval(sessionPurge);
      await Promise.all([scheduler.stop(), outbox.stop(), analytics.stop()]);
    },
  };
}
